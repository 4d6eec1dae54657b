//go:build wasm

package compression

import (
	"compress/zlib"
	"io"
)

// newZlibReader is the standard library's zlib reader in WebAssembly, where
// compression.go links it already and a second inflater would only grow
// the page.
func newZlibReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }
