package iostore

import (
	"fmt"
	"io"
	"math"

	"github.com/upkg/upkg/internal/blockcache"
)

// ChunkReader reads a chunk at any offset, decoding only the compression
// blocks a read reaches and keeping the last two: reading a chunk too big
// to hold (a map's export bundle can be hundreds of MB) then costs two
// blocks of memory, not the chunk's size. Reads are not checked against
// the chunk's hash, which covers the whole chunk: [File.VerifyChunk] checks
// it block by block. A ChunkReader is safe for concurrent use.
type ChunkReader struct {
	f      *File
	chunk  int
	off    uint64 // where the chunk starts in the uncompressed address space
	blocks blockcache.Reader
	raw    []byte // stored bytes of the block being read
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
	bs := uint64(f.Header.CompressionBlockSize)
	if ol.Length > 0 {
		if end := ol.Offset + ol.Length; end < ol.Offset || (end-1)/bs >= uint64(f.NumBlocks()) {
			return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: fmt.Sprintf("range [0x%x, +0x%x) outside the %d compression blocks", ol.Offset, ol.Length, f.NumBlocks())})
		}
	}
	r := &ChunkReader{f: f, chunk: i, off: ol.Offset}
	r.blocks = blockcache.Reader{
		Size: int64(ol.Length),
		Locate: func(pos int64) (int64, int64) {
			at := r.off + uint64(pos)
			return int64(at / bs), int64(at % bs)
		},
		Decode: r.decode,
	}
	return r, nil
}

// Size is the chunk's length.
func (r *ChunkReader) Size() int64 { return r.blocks.Size }

// ReadAt reads len(b) bytes from offset off of the chunk. Like any
// io.ReaderAt it returns io.EOF when fewer bytes remain.
func (r *ChunkReader) ReadAt(b []byte, off int64) (int, error) {
	n, err := r.blocks.ReadAt(b, off)
	if err != nil && err != io.EOF {
		err = r.f.chunkErr(r.chunk, err)
	}
	return n, err
}

// decode reads compression block b into buf's memory.
func (r *ChunkReader) decode(b int64, buf []byte) ([]byte, error) {
	f := r.f
	blk := f.Block(int(b))
	// Of a stored block, only what the chunk holds is read, as
	// File.ReadChunk reads it: its bytes straight from the partition, up
	// to the chunk's end.
	need := min(uint64(blk.UncompressedSize), r.off+uint64(r.blocks.Size)-uint64(b)*uint64(f.Header.CompressionBlockSize))
	if run := f.storedRun(int(b), int(b), 0, need, math.MaxUint64); run.blocks > 0 {
		if m, ok := f.storedInMem(run); ok {
			return append(buf[:0], m...), nil
		}
		return f.readStored(buf[:0], run)
	}
	raw, plain, err := f.readBlock(int(b), blk, r.raw, buf)
	r.raw = raw
	if err != nil {
		return nil, err
	}
	if blk.MethodIndex == 0 {
		// A stored block's bytes are in raw or in the mapped partition:
		// the cache keeps its own copy.
		return append(buf[:0], plain...), nil
	}
	return plain, nil // decompressed into buf, or a buffer grown for it
}
