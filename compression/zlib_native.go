//go:build !wasm

package compression

import (
	"bytes"
	"compress/gzip"
	"fmt"
)

// Native programs decode Gzip with the standard library (Zlib: zlib.go).
func init() {
	Register("Gzip", func(dst, src []byte) error {
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		return readExact(zr, dst, "gzip")
	})
}
