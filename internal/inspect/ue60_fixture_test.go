package inspect

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/property"
)

// TestUE60Fixtures opens CUE4Parse's UE 6.0 IoStore fixtures, tagged and
// unversioned (the unversioned set is skipped where the corpus lacks it):
// every chunk of the Zlib and uncompressed containers verifies, the two
// give the same bytes, and DA_AllProperties decodes completely (with the
// UE 6.0 mappings for the unversioned one).
func TestUE60Fixtures(t *testing.T) {
	dir := corpus.Dir(t)
	base := filepath.Join(dir, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore")
	mappings := filepath.Join(dir, "usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Mappings/CUE4ParseFixtures-Zstandard.usmap")
	for _, ser := range []string{"Tagged", "Unversioned"} {
		t.Run(ser, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(base, ser)); err != nil {
				t.Skipf("corpus has no UE6_0/IoStore/%s", ser)
			}
			var files [2]map[string][]byte
			for k, variant := range []string{"Uncompressed", "Zlib"} {
				utoc := filepath.Join(base, ser, variant, "CUE4ParseFixtures-Minimal-"+variant+"-Windows.utoc")
				f, err := iostore.Open(utoc)
				if err != nil {
					t.Fatal(err)
				}
				files[k] = map[string][]byte{}
				for i := range f.ChunkIDs {
					data, err := f.ReadChunkVerified(i)
					if err != nil {
						t.Errorf("%s: %v", variant, err)
						continue
					}
					if p := f.PathOf(i); p != "" {
						files[k][p] = data
					}
				}
				f.Close()
			}
			if len(files[0]) != 111 || len(files[0]) != len(files[1]) {
				t.Errorf("%d and %d files, want 111", len(files[0]), len(files[1]))
			}
			for p, d := range files[0] {
				if string(files[1][p]) != string(d) {
					t.Errorf("%s differs between the Zlib and uncompressed containers", p)
				}
			}
			utoc := filepath.Join(base, ser, "Uncompressed", "CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc")
			opts := &Options{Mappings: mappings}
			in, err := OpenInput(utoc+ContainerSep+allProperties, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			p, err := OpenPackage(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range p.Exports {
				v, err := p.Props(i)
				if err != nil {
					t.Fatalf("export %d: %v", i, err)
				}
				if o := v.(*property.Object); !o.Complete {
					t.Errorf("export %d %s: %v", i, e.Name, o.Err())
				}
			}
		})
	}
}
