//go:build !upkg_only || upkg_legacy

package inspect

import (
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/legacy"
)

// checkLegacyPaths compares every cached path with legacy.File.ObjectPath.
func checkLegacyPaths(t *testing.T, name string, f *legacy.File) {
	t.Helper()
	c := newLegacyPaths(f)
	for ref := -int32(len(f.Imports)) - 1; ref <= int32(len(f.Exports))+1; ref++ {
		for range 2 { // built, then cached
			if got, want := c.get(ref), f.ObjectPath(ref); got != want {
				t.Fatalf("%s: path of %d is %q, ObjectPath says %q", name, ref, got, want)
			}
		}
	}
}

func TestLegacyPaths(t *testing.T) {
	// A chain longer than ObjectPath's limit, a cycle, and imports with
	// package names.
	f := &legacy.File{PackageName: "Pkg"}
	for i := range 100 {
		f.Exports = append(f.Exports, legacy.Export{ObjectName: "E", OuterIndex: int32(i + 2)})
	}
	f.Exports[99].OuterIndex = 0
	f.Exports = append(f.Exports, legacy.Export{ObjectName: "A", OuterIndex: 102}, legacy.Export{ObjectName: "B", OuterIndex: 101})
	f.Exports = append(f.Exports, legacy.Export{ObjectName: "C", OuterIndex: -2})
	f.Imports = []legacy.Import{{ObjectName: "Core", ClassName: "Package"}, {ObjectName: "Obj", OuterIndex: -1, PackageName: "Old"}}
	checkLegacyPaths(t, "synthetic", f)
	f.PackageName = ""
	checkLegacyPaths(t, "synthetic without a package name", f)

	for _, p := range corpus.Files(t, "legacy_ue123", ".u", ".upk", ".pcc", ".xxx", ".utx", ".uax", ".umx", ".unr", ".ut2", ".udk") {
		lf, err := legacy.Open(p)
		if err != nil {
			continue
		}
		checkLegacyPaths(t, p, lf)
		lf.Close()
	}
}
