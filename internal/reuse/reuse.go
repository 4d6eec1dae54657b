// Package reuse keeps memory that a caller opening many files in turn
// (verify) hands back once it is done with a file, for the next files.
// Unlike a sync.Pool it survives garbage collections (verify collects
// rarely, so fresh memory would mean fresh pages), and it keeps little.
package reuse

import (
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// kept is how many slices a Slices keeps: one per worker of a verify run,
// and a few more.
const kept = 4

// Slices keeps the largest few slices given to it, of at most Max entries
// each. The zero value keeps slices of any size.
type Slices[T any] struct {
	Max  int
	mu   sync.Mutex
	free [][]T
}

// Get returns the smallest kept slice with room for n entries, emptied,
// or a new one of binread.SliceCap(n). A kept slice is not cleared: its
// user fills it by append, and what lies past its length is never read.
func (c *Slices[T]) Get(n int) []T {
	c.mu.Lock()
	best := -1
	for i, s := range c.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(c.free[best])) {
			best = i
		}
	}
	if best < 0 {
		c.mu.Unlock()
		return make([]T, 0, binread.SliceCap(n))
	}
	s := c.free[best]
	last := len(c.free) - 1
	c.free[best], c.free[last] = c.free[last], nil
	c.free = c.free[:last]
	c.mu.Unlock()
	return s[:0]
}

// Put keeps s for reuse; when the cache is full, s replaces its smallest
// slice if it is larger. Nothing may use s afterwards.
func (c *Slices[T]) Put(s []T) {
	if cap(s) == 0 || c.Max > 0 && cap(s) > c.Max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.free) < kept {
		c.free = append(c.free, s[:0])
		return
	}
	small := 0
	for i, f := range c.free {
		if cap(f) < cap(c.free[small]) {
			small = i
		}
	}
	if cap(c.free[small]) < cap(s) {
		c.free[small] = s[:0]
	}
}
