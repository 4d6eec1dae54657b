//go:build wasm

package uasset

import "github.com/upkg/upkg/internal/binread"

// The browser opens one package at a time: the page keeps no caches of
// released memory (release.go), which would only grow its WebAssembly.

// Release does nothing in the browser build (see release.go).
func (f *File) Release() {}

func newNames(n int) []NameEntry      { return make([]NameEntry, 0, binread.SliceCap(n)) }
func newImports(n int) []ObjectImport { return make([]ObjectImport, 0, binread.SliceCap(n)) }
func newExports(n int) []ObjectExport { return make([]ObjectExport, 0, binread.SliceCap(n)) }

func cachedFile() *File { return new(File) }

func cachedMemos() *inferMemos {
	m := new(inferMemos)
	m.sums.entries = m.sumsBuf[:0]
	return m
}
