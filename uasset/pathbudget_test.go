package uasset

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
)

// withLongName reads package b and appends to it a copy of its name map
// with one more name, of nameLen bytes, for the summary to point at (the
// caller patches NameCount and NameOffset with names and nameOff). long is
// the new name's index.
func withLongName(t *testing.T, b []byte, nameLen int) (f *File, out []byte, names, nameOff int, long int32) {
	t.Helper()
	f, err := NewFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	out = append([]byte(nil), b...)
	nameOff = len(out)
	add := func(s string) {
		out = le.AppendUint32(out, uint32(len(s)+1))
		out = append(out, s...)
		out = append(out, 0)
		out = le.AppendUint32(out, 0) // the two name hashes
	}
	for _, nm := range f.Names {
		add(nm.Name.S)
	}
	add(strings.Repeat("N", nameLen))
	return f, out, len(f.Names) + 1, nameOff, int32(len(f.Names))
}

// withImports rewrites a real UE 4.19 package to have its names plus one
// of nameLen bytes, and n imports all named by it (with number number),
// import i inside import outer(i) (-1: none).
func withImports(t *testing.T, nameLen, n int, number int32, outer func(i int) int) []byte {
	t.Helper()
	f, out, names, nameOff, long := withLongName(t, smallSummary(t), nameLen)
	le := binary.LittleEndian
	importOff := len(out)
	for i := range n {
		o := int32(0)
		if k := outer(i); k >= 0 {
			o = -int32(k) - 1
		}
		for _, v := range []int32{long, number, long, number, o, long, number} {
			out = le.AppendUint32(out, uint32(v)) // ClassPackage, ClassName, OuterIndex, ObjectName
		}
	}
	for field, v := range map[string]int{"NameCount": names, "NameOffset": nameOff, "ImportCount": n, "ImportOffset": importOff} {
		le.PutUint32(out[f.summaryFieldOffset("PackageFileSummary."+field):], uint32(v))
	}
	return out
}

// TestPathBudget: 200 imports hung below a chain of 127 imports with a 64
// KB name (8 MB a path, 1.6 GB in all, from a 75 KB file), or 200 named by
// a 1 MB name with a number (formatted anew for each path), are refused as
// they are read, within alloctest's bound; with short names the same
// package reads and its paths join the chain.
func TestPathBudget(t *testing.T) {
	chain := func(i int) int {
		switch {
		case i == 0:
			return -1
		case i < 127:
			return i - 1
		}
		return 126
	}
	flat := func(int) int { return -1 }
	for _, tc := range []struct {
		name       string
		nameLen, n int
		number     int32
		outer      func(int) int
	}{{"deep", 64 << 10, 327, 0, chain}, {"numbered", 1 << 20, 200, 1, flat}} {
		data := withImports(t, tc.nameLen, tc.n, tc.number, tc.outer)
		alloctest.Check(t, len(data), func() {
			_, err := NewFile(bytes.NewReader(data), int64(len(data)))
			if err == nil || !strings.Contains(err.Error(), "take more than") {
				t.Errorf("%s: %v", tc.name, err)
			}
		})
	}
	data := withImports(t, 4, 327, 0, chain)
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.ObjectPath(ImportIndex(326)), strings.Repeat("NNNN.", 127)+"NNNN"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
}

// TestSoftObjectPathsBudget: 2,000 soft object paths (40 KB) naming a 1
// MB name as package and asset would make 4 GB of "package.asset" paths
// for property decoding: the section fails as it is read, saying why, and
// the rest of the package reads.
func TestSoftObjectPathsBudget(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Blueprints/BP_TopDownPlayerController.uasset"))
	if err != nil {
		t.Fatal(err)
	}
	f, out, names, nameOff, long := withLongName(t, b, 1<<20)
	le := binary.LittleEndian
	pathsOff := len(out)
	const n = 2000
	for range n {
		for _, v := range []uint32{uint32(long), 0, uint32(long), 0, 0} { // PackageName, AssetName, SubPath ""
			out = le.AppendUint32(out, v)
		}
	}
	for field, v := range map[string]int{"NameCount": names, "NameOffset": nameOff, "SoftObjectPathsCount": n, "SoftObjectPathsOffset": pathsOff} {
		le.PutUint32(out[f.summaryFieldOffset("PackageFileSummary."+field):], uint32(v))
	}
	alloctest.Check(t, len(out), func() {
		g, err := NewFile(bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.SectionErrors(); err == nil || !strings.Contains(err.Error(), "2000 paths take more than") || g.SoftObjectPaths != nil || len(g.Exports) != len(f.Exports) {
			t.Errorf("section errors %v; %d soft object paths, %d exports", err, len(g.SoftObjectPaths), len(g.Exports))
		}
	})
}
