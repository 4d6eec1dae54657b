package assetprops

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/proptest"
	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/uasset"
	"github.com/upkg/upkg/usmap"
)

// TestCorpusLite decodes every export of every loose package of the corpus
// (uncooked/, cooked/, uassetapi/) in both modes, property.ReadExport and
// property.ReadExportLite, and checks that they agree on everything the
// statistics, the inference check and verify take from a decode.
func TestCorpusLite(t *testing.T) {
	dir := corpus.Dir(t)
	var files []string
	for _, d := range []string{"uncooked", "cooked", "uassetapi"} {
		files = append(files, corpus.Files(t, d, ".uasset", ".umap")...)
	}
	packages, exports, complete := 0, 0, 0
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		if !isPackage(p) {
			continue
		}
		f, err := openCorpus(p, rel)
		if err != nil {
			continue
		}
		var m *usmap.File
		if f.Summary.PackageFlags&uasset.PKG_UnversionedProperties != 0 {
			m = mappingsFor(p)
		}
		packages++
		ctx := ContextWith(f, m, FileLoader(p, f.PackagePath, nil, uasset.WithEngine(corpus.Engine(rel))))
		for i := range f.Exports {
			data, err := f.Exports[i].Data()
			if err != nil {
				continue
			}
			ex := ExportInfo(f, i)
			full := property.ReadExport(ctx, data, ex)
			lite := property.ReadExportLite(ctx, data, ex)
			exports++
			if full.Complete {
				complete++
			}
			if d := proptest.LiteDiff(full, lite); d != "" {
				t.Errorf("%s export %d (%s): %s", rel, i, ex.Class, d)
			}
		}
		// The statistics verify reports, with and without the objects.
		_, all, err1 := DecodeAll(f, ctx)
		st, err2 := DecodeStats(f, ctx)
		if fmt.Sprint(err1) != fmt.Sprint(err2) || !reflect.DeepEqual(all, st) {
			t.Errorf("%s: DecodeAll %+v (%v), DecodeStats %+v (%v)", rel, all, err1, st, err2)
		}
	}
	t.Logf("%d packages, %d exports (%d complete) decoded alike in both modes", packages, exports, complete)
}
