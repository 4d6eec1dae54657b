package pak_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

func benchPak(b *testing.B, version int, files, size int, compress, encrypt bool) []byte {
	b.Helper()
	var fs []paktest.File
	for i := range files {
		fs = append(fs, paktest.File{Path: fmt.Sprintf("Content/Dir%d/File%d.bin", i%50, i), Data: paktest.TextLike(size, int64(i)), Compress: compress, Encrypt: encrypt})
	}
	data, err := paktest.Build(paktest.Options{Version: version, Mount: "../../../Game/", Key: testKey}, fs)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkExtract reads every file of a 32 MiB pak (64 files of 512 KiB),
// checking hashes; MB/s is of uncompressed output.
func BenchmarkExtract(b *testing.B) {
	for _, c := range []struct {
		name              string
		compress, encrypt bool
	}{{"uncompressed", false, false}, {"zlib", true, false}, {"uncompressed-aes", false, true}, {"zlib-aes", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			data := benchPak(b, 11, 64, 512<<10, c.compress, c.encrypt)
			p, err := pak.NewReader(bytes.NewReader(data), int64(len(data)), pak.WithKey(testKey))
			if err != nil {
				b.Fatal(err)
			}
			var total int64
			for _, e := range p.All() {
				total += e.UncompressedSize
			}
			b.SetBytes(total)
			b.ResetTimer()
			for b.Loop() {
				for _, e := range p.All() {
					rc, err := e.Open()
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.Copy(io.Discard, rc); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkOpenList opens a pak of 20,000 entries (index parse, directory
// index, validation) and lists every name; it reports ns per entry.
func BenchmarkOpenList(b *testing.B) {
	for _, v := range []int{8, 11} {
		b.Run(fmt.Sprintf("v%d", v), func(b *testing.B) {
			const n = 20000
			data := benchPak(b, v, n, 16, false, false)
			b.ResetTimer()
			for b.Loop() {
				p, err := pak.NewReader(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					b.Fatal(err)
				}
				count := 0
				for _, e := range p.All() {
					if e.Name != "" {
						count++
					}
				}
				if count != n {
					b.Fatalf("%d entries", count)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entry")
		})
	}
}
