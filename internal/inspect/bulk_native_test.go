//go:build !wasm

package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
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
