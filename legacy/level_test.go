package legacy

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// TestLevelActors reads the actor list of the maps in the corpus, one per
// engine generation.
func TestLevelActors(t *testing.T) {
	tests := []struct {
		rel    string
		actors int
		first  string // class of the first actor (LevelInfo / WorldInfo)
	}{
		{"elsheepo+ut99server/Maps/DM-Pyramid.unr", 955, "LevelInfo"},
		{"HeffersonMan+UT2004/Maps/Entry.ut2", 21, "LevelInfo"},
		{"provokingastorm+Tarp/Engine/Content/Maps/Entry.upk", 5, "WorldInfo"},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.rel), func(t *testing.T) {
			f, err := Open(corpus.Path(t, "legacy_ue123", tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for i := range f.Exports {
				if f.ClassName(i) != "Level" {
					continue
				}
				o, err := f.Object(i)
				if err != nil {
					t.Fatal(err)
				}
				if len(o.Actors) != tt.actors {
					t.Fatalf("%d actors, want %d", len(o.Actors), tt.actors)
				}
				first := -1
				for j, a := range o.Actors {
					if a != "None" {
						first = j
						break
					}
				}
				if first < 0 {
					t.Fatal("all actors are null")
				}
				for j := range f.Exports {
					if f.ExportPath(j) == o.Actors[first] && !strings.HasSuffix(f.ClassName(j), tt.first) {
						t.Errorf("first actor %s is a %s, want %s", o.Actors[first], f.ClassName(j), tt.first)
					}
				}
				return
			}
			t.Fatal("no Level export")
		})
	}
}
