package iostore

import (
	"fmt"
	"hash"
	"io"
	"io/fs"

	"github.com/upkg/upkg/internal/ahead"
	"github.com/upkg/upkg/internal/blake3"
	"github.com/upkg/upkg/internal/sha1"
)

// chunkStream reads a chunk block by block, so a large chunk is never held
// in memory whole, and checks the TOC hash when it reaches the end. A big
// chunk's blocks are decoded ahead on several goroutines (ahead.go).
type chunkStream struct {
	f         *File
	chunk     int
	next, end uint64 // in the container's uncompressed address space
	buf       []byte // decoded bytes not yet returned
	bufs      *blockBufs
	sha       hash.Hash
	b3        *blake3.Hasher
	err       error
	ah        *ahead.Stop[*blockAhead] // nil: every block decoded by Read
}

// OpenChunkStream returns a reader over chunk i that decodes one
// compression block at a time (a big chunk's next blocks are decoded ahead
// on other cores meanwhile) and, at the end, returns an error wrapping
// [ErrHash] instead of io.EOF when the data does not match the TOC's hash.
// Close stops the decoding ahead of a stream not read to its end (one
// dropped unclosed stops it when collected).
func (f *File) OpenChunkStream(i int) (io.ReadCloser, error) {
	if i < 0 || i >= len(f.ChunkIDs) {
		return nil, fmt.Errorf("%w: entry %d of %d", ErrNotFound, i, len(f.ChunkIDs))
	}
	if err := f.loadBlocks(); err != nil {
		return nil, f.chunkErr(i, err)
	}
	ol := f.OffsetLength(i)
	s := &chunkStream{f: f, chunk: i, next: ol.Offset, end: ol.Offset + ol.Length, bufs: f.getBufs()}
	if s.end < s.next {
		return nil, f.chunkErr(i, &FormatError{Offset: -1, Msg: "chunk range overflows"})
	}
	if f.HasHash(i) {
		if f.Header.Version <= TocPerfectHash {
			s.sha = sha1.New()
		}
		if f.Header.Version >= TocPerfectHash {
			s.b3 = getBlake3()
		}
	}
	if bs := uint64(f.Header.CompressionBlockSize); aheadBuilt && s.end > s.next && (s.end-1)/bs < uint64(f.NumBlocks()) {
		if a := f.startAhead(int(s.next/bs), int((s.end-1)/bs), s.next%bs, s.end-s.next, nil); a != nil {
			s.ah = ahead.NewStop(s, a, (*blockAhead).close)
		}
	}
	return s, nil
}

// Close stops the decoding ahead; reads after it fail.
func (s *chunkStream) Close() error {
	s.stopAhead()
	if s.err == nil {
		s.err = fs.ErrClosed
	}
	if s.bufs != nil {
		s.f.putBufs(s.bufs)
		s.bufs = nil
	}
	s.buf = nil // may be a block's buffer the decoder reuses
	return nil
}

func (s *chunkStream) stopAhead() {
	if s.ah != nil {
		s.ah.Stop()
	}
}

func (s *chunkStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	for len(s.buf) == 0 {
		if s.next >= s.end {
			s.stopAhead()
			s.err = s.finish()
			// Every byte was returned: the buffers go back to the pool.
			s.f.putBufs(s.bufs)
			s.bufs = nil
			return 0, s.err
		}
		f := s.f
		bs := uint64(f.Header.CompressionBlockSize)
		b := s.next / bs
		if b >= uint64(f.NumBlocks()) {
			s.stopAhead()
			s.err = f.chunkErr(s.chunk, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d of %d", b, f.NumBlocks())})
			return 0, s.err
		}
		var err error
		var plain []byte
		decoded := false // ahead
		if s.ah != nil {
			plain, err, decoded = s.ahead(int(b))
		}
		if !decoded {
			s.bufs.raw, plain, err = f.readBlock(int(b), f.Block(int(b)), s.bufs.raw, s.bufs.plain)
			if len(plain) > 0 && (len(s.bufs.raw) == 0 || &plain[0] != &s.bufs.raw[0]) {
				s.bufs.plain = plain
			}
		}
		if err != nil {
			s.stopAhead()
			s.err = f.chunkErr(s.chunk, err)
			return 0, s.err
		}
		in := s.next % bs
		if in >= uint64(len(plain)) {
			s.stopAhead()
			s.err = f.chunkErr(s.chunk, &FormatError{Offset: -1, Msg: fmt.Sprintf("compression block %d holds %d bytes, chunk continues at %d in it", b, len(plain), in)})
			return 0, s.err
		}
		take := min(uint64(len(plain))-in, s.end-s.next)
		s.buf = plain[in : in+take]
		s.next += take
		if s.sha != nil {
			s.sha.Write(s.buf)
		}
		if s.b3 != nil {
			s.b3.Write(s.buf)
		}
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// ahead returns what decoding block b ahead gave (see blockAhead.get); a
// panic decoding it stops the decoding ahead before it goes on up.
func (s *chunkStream) ahead(b int) (plain []byte, err error, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.stopAhead()
			s.err = fmt.Errorf("iostore: chunk %d: the read stopped on a panic decoding block %d: %v", s.chunk, b, p)
			panic(p)
		}
	}()
	s.ah.A.at(b)
	plain, _, err, ok = s.ah.A.get(b)
	return plain, err, ok
}

// finish checks the hash once all bytes were read.
func (s *chunkStream) finish() error {
	want := s.f.Hash(s.chunk)
	var sums [][20]byte
	if s.sha != nil {
		var h [20]byte
		copy(h[:], s.sha.Sum(nil))
		sums = append(sums, h)
	}
	if s.b3 != nil {
		full := s.b3.Sum256()
		b3Pool.Put(s.b3)
		s.b3 = nil
		var h [20]byte
		copy(h[:], full[:20])
		sums = append(sums, h)
	}
	if len(sums) == 0 {
		return io.EOF
	}
	for _, h := range sums {
		if h == want {
			return io.EOF
		}
	}
	return s.f.chunkErr(s.chunk, fmt.Errorf("%w: %s %x, TOC has %x", ErrHash, s.f.HashKind(), sums[len(sums)-1], want))
}
