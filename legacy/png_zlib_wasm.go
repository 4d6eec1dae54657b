//go:build wasm

package legacy

import (
	"io"

	"github.com/upkg/upkg/internal/flate"
)

// newZlibWriter is internal/flate's writer for PNG data in the WebAssembly
// build, which would otherwise link compress/flate's compressor for it
// alone. Its PNG files are somewhat larger than native ones (fixed Huffman
// codes) and hold the same pixels.
func newZlibWriter(w io.Writer) io.WriteCloser { return flate.NewZlibWriter(w) }
