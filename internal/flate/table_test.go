package flate

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomLengths returns the code lengths of a random complete prefix code
// over n symbols with codes of at most 15 bits: leaves of a binary tree
// split at random, deep trees preferred when deep is set.
func randomLengths(r *rand.Rand, n int, deep bool) []uint8 {
	leaves := []uint8{0}
	for len(leaves) < n {
		i := r.IntN(len(leaves))
		if deep && r.IntN(4) != 0 {
			i = len(leaves) - 1 - r.IntN(min(len(leaves), 3))
		}
		if leaves[i] == maxCodeLen {
			continue
		}
		leaves[i]++
		leaves = slices.Insert(leaves, i+1, leaves[i])
	}
	r.Shuffle(len(leaves), func(i, j int) { leaves[i], leaves[j] = leaves[j], leaves[i] })
	return leaves
}

// TestBuildTables builds the literal/length and distance tables of random
// complete codes, many of them with long codes in subtables, and looks up
// every symbol's code.
func TestBuildTables(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var table [litTableSize]uint32
	for round := range 3000 {
		n, size, tbits, syms := 286, litTableSize, uint(litTableBits), litSymbols[:]
		if round%2 == 1 {
			n, size, tbits, syms = 30, distTableSize, distTableBits, distSymbols[:]
		}
		n = 2 + r.IntN(n-1)
		lengths := randomLengths(r, n, round%3 != 0)
		var h huffman
		if !h.build(table[:size], tbits, lengths, syms) {
			t.Fatalf("round %d: complete code %v rejected", round, lengths)
		}
		// Canonical codes, as RFC 1951 3.2.2 assigns them.
		var count, next [maxCodeLen + 2]int
		for _, l := range lengths {
			count[l]++
		}
		count[0] = 0
		for l := 1; l <= maxCodeLen; l++ {
			next[l+1] = (next[l] + count[l]) << 1
		}
		for sym, l := range lengths {
			code := next[l]
			next[l]++
			rev := uint64(bits.Reverse16(uint16(code)) >> (16 - l))
			bitsIn := rev | uint64(r.Uint32())<<l // what follows the code
			e := h.table[bitsIn&(1<<tbits-1)]
			if e&entrySub != 0 {
				e = h.table[e>>16+uint32(bitsIn>>tbits)&(1<<(e>>8&15)-1)]
			}
			if want := syms[sym] + uint32(l) | uint32(l)<<8; e != want {
				t.Fatalf("round %d: symbol %d (length %d): entry %#x, want %#x", round, sym, l, e, want)
			}
		}
	}
}
