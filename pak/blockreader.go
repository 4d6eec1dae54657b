package pak

import (
	"fmt"
	"io"
	"sync"

	"github.com/upkg/upkg/compression"
)

// BlockReader reads an entry's uncompressed, decrypted bytes at any
// offset, decompressing and decrypting only the compression blocks a read
// reaches and keeping the last two: reading an entry too big to hold (a
// cooked map's .uexp can be hundreds of MB) then costs two blocks of
// memory, not the entry's size. Stored data without compression blocks is
// read as it is (plain) or in units of 256 KiB (encrypted).
//
// The entry's SHA-1 covers all of its stored bytes, so it is checked once,
// when the BlockReader is made (streaming, unless [Entry.Verify] already
// did), not on each read. A BlockReader is safe for concurrent use.
type BlockReader struct {
	e    *Entry
	size int64 // UncompressedSize
	// unit is the number of uncompressed bytes in each block (the last
	// one may hold fewer); 0 for plain stored data, read without blocks.
	unit int64

	mu     sync.Mutex
	recent [2]cachedBlock // the blocks read last, most recent first
	raw    []byte         // stored bytes of the block being read
}

// cachedBlock is one decoded block: block k's bytes, or nothing when buf
// is nil.
type cachedBlock struct {
	k   int64
	buf []byte
}

// BlockReader returns a [BlockReader] of the entry after checking its
// hash: an error when its data cannot be read (a delete record, a missing
// key, an unsupported compression method) or fails the check.
func (e *Entry) BlockReader() (*BlockReader, error) {
	if err := e.readable(); err != nil {
		return nil, err
	}
	if !e.hashVerified() {
		if err := e.Verify(); err != nil {
			return nil, err
		}
	}
	r := &BlockReader{e: e, size: e.UncompressedSize}
	switch {
	case e.Compressed():
		// The index checks made the blocks exactly hold
		// UncompressedSize bytes, each at most the reader's block limit.
		r.unit = int64(e.CompressionBlockSize)
		if len(e.Blocks) == 1 || r.unit == 0 {
			r.unit = e.UncompressedSize
		}
	case e.Encrypted():
		r.unit = chunkSize // a multiple of the AES block
	}
	return r, nil
}

// Size is the number of bytes the entry holds.
func (r *BlockReader) Size() int64 { return r.size }

// ReadAt reads len(b) bytes from offset off of the entry's data. Like any
// io.ReaderAt it returns io.EOF when fewer bytes remain.
func (r *BlockReader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("pak: %s: read at negative offset %d", r.e.displayName(), off)
	}
	if off >= r.size {
		if len(b) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	want := len(b)
	if int64(want) > r.size-off {
		b = b[:r.size-off]
	}
	e := r.e
	if r.unit == 0 {
		if err := readAtFull(e.p.r, b, e.DataOffset()+off); err != nil {
			return 0, e.errorf(e.DataOffset()+off, err)
		}
	} else {
		r.mu.Lock()
		for n := 0; n < len(b); {
			k := (off + int64(n)) / r.unit
			blk, err := r.block(k)
			if err != nil {
				r.mu.Unlock()
				return n, err
			}
			n += copy(b[n:], blk[off+int64(n)-k*r.unit:])
		}
		r.mu.Unlock()
	}
	if len(b) < want {
		return len(b), io.EOF
	}
	return len(b), nil
}

// block returns block k's bytes, decoding it unless it is one of the two
// read last. The caller holds r.mu; the result is valid until it unlocks.
func (r *BlockReader) block(k int64) ([]byte, error) {
	if c := r.recent[0]; c.buf != nil && c.k == k {
		return c.buf, nil
	}
	if c := r.recent[1]; c.buf != nil && c.k == k {
		r.recent[0], r.recent[1] = c, r.recent[0]
		return c.buf, nil
	}
	out := min(r.unit, r.size-k*r.unit)
	// The older block's memory takes the new one.
	buf := r.recent[1].buf
	r.recent[1] = cachedBlock{}
	buf = grow(buf, out)
	if err := r.decode(k, buf); err != nil {
		return nil, err
	}
	r.recent[0], r.recent[1] = cachedBlock{k: k, buf: buf}, r.recent[0]
	return buf, nil
}

// decode reads block k's stored bytes, decrypts them and decompresses them
// into dst (the block's length).
func (r *BlockReader) decode(k int64, dst []byte) error {
	e := r.e
	p := e.p
	if !e.Compressed() {
		// Encrypted stored data: unit k is the stored bytes from k*unit,
		// AES padding included.
		pos := k * r.unit
		n := min(r.unit, e.StoredSize()-pos)
		if n < int64(len(dst)) {
			return e.errorf(e.DataOffset()+pos, io.ErrUnexpectedEOF)
		}
		buf := dst
		if n > int64(len(dst)) {
			// The last unit: its AES padding is decrypted too.
			r.raw = grow(r.raw, n)
			buf = r.raw
		}
		if err := readAtFull(p.r, buf, e.DataOffset()+pos); err != nil {
			return e.errorf(e.DataOffset()+pos, err)
		}
		if err := p.decrypt(buf, e.IV, pos); err != nil {
			return e.errorf(e.DataOffset()+pos, err)
		}
		copy(dst, buf)
		return nil
	}
	if k >= int64(len(e.Blocks)) {
		return e.errorf(e.DataOffset(), fmt.Errorf("no compression block %d (the entry has %d)", k, len(e.Blocks)))
	}
	b := e.Blocks[k]
	size := b.End - b.Start
	stored := size
	if e.Encrypted() {
		stored = align(size)
	}
	r.raw = grow(r.raw, stored)
	if err := readAtFull(p.r, r.raw, b.Start); err != nil {
		return e.errorf(b.Start, err)
	}
	if e.Encrypted() {
		if err := p.decrypt(r.raw, e.IV, b.Start-e.Blocks[0].Start); err != nil {
			return e.errorf(b.Start, err)
		}
	}
	if err := compression.Decompress(e.CompressionMethod, dst, r.raw[:size]); err != nil {
		return e.errorf(b.Start, fmt.Errorf("block %d of %d (%s): %w", k, len(e.Blocks), e.CompressionMethod, err))
	}
	return nil
}
