package inspect

import (
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// BenchmarkVerifyUncooked runs verify's per-package work (open, read every
// section, build the model, rewrite the header) on the uncooked corpus.
func BenchmarkVerifyUncooked(b *testing.B) {
	files := corpus.Files(b, "uncooked", ".uasset", ".umap")
	b.ResetTimer()
	for b.Loop() {
		for _, p := range files {
			if r := VerifyPackage(p, &Options{Verify: true}); !r.OK {
				b.Fatal(r.Error)
			}
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
