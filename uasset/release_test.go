package uasset

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReleaseReuse opens the corpus packages one after the other, releasing
// each File (and with WithRelease the other inference candidates) before
// the next opens, as verify does: every package reads the same tables from
// reused storage as the first time, and its header rewrites alike.
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
		f, err := openReleasable(t, p)
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
		f, err := openReleasable(t, p)
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

// openReleasable is openCorpus (inferring the engine) with WithRelease.
func openReleasable(t *testing.T, path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	sib := func(ext string) (io.ReaderAt, int64, error) {
		b, err := os.ReadFile(base + ext)
		if err != nil {
			return nil, 0, err
		}
		return bytes.NewReader(b), int64(len(b)), nil
	}
	return NewFile(bytes.NewReader(data), int64(len(data)), WithSibling(sib), WithRelease())
}
