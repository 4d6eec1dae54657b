package iostore

import (
	"sync"

	"github.com/upkg/upkg/internal/ahead"
)

// The compression blocks of a chunk are independent streams (64 KiB of
// output each in shipped games), so a big chunk decodes on the idle cores:
// while walkRange or a chunk stream consumes the blocks in order
// (appending them to the chunk's buffer, handing them to a sink that
// hashes them, or returning them from Read), goroutines decode the blocks
// after it, at most aheadBytes of them ahead (package ahead). A block that
// lies whole in a chunk read into a buffer big enough for all of it is
// decoded straight into its place there. What a read gives, and the error
// it stops at, are those of decoding the blocks one after the other.

// maxAheadBlocks bounds the blocks decoded ahead whatever their size.
const maxAheadBlocks = 256

// aheadSlot is a block decoded ahead: what readBlock gave for it.
type aheadSlot struct {
	inPlace bool // decoded straight into the chunk's buffer, at its place
	plain   []byte
	err     error
	// raw and dec are the slot's own buffers, kept from block to block:
	// the stored bytes, and the decompressed ones (never an alias of raw
	// or of the file).
	raw, dec []byte
}

// blockAhead decodes the blocks first to last of one read ahead of it (an
// ahead.Job; block k of the job is block first+k of the container).
type blockAhead struct {
	f           *File
	first, last int
	// into is the chunk's buffer when every block may be decoded into
	// place (a read into memory whose buffer holds the whole range), and
	// pos where each block's bytes go there.
	into []byte
	pos  []uint64
	n    uint64 // the range's length
	in   uint64 // where it starts in its first block
	d    ahead.Decoder[aheadSlot]
}

// aheadPool keeps the decoders, with their slots' buffers, between reads.
var aheadPool sync.Pool // *blockAhead

// decodes reports whether walkRange reads block blk through readBlock
// (rather than as part of a run of stored blocks).
func (f *File) decodes(blk CompressionBlock) bool {
	return blk.MethodIndex != 0 || f.Header.ContainerFlags&FlagEncrypted != 0 || f.Signature != nil
}

func (a *blockAhead) Blocks() int       { return a.last - a.first + 1 }
func (a *blockAhead) Ahead(k int) bool  { return a.f.decodes(a.f.Block(a.first + k)) }
func (a *blockAhead) Size(k int) uint64 { return uint64(a.f.Block(a.first + k).UncompressedSize) }

// Decode reads and decodes block k into s, or into its place in the
// chunk's buffer.
func (a *blockAhead) Decode(k int, s *aheadSlot) {
	b := a.first + k
	blk := a.f.Block(b)
	out := s.dec
	s.inPlace = false
	if a.into != nil && blk.MethodIndex != 0 && (k > 0 || a.in == 0) {
		pos, size := a.pos[k], uint64(blk.UncompressedSize)
		if size <= a.n-min(pos, a.n) {
			out = a.into[pos : pos+size : pos+size]
			s.inPlace = true
		}
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

// startAhead starts decoding blocks first to last, which hold n bytes from
// offset in in the first, ahead of the read, or returns nil when it is not
// worth it (ahead.Workers). into is the chunk's buffer (nil for a sink or
// a stream): blocks are decoded into place when it has room for all n
// bytes.
func (f *File) startAhead(first, last int, in, n uint64, into []byte) *blockAhead {
	if !aheadBuilt {
		return nil // (the WebAssembly module leaves the rest out)
	}
	// What the blocks to decode expand to, and the biggest of them as
	// stored or expanded: the slots (each keeps the buffers of the blocks
	// it held) hold at most aheadBytes of such blocks, two per goroutine,
	// so that a TOC claiming huge blocks gets no more memory decoded ahead
	// than one read one block after the other.
	var sum, biggest uint64
	for b := first; b <= last; b++ {
		if blk := f.Block(b); f.decodes(blk) {
			sum += uint64(blk.UncompressedSize)
			biggest = max(biggest, uint64(blk.UncompressedSize), uint64(blk.CompressedSize))
		}
	}
	slots := aheadBytes / max(biggest, 1)
	if biggest <= maxPooledBlock {
		slots = max(slots, 4) // however little ahead: blocks of a shipped game's size
	}
	slots = min(slots, maxAheadBlocks)
	workers := ahead.Workers(sum, parallelMinShare, int(slots))
	if workers < 2 {
		return nil
	}
	a, _ := aheadPool.Get().(*blockAhead)
	if a == nil {
		a = &blockAhead{}
	}
	a.f, a.first, a.last, a.n, a.in = f, first, last, n, in
	a.into, a.pos = nil, a.pos[:0]
	if uint64(cap(into)) >= n {
		// The places: each block gives its bytes (less where the range
		// starts in the first), up to the range's end.
		a.into = into[:cap(into)]
		var done uint64
		for b := first; b <= last; b++ {
			a.pos = append(a.pos, done)
			size := uint64(f.Block(b).UncompressedSize)
			if b == first {
				size -= min(size, in)
			}
			done += min(size, n-min(done, n))
		}
	}
	a.d.Start(a, workers, aheadBytes, int(slots))
	return a
}

// get returns what decoding block b gave, with inPlace set when it was
// decoded into the chunk's buffer at its place (then plain is that part of
// the buffer), and false when b is not a block decoded ahead (the read
// decodes it itself).
func (a *blockAhead) get(b int) (plain []byte, inPlace bool, err error, ok bool) {
	s, ok := a.d.Get(b - a.first)
	if !ok {
		return nil, false, nil, false
	}
	return s.plain, s.inPlace, s.err, true
}

// at tells the decoding goroutines that the read is done with the blocks
// before b.
func (a *blockAhead) at(b int) { a.d.At(b - a.first) }

// close stops the decoding goroutines and waits for them (none writes into
// the chunk's buffer afterwards), and gives the decoder back for reuse.
func (a *blockAhead) close() {
	a.d.Close(func(s *aheadSlot) {
		if cap(s.raw) > maxPooledBlock {
			s.raw = nil
		}
		if cap(s.dec) > maxPooledBlock {
			s.dec = nil
		}
		s.plain, s.err = nil, nil
	})
	a.f, a.into = nil, nil
	if cap(a.pos) > 4<<10 {
		a.pos = nil
	}
	aheadPool.Put(a)
}
