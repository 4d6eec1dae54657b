package iostore

import (
	"bytes"
	"io"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/upkg/upkg/internal/corpus"
)

// TestFS runs fstest.TestFS over a container, whose files' Seek and
// ReadAt read them whole, or (as for files over wholeChunkMax) through a
// ChunkReader.
func TestFS(t *testing.T) {
	t.Run("whole", testFS)
	t.Run("blocks", func(t *testing.T) {
		old := wholeChunkMax
		wholeChunkMax = -1
		defer func() { wholeChunkMax = old }()
		testFS(t)
	})
}

func testFS(t *testing.T) {
	f, err := Open(corpus.Path(t, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fsys, err := f.FS()
	if err != nil {
		t.Fatal(err)
	}
	var some []string
	for _, fe := range f.DirectoryIndex.Files()[:5] {
		some = append(some, fe.Path)
	}
	// One file read through Seek and ReadAt gives what ReadFile gives.
	want, err := fsys.ReadFile(some[0])
	if err != nil {
		t.Fatal(err)
	}
	h, err := fsys.Open(some[0])
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(want))
	if _, err := h.(io.ReaderAt).ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s: ReadAt gave %v, or bytes that differ from ReadFile", some[0], err)
	}
	if _, err := h.(io.Seeker).Seek(int64(len(want))/2, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if rest, err := io.ReadAll(h); err != nil || !bytes.Equal(rest, want[len(want)/2:]) {
		t.Fatalf("%s: read after Seek gave %v, or bytes that differ", some[0], err)
	}
	if err := fstest.TestFS(fsys, some...); err != nil {
		t.Fatal(err)
	}
}

// packageNameBySplit is PackageName as it was first written, splitting
// the path: the reference for TestPackageNameSplit.
func packageNameBySplit(p string) (string, bool) {
	parts := strings.Split(p, "/")
	ci := -1
	for i, s := range parts {
		if strings.EqualFold(s, "Content") {
			ci = i
			break
		}
	}
	if ci < 1 || ci == len(parts)-1 {
		return "", false
	}
	root := parts[ci-1]
	switch {
	case ci == 1 && strings.EqualFold(parts[0], "Engine"):
		root = "Engine"
	case ci == 1:
		root = "Game"
	}
	rest := strings.Join(parts[ci+1:], "/")
	if ext := path.Ext(rest); ext != "" {
		rest = strings.TrimSuffix(rest, ext)
	}
	return "/" + root + "/" + rest, true
}

func TestPackageNameSplit(t *testing.T) {
	elems := []string{"", "Content", "content", "CONTENT", "Engine", "engine", "Game", "Plugins", "P", "a.b", "X.uasset", ".umap", "x.", "Contents", "Conten"}
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		got, gotOK := PackageName(p)
		want, wantOK := packageNameBySplit(p)
		if got != want || gotOK != wantOK {
			t.Fatalf("PackageName(%q) = %q, %v; by splitting %q, %v", p, got, gotOK, want, wantOK)
		}
		if depth == 4 {
			return
		}
		for _, e := range elems {
			if depth == 0 {
				walk(e, 1)
			} else {
				walk(p+"/"+e, depth+1)
			}
		}
	}
	walk("", 0)
}

func TestPackageName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"CUE4ParseFixtures/Content/Fixtures/DA_AllProperties.uasset", "/Game/Fixtures/DA_AllProperties"},
		{"Engine/Content/EngineMaterials/X.uasset", "/Engine/EngineMaterials/X"},
		{"Game/Plugins/Foo/Bar/Content/Maps/L.umap", "/Bar/Maps/L"},
		{"Engine/Plugins/Animation/ControlRig/Content/Controls/C.uasset", "/ControlRig/Controls/C"},
	}
	for _, tt := range tests {
		if got, _ := PackageName(tt.in); got != tt.want {
			t.Errorf("PackageName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, ok := PackageName("Game/Config/DefaultGame.ini"); ok {
		t.Error("path outside Content mapped")
	}
}
