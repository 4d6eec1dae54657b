//go:build !js

package binread

import "io"

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
