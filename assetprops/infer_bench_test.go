package assetprops

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/uasset"
)

// BenchmarkInferCorpus opens the cooked packages of the corpus (cooked/
// and uassetapi/) from memory without an engine version, with the
// property check, as verify does.
func BenchmarkInferCorpus(b *testing.B) {
	type pkg struct {
		data []byte
		sib  uasset.Option
	}
	var pkgs []pkg
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpus.Files(b, dir, ".uasset", ".umap") {
			d, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			base := strings.TrimSuffix(p, filepath.Ext(p))
			sibs := map[string][]byte{}
			for _, ext := range []string{".uexp", ".ubulk"} {
				if s, err := os.ReadFile(base + ext); err == nil {
					sibs[ext] = s
				}
			}
			pkgs = append(pkgs, pkg{d, uasset.WithSibling(func(ext string) (io.ReaderAt, int64, error) {
				s, ok := sibs[ext]
				if !ok {
					return nil, 0, os.ErrNotExist
				}
				return bytes.NewReader(s), int64(len(s)), nil
			})})
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pkgs {
			c := NewCandidateChecker(nil, nil)
			uasset.NewFile(bytes.NewReader(p.data), int64(len(p.data)), p.sib, uasset.WithCandidateCheck(c.Check))
		}
	}
}
