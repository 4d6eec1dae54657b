package uasset

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"
)

func spuCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchSpu(b *testing.B, dirs []string, rewrite bool) {
	var files [][]byte
	for _, dir := range dirs {
		for _, p := range corpusPackages(b, dir) {
			d, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, d)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := spuCPU()
	for b.Loop() {
		for _, d := range files {
			f, err := NewFile(binreadMem(d), int64(len(d)))
			if err != nil {
				continue
			}
			if rewrite {
				f.HeaderRoundTrip()
			}
		}
	}
	b.ReportMetric(float64(spuCPU()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkSpuHeaderRewrite(b *testing.B) { benchSpu(b, []string{"uncooked"}, true) }
func BenchmarkSpuInferNoProps(b *testing.B)  { benchSpu(b, []string{"cooked", "uassetapi"}, false) }

var _ = bytes.NewReader
