//go:build !wasm

package iostore

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The compression blocks of a chunk are independent streams (64 KiB of
// output each in shipped games), so a big chunk decodes on the idle cores
// (not in the browser, which runs one goroutine at a time: ahead_wasm.go):
// while walkRange or a chunk stream consumes the blocks in order
// (appending them to the chunk's buffer, handing them to a sink that
// hashes them, or returning them from Read), goroutines on the processors
// nothing else keeps busy decode the blocks after it, at most aheadBytes
// of them ahead. A block that lies whole in a chunk read into a buffer big
// enough for all of it is decoded straight into its place there. What a
// read gives, and the error it stops at, are those of decoding the blocks
// one after the other.

// maxAheadBlocks bounds the blocks decoded ahead whatever their size.
const maxAheadBlocks = 256

// aheadSlot is a block decoded ahead: what readBlock gave for it, or the
// panic decoding it raised, kept to be raised when walkRange reaches it,
// as it would have been then.
type aheadSlot struct {
	seq      int // the block's index less first (-1: none yet)
	ready    bool
	inPlace  bool // decoded straight into the chunk's buffer at pos
	pos      int
	plain    []byte
	err      error
	panicked any
	// raw and dec are the slot's own buffers, kept from block to block:
	// the stored bytes, and the decompressed ones (never an alias of raw
	// or of the file).
	raw, dec []byte
}

// ahead decodes the blocks of one walkRange ahead of it.
type ahead struct {
	f           *File
	first, last int
	// into is the chunk's buffer when every block may be decoded into
	// place (a read into memory whose buffer holds the whole range).
	into []byte
	// n and in are the range's length and where it starts in its first
	// block, to place the blocks in into.
	n, in uint64

	mu   sync.Mutex
	cond sync.Cond
	// next is the next block (less first) a goroutine takes, nextPos
	// where its bytes go in into; consumed counts the blocks walkRange
	// is done with, and inFlight is what the blocks taken and not yet
	// consumed expand to.
	next, consumed int
	nextPos        uint64
	inFlight       uint64
	stop           bool
	slots          []aheadSlot
	wg             sync.WaitGroup
}

// aheadPool keeps the decoders, with their slots' buffers, between reads.
var aheadPool sync.Pool // *ahead

// decodes reports whether walkRange reads block blk through readBlock
// (rather than as part of a run of stored blocks).
func (f *File) decodes(blk CompressionBlock) bool {
	return blk.MethodIndex != 0 || f.Header.ContainerFlags&FlagEncrypted != 0 || f.Signature != nil
}

// startAhead starts decoding blocks first to last, which hold n bytes from
// offset in in the first, ahead of walkRange, or returns nil when they
// hold too little to decode for more than one goroutine. into is the
// chunk's buffer (nil for a sink): blocks are decoded into place when it
// has room for all n bytes.
func (f *File) startAhead(first, last int, in, n uint64, into []byte) *ahead {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 {
		return nil
	}
	// What the blocks to decode expand to, as far as it takes to tell
	// how many goroutines get a share of it.
	var sum uint64
	for b := first; b <= last && sum < uint64(procs)*parallelMinShare; b++ {
		if blk := f.Block(b); f.decodes(blk) {
			sum += uint64(blk.UncompressedSize)
		}
	}
	if sum < 2*parallelMinShare {
		return nil
	}
	a, _ := aheadPool.Get().(*ahead)
	if a == nil {
		a = &ahead{}
		a.cond.L = &a.mu
	}
	a.f, a.first, a.last, a.n, a.in = f, first, last, n, in
	a.into = nil
	if uint64(cap(into)) >= n {
		a.into = into[:cap(into)]
	}
	a.next, a.consumed, a.nextPos, a.inFlight, a.stop = 0, 0, 0, 0, false
	k := int(min(aheadBytes/max(uint64(f.Header.CompressionBlockSize), 1), maxAheadBlocks))
	k = max(k, 2*procs)
	if cap(a.slots) < k {
		a.slots = append(a.slots[:cap(a.slots)], make([]aheadSlot, k-cap(a.slots))...)
	}
	a.slots = a.slots[:k]
	for i := range a.slots {
		a.slots[i].seq, a.slots[i].ready = -1, false
	}
	// Processors the other goroutines keep busy are not taken (verify
	// and extract run a file per processor): the caller's, which mostly
	// waits for the blocks, and the idle ones.
	workers := int(min(uint64(procs), sum/parallelMinShare, uint64(idleProcs(procs)+1)))
	if workers < 2 {
		return nil
	}
	fault := debug.SetPanicOnFault(true) // helpers fault as the caller does
	debug.SetPanicOnFault(fault)
	for range workers {
		a.wg.Go(func() {
			debug.SetPanicOnFault(fault)
			a.work()
		})
	}
	return a
}

// schedSamples are the scheduler metrics idleProcs reads.
var schedSamples = sync.Pool{New: func() any {
	return &[2]metrics.Sample{{Name: "/sched/goroutines/running:goroutines"}, {Name: "/sched/goroutines/runnable:goroutines"}}
}}

// idleProcs returns how many of the procs processors no goroutine runs on
// or waits for, as the scheduler counts them now (a variable: tests that
// need blocks decoded ahead whatever else runs replace it).
var idleProcs = schedIdleProcs

func schedIdleProcs(procs int) int {
	s := schedSamples.Get().(*[2]metrics.Sample)
	defer schedSamples.Put(s)
	metrics.Read(s[:])
	busy := 0
	for _, m := range s {
		if m.Value.Kind() == metrics.KindUint64 {
			busy += int(min(m.Value.Uint64(), uint64(procs)))
		}
	}
	return max(procs-busy, 0)
}

// contribution returns how many bytes of the range block j (less first)
// gives, with done bytes given before it.
func (a *ahead) contribution(j int, done uint64) uint64 {
	size := uint64(a.f.Block(a.first + j).UncompressedSize)
	if j == 0 {
		size -= min(size, a.in)
	}
	return min(size, a.n-min(done, a.n))
}

// work decodes blocks ahead until the range is done or walkRange stops.
func (a *ahead) work() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for {
		// Blocks of stored runs are walkRange's; their bytes count for
		// the places of the blocks after them.
		for !a.stop && a.first+a.next <= a.last && !a.f.decodes(a.f.Block(a.first+a.next)) {
			a.nextPos += a.contribution(a.next, a.nextPos)
			a.next++
		}
		if a.stop || a.first+a.next > a.last {
			return
		}
		size := uint64(a.f.Block(a.first + a.next).UncompressedSize)
		if a.next >= a.consumed+len(a.slots) || a.inFlight > 0 && a.inFlight+size > aheadBytes {
			a.cond.Wait() // the slot is still walkRange's, or enough is ahead
			continue
		}
		a.inFlight += size
		j, pos := a.next, a.nextPos
		a.nextPos += a.contribution(j, pos)
		a.next++
		s := &a.slots[j%len(a.slots)]
		s.seq, s.ready, s.pos, s.err, s.panicked = j, false, int(pos), nil, nil
		a.mu.Unlock()
		a.decode(s, j)
		a.mu.Lock()
		s.ready = true
		a.cond.Broadcast()
	}
}

// decode reads and decodes block j (less first) into its slot, or into
// its place in the chunk's buffer, keeping a panic for get to raise.
func (a *ahead) decode(s *aheadSlot, j int) {
	defer func() {
		if p := recover(); p != nil {
			s.panicked = p
		}
	}()
	b := a.first + j
	blk := a.f.Block(b)
	out := s.dec
	s.inPlace = false
	size := uint64(blk.UncompressedSize)
	if a.into != nil && blk.MethodIndex != 0 && (j > 0 || a.in == 0) && size <= a.n-min(uint64(s.pos), a.n) {
		out = a.into[s.pos : s.pos+int(size) : s.pos+int(size)]
		s.inPlace = true
	}
	s.raw, s.plain, s.err = a.f.readBlock(b, blk, s.raw, out)
	if s.err != nil || blk.MethodIndex == 0 {
		s.inPlace = false
		return
	}
	if s.inPlace && (len(s.plain) == 0 || &s.plain[0] != &out[0]) {
		s.inPlace = false // cannot happen: readBlock decodes into out, which fits
	}
	if !s.inPlace {
		s.dec = s.plain // decompressed into (maybe a grown) dec
	}
}

// get waits for block b and returns what decoding it gave, with
// inPlace set when it was decoded into the chunk's buffer at its place
// (then plain is that part of the buffer), and false when b is not a
// block decoded ahead (walkRange reads it itself). The block's slot is
// walkRange's until it calls at with a later block.
func (a *ahead) get(b int) (plain []byte, inPlace bool, err error, ok bool) {
	if !a.f.decodes(a.f.Block(b)) {
		return nil, false, nil, false
	}
	j := b - a.first
	s := &a.slots[j%len(a.slots)]
	a.mu.Lock()
	for s.seq != j || !s.ready {
		a.cond.Wait()
	}
	a.mu.Unlock()
	if p := s.panicked; p != nil {
		s.panicked = nil
		panic(p)
	}
	return s.plain, s.inPlace, s.err, true
}

// at tells the goroutines that walkRange is done with the blocks before b.
func (a *ahead) at(b int) {
	a.mu.Lock()
	if j := b - a.first; j > a.consumed {
		for k := a.consumed; k < j && k < a.next; k++ {
			if blk := a.f.Block(a.first + k); a.f.decodes(blk) {
				a.inFlight -= uint64(blk.UncompressedSize)
			}
		}
		a.consumed = j
		a.cond.Broadcast()
	}
	a.mu.Unlock()
}

// close stops the goroutines and waits for them (none writes into the
// chunk's buffer afterwards), and gives the decoder back for reuse.
func (a *ahead) close() {
	a.mu.Lock()
	a.stop = true
	a.cond.Broadcast()
	a.mu.Unlock()
	a.wg.Wait()
	for i := range a.slots {
		s := &a.slots[i]
		if cap(s.raw) > maxPooledBlock {
			s.raw = nil
		}
		if cap(s.dec) > maxPooledBlock {
			s.dec = nil
		}
		s.plain, s.err, s.panicked = nil, nil, nil
	}
	a.f, a.into = nil, nil
	aheadPool.Put(a)
}
