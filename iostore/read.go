package iostore

import (
	"bytes"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/blake3"
	"github.com/upkg/upkg/internal/sha1"
)

// HashKind names the algorithm of the TOC's chunk hashes. UE 4.25–4.27
// (TOC versions up to PartitionSize) hash chunks with SHA-1 into
// FIoChunkHash; UE5 hashes with BLAKE3 (FIoHash), first truncated into the
// 32-byte FIoChunkHash and, from TOC version 8, stored as a 20-byte FIoHash.
// UE5.0 early access (version PerfectHash) is not known for sure, so both
// are accepted there.
func (f *File) HashKind() string {
	switch {
	case f.Header.Version <= TocPartitionSize:
		return "SHA1"
	case f.Header.Version == TocPerfectHash:
		return "SHA1|IoHash"
	}
	return "IoHash"
}

// HasHash reports whether chunk i has a stored hash (all-zero means none).
func (f *File) HasHash(i int) bool { return f.Hash(i) != [20]byte{} }

// HashChunk computes the hash of data the way the TOC stores it (for TOC
// version PerfectHash, the BLAKE3 form).
func (f *File) HashChunk(data []byte) [20]byte {
	if f.Header.Version <= TocPartitionSize {
		return sha1.Sum(data)
	}
	var out [20]byte
	s := blake3.Sum256(data)
	copy(out[:], s[:20])
	return out
}

// ChunkError reports a failure reading one chunk, naming the chunk (and its
// path when the directory index has one).
type ChunkError struct {
	File  string // the .utoc
	Chunk int
	ID    ChunkID
	Path  string
	Err   error
}

func (e *ChunkError) Error() string {
	s := "iostore: "
	if e.File != "" {
		s += e.File + ": "
	}
	s += fmt.Sprintf("chunk %d (%s", e.Chunk, e.ID)
	if e.Path != "" {
		s += " " + e.Path
	}
	return s + "): " + strings.TrimPrefix(e.Err.Error(), "iostore: ")
}

func (e *ChunkError) Unwrap() error { return e.Err }

// PathOf returns the directory-index path of chunk i, or "".
func (f *File) PathOf(i int) string {
	d := f.DirectoryIndex
	if d == nil {
		return ""
	}
	first := d.firstFiles()
	if i < 0 || i >= len(first) || first[i] < 0 {
		return ""
	}
	return d.File(int(first[i])).Path
}

func (f *File) chunkErr(i int, err error) error {
	return &ChunkError{File: f.Name, Chunk: i, ID: f.ChunkIDs[i], Path: f.PathOf(i), Err: err}
}

// ReadChunk reads, decrypts and decompresses chunk i (a TOC entry index).
func (f *File) ReadChunk(i int) ([]byte, error) { return f.ReadChunkBuf(i, nil) }

// ReadChunkBuf is [File.ReadChunk] that reads into buf's storage when it
// has room for the chunk (the result then shares it), so that a caller
// reading chunk after chunk reuses one buffer.
func (f *File) ReadChunkBuf(i int, buf []byte) ([]byte, error) {
	if i < 0 || i >= len(f.ChunkIDs) {
		return nil, fmt.Errorf("%w: entry %d of %d", ErrNotFound, i, len(f.ChunkIDs))
	}
	ol := f.OffsetLength(i)
	data, err := f.readRange(ol.Offset, ol.Length, buf)
	if err != nil {
		return nil, f.chunkErr(i, err)
	}
	return data, nil
}

// ReadChunkPrefix reads the first n bytes of chunk i (all of it when it
// is shorter): only the compression blocks they lie in are decoded.
func (f *File) ReadChunkPrefix(i int, n uint64) ([]byte, error) {
	if i < 0 || i >= len(f.ChunkIDs) {
		return nil, fmt.Errorf("%w: entry %d of %d", ErrNotFound, i, len(f.ChunkIDs))
	}
	ol := f.OffsetLength(i)
	data, err := f.readRange(ol.Offset, min(n, ol.Length), nil)
	if err != nil {
		return nil, f.chunkErr(i, err)
	}
	return data, nil
}

// ReadChunkVerified reads chunk i and checks it against the stored hash.
func (f *File) ReadChunkVerified(i int) ([]byte, error) { return f.ReadChunkVerifiedBuf(i, nil) }

// ReadChunkVerifiedBuf is [File.ReadChunkVerified] that reads into buf's
// storage when it has room (see [File.ReadChunkBuf]).
func (f *File) ReadChunkVerifiedBuf(i int, buf []byte) ([]byte, error) {
	data, err := f.ReadChunkBuf(i, buf)
	if err != nil {
		return nil, err
	}
	if err := f.checkHash(i, data); err != nil {
		return nil, err
	}
	return data, nil
}

// VerifyChunk reads chunk i and compares its hash with the TOC's. A chunk
// with no stored hash (all zero) passes if it reads. The chunk is hashed
// block by block as it is decoded, never held whole.
func (f *File) VerifyChunk(i int) error {
	if i < 0 || i >= len(f.ChunkIDs) {
		return fmt.Errorf("%w: entry %d of %d", ErrNotFound, i, len(f.ChunkIDs))
	}
	var h chunkHasher
	if f.MetasErr() == nil && f.HasHash(i) {
		h.init(f.Header.Version)
	}
	if ol := f.OffsetLength(i); ol.Length > 0 {
		if err := f.walkRange(ol.Offset, ol.Length, nil, h.write); err != nil {
			h.release()
			return f.chunkErr(i, err)
		}
	}
	return f.checkSums(i, &h)
}

// chunkHasher computes a chunk's hash the way the TOC stores it, and for
// TOC version PerfectHash the SHA-1 as well (either is accepted there).
type chunkHasher struct {
	b3  *blake3.Hasher
	sha hash.Hash
}

func (h *chunkHasher) init(v TocVersion) {
	if v <= TocPartitionSize || v == TocPerfectHash {
		h.sha = sha1.New()
	}
	if v > TocPartitionSize {
		h.b3 = getBlake3()
	}
}

// b3Pool holds BLAKE3 hashers for reuse: one is needed per chunk, and the
// assembly one carries an 8 KiB buffer.
var b3Pool sync.Pool // *blake3.Hasher

func getBlake3() *blake3.Hasher {
	if h, ok := b3Pool.Get().(*blake3.Hasher); ok {
		h.Reset()
		return h
	}
	return blake3.New()
}

func (h *chunkHasher) write(p []byte) {
	if h.sha != nil {
		h.sha.Write(p)
	}
	if h.b3 != nil {
		h.b3.Write(p)
	}
}

// release gives the BLAKE3 hasher back to the pool unsummed (sums does
// after summing); h hashes nothing more.
func (h *chunkHasher) release() {
	if h.b3 != nil {
		b3Pool.Put(h.b3)
		h.b3 = nil
	}
	h.sha = nil
}

// sums returns the TOC-form hash (SHA-1, or BLAKE3 truncated to 20 bytes)
// and the SHA-1 (zero when not computed).
func (h *chunkHasher) sums() (toc, sha [20]byte) {
	if h.sha != nil {
		h.sha.Sum(sha[:0])
	}
	if h.b3 == nil {
		return sha, sha
	}
	s := h.b3.Sum256()
	b3Pool.Put(h.b3)
	h.b3 = nil
	copy(toc[:], s[:20])
	return toc, sha
}

func (f *File) checkHash(i int, data []byte) error {
	var h chunkHasher
	if f.MetasErr() == nil && f.HasHash(i) {
		h.init(f.Header.Version)
		h.write(data)
	}
	return f.checkSums(i, &h)
}

// checkSums compares the hashes of chunk i's data with the TOC's (h was
// fed the data when the TOC has a hash for it).
func (f *File) checkSums(i int, h *chunkHasher) error {
	if err := f.MetasErr(); err != nil {
		return f.chunkErr(i, err)
	}
	if !f.HasHash(i) {
		return nil
	}
	got, sha := h.sums()
	if got != f.Hash(i) && f.Header.Version == TocPerfectHash && sha == f.Hash(i) {
		return nil
	}
	if got != f.Hash(i) {
		hint := ""
		if f.Header.ContainerFlags&FlagEncrypted != 0 {
			hint = " (wrong AES key?)"
		}
		return f.chunkErr(i, fmt.Errorf("%w%s: %s %x, TOC has %x", ErrHash, hint, f.HashKind(), got, f.Hash(i)))
	}
	return nil
}

// maxPrealloc bounds the buffer allocated up front for a chunk; larger
// chunks grow as their blocks are decoded.
const maxPrealloc = 64 << 20

// readRange reads [off, off+n) of the uncompressed address space, into
// buf's storage when it has room.
func (f *File) readRange(off, n uint64, buf []byte) ([]byte, error) {
	if n == 0 {
		return []byte{}, nil
	}
	dst := buf[:0]
	err := f.walkRange(off, n, &dst, nil)
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// walkRange reads [off, off+n) of the uncompressed address space, block
// by block. With dst set, the bytes are written to *dst (its storage is
// reused when it has room; stored blocks are read and compressed blocks
// decompressed straight into it); otherwise each piece is handed to sink in
// order, in scratch buffers that are reused after sink returns, so no
// chunk-sized buffer is allocated.
func (f *File) walkRange(off, n uint64, dst *[]byte, sink func([]byte)) error {
	if err := f.loadBlocks(); err != nil {
		return err
	}
	bs := uint64(f.Header.CompressionBlockSize)
	first, last := off/bs, (off+n-1)/bs
	if last >= uint64(f.NumBlocks()) || off+n < off {
		return &FormatError{Offset: -1, Msg: fmt.Sprintf("range [0x%x, +0x%x) outside the %d compression blocks", off, n, f.NumBlocks())}
	}
	// The blocks' uncompressed sizes must hold the chunk.
	var avail uint64
	for b := first; b <= last; b++ {
		avail += uint64(f.Block(int(b)).UncompressedSize)
	}
	if avail < n-(off-first*bs) && avail < n {
		return &FormatError{Offset: -1, Msg: fmt.Sprintf("chunk of %d bytes but its blocks hold %d", n, avail)}
	}
	// Stored runs go to the sink through a scratch buffer of at most
	// maxPooledBlock bytes (one block more when blocks are bigger).
	runLimit := uint64(math.MaxUint64)
	if dst != nil {
		// Preallocate at most maxPrealloc, and no more than the blocks'
		// stored bytes plausibly hold (preallocFor): a TOC that lies
		// about sizes then costs only the bytes its blocks really
		// decompress to, as the buffer grows.
		if want := min(n, maxPrealloc); uint64(cap(*dst)) < want {
			*dst = make([]byte, 0, min(want, f.preallocFor(int(first), int(last))))
		} else {
			*dst = (*dst)[:0]
		}
	} else {
		runLimit = sinkRunLimit
	}
	bufs := f.getBufs()
	defer f.putBufs(bufs)
	inBlock := off % bs
	// Big ranges are decoded ahead on several goroutines (ahead.go).
	var into []byte
	if dst != nil {
		into = *dst
	}
	ah := f.startAhead(int(first), int(last), inBlock, n, into)
	if ah != nil {
		defer ah.close()
	}
	var done uint64
	for b := first; b <= last; {
		if ah != nil {
			ah.at(int(b))
		}
		if run := f.storedRun(int(b), int(last), inBlock, n-done, runLimit); run.blocks > 0 {
			// Stored blocks that follow each other on disk: one read.
			var err error
			if dst != nil {
				*dst, err = f.readStored(*dst, run)
			} else if m, ok := f.storedInMem(run); ok {
				sink(m)
			} else {
				bufs.raw, err = f.readStored(bufs.raw[:0], run)
				if err == nil {
					sink(bufs.raw)
				}
			}
			if err != nil {
				return err
			}
			done += run.n
			b += uint64(run.blocks)
			inBlock = 0
			continue
		}
		var plain []byte
		var err error
		decoded, inPlace := false, false // by ah
		if ah != nil {
			plain, inPlace, err, decoded = ah.get(int(b))
			if err != nil {
				return err
			}
			if inPlace { // only for a read into memory (dst)
				if d := *dst; cap(d) > len(d) && &d[:len(d)+1][len(d)] == &plain[0] {
					*dst = d[:len(d)+len(plain)] // already in its place
					done += uint64(len(plain))
					b++
					continue
				}
			}
		}
		if !decoded {
			blk := f.Block(int(b))
			// A compressed block whose bytes all belong to the chunk is
			// decompressed straight into the chunk's buffer when it has
			// room (always, unless a lying TOC capped the preallocation).
			out, direct := bufs.plain, false
			if dst != nil && inBlock == 0 && blk.MethodIndex != 0 && uint64(blk.UncompressedSize) <= n-done {
				if d := *dst; cap(d)-len(d) >= int(blk.UncompressedSize) {
					out, direct = d[len(d):len(d)+int(blk.UncompressedSize)], true
				}
			}
			bufs.raw, plain, err = f.readBlock(int(b), blk, bufs.raw, out)
			if err != nil {
				return err
			}
			if direct && len(plain) > 0 && &plain[0] == &out[0] {
				*dst = (*dst)[:len(*dst)+len(plain)]
				done += uint64(len(plain))
				b++
				continue
			}
			if blk.MethodIndex != 0 && !direct {
				bufs.plain = plain // decompressed into (maybe a grown) plain buffer
			}
		}
		if inBlock > uint64(len(plain)) {
			return &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d holds %d bytes, chunk starts at %d in it", b, len(plain), inBlock)}
		}
		take := min(uint64(len(plain))-inBlock, n-done)
		if dst != nil {
			*dst = append(*dst, plain[inBlock:inBlock+take]...)
		} else {
			sink(plain[inBlock : inBlock+take])
		}
		done += take
		inBlock = 0
		b++
	}
	if done != n {
		return &FormatError{Offset: -1, Msg: fmt.Sprintf("chunk blocks gave %d of %d bytes", done, n)}
	}
	return nil
}

// parallelMinShare is the least output a decoding goroutine is given
// (four 64 KiB blocks, 0.3 to 0.6 ms of work against a few microseconds
// to start a goroutine): a range with less than twice that in blocks to
// decode is decoded by walkRange alone, as before. aheadBytes bounds what
// the blocks taken ahead of the one walkRange is at expand to (one block
// is taken whatever its size), so that memory stays bounded by the
// bytes, not by the number of goroutines. Variables for the tests.
var (
	parallelMinShare uint64 = 256 << 10
	aheadBytes       uint64 = 2 << 20
)

// preallocRatio is how many bytes a chunk's buffer is made for per stored
// byte of its compressed blocks before they are decompressed. The corpus's
// blocks expand at most 106 times (92% of them at most 16 times), so its
// chunks are preallocated whole; a chunk whose blocks expand more grows
// its buffer as they decompress. (16 cost BenchmarkExtract/Zlib/Read 31%
// more allocation and about 4% more time.)
const preallocRatio = 128

// preallocFor returns how many bytes blocks first to last can plausibly
// expand to: each counts for its uncompressed size, at most its stored
// size (stored blocks) or preallocRatio times it (compressed ones), and
// only while the blocks lie one after another inside their partitions, as
// the engine writes them (reading a block that lies outside fails, so
// what follows it is never decompressed).
func (f *File) preallocFor(first, last int) uint64 {
	var sum, end uint64
	for b := first; b <= last; b++ {
		blk := f.Block(b)
		p := blk.Offset / f.Header.PartitionSize
		_, psize, err := f.partition(int(p))
		if err != nil || blk.Offset < end || blk.Offset%f.Header.PartitionSize+uint64(blk.CompressedSize) > uint64(psize) {
			break
		}
		end = blk.Offset + uint64(blk.CompressedSize)
		per := uint64(1)
		if blk.MethodIndex != 0 {
			per = preallocRatio
		}
		sum += min(uint64(blk.UncompressedSize), uint64(blk.CompressedSize)*per)
	}
	return sum
}

// blockBufs are the scratch buffers of one block-by-block read: the
// stored bytes and the decompressed bytes of a block.
type blockBufs struct{ raw, plain []byte }

// blockBufPool holds scratch buffers between block-by-block reads, of any
// File: reads of many chunks, and of container after container, then
// allocate them once. Nothing read through them outlives the read.
var blockBufPool sync.Pool // *blockBufs

// getBufs takes scratch buffers from blockBufPool.
func (f *File) getBufs() *blockBufs {
	if b, ok := blockBufPool.Get().(*blockBufs); ok {
		return b
	}
	return &blockBufs{}
}

func (f *File) putBufs(b *blockBufs) {
	// Keep what one block needs; a bigger buffer (a lying TOC) is dropped.
	if cap(b.raw) > maxPooledBlock || cap(b.plain) > maxPooledBlock {
		return
	}
	blockBufPool.Put(b)
}

// maxPooledBlock bounds the scratch buffers kept between reads (blocks are
// 64 KiB in shipped games).
const maxPooledBlock = 1 << 20

// sinkRunLimit bounds a run of stored blocks read at once for a sink (a
// variable so that tests can cut runs short).
var sinkRunLimit uint64 = maxPooledBlock

// storedBlocks is a run of stored (uncompressed, unencrypted, unsigned)
// blocks whose bytes lie one after the other in one partition, so that the
// part of a chunk they hold is one range of the partition.
type storedBlocks struct {
	blocks    int    // number of blocks in the run (0: none)
	first     int    // the first block's index
	partition int    // the partition holding them
	off, n    uint64 // the range in the partition: n bytes at off
}

// storedRun returns the run of stored blocks from block b (not beyond
// last) holding the next bytes of a chunk: need bytes from offset in in
// block b, and no more than limit bytes unless block b alone holds more. A block that is compressed, encrypted or signed ends the run,
// and so does a block whose stored bytes do not follow the previous one's
// or that is not full (the uncompressed address space continues in the
// next block only after a full one).
func (f *File) storedRun(b, last int, in, need, limit uint64) storedBlocks {
	h := &f.Header
	if h.ContainerFlags&FlagEncrypted != 0 || f.Signature != nil {
		return storedBlocks{}
	}
	blk := f.Block(b)
	if blk.MethodIndex != 0 || blk.UncompressedSize > blk.CompressedSize || blk.UncompressedSize > h.CompressionBlockSize || uint64(blk.UncompressedSize) <= in {
		return storedBlocks{}
	}
	run := storedBlocks{blocks: 1, first: b, partition: int(blk.Offset / h.PartitionSize), off: blk.Offset%h.PartitionSize + in}
	run.n = min(uint64(blk.UncompressedSize)-in, need)
	for run.n < need && b < last {
		next := f.Block(b + 1)
		if blk.UncompressedSize != h.CompressionBlockSize || blk.CompressedSize != blk.UncompressedSize ||
			next.MethodIndex != 0 || next.CompressedSize != next.UncompressedSize || next.UncompressedSize > h.CompressionBlockSize ||
			next.Offset != blk.Offset+uint64(blk.CompressedSize) || int(next.Offset/h.PartitionSize) != run.partition ||
			run.n+min(uint64(next.UncompressedSize), need-run.n) > limit {
			break
		}
		run.n += min(uint64(next.UncompressedSize), need-run.n)
		run.blocks++
		b++
		blk = next
	}
	return run
}

// storedInMem returns the bytes of a run of stored blocks in place when
// their partition is a [binread.Mem] holding them.
func (f *File) storedInMem(run storedBlocks) ([]byte, bool) {
	r, psize, err := f.partition(run.partition)
	if err != nil {
		return nil, false
	}
	m, ok := r.(binread.Mem)
	if !ok || int64(len(m)) < psize || run.off+run.n > uint64(psize) || run.off+run.n < run.off {
		return nil, false
	}
	return m[run.off : run.off+run.n], true
}

// readStored appends the bytes of a run of stored blocks to dst.
func (f *File) readStored(dst []byte, run storedBlocks) ([]byte, error) {
	r, psize, err := f.partition(run.partition)
	if err != nil {
		return dst, err
	}
	if run.off+run.n > uint64(psize) || run.off+run.n < run.off {
		return dst, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression blocks %d–%d: [0x%x, +0x%x) outside partition %d of %d bytes", run.first, run.first+run.blocks-1, run.off, run.n, run.partition, psize)}
	}
	start := len(dst)
	if uint64(cap(dst)-start) >= run.n {
		dst = dst[:start+int(run.n)] // overwritten by the read: no need to clear
	} else {
		dst = append(dst, make([]byte, run.n)...)
	}
	if got, err := r.ReadAt(dst[start:], int64(run.off)); uint64(got) != run.n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return dst, fmt.Errorf("iostore: reading compression blocks %d–%d: %w", run.first, run.first+run.blocks-1, err)
	}
	return dst, nil
}

// readBlock reads compression block b, decrypts and decompresses it. raw and
// plain are reused buffers. An uncompressed block's bytes are returned as a
// slice of raw, or of the partition when it is a [binread.Mem]: only a
// compressed block's are ever in plain.
func (f *File) readBlock(b int, blk CompressionBlock, raw, plain []byte) ([]byte, []byte, error) {
	encrypted := f.Header.ContainerFlags&FlagEncrypted != 0
	if encrypted && f.key == nil {
		return raw, plain, ErrNeedKey
	}
	size := uint64(blk.CompressedSize)
	signed := f.Signature != nil && b < len(f.Signature.ChunkBlockSignature)
	if (encrypted && f.Header.EncryptionMethod == EncryptAESECB) || signed {
		// The writer pads every block to the AES block size on disk; the
		// padding is part of what is encrypted and signed.
		size = (size + 15) &^ 15
	}
	p := int(blk.Offset / f.Header.PartitionSize)
	poff := int64(blk.Offset % f.Header.PartitionSize)
	r, psize, err := f.partition(p)
	if err != nil {
		return raw, plain, err
	}
	if signed && !encrypted && poff >= 0 && uint64(poff)+size > uint64(psize) {
		size = uint64(blk.CompressedSize) // an unpadded last block
	}
	if poff < 0 || uint64(poff)+size > uint64(psize) {
		return raw, plain, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d: [0x%x, +0x%x) outside partition %d of %d bytes", b, poff, size, p, psize)}
	}
	// stored is the block as stored: in place when the partition is in
	// memory and the block needs no decryption (which works in place),
	// else read into raw.
	var stored []byte
	if m, ok := r.(binread.Mem); ok && !encrypted && int64(len(m)) >= psize {
		stored = m[poff : uint64(poff)+size]
	} else {
		if uint64(cap(raw)) < size {
			raw = make([]byte, size)
		}
		raw = raw[:size]
		if n, err := r.ReadAt(raw, poff); n != len(raw) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return raw, plain, fmt.Errorf("iostore: reading compression block %d: %w", b, err)
		}
		stored = raw
	}
	if signed {
		// FIoStoreWriter signs the block as stored: SHA-1 of the padded,
		// encrypted bytes.
		want := f.Signature.ChunkBlockSignature[b]
		if sha1.Sum(stored) != want && sha1.Sum(stored[:blk.CompressedSize]) != want {
			return raw, plain, fmt.Errorf("%w: compression block %d", ErrSignature, b)
		}
	}
	if encrypted {
		switch f.Header.EncryptionMethod {
		case EncryptAESECB:
			if err := f.ecb.DecryptECB(raw); err != nil {
				return raw, plain, err
			}
		case EncryptAESCTR:
			if b >= len(f.EncryptionIVs) {
				return raw, plain, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d has no AES-CTR IV", b)}
			}
			f.ctr(f.EncryptionIVs[b], raw)
		default:
			return raw, plain, &UnsupportedError{What: fmt.Sprintf("encryption method %s", f.Header.EncryptionMethod)}
		}
	}
	if int(blk.MethodIndex) >= len(f.CompressionMethods) {
		return raw, plain, &FormatError{Offset: int64(f.blockOffset(b) + 11), Msg: fmt.Sprintf("compression block %d: method index %d, only %d methods", b, blk.MethodIndex, len(f.CompressionMethods)-1)}
	}
	if blk.UncompressedSize > f.Header.CompressionBlockSize {
		return raw, plain, &FormatError{Offset: int64(f.blockOffset(b) + 8), Msg: fmt.Sprintf("compression block %d: uncompressed size %d exceeds the block size %d", b, blk.UncompressedSize, f.Header.CompressionBlockSize)}
	}
	src := stored[:blk.CompressedSize]
	if blk.MethodIndex == 0 {
		// Uncompressed blocks store exactly their bytes (plus AES padding).
		if blk.UncompressedSize > blk.CompressedSize {
			return raw, plain, &FormatError{Offset: -1, Msg: fmt.Sprintf("uncompressed block %d: %d bytes stored, %d expected", b, blk.CompressedSize, blk.UncompressedSize)}
		}
		return raw, src[:blk.UncompressedSize], nil
	}
	if uint64(blk.UncompressedSize) > uint64(blk.CompressedSize)*maxBlockRatio {
		// Checked before the block's buffer is made: a few stored bytes
		// claiming megabytes allocate nothing.
		return raw, plain, &FormatError{Offset: int64(f.blockOffset(b) + 5), Msg: fmt.Sprintf("compression block %d: %d stored bytes cannot expand to %d", b, blk.CompressedSize, blk.UncompressedSize)}
	}
	if cap(plain) < int(blk.UncompressedSize) {
		plain = make([]byte, blk.UncompressedSize)
	}
	plain = plain[:blk.UncompressedSize]
	method := f.CompressionMethods[blk.MethodIndex]
	if err := compression.Decompress(method, plain, src); err != nil {
		var ue *compression.UnsupportedError
		if errors.As(err, &ue) {
			return raw, plain, &UnsupportedError{What: fmt.Sprintf("compression block %d", b), Err: err}
		}
		if encrypted {
			return raw, plain, fmt.Errorf("%w (decompressing block %d after decryption: %v)", ErrWrongKey, b, err)
		}
		return raw, plain, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d (%s)", b, method), Err: err}
	}
	return raw, plain, nil
}

// Open returns a reader over chunk i's data (read and decompressed whole on
// first use).
func (f *File) OpenChunk(i int) (io.ReadSeeker, error) {
	data, err := f.ReadChunk(i)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(data), nil
}
