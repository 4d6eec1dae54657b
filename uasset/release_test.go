package uasset

import (
	"reflect"
	"slices"
	"testing"
)

// TestReleaseReuse opens the corpus packages one after the other, releasing
// each File before the next opens, as verify does: every package reads the
// same tables from reused storage as from fresh storage, and so do the
// packages opened again after all of them were released.
func TestReleaseReuse(t *testing.T) {
	type tables struct {
		names   []NameEntry
		imports []ObjectImport
		exports []ObjectExport
	}
	copyOf := func(f *File) tables {
		e := slices.Clone(f.Exports)
		for i := range e {
			e[i].f = nil
		}
		return tables{slices.Clone(f.Names), slices.Clone(f.Imports), e}
	}
	var paths []string
	for _, dir := range []string{"uassetapi", "uncooked", "cooked"} {
		for _, p := range corpusPackages(t, dir) {
			if hasTag(p) {
				paths = append(paths, p)
			}
		}
	}
	fresh := map[string]tables{}
	for _, p := range paths {
		f, err := openCorpus(t, p, "")
		if err != nil {
			continue
		}
		fresh[p] = copyOf(f)
		f.Release()
		if f.Names != nil || f.Imports != nil || f.Exports != nil {
			t.Fatalf("%s: Release left tables", p)
		}
	}
	if len(fresh) == 0 {
		t.Skip("no corpus packages")
	}
	// Reverse order: packages reuse the storage of different ones.
	for i := len(paths) - 1; i >= 0; i-- {
		p := paths[i]
		want, ok := fresh[p]
		if !ok {
			continue
		}
		f, err := openCorpus(t, p, "")
		if err != nil {
			t.Fatalf("%s: %v (read before)", p, err)
		}
		if got := copyOf(f); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tables read into reused storage differ", p)
		}
		if ok, _, err := f.HeaderRoundTrip(); !ok || err != nil {
			t.Errorf("%s: header rewrite after reuse: %v %v", p, ok, err)
		}
		f.Release()
	}
}
