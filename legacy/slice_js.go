package legacy

import "io"

// canSlice is false here: the page reads packages from memory it is given
// and maps nothing, so view's slicer path is left out of the WebAssembly
// (see slice.go).
const canSlice = false

func sliceOf(io.ReaderAt, int64, int64) ([]byte, bool) { return nil, false }
