package iostore

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"sort"
	"sync"

	"github.com/upkg/upkg/internal/blockcache"
)

// ChunkReader reads a chunk at any offset, decoding only the compression
// blocks a read reaches and keeping the last two: reading a chunk too big
// to hold (a map's export bundle can be hundreds of MB) then costs two
// blocks of memory, not the chunk's size. Reads are not checked against
// the chunk's hash, which covers the whole chunk: [File.VerifyChunk] checks
// it block by block. A ChunkReader is safe for concurrent use.
//
// Reads going through the chunk in order (a parser taking one export
// after another) have the blocks after the one they read decoded ahead on
// the idle processors (ahead.go), with the same bytes and errors; that
// costs 2 MiB of blocks ahead (and their stored bytes) more memory. Close
// stops it for a reader left part way (one dropped unclosed is stopped
// when collected).
//
// The chunk's bytes are those [File.ReadChunk] reads, as the engine reads
// them: from its offset in the first block on, the blocks one after
// another, each for the bytes it holds.
type ChunkReader struct {
	f     *File
	chunk int
	first int    // the chunk's first block
	in    uint64 // where the chunk starts in it
	// starts[k] is where block first+k's bytes begin in the chunk; the
	// last element is the chunk's length.
	starts []int64
	blocks blockcache.Reader
	raw    []byte // stored bytes of the block being read

	v *chunkVerify // a verifying reader's (VerifyingChunkReader)
}

// chunkVerify is a verifying ChunkReader's hash of the chunk's bytes from
// its start up to hashed, fed by the reads (took); verified and err are
// Verify's outcome once it ran.
type chunkVerify struct {
	_        [0]func() // not comparable: no equality function in the WebAssembly module
	mu       sync.Mutex
	h        chunkHasher
	hashed   int64
	verified bool
	err      error
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
	r := &ChunkReader{f: f, chunk: i, first: int(ol.Offset / bs), in: ol.Offset % bs}
	if ol.Length > 0 {
		last := (ol.Offset + ol.Length - 1) / bs
		if ol.Offset+ol.Length < ol.Offset || last >= uint64(f.NumBlocks()) {
			return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: fmt.Sprintf("range [0x%x, +0x%x) outside the %d compression blocks", ol.Offset, ol.Length, f.NumBlocks())})
		}
		// Where each block's bytes start in the chunk (as walkRange takes
		// them), from the block table alone.
		r.starts = make([]int64, 0, last-uint64(r.first)+2)
		var done uint64
		for b := uint64(r.first); b <= last && done < ol.Length; b++ {
			size := uint64(f.Block(int(b)).UncompressedSize)
			if b == uint64(r.first) {
				if r.in >= size {
					return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d holds %d bytes, chunk starts at %d in it", b, size, r.in)})
				}
				size -= r.in
			}
			r.starts = append(r.starts, int64(done))
			done += min(size, ol.Length-done)
		}
		if done != ol.Length {
			return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: fmt.Sprintf("chunk blocks give %d of %d bytes", done, ol.Length)})
		}
		r.starts = append(r.starts, int64(done))
	}
	r.blocks = blockcache.Reader{
		Size:   int64(ol.Length),
		Locate: r.locate,
		Decode: r.decode,
	}
	if aheadBuilt {
		r.blocks.Ahead = r.ahead
	}
	return r, nil
}

// VerifyingChunkReader returns a [ChunkReader] of chunk i that hashes the
// chunk's bytes as its reads take them in order, for [ChunkReader.Verify]
// to check against the TOC's hash. Reading the chunk once through it and
// verifying decodes each block once, where VerifyChunk and then reading
// through a ChunkReader decode the chunk twice (a map's export bundle can
// be hundreds of MB).
func (f *File) VerifyingChunkReader(i int) (*ChunkReader, error) {
	r, err := f.ChunkReader(i)
	if err != nil {
		return nil, err
	}
	r.v = &chunkVerify{}
	if f.MetasErr() == nil && f.HasHash(i) {
		r.v.h.init(f.Header.Version)
	}
	r.blocks.Took = r.took
	return r, nil
}

// took hashes the chunk's bytes in block b (data, as decoded) when they are
// the next to hash. The blockcache's lock is held.
func (r *ChunkReader) took(b int64, data []byte) {
	k := int(b) - r.first
	if k < 0 || k >= len(r.starts)-1 {
		return
	}
	v := r.v
	v.mu.Lock()
	defer v.mu.Unlock()
	if r.starts[k] != v.hashed || v.verified {
		return
	}
	in := int64(0)
	if k == 0 {
		in = int64(r.in)
	}
	n := r.starts[k+1] - r.starts[k]
	if int64(len(data)) < in+n {
		return // the read fails on it
	}
	v.h.write(data[in : in+n])
	v.hashed += n
}

// Verify checks a reader made by [File.VerifyingChunkReader]: it reads
// what the reads did not take in order (all of the chunk, for a reader not
// read yet) and compares the chunk's hash with the TOC's. Its error is the
// one [File.VerifyChunk] gives (that it calls for any other ChunkReader).
func (r *ChunkReader) Verify() error {
	v := r.v
	if v == nil {
		return r.f.VerifyChunk(r.chunk)
	}
	hashed := func() (int64, bool) {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.hashed, v.verified
	}
	// One byte of each block from where the hash stands: decoding it (or
	// finding it kept) moves the hash past it.
	var one [1]byte
	for {
		at, done := hashed()
		if done {
			v.mu.Lock()
			defer v.mu.Unlock()
			return v.err
		}
		if at >= r.Size() {
			break
		}
		_, err := r.blocks.ReadAt(one[:], at)
		if now, _ := hashed(); err != nil || now <= at {
			// A block that does not read (or cannot be hashed, which
			// cannot happen): the failure as VerifyChunk names it,
			// with the hasher handed over to it.
			v.mu.Lock()
			defer v.mu.Unlock()
			if !v.verified {
				v.h.release()
				v.verified, v.err = true, r.f.VerifyChunk(r.chunk)
			}
			return v.err
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.verified { // (a Verify alongside may have summed the hash)
		v.verified, v.err = true, r.f.checkSums(r.chunk, &v.h)
	}
	return v.err
}

// Close stops the decoding ahead, if any, and waits for it. Reads after
// Close fail, and so does Verify when it has not run. It returns nil.
func (r *ChunkReader) Close() error {
	err := r.blocks.Close()
	if v := r.v; v != nil {
		v.mu.Lock()
		if !v.verified {
			v.verified, v.err = true, fs.ErrClosed
			v.h.release()
		}
		v.mu.Unlock()
	}
	return err
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

// locate returns the block holding chunk byte pos and where it is in the
// block.
func (r *ChunkReader) locate(pos int64) (int64, int64) {
	k := sort.Search(len(r.starts)-1, func(k int) bool { return r.starts[k+1] > pos })
	in := pos - r.starts[k]
	if k == 0 {
		in += int64(r.in)
	}
	return int64(r.first + k), in
}

// decode reads compression block b into buf's memory.
func (r *ChunkReader) decode(b int64, buf []byte) ([]byte, error) {
	f := r.f
	blk := f.Block(int(b))
	// Of a stored block, only what the chunk takes of it is read, as
	// File.ReadChunk reads it: its bytes straight from the partition.
	k := int(b) - r.first
	need := uint64(r.starts[k+1] - r.starts[k])
	if k == 0 {
		need += r.in
	}
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
