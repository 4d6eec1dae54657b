package uasset

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkHeaderUncooked reads the index (summary, every table and
// section) of all uncooked corpus packages from memory. Bytes per op are the
// files' sizes, so MB/s compares with tools that report whole-file
// throughput; files/s is reported too.
func BenchmarkHeaderUncooked(b *testing.B) {
	paths := corpusPackages(b, "uncooked")
	var files [][]byte
	var total int64
	for _, p := range paths {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, d)
		total += int64(len(d))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, d := range files {
			if _, err := NewFile(bytes.NewReader(d), int64(len(d))); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkHeaderUncookedRewrite reads and rewrites every uncooked header.
func BenchmarkHeaderUncookedRewrite(b *testing.B) {
	paths := corpusPackages(b, "uncooked")
	var files [][]byte
	var total int64
	for _, p := range paths {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, d)
		total += int64(len(d))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, d := range files {
			f, err := NewFile(bytes.NewReader(d), int64(len(d)))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.WriteHeader(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
