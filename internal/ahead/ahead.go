//go:build !wasm

// Package ahead decodes the blocks of one read ahead of it, on the
// processors nothing else keeps busy: a container's compression blocks are
// independent streams, so while a reader consumes them in order, goroutines
// decode the next ones, a bounded number of bytes ahead. The reader gets
// each block as decoding it alone would have given it, a panic included
// (raised when the reader reaches the block), so a read decoded ahead ends
// as one decoded block after block: same bytes, same first error.
//
// It is left out of the WebAssembly build, where one goroutine runs at a
// time (ahead_wasm.go: Workers is 0 there).
package ahead

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Job is what a Decoder decodes: blocks 0 to Blocks()-1, in order, each
// into the state S of the slot it is given.
type Job[S any] interface {
	Blocks() int
	// Ahead reports whether block k is decoded ahead (the others are the
	// reader's own).
	Ahead(k int) bool
	// Size is what block k expands to: the blocks taken ahead of the
	// reader expand to at most the Decoder's bound (one whatever its size).
	Size(k int) uint64
	// Decode decodes block k into s. It runs on a decoding goroutine,
	// with the blocks before k maybe not decoded yet.
	Decode(k int, s *S)
}

// Decoder decodes a Job's blocks ahead. The zero Decoder is ready for
// Start; one that was closed may be started again (its slots' states are
// kept: buffers for the next job).
type Decoder[S any] struct {
	job Job[S]

	mu   sync.Mutex
	cond sync.Cond
	// next is the next block a goroutine takes; consumed counts the
	// blocks the reader is done with, and inFlight what the blocks taken
	// and not yet consumed expand to.
	next, consumed int
	inFlight, max  uint64
	stop           bool
	slots          []slot[S]
	wg             sync.WaitGroup
}

type slot[S any] struct {
	seq      int // the block it holds (-1: none yet)
	ready    bool
	panicked any
	state    S
}

// IdleProcs returns how many of procs processors no goroutine runs on or
// waits for, as the scheduler counts them now (a variable: tests that need
// blocks decoded ahead whatever else runs replace it).
var IdleProcs = schedIdle

var samples = sync.Pool{New: func() any {
	return &[2]metrics.Sample{{Name: "/sched/goroutines/running:goroutines"}, {Name: "/sched/goroutines/runnable:goroutines"}}
}}

func schedIdle(procs int) int {
	s := samples.Get().(*[2]metrics.Sample)
	defer samples.Put(s)
	metrics.Read(s[:])
	busy := 0
	for _, m := range s {
		if m.Value.Kind() == metrics.KindUint64 {
			busy += int(min(m.Value.Uint64(), uint64(procs)))
		}
	}
	return max(procs-busy, 0)
}

// Workers returns how many goroutines to decode blocks expanding to total
// bytes with (at least share bytes each) in slots slots (two per
// goroutine: each keeps the buffers of the blocks it held, so the caller
// sizes slots by the memory it allows), or a number below 2 when decoding
// ahead is not worth it: on one processor, for less than two shares, and
// when the other processors are busy (verify and extract run a file per
// processor; goroutines beside them only add hand-offs). The reader's
// processor counts, as it mostly waits for the blocks.
func Workers(total, share uint64, slots int) int {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || share == 0 || total/share < 2 || slots < 4 {
		return 0
	}
	return int(min(uint64(procs), total/share, uint64(slots/2), uint64(IdleProcs(procs)+1)))
}

// Start decodes job's blocks ahead on workers goroutines (as Workers
// gives), at most maxAhead bytes ahead of the reader and in slots slots.
// Decoding goroutines take the reader's debug.SetPanicOnFault setting, so
// that a memory fault on a mapped file reaches the reader as a panic it
// can recover.
func (d *Decoder[S]) Start(job Job[S], workers int, maxAhead uint64, slots int) {
	if d.cond.L == nil {
		d.cond.L = &d.mu
	}
	d.job, d.next, d.consumed, d.inFlight, d.max, d.stop = job, 0, 0, 0, maxAhead, false
	slots = max(slots, 1)
	if cap(d.slots) < slots {
		d.slots = append(d.slots[:cap(d.slots)], make([]slot[S], slots-cap(d.slots))...)
	}
	d.slots = d.slots[:slots]
	for i := range d.slots {
		d.slots[i].seq, d.slots[i].ready, d.slots[i].panicked = -1, false, nil
	}
	fault := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(fault)
	for range workers {
		d.wg.Go(func() {
			debug.SetPanicOnFault(fault)
			d.work()
		})
	}
}

// work decodes blocks until the job is done or the reader stops.
func (d *Decoder[S]) work() {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.job.Blocks()
	for {
		for !d.stop && d.next < n && !d.job.Ahead(d.next) {
			d.next++ // the reader's own
		}
		if d.stop || d.next >= n {
			return
		}
		size := d.job.Size(d.next)
		if d.next >= d.consumed+len(d.slots) || d.inFlight > 0 && d.inFlight+size > d.max {
			d.cond.Wait() // the slot is still the reader's, or enough is ahead
			continue
		}
		d.inFlight += size
		k := d.next
		d.next++
		s := &d.slots[k%len(d.slots)]
		s.seq, s.ready, s.panicked = k, false, nil
		d.mu.Unlock()
		d.decode(k, s)
		d.mu.Lock()
		s.ready = true
		d.cond.Broadcast()
	}
}

func (d *Decoder[S]) decode(k int, s *slot[S]) {
	defer func() {
		if p := recover(); p != nil {
			s.panicked = p
		}
	}()
	d.job.Decode(k, &s.state)
}

// Get waits for block k and returns the state it was decoded into, or
// false when k is not a block decoded ahead. A panic decoding it is raised
// here. The state is the reader's until it calls At with a later block.
func (d *Decoder[S]) Get(k int) (*S, bool) {
	if !d.job.Ahead(k) {
		return nil, false
	}
	s := &d.slots[k%len(d.slots)]
	d.mu.Lock()
	for s.seq != k || !s.ready {
		d.cond.Wait()
	}
	d.mu.Unlock()
	if p := s.panicked; p != nil {
		s.panicked = nil
		panic(p)
	}
	return &s.state, true
}

// At tells the goroutines that the reader is done with the blocks before
// k. The reader calls it before it gets block k (or reads it itself).
func (d *Decoder[S]) At(k int) {
	d.mu.Lock()
	if k > d.consumed {
		for b := d.consumed; b < k && b < d.next; b++ {
			if d.job.Ahead(b) {
				d.inFlight -= d.job.Size(b)
			}
		}
		d.consumed = k
		d.cond.Broadcast()
	}
	d.mu.Unlock()
}

// Close stops the goroutines and waits for them: none touches what the
// job decodes into afterwards. each, when not nil, is then called with
// every slot's state (to drop what it must not keep).
func (d *Decoder[S]) Close(each func(*S)) {
	d.mu.Lock()
	d.stop = true
	d.cond.Broadcast()
	d.mu.Unlock()
	d.wg.Wait()
	d.job = nil
	for i := range d.slots {
		d.slots[i].panicked = nil
		if each != nil {
			each(&d.slots[i].state)
		}
	}
}
