package pak

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync/atomic"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/blockcache"
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
//
// Reads going through a compressed entry in order (a parser taking one
// export after another) have the blocks after the one they read decoded
// ahead on the idle processors (ahead.go), with the same bytes and
// errors, for 2 MiB of blocks ahead (and their stored bytes) more memory.
// Close stops it for a reader left part way (one dropped unclosed is
// stopped when collected).
type BlockReader struct {
	e *Entry
	// unit is the number of uncompressed bytes in each block (the last
	// one may hold fewer); 0 for plain stored data, read without blocks.
	unit   int64
	blocks blockcache.Reader
	raw    []byte // stored bytes of the block being read
	closed atomic.Bool
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
	r := &BlockReader{e: e}
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
	r.blocks = blockcache.Reader{
		Size:   e.UncompressedSize,
		Locate: func(pos int64) (int64, int64) { return pos / r.unit, pos % r.unit },
		Decode: r.decode,
	}
	if e.Compressed() {
		r.blocks.Ahead = func(from int64) blockcache.Sequence {
			if a := e.startAhead(nil, false, int(from)); a != nil {
				return blockSequence{a}
			}
			return nil
		}
	}
	return r, nil
}

// Close stops the decoding ahead, if any, and waits for it. Reads after
// Close fail. It returns nil.
func (r *BlockReader) Close() error {
	r.closed.Store(true)
	return r.blocks.Close()
}

// Size is the number of bytes the entry holds.
func (r *BlockReader) Size() int64 { return r.blocks.Size }

// ReadAt reads len(b) bytes from offset off of the entry's data. Like any
// io.ReaderAt it returns io.EOF when fewer bytes remain.
func (r *BlockReader) ReadAt(b []byte, off int64) (int, error) {
	e := r.e
	if r.closed.Load() {
		return 0, fs.ErrClosed
	}
	if r.unit == 0 && off >= 0 {
		// Plain stored data: read as it is.
		n := int(max(0, min(int64(len(b)), r.Size()-off)))
		if n > 0 {
			if err := readAtFull(e.p.r, b[:n], e.DataOffset()+off); err != nil {
				return 0, e.errorf(e.DataOffset()+off, err)
			}
		}
		if n < len(b) {
			return n, io.EOF
		}
		return n, nil
	}
	n, err := r.blocks.ReadAt(b, off)
	if err != nil && err != io.EOF {
		var fe *FormatError
		if !errors.As(err, &fe) {
			err = e.errorf(e.DataOffset(), err)
		}
	}
	return n, err
}

// decode reads block k's stored bytes, decrypts them and decompresses them
// into buf's memory.
func (r *BlockReader) decode(k int64, buf []byte) ([]byte, error) {
	e := r.e
	p := e.p
	dst := grow(buf, min(r.unit, r.Size()-k*r.unit))
	if !e.Compressed() {
		// Encrypted stored data: unit k is the stored bytes from k*unit,
		// AES padding included.
		pos := k * r.unit
		n := min(r.unit, e.StoredSize()-pos)
		if n < int64(len(dst)) {
			return nil, e.errorf(e.DataOffset()+pos, io.ErrUnexpectedEOF)
		}
		src := dst
		if n > int64(len(dst)) {
			// The last unit: its AES padding is decrypted too.
			r.raw = grow(r.raw, n)
			src = r.raw
		}
		if err := readAtFull(p.r, src, e.DataOffset()+pos); err != nil {
			return nil, e.errorf(e.DataOffset()+pos, err)
		}
		if err := p.decrypt(src, e.IV(), pos); err != nil {
			return nil, e.errorf(e.DataOffset()+pos, err)
		}
		copy(dst, src)
		return dst, nil
	}
	if k >= int64(len(e.Blocks)) {
		return nil, e.errorf(e.DataOffset(), fmt.Errorf("no compression block %d (the entry has %d)", k, len(e.Blocks)))
	}
	var src []byte
	var err error
	if r.raw, src, err = e.readStoredBlock(int(k), r.raw, nil); err != nil {
		return nil, err
	}
	if err := compression.Decompress(e.CompressionMethod, dst, src); err != nil {
		return nil, e.errorf(e.Blocks[k].Start, fmt.Errorf("block %d of %d (%s): %w", k, len(e.Blocks), e.CompressionMethod, err))
	}
	return dst, nil
}
