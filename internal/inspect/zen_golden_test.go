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

var update = flag.Bool("update", false, "rewrite the golden dumps in testdata/iostore")

// TestGoldenDumps compares the info of a few zen packages and containers
// with the dumps in testdata/iostore (regenerate with -update).
func TestGoldenDumps(t *testing.T) {
	fix := "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/"
	cases := []struct{ golden, path string }{
		{"ue427_bp_aphid.json", "cooked/trumank+retoc/retoc/tests/UE4.27/BP_Aphid_Meat_Prop.uasset"},
		{"ue56_sm_cube.json", "cooked/trumank+retoc/retoc/tests/UE5.6/SM_Cube.uzenasset"},
		{"ue58_sm_fixture.json", fix + "UE5_8/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc::/Game/Fixtures/Meshes/SM_Fixture"},
		{"ue60_zlib_utoc.json", fix + "UE6_0/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc"},
	}
	dir := corpus.Dir(t)
	t.Setenv(GlobalEnv, "")
	for _, tc := range cases {
		in, err := OpenInput(filepath.Join(dir, tc.path), &Options{})
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := OpenPackage(in, &Options{})
		if in.Close != nil {
			in.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		pkg.Path = tc.path
		pkg.Dump = nil
		got, err := json.MarshalIndent(pkg, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = bytes.ReplaceAll(got, []byte(dir+"/"), nil)
		golden := filepath.Join("testdata", "iostore", tc.golden)
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
			t.Errorf("%s differs from %s (run with -update and review the diff)", tc.path, golden)
		}
	}
}
