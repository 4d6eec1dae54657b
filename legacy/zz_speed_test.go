package legacy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

func cpuNowL() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func benchWrapped(b *testing.B, method string) {
	dir, _ := corpus.Find()
	var datas [][]byte
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			d, _ := os.ReadFile(p)
			f, err := NewFile(bytes.NewReader(d), int64(len(d)))
			if err == nil && strings.Contains(f.Wrapper, method) {
				datas = append(datas, d)
			}
		}
		return nil
	})
	b.ResetTimer()
	c0 := cpuNowL()
	for range b.N {
		for _, d := range datas {
			NewFile(bytes.NewReader(d), int64(len(d)))
		}
	}
	b.ReportMetric(float64(cpuNowL()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkZZLZMA(b *testing.B) { benchWrapped(b, "LZMA") }
func BenchmarkZZLZX(b *testing.B)  { benchWrapped(b, "LZX") }
func BenchmarkZZLZO(b *testing.B)  { benchWrapped(b, "LZO") }
