package compression

import (
	"bytes"
	"compress/zlib"
	"errors"
	"math/rand"
	"testing"
)

// TestZlibPool decodes through the pooled inflaters in turn with good and
// bad input: a failed decode must not spoil the inflater the pool hands out
// next.
func TestZlibPool(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var blocks [][]byte
	var plain [][]byte
	for i := 0; i < 8; i++ {
		p := make([]byte, 1+rng.Intn(200000))
		for j := range p {
			p[j] = byte(rng.Intn(16)) // compressible
		}
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		w.Write(p)
		w.Close()
		blocks, plain = append(blocks, buf.Bytes()), append(plain, p)
	}
	for round := 0; round < 3; round++ {
		for i, b := range blocks {
			dst := make([]byte, len(plain[i]))
			if err := Decompress("Zlib", dst, b); err != nil || !bytes.Equal(dst, plain[i]) {
				t.Fatalf("block %d: %v", i, err)
			}
			if err := Decompress("Zlib", dst, b[:len(b)/2]); err == nil {
				t.Errorf("block %d truncated: no error", i)
			}
			if err := Decompress("Zlib", make([]byte, len(dst)-1), b); !errors.Is(err, ErrSize) {
				t.Errorf("block %d into a short buffer: %v, want ErrSize", i, err)
			}
			if err := Decompress("Zlib", make([]byte, len(dst)+1), b); err == nil {
				t.Errorf("block %d into a long buffer: no error", i)
			}
			if err := Decompress("Zlib", dst, []byte{0x12, 0x34, 0x56}); err == nil {
				t.Errorf("bad header: no error")
			}
		}
	}
}
