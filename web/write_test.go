package web

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteInRoot: the site's files are written inside the output folder
// only: a symbolic link of a file's name is replaced (the file it led to is
// kept), and a linked folder leading out is an error.
func TestWriteInRoot(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "site"), filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	precious := filepath.Join(base, "precious.txt")
	if err := os.WriteFile(precious, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, "wasm_exec.js")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sample")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := writeInRoot(root, "wasm_exec.js", []byte("page")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep" {
		t.Errorf("the linked file was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "wasm_exec.js")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("wasm_exec.js is not the page's file: %v %v", fi, err)
	}
	if err := writeInRoot(root, filepath.Join("sample", "upkgSample.uasset"), []byte("x")); err == nil {
		t.Error("wrote through a link leading out of the folder")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("%d files written outside", len(ents))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the folder holds %d entries (a temporary file left?)", len(ents))
	}
}
