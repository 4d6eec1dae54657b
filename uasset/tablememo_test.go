package uasset

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestTableMemo reads every unversioned cooked package of the corpus under
// every engine layout twice, as inference does (the candidates sharing the
// summary, the name, import and export maps and the sections they read
// alike) and each candidate on its own, and checks that the readings are the same: error, how far the read
// got, every table and section.
func TestTableMemo(t *testing.T) {
	var packages, readings, served int
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			f, err := openCorpus(t, p, "")
			if err != nil || !f.Summary.Unversioned() {
				continue
			}
			packages++
			order := binary.ByteOrder(binary.LittleEndian)
			if f.BigEndian {
				order = binary.BigEndian
			}
			shared := &options{uexp: f.uexp, uexpSize: f.uexpSize, hdrCache: new([]byte), names: &nameMemo{}, tables: &tableMemo{},
				sums: &summaryMemo{}, secs: &sectionMemo{}}
			for i, e := range engines {
				read := func(o *options) (*File, string) {
					g := newFile(f.r, f.size, order, o)
					g.strict = true
					g.sumEngine = i
					err := g.read(e.versions())
					if err == nil {
						err = g.validate()
					}
					// A copy: the entries may be the memo's, shared with
					// the other candidates.
					g.Exports = slices.Clone(g.Exports)
					for i := range g.Exports {
						g.Exports[i].f = nil
					}
					return g, fmt.Sprint(err)
				}
				before := *shared.tables
				a, errA := read(shared)
				b, errB := read(&options{uexp: f.uexp, uexpSize: f.uexpSize})
				readings++
				if before.imports.ok && before.imports.matches(a, int64(a.Summary.ImportOffset), a.Summary.ImportCount, importLayoutOf(&a.Versions, !a.Summary.FilterEditorOnly())) {
					served++
				}
				switch {
				case errA != errB:
					t.Errorf("%s as %s: with the memo %s, without %s", p, e.Name, errA, errB)
				case a.progress != b.progress || a.missingUexp != b.missingUexp:
					t.Errorf("%s as %s: read to stage %d (missing .uexp %v) with the memo, %d (%v) without", p, e.Name, a.progress, a.missingUexp, b.progress, b.missingUexp)
				case !reflect.DeepEqual(a.Names, b.Names) || !reflect.DeepEqual(a.Imports, b.Imports) || !reflect.DeepEqual(a.Exports, b.Exports):
					t.Errorf("%s as %s: the tables read with the memo differ", p, e.Name)
				case !reflect.DeepEqual(a.Sections, b.Sections) || len(a.sers) != len(b.sers):
					t.Errorf("%s as %s: the sections read with the memo differ", p, e.Name)
				case !reflect.DeepEqual(a.Summary, b.Summary) || !reflect.DeepEqual(a.DependsMap, b.DependsMap) ||
					!reflect.DeepEqual(a.PreloadDependencies, b.PreloadDependencies):
					t.Errorf("%s as %s: the summary or a shared section read with the memo differs", p, e.Name)
				}
			}
		}
	}
	t.Logf("%d packages, %d candidate readings, %d import maps taken from an earlier candidate", packages, readings, served)
}
