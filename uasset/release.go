//go:build !wasm

package uasset

import (
	"slices"
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// Release gives f and the memory of its name, import and export maps back
// for reuse by later [NewFile] calls, for callers that open many packages
// in turn and keep nothing of them (verify). Neither f nor anything read
// from it (the slices it had, the exports' data) may be used afterwards;
// strings may.
func (f *File) Release() {
	nameCache.put(f.Names)
	importCache.put(f.Imports)
	exportCache.put(f.Exports)
	// The other candidates of f's inference share f's tables (which go to
	// the caches once, above) and the memos; their own section arrays
	// are theirs unless f's are the same ones.
	for i, g := range f.others {
		if g != f && !slices.Contains(f.others[:i], g) && !sameArray(g.Sections, f.Sections) && !sameArray(g.sers, f.sers) {
			recycleFile(g)
		}
	}
	if m := f.memos; m != nil {
		// Inference's memos, which only its candidates used.
		*m = inferMemos{}
		memoCache.Lock()
		if len(memoCache.free) < maxCachedSlices {
			memoCache.free = append(memoCache.free, m)
		}
		memoCache.Unlock()
	}
	recycleFile(f)
}

// recycleFile empties f, keeping its section lists' arrays (cleared), and
// keeps it for newFile.
func recycleFile(f *File) {
	secs, sers := f.Sections[:0], f.sers[:0]
	clear(secs[:cap(secs)])
	clear(sers[:cap(sers)])
	*f = File{Sections: secs, sers: sers}
	fileCache.Lock()
	if len(fileCache.free) < maxCachedFiles {
		fileCache.free = append(fileCache.free, f)
	}
	fileCache.Unlock()
}

// maxCachedFiles is how many Files fileCache keeps: a few per worker of a
// verify run (a package's inference makes a few).
const maxCachedFiles = 16

// sameArray reports whether a and b have the same backing array.
func sameArray[E any](a, b []E) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// fileCache keeps released Files for newFile.
var fileCache struct {
	sync.Mutex
	free []*File
}

// cachedFile returns a released File, or a new one.
func cachedFile() *File {
	fileCache.Lock()
	defer fileCache.Unlock()
	n := len(fileCache.free)
	if n == 0 {
		return new(File)
	}
	f := fileCache.free[n-1]
	fileCache.free[n-1] = nil
	fileCache.free = fileCache.free[:n-1]
	return f
}

// newNames, newImports and newExports return empty tables with room for n
// entries, from the caches when they have such.
func newNames(n int) []NameEntry      { return nameCache.get(n) }
func newImports(n int) []ObjectImport { return importCache.get(n) }
func newExports(n int) []ObjectExport { return exportCache.get(n) }

// The caches below keep the table storage of released Files, so that
// verifying many packages reuses it instead of faulting in fresh memory for
// each (verify collects garbage rarely). Unlike a sync.Pool they survive
// garbage collections. Reused storage is not cleared: the tables are filled
// by append of a zero entry that is then read in place, and what lies past
// their end is never read.
// Each keeps slices of up to about 2 MiB (entries of 40, 40 and 128 bytes).
var (
	nameCache   = sliceCache[NameEntry]{max: 1 << 16}
	importCache = sliceCache[ObjectImport]{max: 1 << 16}
	exportCache = sliceCache[ObjectExport]{max: 1 << 14}
)

// maxCachedSlices is how many slices a sliceCache keeps: one per worker of
// a verify run, and a few more.
const maxCachedSlices = 4

// sliceCache keeps the largest few slices given to it, of at most max
// entries each, so what it keeps stays small.
type sliceCache[T any] struct {
	sync.Mutex
	max  int
	free [][]T
}

// get returns the smallest kept slice with room for n entries, emptied,
// or a new one of binread.SliceCap(n).
func (c *sliceCache[T]) get(n int) []T {
	c.Lock()
	best := -1
	for i, s := range c.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(c.free[best])) {
			best = i
		}
	}
	if best < 0 {
		c.Unlock()
		return make([]T, 0, binread.SliceCap(n))
	}
	s := c.free[best]
	last := len(c.free) - 1
	c.free[best], c.free[last] = c.free[last], nil
	c.free = c.free[:last]
	c.Unlock()
	return s[:0]
}

// put keeps s for reuse; when the cache is full, s replaces its smallest
// slice if it is larger.
func (c *sliceCache[T]) put(s []T) {
	if cap(s) == 0 || cap(s) > c.max {
		return
	}
	c.Lock()
	defer c.Unlock()
	if len(c.free) < maxCachedSlices {
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

// memoCache keeps the memos of released Files for the next inference.
var memoCache struct {
	sync.Mutex
	free []*inferMemos
}

// cachedMemos returns emptied memos of a released File, or new ones.
func cachedMemos() *inferMemos {
	memoCache.Lock()
	n := len(memoCache.free)
	var m *inferMemos
	if n > 0 {
		m = memoCache.free[n-1]
		memoCache.free[n-1] = nil
		memoCache.free = memoCache.free[:n-1]
	}
	memoCache.Unlock()
	if m == nil {
		m = new(inferMemos)
	}
	m.sums.entries = m.sumsBuf[:0]
	return m
}
