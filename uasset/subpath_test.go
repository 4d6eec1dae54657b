package uasset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// TestUTF8SubPaths: from FortniteMainBranchObjectVersion 192 (5.6) a soft
// object path's sub-path is stored as UTF-8. A non-ASCII one (written into
// a copy of a 5.7 package) reads as its text, not as one character per
// byte, and the header still rewrites to the same bytes.
func TestUTF8SubPaths(t *testing.T) {
	src := corpus.Path(t, "uncooked", "VictorAA1116+Procedural_Survival_UE5.7", "Content", "WorldGen", "BP_WorldChunk.uasset")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := openCorpus(t, src, "")
	if err != nil {
		t.Fatal(err)
	}
	off := int(f.Summary.SoftObjectPathsOffset)
	i := bytes.Index(b[off:], []byte("SimpleConstructionScript_0"))
	if off <= 0 || i < 0 {
		t.Fatalf("no sub-path in the soft object paths at 0x%x", off)
	}
	b = bytes.Clone(b)
	copy(b[off+i+len("SimpleCo"):], "\xc3\xa9") // "ns" -> "é", same byte count
	p := filepath.Join(t.TempDir(), "BP_WorldChunk.uasset")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := openCorpus(t, p, "")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sp := range g.SoftObjectPaths {
		found = found || sp.SubPath.S == "SimpleCoétructionScript_0"
	}
	if !found {
		t.Errorf("sub-paths %v", g.SoftObjectPaths)
	}
	if same, at, err := g.HeaderRoundTrip(); err != nil || !same {
		t.Errorf("header rewrite: same %v at 0x%x, %v", same, at, err)
	}
}
