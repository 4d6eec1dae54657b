package compression

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

func TestRoundTrip(t *testing.T) {
	plain := bytes.Repeat([]byte("Unreal package payload "), 200)
	var zb, gb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	zw.Write(plain)
	zw.Close()
	gw := gzip.NewWriter(&gb)
	gw.Write(plain)
	gw.Close()
	lz := make([]byte, lz4.CompressBlockBound(len(plain)))
	n, err := lz4.CompressBlock(plain, lz, nil)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	zs := enc.EncodeAll(plain, nil)
	for _, tc := range []struct {
		method string
		src    []byte
	}{
		{"Zlib", zb.Bytes()}, {"zlib", zb.Bytes()}, {"Gzip", gb.Bytes()},
		{"LZ4", lz[:n]}, {"Zstd", zs}, {"None", plain},
	} {
		t.Run(tc.method, func(t *testing.T) {
			dst := make([]byte, len(plain))
			if err := Decompress(tc.method, dst, tc.src); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dst, plain) {
				t.Fatal("output differs")
			}
			// A recorded size that is too small or too large is an error.
			if err := Decompress(tc.method, make([]byte, len(plain)-1), tc.src); err == nil {
				t.Error("short destination accepted")
			}
			if err := Decompress(tc.method, make([]byte, len(plain)+1), tc.src); err == nil {
				t.Error("long destination accepted")
			}
		})
	}
}

func TestOodleUnsupported(t *testing.T) {
	// Without a registered decoder, Oodle names itself as unavailable.
	saved := Lookup("Oodle")
	mu.Lock()
	delete(table, "oodle")
	mu.Unlock()
	defer Register("Oodle", saved)
	err := Decompress("Oodle", make([]byte, 4), []byte{1, 2, 3})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "Oodle-compressed: no decoder available") {
		t.Fatalf("have %v", err)
	}
	Register("Oodle", func(dst, src []byte) error { return nil })
	if err := Decompress("oodle", nil, nil); err != nil {
		t.Fatalf("registered decoder not used: %v", err)
	}
}

// TestOodle checks the built-in Oodle registration: Kraken blocks decode,
// blocks of a codec without a decoder (LZNA) give an *UnsupportedError
// naming the codec, and garbage is a plain error.
func TestOodle(t *testing.T) {
	// A Kraken block of one memset quantum.
	dst := make([]byte, 5)
	if err := Decompress("Oodle", dst, []byte{0x8C, 0x06, 0x07, 0xFF, 0xFF, 'z'}); err != nil || string(dst) != "zzzzz" {
		t.Fatalf("memset block: %q %v", dst, err)
	}
	err := Decompress("Oodle", dst, []byte{0x8C, 0x05, 0x00, 0x00, 0x00})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.Method != "Oodle LZNA" || !strings.Contains(err.Error(), "LZNA") {
		t.Errorf("LZNA block: %v", err)
	}
	err = Decompress("Oodle", dst, []byte{1, 2, 3})
	if err == nil || errors.As(err, &ue) {
		t.Errorf("garbage: %v", err)
	}
}

func TestGarbage(t *testing.T) {
	for _, m := range []string{"Zlib", "Gzip", "LZ4", "Zstd"} {
		if err := Decompress(m, make([]byte, 64), []byte("definitely not compressed data")); err == nil {
			t.Errorf("%s accepted garbage", m)
		}
	}
}
