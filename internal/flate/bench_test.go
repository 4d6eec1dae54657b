package flate

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"testing"
)

// BenchmarkZlib decodes the same zlib stream (mixed test data) with
// compress/zlib and with ZlibDecompress.
func BenchmarkZlib(b *testing.B) {
	data := samples(nil)["mixed"]
	var zb bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&zb, flate.DefaultCompression)
	zw.Write(data)
	zw.Close()
	dst := make([]byte, len(data))
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := stdZlib(dst, zb.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("own", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := ZlibDecompress(dst, zb.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
