//go:build !wasm

package uasset

import (
	"slices"
	"sync"

	"github.com/upkg/upkg/internal/reuse"
)

// Release gives f and the memory of its name, import and export maps back
// for reuse by later [NewFile] calls, for callers that open many packages
// in turn and keep nothing of them (verify). Neither f nor anything read
// from it (the slices it had, the exports' data) may be used afterwards;
// strings may.
func (f *File) Release() {
	nameCache.Put(f.Names)
	importCache.Put(f.Imports)
	exportCache.Put(f.Exports)
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
		if len(memoCache.free) < maxCachedMemos {
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
func newNames(n int) []NameEntry      { return nameCache.Get(n) }
func newImports(n int) []ObjectImport { return importCache.Get(n) }
func newExports(n int) []ObjectExport { return exportCache.Get(n) }

// The caches below keep the table storage of released Files, so that
// verifying many packages reuses it instead of faulting in fresh memory for
// each (verify collects garbage rarely). Unlike a sync.Pool they survive
// garbage collections. Reused storage is not cleared: the tables are filled
// by append of a zero entry that is then read in place, and what lies past
// their end is never read.
// Each keeps slices of up to about 2 MiB (entries of 40, 40 and 128 bytes).
var (
	nameCache   = reuse.Slices[NameEntry]{Max: 1 << 16}
	importCache = reuse.Slices[ObjectImport]{Max: 1 << 16}
	exportCache = reuse.Slices[ObjectExport]{Max: 1 << 14}
)

// maxCachedMemos is how many memos memoCache keeps: one per worker of a
// verify run, and a few more.
const maxCachedMemos = 4

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
