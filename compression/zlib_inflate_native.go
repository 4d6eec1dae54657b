//go:build !wasm

package compression

import (
	"io"

	"github.com/klauspost/compress/zlib"
)

// newZlibReader is klauspost/compress's zlib reader (about 1.4x the
// standard library's inflate speed on container blocks).
func newZlibReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }
