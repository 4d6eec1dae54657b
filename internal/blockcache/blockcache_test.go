package blockcache

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/readertest"
)

// stream is a Reader over data in blocks of unit bytes, counting decodes.
func stream(data []byte, unit int64, decodes *int) *Reader {
	return &Reader{
		Size:   int64(len(data)),
		Locate: func(pos int64) (int64, int64) { return pos / unit, pos % unit },
		Decode: func(k int64, buf []byte) ([]byte, error) {
			*decodes++
			end := min((k+1)*unit, int64(len(data)))
			return append(buf[:0], data[k*unit:end]...), nil
		},
	}
}

func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>9)
	}
	return b
}

// TestReadAt reads a stream of 1000-byte blocks in every pattern
// readertest.Check makes, and reads it through in order: each block is
// decoded once, and a read within the two blocks read last decodes none.
func TestReadAt(t *testing.T) {
	data := testData(100_003)
	var decodes int
	r := stream(data, 1000, &decodes)
	readertest.Check(t, "stream", r, data)
	decodes = 0
	b := make([]byte, 300)
	for off := int64(0); off < r.Size; off += int64(len(b)) {
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			t.Fatal(err)
		}
	}
	if decodes != 101 {
		t.Errorf("reading through decoded %d blocks, want 101", decodes)
	}
	decodes = 0
	r.ReadAt(b, 99_000)
	r.ReadAt(b, 99_900)
	if decodes != 0 {
		t.Errorf("reads in the two blocks read last decoded %d", decodes)
	}
}

// TestShortBlock: a block that decodes to fewer bytes than Locate placed
// in it is an error, not a panic or a short read taken for the end.
func TestShortBlock(t *testing.T) {
	r := &Reader{
		Size:   5000,
		Locate: func(pos int64) (int64, int64) { return pos / 1000, pos % 1000 },
		Decode: func(k int64, buf []byte) ([]byte, error) { return make([]byte, 10), nil },
	}
	n, err := r.ReadAt(make([]byte, 100), 2500)
	if err == nil || !strings.Contains(err.Error(), "block 2 holds 10 bytes") {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
}

// TestConcurrent reads from several goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	data := testData(50_000)
	var decodes int
	r := stream(data, 4096, &decodes)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := make([]byte, 777)
			for off := int64(g * 100); off < r.Size-int64(len(b)); off += 1500 {
				if _, err := r.ReadAt(b, off); err != nil {
					t.Error(err)
					return
				}
				if string(b) != string(data[off:off+int64(len(b))]) {
					t.Errorf("read at %d differs", off)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// fakeSequence hands out the blocks of data (of unit bytes) from its
// first block on, as a Sequence decoding them ahead would, checking that
// they are asked for in order.
type fakeSequence struct {
	t      *testing.T
	data   []byte
	unit   int64
	next   int64         // the block to be asked for next
	served *int          // blocks handed out
	closes *atomic.Int32 // (a dropped reader's is closed by a cleanup goroutine)
	// leave reports the blocks left to the reader; fail and panicAt
	// make a block fail or panic.
	leave   func(k int64) bool
	fail    int64
	panicAt int64
}

func (s *fakeSequence) Block(k int64) ([]byte, bool, error) {
	if k != s.next {
		s.t.Errorf("Block(%d), want block %d", k, s.next)
	}
	s.next = k + 1
	switch {
	case k == s.panicAt:
		panic("decoding block " + strconv.FormatInt(k, 10))
	case k == s.fail:
		return nil, true, errors.New("bad block " + strconv.FormatInt(k, 10))
	case s.leave != nil && s.leave(k):
		return nil, false, nil
	}
	*s.served++
	end := min((k+1)*s.unit, int64(len(s.data)))
	return s.data[k*s.unit : end], true, nil
}

func (s *fakeSequence) Close() { s.closes.Add(1) }

// aheadStream is stream with Ahead set: the sequences it starts are made
// by seq (nil: none) and their first blocks recorded in starts.
func aheadStream(data []byte, unit int64, decodes *int, starts *[]int64, seq func(from int64) Sequence) *Reader {
	r := stream(data, unit, decodes)
	r.Ahead = func(from int64) Sequence {
		*starts = append(*starts, from)
		return seq(from)
	}
	return r
}

// readThrough reads r from off to end in reads of n bytes, checking the
// bytes against data.
func readThrough(t *testing.T, r *Reader, data []byte, off, end int64, n int) {
	t.Helper()
	b := make([]byte, n)
	for ; off < end; off += int64(n) {
		k, err := r.ReadAt(b, off)
		if err != nil && err != io.EOF {
			t.Fatalf("read at %d: %v", off, err)
		}
		if string(b[:k]) != string(data[off:off+int64(k)]) {
			t.Fatalf("read at %d: wrong bytes", off)
		}
	}
}

// TestAhead reads streams whose blocks a Sequence decodes ahead: from the
// third block read in order on, the blocks come from the sequence, which
// stops at the last block, when the reads jump, at an error, at a panic
// and at Close; a declined start is asked again 16 blocks later; blocks
// the sequence leaves are decoded by the reader.
func TestAhead(t *testing.T) {
	data := testData(100_003) // 101 blocks of 1000 bytes
	var decodes, served int
	var closes atomic.Int32
	var starts []int64
	var seq *fakeSequence
	newSeq := func(from int64) Sequence {
		seq = &fakeSequence{t: t, data: data, unit: 1000, next: from, served: &served, closes: &closes, fail: -1, panicAt: -1}
		return seq
	}
	// seqWith makes sequences that set changes (making blocks fail, say).
	seqWith := func(set func(*fakeSequence)) func(int64) Sequence {
		return func(from int64) Sequence {
			s := newSeq(from).(*fakeSequence)
			set(s)
			return s
		}
	}
	reset := func() { decodes, served, starts = 0, 0, nil; closes.Store(0) }

	t.Run("in order", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, newSeq)
		readThrough(t, r, data, 0, r.Size, 300)
		if decodes != 3 || served != 98 || closes.Load() != 1 || len(starts) != 1 || starts[0] != 3 {
			t.Errorf("decoded %d, from the sequence %d, closed %d, started at %v; want 3, 98, 1, [3]", decodes, served, closes.Load(), starts)
		}
		if r.DecodingAhead() {
			t.Error("still decoding ahead after the last block")
		}
	})
	t.Run("jump", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, newSeq)
		readThrough(t, r, data, 0, 6000, 500)
		readThrough(t, r, data, 50_000, 56_000, 500)
		if closes.Load() != 1 || len(starts) != 2 || starts[1] != 53 || !r.DecodingAhead() {
			t.Errorf("closed %d, started at %v, decoding ahead %v; want 1, [3 53], true", closes.Load(), starts, r.DecodingAhead())
		}
		r.Close()
		if closes.Load() != 2 {
			t.Errorf("Close: sequences closed %d, want 2", closes.Load())
		}
		if _, err := r.ReadAt(make([]byte, 10), 0); !errors.Is(err, fs.ErrClosed) {
			t.Errorf("read after Close: %v", err)
		}
	})
	t.Run("declined", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, func(int64) Sequence { return nil })
		readThrough(t, r, data, 0, r.Size, 700)
		if decodes != 101 || fmt.Sprint(starts) != "[3 19 35 51 67 83 99]" {
			t.Errorf("decoded %d, asked to start at %v", decodes, starts)
		}
	})
	t.Run("left to the reader", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, seqWith(func(s *fakeSequence) { s.leave = func(k int64) bool { return k%2 == 0 } }))
		readThrough(t, r, data, 0, r.Size, 1000)
		if decodes+served != 101 || served != 49 {
			t.Errorf("decoded %d, from the sequence %d", decodes, served)
		}
	})
	t.Run("error", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, seqWith(func(s *fakeSequence) { s.fail = 10 }))
		readThrough(t, r, data, 0, 9000, 1000)
		if _, err := r.ReadAt(make([]byte, 1000), 9500); err == nil || err.Error() != "bad block 10" {
			t.Fatalf("read of block 10: %v", err)
		}
		if closes.Load() != 1 || r.DecodingAhead() {
			t.Errorf("after the error: closed %d, decoding ahead %v", closes.Load(), r.DecodingAhead())
		}
		readThrough(t, r, data, 9000, 20_000, 1000) // block 10 again, by the reader
		if len(starts) != 2 || starts[1] != 13 {
			t.Errorf("started at %v, want [3 13]", starts)
		}
		r.Close()
	})
	t.Run("panic", func(t *testing.T) {
		reset()
		r := aheadStream(data, 1000, &decodes, &starts, seqWith(func(s *fakeSequence) { s.panicAt = 7 }))
		readThrough(t, r, data, 0, 7000, 1000)
		p := func() (p any) {
			defer func() { p = recover() }()
			r.ReadAt(make([]byte, 10), 7000)
			return nil
		}()
		if p != "decoding block 7" || closes.Load() != 1 || r.DecodingAhead() {
			t.Errorf("panic %v, closed %d, decoding ahead %v", p, closes.Load(), r.DecodingAhead())
		}
		readThrough(t, r, data, 7000, 9000, 1000)
	})
	t.Run("dropped", func(t *testing.T) {
		reset()
		func() {
			r := aheadStream(data, 1000, &decodes, &starts, newSeq)
			readThrough(t, r, data, 0, 10_000, 1000)
		}()
		for k := 0; k < 100 && closes.Load() == 0; k++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		if n := closes.Load(); n != 1 {
			t.Errorf("a reader dropped while decoding ahead: sequence closed %d times, want 1", n)
		}
	})
}
