//go:build !wasm

package compression

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// Native programs decode Zlib with klauspost/compress's inflate (already a
// dependency for Zstd; about 1.4x the standard library's speed on container
// blocks) and Gzip with the standard library. Containers hold thousands of
// small zlib blocks, and a fresh inflater per block costs a 32 KiB window
// and its Huffman tables each time: inflaters are reused through a pool.
// The WebAssembly build uses internal/flate instead (zlib_wasm.go), with
// the same results and errors.
func init() {
	Register("Zlib", decompressZlib)
	Register("Gzip", func(dst, src []byte) error {
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		return readExact(zr, dst, "gzip")
	})
}

// newZlibReader is klauspost/compress's zlib reader.
func newZlibReader(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }

// zlibResetter is zlib.Resetter of either package.
type zlibResetter interface {
	Reset(r io.Reader, dict []byte) error
}

type zlibState struct {
	src bytes.Reader
	zr  io.ReadCloser
}

var zlibPool sync.Pool // of *zlibState

func decompressZlib(dst, src []byte) error {
	st, _ := zlibPool.Get().(*zlibState)
	if st == nil {
		st = &zlibState{}
	}
	defer zlibPool.Put(st)
	st.src.Reset(src)
	if st.zr == nil {
		zr, err := newZlibReader(&st.src)
		if err != nil {
			return fmt.Errorf("zlib: %w", err)
		}
		st.zr = zr
	} else if err := st.zr.(zlibResetter).Reset(&st.src, nil); err != nil {
		return fmt.Errorf("zlib: %w", err)
	}
	return readExact(st.zr, dst, "zlib")
}
