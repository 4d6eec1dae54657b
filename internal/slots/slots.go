// Package slots is a hash index of int32 values whose keys the caller
// holds (a chunk index whose key is the chunk's ID, say): an
// open-addressing table kept at most half full, 8 to 16 bytes an entry
// with no pointers for the collector, where a Go map of the same keys took
// 30 to 40.
//
// Keys come from the files read, so hashes are mixed with a seed that
// differs from run to run: a file cannot be made to put its keys in one
// run of slots (which would make building the index quadratic).
package slots

import "time"

// seed is mixed into every hash (see Hash): the clock's nanoseconds at
// start-up (math/rand would do, but makes the page's WebAssembly modules
// bigger).
var seed = uint64(time.Now().UnixNano())*0x9e3779b97f4a7c15 | 1

// Hash mixes key with the process's seed into the hash an Index takes.
func Hash(key uint64) uint64 {
	// The finalizer of MurmurHash3, over key and seed.
	h := key ^ seed
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// Hash2 is Hash of a key of two words (a 12-byte chunk ID, say).
func Hash2(a, b uint64) uint64 { return Hash(Hash(a) ^ b) }

// Index maps hashes to int32 values (from 0 to MaxInt32-1).
type Index struct {
	slots []int32 // value + 1; 0 for an empty slot
	mask  uint64
	used  int
}

// New returns an index with room for n values.
func New(n int) *Index {
	size := 8
	for size < 2*n {
		size *= 2
	}
	return &Index{slots: make([]int32, size), mask: uint64(size - 1)}
}

// Len returns the number of slots (twice the values it has room for, or
// more).
func (x *Index) Len() int { return len(x.slots) }

// Put adds v under hash h. When a value already there has v's key (same
// reports whether value u has it), Put keeps the one that was there (first
// wins) or, with replace, puts v in its place (last wins). It reports
// whether the key was new. Past the room New made, new keys are refused.
func (x *Index) Put(h uint64, v int32, same func(u int32) bool, replace bool) bool {
	for k := h & x.mask; ; k = (k + 1) & x.mask {
		s := x.slots[k]
		if s == 0 {
			if 2*(x.used+1) > len(x.slots) {
				return false
			}
			x.slots[k] = v + 1
			x.used++
			return true
		}
		if same(s - 1) {
			if replace {
				x.slots[k] = v + 1
			}
			return false
		}
	}
}

// Get returns the value under hash h whose key is the one looked for (is
// reports whether value u has it).
func (x *Index) Get(h uint64, is func(u int32) bool) (int32, bool) {
	for k := h & x.mask; ; k = (k + 1) & x.mask {
		s := x.slots[k]
		if s == 0 {
			return 0, false
		}
		if is(s - 1) {
			return s - 1, true
		}
	}
}
