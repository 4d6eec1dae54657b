//go:build !wasm

package ahead

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestIdle checks the scheduler's count: with three of four processors
// kept busy, at most one is idle; once they stop, more are.
func TestIdle(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	var stop atomic.Bool
	var spinning sync.WaitGroup
	for range 3 {
		spinning.Go(func() {
			for !stop.Load() {
			}
		})
	}
	eventually := func(ok func(int) bool) int {
		n := schedIdle(4)
		for k := 0; k < 100 && !ok(n); k++ {
			time.Sleep(2 * time.Millisecond)
			n = schedIdle(4)
		}
		return n
	}
	if n := eventually(func(n int) bool { return n <= 1 }); n > 1 {
		t.Errorf("three processors busy: %d idle", n)
	}
	stop.Store(true)
	spinning.Wait()
	if n := eventually(func(n int) bool { return n >= 2 }); n < 2 {
		t.Errorf("nothing else running: %d idle", n)
	}
}

// testJob decodes block k into its index, after a short random pause;
// every third block is the reader's own, and decoding block panicAt
// panics. It records how many bytes were decoded ahead of the reader at
// most.
type testJob struct {
	n, panicAt int
	size       uint64
	reader     atomic.Int64 // the block the reader is at
	decoding   atomic.Int64 // blocks being decoded
	most       atomic.Int64 // the furthest a decoded block was ahead of the reader, in blocks
}

func (j *testJob) Blocks() int       { return j.n }
func (j *testJob) Ahead(k int) bool  { return k%3 != 2 }
func (j *testJob) Size(k int) uint64 { return j.size }
func (j *testJob) Decode(k int, s *int) {
	j.decoding.Add(1)
	defer j.decoding.Add(-1)
	if d := int64(k) - j.reader.Load(); d > j.most.Load() {
		j.most.Store(d) // racy maximum: enough for a bound
	}
	time.Sleep(time.Duration(k*7919%5) * 100 * time.Microsecond)
	if k == j.panicAt {
		panic(k)
	}
	*s = k
}

// TestDecoder reads a job's blocks in order through a Decoder: each block
// decoded ahead gives its own state, at most the bound ahead of the reader;
// a panic decoding a block is raised when the reader gets that block; and
// Close, part way, leaves no goroutine decoding.
func TestDecoder(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	var d Decoder[int]
	for _, tc := range []struct {
		n, panicAt, stopAt int
		ahead              uint64 // bytes ahead, blocks of 10
	}{{n: 200, panicAt: -1, stopAt: 200, ahead: 40}, {n: 60, panicAt: 31, stopAt: 60, ahead: 1000}, {n: 100, panicAt: -1, stopAt: 17, ahead: 100}} {
		j := &testJob{n: tc.n, panicAt: tc.panicAt, size: 10}
		d.Start(j, 4, tc.ahead, 64)
		var got any
		func() {
			defer func() { got = recover() }()
			for k := 0; k < tc.stopAt; k++ {
				j.reader.Store(int64(k))
				d.At(k)
				s, ok := d.Get(k)
				if ok != j.Ahead(k) {
					t.Fatalf("block %d: decoded ahead %v", k, ok)
				}
				if ok && *s != k {
					t.Fatalf("block %d: got the state of block %d", k, *s)
				}
			}
		}()
		d.Close(nil)
		if tc.panicAt >= 0 && got != tc.panicAt {
			t.Errorf("panic %v; want the one of block %d", got, tc.panicAt)
		} else if tc.panicAt < 0 && got != nil {
			t.Errorf("panic %v", got)
		}
		if n := j.decoding.Load(); n != 0 {
			t.Errorf("%d blocks still decoding after Close", n)
		}
		// At most ahead/size blocks are taken ahead, plus the one at the
		// reader; Ahead-less blocks in between stretch that by half.
		if limit := int64(tc.ahead/j.size)*3/2 + 2; j.most.Load() > limit {
			t.Errorf("a block decoded %d blocks ahead of the reader; bound %d", j.most.Load(), limit)
		}
	}
}
