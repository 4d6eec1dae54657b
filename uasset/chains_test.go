package uasset

import (
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// TestCheckChains: outer, super and template chains that come back to
// themselves are errors naming the entry and the field; the real chains
// of a package pass.
func TestCheckChains(t *testing.T) {
	p := corpus.Path(t, "uncooked", "xiaoheige+VRTemplateUE426", "Content", "VirtualRealityBP", "Blueprints", "BP_PickupCube.uasset")
	f, err := openCorpus(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Imports) < 2 || len(f.Exports) < 3 {
		t.Fatalf("%d imports, %d exports", len(f.Imports), len(f.Exports))
	}
	if err := f.checkChains(); err != nil {
		t.Fatalf("the package's own chains: %v", err)
	}
	for _, tc := range []struct {
		set  func(g *File)
		want string
	}{
		{func(g *File) { g.Exports[0].OuterIndex, g.Exports[1].OuterIndex = ExportIndex(1), ExportIndex(0) }, "ExportMap[0].OuterIndex: the chain comes back"},
		{func(g *File) {
			g.Exports[0].OuterIndex, g.Exports[1].OuterIndex, g.Exports[2].OuterIndex = ExportIndex(1), ExportIndex(2), ExportIndex(0)
		}, "ExportMap[0].OuterIndex"},
		{func(g *File) { g.Imports[0].OuterIndex, g.Imports[1].OuterIndex = ImportIndex(1), ImportIndex(0) }, "ImportMap[0].OuterIndex"},
		{func(g *File) { g.Exports[1].SuperIndex, g.Exports[2].SuperIndex = ExportIndex(2), ExportIndex(1) }, "ExportMap[1].SuperIndex"},
		{func(g *File) { g.Exports[0].TemplateIndex = ExportIndex(0) }, "ExportMap[0].TemplateIndex"},
	} {
		g := *f
		g.Imports = append([]ObjectImport(nil), f.Imports...)
		g.Exports = append([]ObjectExport(nil), f.Exports...)
		tc.set(&g)
		if err := g.checkChains(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
