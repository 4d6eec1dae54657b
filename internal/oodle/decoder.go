package oodle

import "sync"

// decoder holds the scratch memory of a Decompress call, reused across
// chunks and (through decoders) across calls, so that decoding a block
// allocates nothing once the scratch has grown to fit.
type decoder struct {
	// arena holds the decoded byte arrays of the chunk being decoded; reset
	// empties it when the next chunk starts. used is how much is handed
	// out; need is how much the chunk asked for in all (more than fits is
	// allocated apart, and the arena grows to need at the next reset).
	arena []byte
	used  int
	need  int

	lut    huffLUT
	tans   [1 << 11]tansEntry
	rice   [512]int // Golomb-Rice values of a code-length table (256 symbols + 255 range fields)
	ranges [128]symRange

	kt   krakenTable
	long [512]uint32 // long lengths of a chunk
}

// maxArena bounds the arena kept between chunks: a 128 KiB chunk needs about
// 2.5 times its size for its arrays; bigger demands are served apart.
const maxArena = 1 << 20

var decoders = sync.Pool{New: func() any { return new(decoder) }}

// reset starts a chunk: the arrays of the previous chunk are no longer used.
func (d *decoder) reset() {
	if d.need > len(d.arena) {
		// Twice the old arena at least: chunk after chunk needing a little
		// more would otherwise each cost a new one.
		d.arena = make([]byte, min(max(d.need, 2*len(d.arena)), maxArena))
	}
	d.used, d.need = 0, 0
}

// alloc returns n bytes of scratch for a decoded array (not zeroed: every
// decoder writes all of its output before it is read).
func (d *decoder) alloc(n int) []byte {
	d.need += n
	if n <= len(d.arena)-d.used {
		b := d.arena[d.used : d.used+n : d.used+n]
		d.used += n
		return b
	}
	return make([]byte, n)
}
