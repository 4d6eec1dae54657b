package uasset

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
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

// BenchmarkVerifyHeaderUncooked reads every uncooked corpus package from
// memory and compares its header rewrite with the file, as verify does.
func BenchmarkVerifyHeaderUncooked(b *testing.B) {
	var files []binread.Mem
	for _, p := range corpusPackages(b, "uncooked") {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, d)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, d := range files {
			f, err := NewFile(d, int64(len(d)))
			if err != nil {
				b.Fatal(err)
			}
			if ok, _, err := f.HeaderRoundTrip(); !ok || err != nil {
				b.Fatal("header rewrite differs", err)
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

// BenchmarkInferCooked opens the cooked packages of the corpus (cooked/
// and uassetapi/) from memory, as verify does, and infers their engines
// from the structure and the export data (no property check).
func BenchmarkInferCooked(b *testing.B) {
	type pkg struct {
		data binread.Mem
		sibs map[string]binread.Mem
	}
	var pkgs []pkg
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(b, dir) {
			d, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			k := pkg{data: d, sibs: map[string]binread.Mem{}}
			base := strings.TrimSuffix(p, filepath.Ext(p))
			for _, ext := range []string{".uexp", ".ubulk"} {
				if s, err := os.ReadFile(base + ext); err == nil {
					k.sibs[ext] = s
				}
			}
			pkgs = append(pkgs, k)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pkgs {
			sib := WithSibling(func(ext string) (io.ReaderAt, int64, error) {
				s, ok := p.sibs[ext]
				if !ok {
					return nil, 0, os.ErrNotExist
				}
				return s, int64(len(s)), nil
			})
			NewFile(p.data, int64(len(p.data)), sib)
		}
	}
}
