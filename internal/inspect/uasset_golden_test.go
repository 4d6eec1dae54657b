package inspect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// updateGolden reports -update (rewrite the golden files). The flag is
// looked up rather than only defined, so that other test files of this
// package may define the same flag.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/golden")
	}
}

// goldenPackages are small real packages whose whole model (the JSON of
// `upkg info --json`, and `upkg dump --json`'s package) is kept as golden
// files.
var goldenPackages = []string{
	"uncooked/AgnivC+UE4.19_BattleTank/UE_BTN/Content/BattleGround_sharedassets/Snow_LayerInfo.uasset",
	"uncooked/KuKKilicious+BuildingEscape-UE4.23/Content/StarterContent/Blueprints/Assets/FogBrightnessLUT.uasset",
}

func TestUassetGolden(t *testing.T) {
	root := corpus.Dir(t)
	for _, rel := range goldenPackages {
		name := filepath.Base(rel)
		t.Run(name, func(t *testing.T) {
			in, err := OpenFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			p, err := OpenPackage(in, &Options{Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			p.Path = rel // independent of where the corpus lives
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetIndent("", "  ")
			if err := enc.Encode(struct {
				Info *Package `json:"info"`
				Dump any      `json:"dump"`
			}{p, p.Dump}); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".json")
			if updateGolden() {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				hl, wl := bytes.Split(buf.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := 0; i < len(hl) && i < len(wl); i++ {
					if !bytes.Equal(hl[i], wl[i]) {
						t.Fatalf("%s line %d:\nhave %s\nwant %s", golden, i+1, hl[i], wl[i])
					}
				}
				t.Fatalf("%s: length differs (%d vs %d lines)", golden, len(hl), len(wl))
			}
		})
	}
}
