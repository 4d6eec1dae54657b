package pak_test

import (
	"bytes"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

func TestFS(t *testing.T) {
	dir := corpus.Path(t, "pak")
	for _, rel := range []string{
		"trumank+repak/repak/tests/packs/pack_v11_compress_encrypt_encryptindex.pak",
		"trumank+repak/repak/tests/packs/pack_v8a_compress.pak",
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/LegacyPak/Tagged/Zlib/CUE4ParseFixtures-Legacy-Tagged-Zlib.pak",
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Pak/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed.pak",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			p := openCorpus(t, dir, rel)
			defer p.Close()
			if err := fstest.TestFS(p, p.Names()...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestUnsafeNames: entries whose paths would leave an extraction folder are
// listed (so tools can report them) but are not reachable through fs.FS,
// and SafePath rejects them.
func TestUnsafeNames(t *testing.T) {
	bad := []string{"../../evil.txt", "a/../../b.txt", "dir//x.txt", "./dot.txt", `back\slash.txt`, "c:/drive.txt", "x/\x00nul"}
	var files []paktest.File
	for _, n := range bad {
		files = append(files, paktest.File{Path: n, Data: []byte(n)})
	}
	files = append(files, paktest.File{Path: "ok/fine.txt", Data: []byte("fine")})
	for _, v := range []int{8, 11} {
		b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../"}, files)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		if p.Len() != len(files) {
			t.Fatalf("v%d: %d entries, want %d", v, p.Len(), len(files))
		}
		safe := 0
		for _, e := range p.All() {
			if e.SafePath() {
				safe++
				if e.Name != "ok/fine.txt" {
					t.Errorf("v%d: %q judged safe", v, e.Name)
				}
			}
		}
		if safe != 1 {
			t.Errorf("v%d: %d safe names, want 1", v, safe)
		}
		if err := fstest.TestFS(p, "ok/fine.txt"); err != nil {
			t.Fatal(err)
		}
		names := []string{}
		fs.WalkDir(p, ".", func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				names = append(names, path)
			}
			return nil
		})
		for _, n := range names {
			if n != "ok/fine.txt" {
				t.Errorf("v%d: fs.FS exposes %q", v, n)
			}
		}
	}
}

// TestConcurrentReads reads every entry from several goroutines at once
// (run with -race).
func TestConcurrentReads(t *testing.T) {
	dir := corpus.Path(t, "pak")
	p := openCorpus(t, dir, "FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/LegacyPak/Unversioned/Zlib/CUE4ParseFixtures-Legacy-Unversioned-Zlib.pak")
	defer p.Close()
	done := make(chan error)
	for range 4 {
		go func() {
			for _, e := range p.All() {
				if _, err := e.Data(); err != nil {
					done <- err
					return
				}
				if err := e.Verify(); err != nil {
					done <- err
					return
				}
			}
			_, err := p.ReadDir(".")
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestNameLookup builds paks whose paths are valid fs names or not in the
// ways fsName tells apart (".." and "." elements, empty ones, colons,
// backslashes, a leading slash), under several mount points, and checks
// the name lookup's hashes (made without putting names together) against
// the names', and that each valid name is found, the last of two entries
// of one name winning. The corpus's paks are checked the same way.
func TestNameLookup(t *testing.T) {
	paths := []string{
		"Content/A.uasset", "Content/A.uexp", "Content/Sub/B.umap", "Root.txt",
		"Content/../Up.txt", "Content/./Dot.txt", "Content//Empty.txt", "Content/C:D.txt",
		"Content/Back\\Slash.txt", "Content/..", "Content/.", "/Lead/Slash.txt", "Twice.txt", "Twice.txt",
	}
	for _, mount := range []string{"../../../Game/", "../../../", "", "/Abs/", "Odd:Mount/", "../../../Engine/Plugins/X/"} {
		for _, v := range []int{8, 11} {
			var files []paktest.File
			for i, p := range paths {
				files = append(files, paktest.File{Path: p, Data: []byte{byte(i)}})
			}
			_, r := buildPak(t, paktest.Options{Version: v, Mount: mount}, files)
			pak.CheckNameHashes(t, r)
			found := 0
			for _, e := range r.All() {
				if !fs.ValidPath(e.Name) || path.Clean(e.Name) != e.Name || strings.ContainsAny(e.Name, "\\:") {
					continue
				}
				found++
				got, ok := r.LookupName(e.Name)
				if !ok {
					t.Errorf("mount %q v%d: %q not found", mount, v, e.Name)
					continue
				}
				want, err := e.Data()
				if strings.HasSuffix(e.Name, "Twice.txt") {
					want = []byte{13} // the last of the two
				}
				if d, _ := got.Data(); err != nil || !bytes.Equal(d, want) {
					t.Errorf("mount %q v%d: %q gave the entry of data %v, want %v", mount, v, e.Name, d, want)
				}
			}
			if found == 0 && !strings.Contains(mount, ":") {
				t.Errorf("mount %q v%d: no valid name", mount, v)
			}
		}
	}
	dir, paks := corpusPaks(t)
	for _, rel := range paks {
		r := openCorpus(t, dir, rel)
		pak.CheckNameHashes(t, r)
		r.Close()
	}
}
