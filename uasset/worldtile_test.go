package uasset

import (
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// TestWorldTile decodes the world tile info of a cooked 4.18 world
// composition level (Bloodstained) and checks that it narrows inference:
// releases from 4.20 on store 3D tile positions, which do not read here.
func TestWorldTile(t *testing.T) {
	p := corpus.Path(t, "uassetapi/TestManyAssets/Bloodstained/m02VIL_004_Gimmick.umap")
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := f.WorldTile
	if w == nil {
		t.Fatalf("no world tile (sections %+v)", f.Sections)
	}
	if w.Position != [3]int32{25200, 0, 0} || w.BoundsMin != [3]float64{-25200, -293, 0} || w.BoundsMax[0] != 2148 || !w.BoundsIsValid {
		t.Errorf("position/bounds = %v %v %v %v", w.Position, w.BoundsMin, w.BoundsMax, w.BoundsIsValid)
	}
	want := WorldTileLayer{Name: "Uncategorized", StreamingDistance: 50000, DistanceStreamingEnabled: true}
	if w.Layer != want || w.HideInTileView || w.ParentTilePackageName != "None" || len(w.LODList) != 0 || w.ZOrder != 0 || w.Size != 92 {
		t.Errorf("tile = %+v", w)
	}
	// 4.16 and 4.17 are ruled out by its soft object paths (a name and a
	// string: VER_UE4_ADDED_SOFT_OBJECT_PATH, 4.18+).
	if f.Engine.Version != "4.19" || len(f.Engine.Candidates) != 2 || f.Engine.Candidates[0] != "4.18" {
		t.Errorf("engine %s, candidates %v", f.Engine.Version, f.Engine.Candidates)
	}
	g, err := Open(p, WithEngine("4.27"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.WorldTile != nil || sectionErr(g, "world tile info") == nil {
		t.Errorf("read as 4.27 (3D positions): tile %+v, no section error", g.WorldTile)
	}
}
