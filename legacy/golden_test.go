package legacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden dumps in testdata/golden")

// goldenFiles are small corpus packages whose whole reading (summary,
// tables, paths, every object's properties) is kept as a golden JSON dump.
var goldenFiles = []string{
	"nrempel+ut-server/Music/Run.umx",
	"lmudgett+zen_unreal/src/UnrealI/Textures/FireEffect60.utx",
	"HeffersonMan+UT2004/StaticMeshes/forest.usx",
	"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME2/BioGame/CookedPC/PlotManagerMap.pcc",
	"Martinii89+RL-UPKSuite/Core.Test/TestData/UDK/UDKTestPackage.upk",
}

type goldenObject struct {
	Path   string  `json:"path"`
	Class  string  `json:"class"`
	Object *Object `json:"object,omitempty"`
	Error  string  `json:"error,omitempty"`
}

type goldenDump struct {
	Summary Summary        `json:"summary"`
	Wrapper string         `json:"wrapper,omitempty"`
	Names   []Name         `json:"names"`
	Imports []string       `json:"imports"`
	Objects []goldenObject `json:"objects"`
}

func TestGolden(t *testing.T) {
	dir := corpus.Path(t, "legacy_ue123")
	for _, rel := range goldenFiles {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			f, err := Open(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			d := goldenDump{Summary: f.Summary, Wrapper: f.Wrapper, Names: f.Names}
			for i := range f.Imports {
				d.Imports = append(d.Imports, f.ImportPath(i))
			}
			for i := range f.Exports {
				g := goldenObject{Path: f.ExportPath(i), Class: f.ClassPath(i)}
				o, err := f.Object(i)
				switch {
				case errors.Is(err, ErrNoProperties):
				case err != nil:
					g.Error = err.Error()
				default:
					g.Object = o
				}
				d.Objects = append(d.Objects, g)
			}
			got, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			name := filepath.Join("testdata", "golden", filepath.Base(rel)+".json")
			if *update {
				if err := os.WriteFile(name, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				for k := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[k], wl[k]) {
						t.Fatalf("%s line %d:\nhave %s\nwant %s", name, k+1, gl[k], wl[k])
					}
				}
				t.Fatalf("%s: %d lines, want %d", name, len(gl), len(wl))
			}
		})
	}
}
