package inspect

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/upkg/upkg/internal/iostoretest"
)

// TestVerifyPathsDone checks that fileDone follows the last result of each
// file the walk found, a container's package lines included.
func TestVerifyPathsDone(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.uasset", "z/b.u"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a package"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var chunks []iostoretest.Chunk
	for i, name := range []string{"Game/Content/P1.uasset", "Game/Content/P2.uasset", "Game/Content/P3.uasset"} {
		chunks = append(chunks, iostoretest.Chunk{ID: iostoretest.ChunkID(uint64(i+1), 0, 2), Path: name, Data: []byte("not a zen package at all")})
	}
	toc, cas := iostoretest.Build(3, 7, "../../../", chunks)
	if err := os.WriteFile(filepath.Join(dir, "m.utoc"), toc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.ucas"), cas, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		var paths []string
		var dones []int
		err := VerifyPathsDone([]string{dir}, &Options{}, workers,
			func(r VerifyResult) { paths = append(paths, r.Path) },
			func() { dones = append(dones, len(paths)) })
		if err != nil {
			t.Fatal(err)
		}
		// a.uasset, then m.utoc's line and one per package, then z/b.u.
		if want := []int{1, 5, 6}; !slices.Equal(dones, want) {
			t.Errorf("%d workers: files done after %v results, want %v (results %q)", workers, dones, want, paths)
		}
	}
}
