package inspect

import (
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// BenchmarkVerifyUncooked runs verify's per-package work for the UE4/UE5
// reader alone (open, read every section, build the model, rewrite and
// compare the header) on the uncooked corpus; the property decoder's hooks
// are switched off so that its cost is measured separately (upkg verify
// runs both). Like verify, it builds only what the result line needs.
func BenchmarkVerifyUncooked(b *testing.B) {
	files := corpus.Files(b, "uncooked", ".uasset", ".umap")
	saveH, saveO := uassetHooks, uassetOptions
	uassetHooks, uassetOptions = nil, nil
	defer func() { uassetHooks, uassetOptions = saveH, saveO }()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range files {
			if r := VerifyPackage(p, &Options{Verify: true, resultOnly: true}); !r.OK {
				b.Fatal(r.Error)
			}
		}
	}
	b.ReportMetric(float64(len(files))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
