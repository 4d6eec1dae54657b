package iostore

import (
	"testing"
	"testing/fstest"

	"github.com/upkg/upkg/internal/corpus"
)

func TestFS(t *testing.T) {
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
	if err := fstest.TestFS(fsys, some...); err != nil {
		t.Fatal(err)
	}
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
