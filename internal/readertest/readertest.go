// Package readertest checks an io.ReaderAt against the bytes it should
// read, for the tests of the readers that decode a stream block by block
// (pak.BlockReader, iostore.ChunkReader).
package readertest

import (
	"bytes"
	"io"
	"sync"
	"testing"
)

// step is the length of the reads Check makes: a prime, so that they
// straddle every block boundary sooner or later.
const step = 7919

// Check reads r, whose bytes should be want, in several patterns:
// forwards in step-byte reads, backwards, all at once, across the end,
// past it and at a negative offset. Every read must give want's bytes,
// io.EOF exactly when it is cut short by the end, and an error at a
// negative offset.
func Check(t testing.TB, name string, r io.ReaderAt, want []byte) {
	t.Helper()
	size := int64(len(want))
	check := func(off, n int64) {
		t.Helper()
		buf := make([]byte, n)
		got, err := r.ReadAt(buf, off)
		exp := max(0, min(n, size-off))
		switch {
		case int64(got) != exp:
			t.Fatalf("%s: ReadAt(%d bytes at %d) read %d, want %d (%v)", name, n, off, got, exp, err)
		case exp < n && err != io.EOF:
			t.Fatalf("%s: ReadAt(%d bytes at %d) past the end: %v, want io.EOF", name, n, off, err)
		case exp == n && err != nil:
			t.Fatalf("%s: ReadAt(%d bytes at %d): %v", name, n, off, err)
		case !bytes.Equal(buf[:got], want[off:off+int64(got)]):
			t.Fatalf("%s: ReadAt(%d bytes at %d) differs", name, n, off)
		}
	}
	for off := int64(0); off < size; off += step {
		check(off, step)
	}
	for off := size - 1; off >= 0; off -= 3 * step {
		check(off, min(2*step, size-off))
	}
	check(0, size)
	check(size, 1)
	check(max(0, size-5), 10)
	if _, err := r.ReadAt(make([]byte, 1), -1); err == nil {
		t.Fatalf("%s: ReadAt at -1 did not fail", name)
	}
}

// Steps reads r's size bytes from start to end, step bytes at a time
// (reads spanning blocks, as a parser's do), up to the first error,
// handing each read's bytes to each when not nil (an error it returns
// stops the reads). It returns how many bytes it read.
func Steps(r io.ReaderAt, size int64, step int, each func(off int64, b []byte) error) (int64, error) {
	// The buffer of an earlier call: the fuzz targets that step through
	// every chunk or entry count what they allocate.
	buf := stepBuf.take(step)
	defer stepBuf.give(buf)
	var off int64
	for off < size {
		n, err := r.ReadAt(buf, off)
		if each != nil {
			if err := each(off, buf[:n]); err != nil {
				return off, err
			}
		}
		off += int64(n)
		if err == io.EOF && off == size {
			break
		}
		if err != nil {
			return off, err
		}
	}
	return off, nil
}

// stepBuf keeps one buffer between calls of Steps (a sync.Pool misses
// whenever the goroutine moves to another processor, and at collections).
var stepBuf spare

type spare struct {
	mu sync.Mutex
	b  []byte
}

func (s *spare) take(n int) []byte {
	s.mu.Lock()
	b := s.b
	s.b = nil
	s.mu.Unlock()
	if cap(b) < n {
		b = make([]byte, n)
	}
	return b[:n]
}

func (s *spare) give(b []byte) {
	s.mu.Lock()
	if cap(b) > cap(s.b) {
		s.b = b
	}
	s.mu.Unlock()
}

// StepsAll is Steps keeping the bytes: it returns those it read, up to
// the first error.
func StepsAll(r io.ReaderAt, size int64, step int) ([]byte, error) {
	var out []byte
	_, err := Steps(r, size, step, func(_ int64, b []byte) error {
		out = append(out, b...)
		return nil
	})
	return out, err
}
