package inspect

import (
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// BenchmarkVerifyCooked runs verify's per-package work, property decoding
// and engine inference included, over the loose cooked packages of the
// corpus (cooked/ and uassetapi/), one after the other.
func BenchmarkVerifyCooked(b *testing.B) {
	var files []string
	for _, dir := range []string{"cooked", "uassetapi"} {
		files = append(files, corpus.Files(b, dir, ".uasset", ".umap")...)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range files {
			VerifyPackage(p, &Options{Verify: true, AESKey: corpusKeys})
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
