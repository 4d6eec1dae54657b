package binread

import "io"

// CanSlice is false here: the page reads packages from memory it is given
// (Mem) and maps nothing, so the code SliceOf serves, guarded by it, is
// left out of the WebAssembly (see slice.go).
const CanSlice = false

// SliceOf never can here.
func SliceOf(io.ReaderAt, int64, int64) ([]byte, bool) { return nil, false }
