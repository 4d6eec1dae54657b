//go:build wasm

package compression

import (
	"fmt"

	"github.com/upkg/upkg/internal/zstd"
)

// decodeZstd decodes Zstd with the compact internal/zstd in WebAssembly:
// klauspost/compress/zstd would link its encoder, crypto/rand and math/big
// into the page (about 0.7 MB).
func decodeZstd(dst, src []byte) error {
	n, err := zstd.Decode(dst, src)
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	if n != len(dst) {
		return ErrSize
	}
	return nil
}
