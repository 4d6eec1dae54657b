//go:build unix

package legacy

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// BenchmarkDecompress builds the package image of every package of
// legacy_ue123 stored in compressed chunks, one sub-benchmark per method,
// and reports the process CPU time (user+sys) per operation next to ns/op.
func BenchmarkDecompress(b *testing.B) {
	dir, ok := corpus.Find()
	if !ok {
		b.Skip("corpus not found")
	}
	type pkg struct {
		data []byte
		s    *Summary
		f    *File
	}
	byMethod := map[string][]pkg{}
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		d, _ := os.ReadFile(p)
		f, err := NewFile(bytes.NewReader(d), int64(len(d)))
		if err != nil || f.Summary.CompressionFlags == 0 || len(f.Summary.CompressedChunks) == 0 {
			return nil
		}
		m := methodFor(f.Summary.CompressionFlags, f.game)
		byMethod[m] = append(byMethod[m], pkg{d, &f.Summary, f})
		return nil
	})
	for _, m := range []string{"LZX", "LZMA", "LZO", "Zlib", "Oodle"} {
		pkgs := byMethod[m]
		if len(pkgs) == 0 {
			continue
		}
		b.Run(m, func(b *testing.B) {
			var total int64
			for _, p := range pkgs {
				total += int64(len(p.data))
			}
			b.SetBytes(total)
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				for _, p := range pkgs {
					img, _, _, err := decompressChunks(binread.Mem(p.data), int64(len(p.data)), p.f.order, p.s, p.f.game)
					if err != nil {
						b.Fatal(err)
					}
					b := img[:0]
					imagePool.Put(&b)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// openCorpusFiles opens every readable package of legacy_ue123 from
// memory (unwrapped and decompressed), or skips b without the corpus.
func openCorpusFiles(b *testing.B) []*File {
	dir, ok := corpus.Find()
	if !ok {
		b.Skip("corpus not found")
	}
	var files []*File
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		d, _ := os.ReadFile(p)
		if f, err := NewFile(binread.Mem(d), int64(len(d)), WithName(p)); err == nil {
			files = append(files, f)
		}
		return nil
	})
	return files
}

// cpuTime returns the user+sys CPU time of the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReadTables reads the name, import and export tables of every
// readable package of legacy_ue123 (already unwrapped and decompressed),
// releasing them after each, as verify does.
func BenchmarkReadTables(b *testing.B) {
	files := openCorpusFiles(b)
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			if err := f.readTables(); err != nil {
				b.Fatal(err)
			}
			releaseTables(f)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkCheckObjects checks the properties of every export of every
// readable package of legacy_ue123 (already open), as verify does.
func BenchmarkCheckObjects(b *testing.B) {
	files := openCorpusFiles(b)
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			for i := range f.Exports {
				f.CheckObject(i)
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}
