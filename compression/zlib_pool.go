package compression

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// The Zlib decoder registered here replaces compression.go's plain one (this
// file's init runs after that file's): containers hold thousands of small
// zlib blocks, and a fresh inflater per block costs a 32 KiB window and its
// Huffman tables each time. Inflaters are reused through a pool. Native
// programs use klauspost/compress's inflate (already a dependency for
// Zstd), which is faster than the standard library's; the WebAssembly page
// keeps the standard library's, which it links anyway (zlib_inflate_*.go).
// Results and errors are the same.
func init() {
	Register("Zlib", decompressZlib)
}

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
