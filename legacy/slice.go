//go:build !js

package legacy

import "io"

// slicer is implemented by a reader that can hand out n bytes at off as a
// slice of memory it holds (the CLI maps a package too big to read whole
// this way): an object's bytes then need no buffer of their size, and
// only the pages decoding reads are brought in. ok is false when it
// cannot; the slice stays valid until the reader is closed.
type slicer interface {
	Slice(off, n int64) (b []byte, ok bool)
}

// canSlice: readers may be slicers (see slice_js.go).
const canSlice = true

// sliceOf returns n bytes at off of r as a slice of r's memory when r is
// a slicer that can give them.
func sliceOf(r io.ReaderAt, off, n int64) ([]byte, bool) {
	if s, ok := r.(slicer); ok {
		return s.Slice(off, n)
	}
	return nil, false
}
