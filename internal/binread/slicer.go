package binread

// Slicer is implemented by a reader that can hand out n bytes at off as a
// slice of memory it holds instead of a copy (the CLI maps a file too big
// to read whole this way): an export's bytes then need no buffer of their
// size, and only the pages decoding reads are brought in. ok is false
// when it cannot; the slice stays valid until the reader is closed. (See
// SliceOf and CanSlice, which the WebAssembly build leaves out.)
type Slicer interface {
	Slice(off, n int64) (b []byte, ok bool)
}
