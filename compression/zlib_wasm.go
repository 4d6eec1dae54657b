//go:build wasm

package compression

import (
	"errors"
	"fmt"

	"github.com/upkg/upkg/internal/flate"
)

// The WebAssembly build decodes Zlib and Gzip with internal/flate, which
// works on whole blocks and is much smaller than compress/flate, zlib and
// gzip. Results and errors are those of the native readers through
// readExact: the same output, ErrSize for a stream longer than dst, and the
// format errors wrapped with the method's name.
func init() {
	Register("Zlib", func(dst, src []byte) error { return flateResult("zlib", flate.ZlibDecompress(dst, src)) })
	Register("Gzip", func(dst, src []byte) error { return flateResult("gzip", flate.GzipDecompress(dst, src)) })
}

func flateResult(name string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flate.ErrTooLong):
		return ErrSize
	}
	return fmt.Errorf("%s: %w", name, err)
}
