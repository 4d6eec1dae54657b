// Package compression is the registry of block decompressors shared by the
// container readers (pak, IoStore) and the package readers (compressed UE3
// packages, compressed bulk data).
//
// Methods are named as Unreal names them in container headers ("Zlib",
// "Gzip", "LZ4", "Zstd", "Oodle", ...); lookup ignores case. Zlib, Gzip, LZ4,
// Zstd and Oodle (Kraken, Mermaid, Selkie and Leviathan, decoded by upkg's own
// pure-Go internal/oodle) are built in; the legacy Oodle codecs LZNA and
// BitKnit, and methods nobody registered, return an [*UnsupportedError].
// [Register] adds or replaces a decoder without touching the readers.
package compression

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/pierrec/lz4/v4"
)

// Decompressor fills dst, whose length is the exact uncompressed size the
// container recorded, from the compressed block src. It must not write past
// len(dst) and must report an error if src does not produce exactly len(dst)
// bytes.
type Decompressor func(dst, src []byte) error

// UnsupportedError reports a compression method with no registered decoder.
type UnsupportedError struct{ Method string }

func (e *UnsupportedError) Error() string {
	if strings.EqualFold(e.Method, "Oodle") {
		return "Oodle-compressed: no decoder available (Oodle is proprietary; register one with compression.Register)"
	}
	return fmt.Sprintf("compression method %q: no decoder available", e.Method)
}

// ErrSize reports a block that did not decompress to the recorded size.
var ErrSize = errors.New("compression: decompressed size differs from the recorded size")

var (
	mu    sync.RWMutex
	table = map[string]Decompressor{}
)

// Register adds or replaces the decoder for a method name.
func Register(method string, d Decompressor) {
	mu.Lock()
	table[strings.ToLower(method)] = d
	mu.Unlock()
}

// Lookup returns the decoder for a method, or nil.
func Lookup(method string) Decompressor {
	mu.RLock()
	defer mu.RUnlock()
	return table[strings.ToLower(method)]
}

// Supported reports whether a decoder is registered for method.
func Supported(method string) bool { return Lookup(method) != nil }

// Decompress decodes src into dst with the named method.
func Decompress(method string, dst, src []byte) error {
	d := Lookup(method)
	if d == nil {
		return &UnsupportedError{Method: method}
	}
	return d(dst, src)
}

func init() {
	Register("None", func(dst, src []byte) error {
		if len(src) != len(dst) {
			return ErrSize
		}
		copy(dst, src)
		return nil
	})
	// Zlib and Gzip: zlib_native.go, zlib_wasm.go.
	Register("LZ4", func(dst, src []byte) error {
		n, err := lz4.UncompressBlock(src, dst)
		if err != nil {
			return fmt.Errorf("lz4: %w", err)
		}
		if n != len(dst) {
			return ErrSize
		}
		return nil
	})
	Register("Zstd", decodeZstd) // zstd_native.go, zstd_wasm.go
}

// readExact reads exactly len(dst) bytes from r and checks the stream ends there.
func readExact(r io.Reader, dst []byte, name string) error {
	if _, err := io.ReadFull(r, dst); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var one [1]byte
	if n, _ := r.Read(one[:]); n != 0 {
		return ErrSize
	}
	return nil
}
