package iostore

import (
	"fmt"
	"io"
	"math"
	"sync"
)

// ChunkReader reads a chunk at any offset, decoding only the compression
// blocks a read reaches and keeping the last two: reading a chunk too big
// to hold (a map's export bundle can be hundreds of MB) then costs two
// blocks of memory, not the chunk's size. Reads are not checked against
// the chunk's hash, which covers the whole chunk: [File.VerifyChunk] checks
// it block by block. A ChunkReader is safe for concurrent use.
type ChunkReader struct {
	f     *File
	chunk int
	off   uint64 // where the chunk starts in the uncompressed address space
	size  int64

	mu     sync.Mutex
	recent [2]decodedBlock // the blocks read last, most recent first
	raw    []byte          // stored bytes of the block being read
}

// decodedBlock is compression block b's bytes, or nothing when buf is nil.
type decodedBlock struct {
	b   int
	buf []byte
}

// ChunkReader returns a [ChunkReader] of chunk i (a TOC entry index).
func (f *File) ChunkReader(i int) (*ChunkReader, error) {
	if i < 0 || i >= len(f.ChunkIDs) {
		return nil, fmt.Errorf("%w: entry %d of %d", ErrNotFound, i, len(f.ChunkIDs))
	}
	if err := f.loadBlocks(); err != nil {
		return nil, f.chunkErr(i, err)
	}
	ol := f.OffsetLength(i)
	if ol.Length > 0 {
		bs := uint64(f.Header.CompressionBlockSize)
		if end := ol.Offset + ol.Length; end < ol.Offset || (end-1)/bs >= uint64(f.NumBlocks()) {
			return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: fmt.Sprintf("range [0x%x, +0x%x) outside the %d compression blocks", ol.Offset, ol.Length, f.NumBlocks())})
		}
	}
	return &ChunkReader{f: f, chunk: i, off: ol.Offset, size: int64(ol.Length)}, nil
}

// Size is the chunk's length.
func (r *ChunkReader) Size() int64 { return r.size }

// ReadAt reads len(b) bytes from offset off of the chunk. Like any
// io.ReaderAt it returns io.EOF when fewer bytes remain.
func (r *ChunkReader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, r.f.chunkErr(r.chunk, fmt.Errorf("read at negative offset %d", off))
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
	bs := uint64(r.f.Header.CompressionBlockSize)
	r.mu.Lock()
	defer r.mu.Unlock()
	for n := 0; n < len(b); {
		at := r.off + uint64(off) + uint64(n)
		blk, in := int(at/bs), at%bs
		data, err := r.block(blk)
		if err != nil {
			return n, r.f.chunkErr(r.chunk, err)
		}
		if in >= uint64(len(data)) {
			return n, r.f.chunkErr(r.chunk, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d holds %d bytes, the chunk needs byte %d of it", blk, len(data), in)})
		}
		n += copy(b[n:], data[in:])
	}
	if len(b) < want {
		return len(b), io.EOF
	}
	return len(b), nil
}

// block returns compression block b's bytes, decoding it unless it is one
// of the two read last. The caller holds r.mu; the result is valid until
// it unlocks.
func (r *ChunkReader) block(b int) ([]byte, error) {
	if c := r.recent[0]; c.buf != nil && c.b == b {
		return c.buf, nil
	}
	if c := r.recent[1]; c.buf != nil && c.b == b {
		r.recent[0], r.recent[1] = c, r.recent[0]
		return c.buf, nil
	}
	// The older block's memory takes the new one.
	buf := r.recent[1].buf
	r.recent[1] = decodedBlock{}
	blk := r.f.Block(b)
	if run := r.f.storedRun(b, b, 0, uint64(blk.UncompressedSize), math.MaxUint64); run.blocks > 0 {
		// A stored block, read as File.ReadChunk reads it: its bytes
		// straight from the partition.
		var err error
		if m, ok := r.f.storedInMem(run); ok {
			buf = append(buf[:0], m...)
		} else if buf, err = r.f.readStored(buf[:0], run); err != nil {
			return nil, err
		}
		r.recent[0], r.recent[1] = decodedBlock{b: b, buf: buf}, r.recent[0]
		return buf, nil
	}
	raw, plain, err := r.f.readBlock(b, blk, r.raw, buf)
	r.raw = raw
	if err != nil {
		return nil, err
	}
	if blk.MethodIndex == 0 {
		// A stored block's bytes are in raw or in the mapped partition:
		// the cache keeps its own copy.
		buf = append(buf[:0], plain...)
	} else {
		buf = plain // decompressed into buf, or a buffer grown for it
	}
	r.recent[0], r.recent[1] = decodedBlock{b: b, buf: buf}, r.recent[0]
	return buf, nil
}
