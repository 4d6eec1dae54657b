package pak

import (
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/ahead"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/sha1"
	"github.com/upkg/upkg/ue"
)

// chunkSize is how much stored data is read at once for entries without
// compression blocks (a multiple of the AES block size).
const chunkSize = 256 << 10

// hashBufs holds the chunkSize buffers [Entry.Verify] reads stored data
// through (verifying a pak hashes every entry).
var hashBufs = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// Open returns a reader of the entry's uncompressed, decrypted bytes. The
// stored bytes are hashed as they are read, and the final Read returns an
// error wrapping [ErrChecksum] instead of io.EOF when the SHA-1 differs from
// the entry's hash.
func (e *Entry) Open() (io.ReadCloser, error) {
	if err := e.readable(); err != nil {
		return nil, err
	}
	er := &entryReader{e: e, remain: e.UncompressedSize}
	// An entry Verify found intact is not checked nor hashed again:
	// reading it hashes the same stored bytes (the index checks make its
	// compression blocks exactly hold UncompressedSize bytes, and stored
	// data without them CompressedSize == UncompressedSize bytes), which
	// gave the same sum.
	if e.hashVerified() {
		return er, nil
	}
	// The checks Verify makes before hashing, as BlockReader has them
	// made (a data header that differs from the index read through Open,
	// and failed through a BlockReader).
	if err := e.checkIndex(); err != nil {
		return nil, err
	}
	want, ok, err := e.storedHash()
	if err != nil {
		return nil, err
	}
	if ok && !want.IsZero() {
		er.h, er.want = sha1.New(), want
	}
	return er, nil
}

// Data reads the whole entry (uncompressed, decrypted, hash-checked).
// Compression blocks are decompressed straight into the result.
func (e *Entry) Data() ([]byte, error) { return e.DataInto(nil) }

// DataInto is [Entry.Data] into buf's memory when it has room (the result
// then shares it; buf's contents are overwritten), for a caller reading
// many entries in turn that keeps none of them.
func (e *Entry) DataInto(buf []byte) ([]byte, error) {
	rc, err := e.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := rc.(*entryReader)
	// Preallocate only what the stored bytes can plausibly produce; a lying
	// size then costs only the bytes really decoded.
	if want := min(e.UncompressedSize, max(e.StoredSize(), 1<<20)); int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	} else {
		buf = buf[:0]
	}
	// A big entry's blocks are decoded ahead, into their places in buf
	// when it holds the whole entry (ahead.go; not when the preallocation
	// was capped, where buf grows as blocks are decoded).
	var ah *entryAhead
	if e.Compressed() && int64(cap(buf)) >= e.UncompressedSize {
		if ah = e.startAhead(buf, r.h != nil, 0); ah != nil {
			defer ah.close()
		}
	}
	for r.remain > 0 || len(r.buf) > 0 {
		if ah != nil && len(r.buf) == 0 {
			s, err := r.ahead(ah)
			if err != nil {
				return nil, err
			}
			if !s.inPlace {
				return nil, fmt.Errorf("pak: %s: block %d not decoded into place", e.displayName(), r.next-1) // cannot happen: buf holds the entry
			}
			buf = buf[:len(buf)+len(s.plain)]
			continue
		}
		if e.Compressed() && len(r.buf) == 0 {
			src, out, err := r.readBlock()
			if err != nil {
				return nil, err
			}
			buf = slices.Grow(buf, int(out))
			if err := r.decompress(buf[len(buf):len(buf)+int(out)], src); err != nil {
				return nil, err
			}
			buf = buf[:len(buf)+int(out)]
			continue
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(r.remain+int64(len(r.buf)), chunkSize)))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		if err != nil {
			return nil, err
		}
		buf = buf[:len(buf)+n]
	}
	if err := r.finish(); err != io.EOF {
		return nil, err
	}
	return buf, nil
}

// Verify checks the entry's stored bytes against its SHA-1 hash without
// decompressing them (nothing to check for an entry whose hash is all
// zero), and from version 11 its path against the path hash index. Once
// it succeeds, [Entry.Open] and [Entry.Data] do not hash the entry again.
func (e *Entry) Verify() error {
	if e.Deleted() {
		return nil
	}
	if err := e.checkIndex(); err != nil {
		return err
	}
	want, ok, err := e.storedHash()
	if err != nil {
		return err
	}
	if !ok || want.IsZero() {
		return nil
	}
	h := sha1.New()
	ranges := e.storedRanges()
	longest := int64(0)
	for _, r := range ranges {
		longest = max(longest, r.End-r.Start)
	}
	bp := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(bp)
	buf := (*bp)[:min(chunkSize, longest)]
	for _, r := range ranges {
		for off := r.Start; off < r.End; {
			n := min(int64(len(buf)), r.End-off)
			if err := readAtFull(e.p.r, buf[:n], off); err != nil {
				return e.errorf(off, err)
			}
			h.Write(buf[:n])
			off += n
		}
	}
	if got := ue.SHAHash(h.Sum(nil)); got != want {
		return e.errorf(e.DataOffset(), fmt.Errorf("%w: stored %s, computed %s", ErrChecksum, want, got))
	}
	e.setVerified()
	return nil
}

// checkIndex makes Verify's checks of the entry's index record: its path
// against the path hash index (from version 11), and the data header.
func (e *Entry) checkIndex() error {
	if e.pathHashChecked() {
		if h := PathHash(e.Path, e.p.PathHashSeed); h != e.PathHash {
			return e.errorf(e.Offset, fmt.Errorf("path hash index has %016x for this path, which hashes to %016x", e.PathHash, h))
		}
	}
	return e.checkDataHeader()
}

// VerifyData is [Entry.Verify] that also decompresses the entry, reading
// its stored bytes once for both: buf (when not nil) serves as the copy
// buffer. An entry whose blocks do not expand to its recorded size, or
// whose hash is all zero and whose compressed data is damaged, fails,
// where Verify passes it (the SHA-1 covers the stored bytes only). An
// entry that cannot be read for want of a key or a decompressor returns
// that error, as [Entry.Open] does.
func (e *Entry) VerifyData(buf []byte) error {
	if e.Deleted() {
		return nil
	}
	rc, err := e.Open() // makes checkIndex's checks too
	if err != nil {
		return err
	}
	defer rc.Close()
	if len(buf) == 0 {
		buf = make([]byte, 32<<10)
	}
	// io.Discard as a plain Writer: its ReadFrom would use its own 8 KiB
	// buffer, not buf.
	if _, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, rc, buf); err != nil {
		return err
	}
	if _, ok, _ := e.storedHash(); ok {
		e.setVerified() // the reader checked it (or there is none)
	}
	return nil
}

// hashVerified reports whether [Entry.Verify] found the stored bytes
// matching the entry's hash.
func (e *Entry) hashVerified() bool {
	if e.idx == 0 {
		return false
	}
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	i := e.idx - 1
	return int(i/64) < len(p.verified) && p.verified[i/64]&(1<<(i%64)) != 0
}

// setVerified records that the entry's stored bytes match its hash, for
// each Entry the Reader gives of it (see Reader.Entry).
func (e *Entry) setVerified() {
	if e.idx == 0 {
		return
	}
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.verified == nil {
		p.verified = make([]uint64, (p.Len()+63)/64)
	}
	i := e.idx - 1
	p.verified[i/64] |= 1 << (i % 64)
}

// storedRanges are the byte ranges the entry's hash covers (UnrealPak
// hashes what it writes, after encryption): every compression block as
// stored, AES padding included, or the uncompressed data as stored up to
// its size (AES padding excluded).
func (e *Entry) storedRanges() []Block {
	if len(e.Blocks) > 0 {
		out := make([]Block, len(e.Blocks))
		for i, b := range e.Blocks {
			out[i] = b
			if e.Encrypted() {
				out[i].End = b.Start + align(b.End-b.Start)
			}
		}
		return out
	}
	// Uncompressed data is hashed as stored but without its AES padding.
	return []Block{{Start: e.DataOffset(), End: e.DataOffset() + e.CompressedSize}}
}

// StoredHash returns the entry's SHA-1 hash as stored. For a v10+ encoded
// entry it reads the FPakEntry header stored before the data, which has the
// hash the index leaves out.
func (e *Entry) StoredHash() (ue.SHAHash, error) {
	h, _, err := e.storedHash()
	return h, err
}

func (e *Entry) storedHash() (ue.SHAHash, bool, error) {
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.hasHash {
		return e.Hash, true, nil
	}
	var r binread.Reader
	p.headerReader(&r, e.Offset, int64(e.headerSize))
	h := p.readEntry(&r)
	if err := r.Err(); err != nil {
		return ue.SHAHash{}, false, e.errorf(e.Offset, err)
	}
	if h.UncompressedSize != e.UncompressedSize || h.CompressedSize != e.CompressedSize {
		return ue.SHAHash{}, false, e.errorf(e.Offset, fmt.Errorf("data header sizes (%d/%d) differ from the index (%d/%d)",
			h.CompressedSize, h.UncompressedSize, e.CompressedSize, e.UncompressedSize))
	}
	e.Hash, e.hasHash = h.Hash, true
	return e.Hash, true, nil
}

// checkDataHeader compares the FPakEntry stored before the data with the
// index's entry, as UnrealPak -Test does ("index and header mismatch"):
// sizes, compression method, flags and the compression blocks' lengths
// (their offsets are relative in one and absolute in the other), and the
// hash when both have one. An index edited or damaged without the data
// (say a size that leaves the file) fails here, where reading the entry
// through its blocks might not notice.
func (e *Entry) checkDataHeader() error {
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	var r binread.Reader
	p.headerReader(&r, e.Offset, int64(e.headerSize))
	h := p.readEntry(&r)
	if err := r.Err(); err != nil {
		return e.errorf(e.Offset, fmt.Errorf("reading the entry header before the data: %w", err))
	}
	var diff []string
	field := func(name string, header, index any) {
		diff = append(diff, fmt.Sprintf("%s %v in the header, %v in the index", name, header, index))
	}
	if h.CompressedSize != e.CompressedSize {
		field("Size", h.CompressedSize, e.CompressedSize)
	}
	if h.UncompressedSize != e.UncompressedSize {
		field("UncompressedSize", h.UncompressedSize, e.UncompressedSize)
	}
	if h.CompressionMethod != e.CompressionMethod {
		field("compression", orNone(h.CompressionMethod), orNone(e.CompressionMethod))
	}
	if h.Flags != e.Flags {
		field("Flags", h.Flags, e.Flags)
	}
	if len(h.Blocks) != len(e.Blocks) {
		field("compression blocks", len(h.Blocks), len(e.Blocks))
	} else {
		for i, b := range h.Blocks {
			if b.End-b.Start != e.Blocks[i].End-e.Blocks[i].Start {
				field(fmt.Sprintf("compression block %d size", i), b.End-b.Start, e.Blocks[i].End-e.Blocks[i].Start)
				break
			}
		}
	}
	if e.hasHash && !e.Hash.IsZero() && !h.Hash.IsZero() && h.Hash != e.Hash {
		field("Hash", h.Hash, e.Hash)
	}
	if len(diff) > 0 {
		return e.errorf(e.Offset, fmt.Errorf("the entry header before the data differs from the index: %s", strings.Join(diff, "; ")))
	}
	if !e.hasHash {
		e.Hash, e.hasHash = h.Hash, true // an encoded entry's: see storedHash
	}
	return nil
}

// orNone names stored data's compression method.
func orNone(method string) string {
	if method == "" {
		return "none"
	}
	return method
}

func (e *Entry) errorf(off int64, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	return &FormatError{Offset: off, What: fmt.Sprintf("entry %q", e.displayName()), Err: err}
}

func (e *Entry) displayName() string {
	if e.Name != "" {
		return e.Name
	}
	return fmt.Sprintf("pathhash:%016x", e.PathHash)
}

// Readable reports why the entry's data cannot be read (a delete record,
// no key for an encrypted entry, a compression method without a decoder),
// or nil, without reading the data.
func (e *Entry) Readable() error { return e.readable() }

// readable reports why the entry's data cannot be read, if it cannot.
func (e *Entry) readable() error {
	if e.Deleted() {
		return fmt.Errorf("pak: %s: is a delete record (no data)", e.displayName())
	}
	if e.Encrypted() && e.p.block == nil {
		return &KeyError{KeyGuid: e.p.Footer.EncryptionKeyGuid, What: fmt.Sprintf("entry %q", e.displayName()), Err: ErrKeyNeeded}
	}
	if e.Compressed() && !compression.Supported(e.CompressionMethod) {
		return fmt.Errorf("pak: %s: %w", e.displayName(), &compression.UnsupportedError{Method: e.CompressionMethod})
	}
	if e.Encrypted() {
		return e.p.checkKey()
	}
	return nil
}

// entryReader streams an entry block by block.
type entryReader struct {
	e      *Entry
	next   int   // next compression block
	pos    int64 // next stored byte for entries without blocks (relative to DataOffset)
	remain int64 // uncompressed bytes not yet produced
	buf    []byte
	raw    []byte
	dst    []byte
	h      hash.Hash
	want   ue.SHAHash
	err    error
	// ah decodes a big entry's blocks ahead (nil: Read decodes them);
	// aheadTried: whether to was decided.
	ah         *ahead.Stop[*entryAhead]
	aheadTried bool
}

func (r *entryReader) Read(b []byte) (int, error) {
	if e := r.e; len(r.buf) == 0 && r.err == nil && r.remain > 0 && !e.Compressed() && !e.Encrypted() && len(b) > 0 {
		// Plain stored data goes straight into the caller's buffer.
		n := min(int64(len(b)), r.remain)
		if err := readAtFull(e.p.r, b[:n], e.DataOffset()+r.pos); err != nil {
			r.err = e.errorf(e.DataOffset()+r.pos, err)
			return 0, r.err
		}
		if r.h != nil {
			r.h.Write(b[:n])
		}
		r.pos += n
		r.remain -= n
		return int(n), nil
	}
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.remain == 0 {
			if r.ah != nil {
				r.ah.Stop()
			}
			r.err = r.finish()
			return 0, r.err
		}
		if err := r.fill(); err != nil {
			r.err = err
			return 0, err
		}
	}
	n := copy(b, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Close stops the decoding ahead of a reader not read to its end; reads
// after it fail.
func (r *entryReader) Close() error {
	if r.ah != nil {
		r.ah.Stop()
	}
	if r.err == nil {
		r.err = fs.ErrClosed
	}
	r.buf = nil // may be a block's buffer the decoder reuses
	return nil
}

// finish checks the hash once all data was produced.
func (r *entryReader) finish() error {
	if r.h == nil {
		return io.EOF
	}
	if got := ue.SHAHash(r.h.Sum(nil)); got != r.want {
		return r.e.errorf(r.e.DataOffset(), fmt.Errorf("%w: stored %s, computed %s", ErrChecksum, r.want, got))
	}
	return io.EOF
}

func (r *entryReader) fill() error {
	e := r.e
	p := e.p
	if !e.Compressed() {
		stored := e.StoredSize()
		n := min(int64(chunkSize), stored-r.pos)
		if n <= 0 {
			return e.errorf(e.DataOffset()+r.pos, io.ErrUnexpectedEOF)
		}
		r.raw = grow(r.raw, n)
		if err := readAtFull(p.r, r.raw, e.DataOffset()+r.pos); err != nil {
			return e.errorf(e.DataOffset()+r.pos, err)
		}
		if r.h != nil {
			r.h.Write(r.raw[:min(n, e.CompressedSize-r.pos)])
		}
		if e.Encrypted() {
			if err := p.decrypt(r.raw, e.IV(), r.pos); err != nil {
				return e.errorf(e.DataOffset()+r.pos, err)
			}
		}
		out := r.raw[:min(n, r.remain)]
		r.pos += n
		r.remain -= int64(len(out))
		r.buf = out
		return nil
	}
	if r.ah == nil && !r.aheadTried {
		// A big entry's next blocks are decoded ahead as this one is read
		// (ahead.go).
		r.aheadTried = true
		if a := e.startAhead(nil, r.h != nil, 0); a != nil {
			r.ah = ahead.NewStop(r, a, (*entryAhead).close)
		}
	}
	if r.ah != nil {
		s, err := r.ahead(r.ah.A)
		if err != nil {
			r.ah.Stop()
			return err
		}
		r.buf = s.plain
		return nil
	}
	src, out, err := r.readBlock()
	if err != nil {
		return err
	}
	// The previous block was fully consumed, so its buffer can be reused.
	r.dst = grow(r.dst, out)
	if err := r.decompress(r.dst, src); err != nil {
		return err
	}
	r.buf = r.dst
	return nil
}

// ahead takes block r.next from a, hashing it as stored when r hashes the
// entry, and moves on to the next block, as readBlock and decompress do; a
// panic decoding the block stops a before it goes on up.
func (r *entryReader) ahead(a *entryAhead) (s *entrySlot, err error) {
	e := r.e
	if r.next >= len(e.Blocks) {
		return nil, e.errorf(e.DataOffset(), fmt.Errorf("%d bytes left after the last of %d compression blocks", r.remain, len(e.Blocks)))
	}
	defer func() {
		if p := recover(); p != nil {
			if r.ah != nil {
				r.ah.Stop()
				r.err = fmt.Errorf("pak: %s: the read stopped on a panic decoding block %d: %v", e.displayName(), r.next, p)
			}
			panic(p)
		}
	}()
	s = a.block(r.next)
	if r.h != nil && s.stored != nil {
		r.h.Write(s.stored)
	}
	if s.err != nil {
		return nil, s.err
	}
	r.next++
	r.remain -= int64(len(s.plain))
	return s, nil
}

// readBlock reads compression block r.next, hashes and decrypts it, and
// returns its compressed bytes (in r.raw) and the number of bytes it
// decompresses to.
func (r *entryReader) readBlock() (src []byte, out int64, err error) {
	e := r.e
	if r.next >= len(e.Blocks) {
		return nil, 0, e.errorf(e.DataOffset(), fmt.Errorf("%d bytes left after the last of %d compression blocks", r.remain, len(e.Blocks)))
	}
	raw, src, err := e.readStoredBlock(r.next, r.raw, r.h)
	r.raw = raw
	if err != nil {
		return nil, 0, err
	}
	bs := int64(e.CompressionBlockSize)
	if len(e.Blocks) == 1 || bs == 0 {
		bs = e.UncompressedSize
	}
	return src, min(bs, r.remain), nil
}

// readStoredBlock reads compression block i as stored into raw's memory
// (grown as needed), feeds it to h when not nil (the entry hash covers
// the blocks as stored) and decrypts it; it returns raw and the block's
// compressed bytes.
func (e *Entry) readStoredBlock(i int, raw []byte, h io.Writer) ([]byte, []byte, error) {
	p := e.p
	b := e.Blocks[i]
	size := b.End - b.Start
	stored := size
	if e.Encrypted() {
		stored = align(size)
	}
	raw = grow(raw, stored)
	if err := readAtFull(p.r, raw, b.Start); err != nil {
		return raw, nil, e.errorf(b.Start, err)
	}
	if h != nil {
		h.Write(raw)
	}
	if e.Encrypted() {
		if err := p.decrypt(raw, e.IV(), b.Start-e.Blocks[0].Start); err != nil {
			return raw, nil, e.errorf(b.Start, err)
		}
	}
	return raw, raw[:size], nil
}

// decompress decompresses block r.next (src, from readBlock) into dst,
// which has the length readBlock returned, and moves on to the next block.
func (r *entryReader) decompress(dst, src []byte) error {
	e := r.e
	if err := compression.Decompress(e.CompressionMethod, dst, src); err != nil {
		return e.errorf(e.Blocks[r.next].Start, fmt.Errorf("block %d of %d (%s): %w", r.next, len(e.Blocks), e.CompressionMethod, err))
	}
	r.next++
	r.remain -= int64(len(dst))
	return nil
}

func grow(b []byte, n int64) []byte {
	if int64(cap(b)) < n {
		return make([]byte, n)
	}
	return b[:n]
}
