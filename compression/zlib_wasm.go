//go:build wasm

package compression

import "github.com/upkg/upkg/internal/flate"

// The WebAssembly build decodes Gzip with internal/flate too, which is much
// smaller than compress/flate and gzip (Zlib: zlib.go); results and errors
// are those of the native reader through readExact.
func init() {
	Register("Gzip", func(dst, src []byte) error { return flateResult("gzip", flate.GzipDecompress(dst, src)) })
}
