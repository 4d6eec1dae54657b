// Package aheadtest helps the tests of readers that decode ahead with
// package ahead (IoStore chunks, pak entries).
package aheadtest

import (
	"bytes"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/ahead"
)

// AllIdle runs the test on 4 processors, all of them counted idle (what
// else runs does not keep blocks from being decoded ahead), until it ends.
func AllIdle(tb testing.TB) {
	old, oldIdle := runtime.GOMAXPROCS(4), ahead.IdleProcs
	ahead.IdleProcs = func(procs int) int { return procs - 1 }
	tb.Cleanup(func() {
		runtime.GOMAXPROCS(old)
		ahead.IdleProcs = oldIdle
	})
}

// Set sets *p to v until the test ends (a package's shares and bounds).
func Set[T any](tb testing.TB, p *T, v T) {
	old := *p
	*p = v
	tb.Cleanup(func() { *p = old })
}

// CheckStops opens a stream with open and reads its first 300 KiB, which
// must be want's, with goroutines decoding ahead (decodesAhead tells
// whether the stream has them). Closing a stream there stops them, and so
// does dropping one unclosed, once it is collected; a stream read to its
// end gives want and leaves none either.
func CheckStops(t *testing.T, open func() (io.ReadCloser, error), decodesAhead func(io.Reader) bool, want []byte) {
	t.Helper()
	settle := func(base int) int {
		n := runtime.NumGoroutine()
		for k := 0; k < 200 && n > base; k++ {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	runtime.GC()
	base := runtime.NumGoroutine()
	for _, closeIt := range []bool{true, false} {
		func() {
			s, err := open()
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 300<<10)
			if _, err := io.ReadFull(s, got); err != nil || !bytes.Equal(got, want[:len(got)]) {
				t.Fatalf("first %d bytes: %v", len(got), err)
			}
			if !decodesAhead(s) || runtime.NumGoroutine() <= base {
				t.Fatal("no goroutine decoding ahead")
			}
			if closeIt {
				s.Close()
				if _, err := s.Read(got); err == nil {
					t.Error("a read after Close did not fail")
				}
			}
		}()
		if n := settle(base); n > base {
			t.Errorf("closed %v: %d goroutines left, %d before", closeIt, n, base)
		}
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(s); err != nil || !bytes.Equal(got, want) {
		t.Errorf("read to the end: %d bytes, %v; want %d", len(got), err, len(want))
	}
	if n := settle(base); n > base {
		t.Errorf("read to the end: %d goroutines left, %d before", n, base)
	}
}

// RandomAccess is a reader at any offset with a Close, as a ChunkReader or
// a BlockReader.
type RandomAccess interface {
	io.ReaderAt
	io.Closer
}

// Stream reads a RandomAccess from its start and closes it (for
// CheckStops); From is the reader it reads.
type Stream struct {
	*io.SectionReader
	From RandomAccess
}

// NewStream returns a Stream of the size bytes of r.
func NewStream(r RandomAccess, size int64) Stream {
	return Stream{io.NewSectionReader(r, 0, size), r}
}

func (s Stream) Close() error { return s.From.Close() }
