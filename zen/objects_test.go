package zen

import (
	"os"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

func TestScriptObjectsRetoc(t *testing.T) {
	dir := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	data, err := os.ReadFile(dir + "/UE5.3/ScriptObjects.bin")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScriptObjects(data)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := s.CheckHashes()
	t.Logf("UE5.3: %d names, %d objects, %d hashes match (%v)", len(s.Names), len(s.Objects), ok, err)
	if ok != len(s.Objects) {
		t.Error(err)
	}
	for _, n := range s.Names {
		if !n.HashOK {
			t.Fatalf("name %q: hash %x does not match", n.Value, n.Hash)
		}
	}

	names, _ := os.ReadFile(dir + "/UE4.27/LoaderGlobalNames_1.bin")
	hashes, _ := os.ReadFile(dir + "/UE4.27/LoaderGlobalNameHashes_1.bin")
	meta, _ := os.ReadFile(dir + "/UE4.27/LoaderInitialLoadMeta_1.bin")
	s4, err := ParseScriptObjectsUE4(names, hashes, meta)
	if err != nil {
		t.Fatal(err)
	}
	ok, err = s4.CheckHashes()
	t.Logf("UE4.27: %d names, %d objects, %d hashes match (%v)", len(s4.Names), len(s4.Objects), ok, err)
	if ok != len(s4.Objects) {
		t.Error(err)
	}
	bad := 0
	for _, n := range s4.Names {
		if !n.HashOK {
			bad++
		}
	}
	if bad != 0 {
		t.Errorf("UE4.27: %d global name hashes do not match", bad)
	}
}
