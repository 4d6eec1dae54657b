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
	err := Decompress("Oodle", make([]byte, 4), []byte{1, 2, 3})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "Oodle-compressed: no decoder available") {
		t.Fatalf("have %v", err)
	}
	Register("Oodle", func(dst, src []byte) error { return nil })
	defer func() {
		mu.Lock()
		delete(table, "oodle")
		mu.Unlock()
	}()
	if err := Decompress("oodle", nil, nil); err != nil {
		t.Fatalf("registered decoder not used: %v", err)
	}
}

func TestGarbage(t *testing.T) {
	for _, m := range []string{"Zlib", "Gzip", "LZ4", "Zstd"} {
		if err := Decompress(m, make([]byte, 64), []byte("definitely not compressed data")); err == nil {
			t.Errorf("%s accepted garbage", m)
		}
	}
}
