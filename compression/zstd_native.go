//go:build !wasm

package compression

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// decodeZstd decodes Zstd with klauspost/compress (fast) in native
// programs; the WebAssembly build uses the compact internal/zstd instead
// (zstd_wasm.go), and the tests of internal/zstd check that both agree.
func decodeZstd(dst, src []byte) error {
	out, err := zstdOnce().DecodeAll(src, dst[:0:len(dst)])
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	if len(out) != len(dst) {
		return ErrSize
	}
	if len(dst) > 0 && &out[0] != &dst[0] {
		copy(dst, out)
	}
	return nil
}

var zstdOnce = sync.OnceValue(func() *zstd.Decoder {
	// A nil reader makes a decoder for DecodeAll only; WithDecoderConcurrency(0)
	// would start goroutines per core.
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		panic(err) // only fails on invalid options
	}
	return d
})
