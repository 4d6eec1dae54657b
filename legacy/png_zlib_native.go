//go:build !wasm

package legacy

import (
	"compress/zlib"
	"io"
)

// newZlibWriter is compress/zlib's writer (default level) for PNG data.
func newZlibWriter(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) }
