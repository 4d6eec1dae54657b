// Package blockcache reads a stream stored in blocks (compression blocks,
// encryption units) at any offset, decoding only the blocks a read reaches
// and keeping the last two: reading a stream too big to hold through costs
// two blocks of memory. The containers' readers of big entries and chunks
// (pak.BlockReader, iostore.ChunkReader) share it.
//
// A reader going through the stream in order (a parser taking a big
// export after another) can have the blocks after the one it reads decoded
// ahead on other processors ([Reader.Ahead]); it gets the same bytes and
// errors as decoding them one at a time.
package blockcache

import (
	"fmt"
	"io"
	"io/fs"
	"sync"
)

// Reader reads Size bytes made of blocks. It is safe for concurrent use
// once set up.
type Reader struct {
	Size int64
	// Locate returns the block holding stream offset pos (0 <= pos < Size)
	// and where pos lies in it.
	Locate func(pos int64) (block int64, in int64)
	// Decode decodes the given block into buf's memory (buf is the memory
	// of a block no longer kept, of any length: grow it as needed) and
	// returns the block's bytes.
	Decode func(block int64, buf []byte) ([]byte, error)
	// Took, when not nil, is given each block a read takes bytes from, as
	// the read does (decoded or one of the two kept), under the Reader's
	// lock: a hash of the stream can follow reads going in order.
	Took func(block int64, data []byte)
	// Ahead, when not nil, starts decoding the blocks from block from on
	// ahead of the reader, or returns nil when that is not worth it now
	// (say, no processor is idle). It is called once reads have decoded
	// three blocks one after the other (inOrderRun), and, after a nil, 16
	// blocks later again if they still go in order.
	Ahead func(from int64) Sequence

	mu     sync.Mutex
	recent [2]decoded // most recent first
	closed bool
	ah     aheadState // the decoding ahead (ahead.go)
}

// Sequence is the blocks of a stream from some block on, decoded ahead of
// a reader that takes them in order.
type Sequence interface {
	// Block returns block k's bytes, valid until the next call, or ok
	// false when the reader is to decode k itself (Decode). k is the
	// block after the one of the call before (the sequence's first
	// block on the first call). A panic decoding k is raised here.
	Block(k int64) (data []byte, ok bool, err error)
	// Close stops the decoding and waits for it.
	Close()
}

// decoded is one decoded block (nothing when buf is nil).
type decoded struct {
	block int64
	buf   []byte
}

// ReadAt reads len(b) bytes at off. Like any io.ReaderAt it returns io.EOF
// when fewer bytes remain; errors are Decode's, or say that a block holds
// fewer bytes than Locate placed in it. After Close it fails with
// fs.ErrClosed.
func (r *Reader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read at negative offset %d", off)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, fs.ErrClosed
	}
	if off >= r.Size {
		if len(b) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	want := len(b)
	if int64(want) > r.Size-off {
		b = b[:r.Size-off]
	}
	for n := 0; n < len(b); {
		k, in := r.Locate(off + int64(n))
		data, err := r.block(k)
		if err != nil {
			return n, err
		}
		if in < 0 || in >= int64(len(data)) {
			return n, fmt.Errorf("block %d holds %d bytes, the stream needs byte %d of it", k, len(data), in)
		}
		n += copy(b[n:], data[in:])
	}
	if len(b) < want {
		return len(b), io.EOF
	}
	return len(b), nil
}

// Close stops the decoding ahead, if any, and waits for it; reads after
// it fail. It returns nil.
func (r *Reader) Close() error {
	r.mu.Lock()
	r.ah.stop() // (it does not panic)
	r.closed = true
	r.recent = [2]decoded{}
	r.mu.Unlock()
	return nil
}

// block returns block k's bytes, decoding it unless it is one of the two
// read last, and hands them to Took. r.mu is held; the result is valid
// until it is unlocked.
func (r *Reader) block(k int64) ([]byte, error) {
	var data []byte
	if c := r.recent[0]; c.buf != nil && c.block == k {
		data = c.buf
	} else if c := r.recent[1]; c.buf != nil && c.block == k {
		r.recent[0], r.recent[1] = c, r.recent[0]
		data = c.buf
	} else {
		// The older block's memory takes the new one.
		buf := r.recent[1].buf
		r.recent[1] = decoded{}
		var err error
		if aheadBuilt {
			buf, err = r.decode(k, buf)
		} else {
			buf, err = r.Decode(k, buf)
		}
		if err != nil {
			return nil, err
		}
		r.recent[0], r.recent[1] = decoded{block: k, buf: buf}, r.recent[0]
		data = buf
	}
	if r.Took != nil {
		r.Took(k, data)
	}
	return data, nil
}
