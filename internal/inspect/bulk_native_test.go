//go:build !wasm

package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/pak/paktest"
)

// TestVerifyBulkFiles: a UE5 package's data resources in its .ubulk are
// checked against the file: whole, it is ok; cut short, the package
// fails naming the resource; gone, the line notes it was not checked.
func TestVerifyBulkFiles(t *testing.T) {
	src := corpus.Path(t, "cooked/trumank+retoc/retoc/tests/UE5.5")
	dir := t.TempDir()
	for _, ext := range []string{".uasset", ".uexp", ".ubulk"} {
		b, err := os.ReadFile(filepath.Join(src, "T_Test"+ext))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "T_Test"+ext), b, 0o644)
	}
	pkg := filepath.Join(dir, "T_Test.uasset")
	bulk := filepath.Join(dir, "T_Test.ubulk")
	check := func(label string, ok bool, want string) {
		t.Helper()
		r := VerifyPackage(pkg, &Options{Verify: true})
		note := strings.TrimPrefix(strings.TrimPrefix(r.Note, noMappingsNote), "; ") // unversioned, read without mappings
		if r.OK != ok || !strings.Contains(r.Error+note, want) || want == "" && r.Error+note != "" {
			t.Errorf("%s: ok %v, error %q, note %q; want ok %v and %q", label, r.OK, r.Error, r.Note, ok, want)
		}
	}
	check("whole", true, "")
	os.Truncate(bulk, 2007809)
	check("cut short", false, "data resource 0: [0x0, +0x200000) runs past the end of the 2007809-byte .ubulk")
	os.Remove(bulk)
	check("missing", true, "bulk data not checked: its .ubulk was not found")
}

// TestVerifyBulkInPak: the data resources of a package in a .pak are
// checked against its .ubulk entry's size as the index records it (the
// entry, compressed here, is expanded by the container's own checks, not
// for the package's): whole, both lines are ok; cut short, the package
// fails naming the resource. An encrypted .ubulk verified without its key
// fails the package, as when it was read whole.
func TestVerifyBulkInPak(t *testing.T) {
	src := corpus.Path(t, "cooked/trumank+retoc/retoc/tests/UE5.5")
	const encrypted = -2
	for _, cut := range []int{-1, 2007809, encrypted} {
		var files []paktest.File
		for _, ext := range []string{".uasset", ".uexp", ".ubulk"} {
			b, err := os.ReadFile(filepath.Join(src, "T_Test"+ext))
			if err != nil {
				t.Fatal(err)
			}
			if ext == ".ubulk" && cut >= 0 {
				b = b[:cut]
			}
			files = append(files, paktest.File{Path: "Game/T_Test" + ext, Data: b, Compress: ext == ".ubulk", Encrypt: ext == ".ubulk" && cut == encrypted})
		}
		b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../", Key: bytes.Repeat([]byte{7}, 32)}, files)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "Bulk.pak")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var lines []VerifyResult
		VerifyOne(p, &Options{Verify: true}, func(r VerifyResult) { lines = append(lines, r) })
		if len(lines) != 2 || !lines[1].OK || lines[1].Format != "pak" {
			t.Fatalf("cut %d: %+v", cut, lines)
		}
		want := ""
		switch {
		case cut == encrypted:
			want = "an AES key is needed"
		case cut >= 0:
			want = "data resource 0: [0x0, +0x200000) runs past the end of the 2007809-byte .ubulk"
		}
		if r := lines[0]; r.OK != (want == "") || !strings.Contains(r.Error, want) {
			t.Errorf("cut %d: package line ok %v, error %q; want %q", cut, r.OK, r.Error, want)
		}
	}
}
