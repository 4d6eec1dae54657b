//go:build !js

package binread

import "io"

// Slicer is implemented by a reader that can hand out n bytes at off as a
// slice of memory it holds instead of a copy (the CLI maps a file too big
// to read whole this way): an export's bytes then need no buffer of their
// size, and only the pages decoding reads are brought in. ok is false
// when it cannot; the slice stays valid until the reader is closed.
type Slicer interface {
	Slice(off, n int64) (b []byte, ok bool)
}

// CanSlice reports whether readers may be Slicers here (see slice_js.go):
// code guarding SliceOf with it leaves the path out where they are not.
const CanSlice = true

// SliceOf returns n bytes at off of r as a slice of r's memory when r is
// a Slicer that can give them.
func SliceOf(r io.ReaderAt, off, n int64) ([]byte, bool) {
	if s, ok := r.(Slicer); ok {
		return s.Slice(off, n)
	}
	return nil, false
}
