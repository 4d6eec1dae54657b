package jsonenc_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/jsonenc"
)

// TestCorpusMatchesEncodingJSON marshals what the page marshals for corpus
// packages (the package model, the format's dump and every export's
// properties) with the compact encoder and with encoding/json, and checks
// the bytes are equal.
func TestCorpusMatchesEncodingJSON(t *testing.T) {
	dir := corpus.Dir(t)
	var paths []string
	for _, sub := range []string{"uncooked", "cooked", "uassetapi", "legacy_ue123"} {
		files := corpus.Files(t, sub, ".uasset", ".umap", ".u", ".utx", ".uax", ".umx", ".unr", ".upk", ".ut2", ".usx", ".ukx", ".uc", ".rom", ".int")
		if step := len(files) / 60; step > 1 {
			var some []string
			for i := 0; i < len(files); i += step {
				some = append(some, files[i])
			}
			files = some
		}
		paths = append(paths, files...)
	}
	compare := func(what string, v any) {
		t.Helper()
		want, werr := json.Marshal(v)
		jsonenc.SetCompact(true)
		got, gerr := jsonenc.Marshal(v)
		jsonenc.SetCompact(false)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: error %v, encoding/json %v", what, gerr, werr)
			return
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-80)
			t.Errorf("%s: differs at byte %d:\n got ...%s\nwant ...%s", what, i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
		}
	}
	n, props := 0, 0
	for _, p := range paths {
		in, err := inspect.OpenFile(p)
		if err != nil {
			continue
		}
		pkg, err := inspect.OpenPackage(in, &inspect.Options{})
		if err != nil {
			in.Close()
			continue
		}
		rel, _ := filepath.Rel(dir, p)
		n++
		compare(rel+" (package)", pkg)
		if pkg.Dump != nil {
			compare(rel+" (dump)", pkg.Dump)
		}
		if pkg.Props != nil {
			for i := range min(len(pkg.Exports), 200) {
				if v, err := pkg.Props(i); err == nil {
					compare(rel+" (props)", v)
					props++
				}
			}
		}
		in.Close()
	}
	if n == 0 && os.Getenv("CI") == "true" {
		t.Fatal("no corpus package opened")
	}
	t.Logf("%d packages, %d exports' properties: same JSON", n, props)
}
