package pak_test

import (
	"bytes"
	"io/fs"
	"path/filepath"
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
		if len(p.Entries) != len(files) {
			t.Fatalf("v%d: %d entries, want %d", v, len(p.Entries), len(files))
		}
		safe := 0
		for _, e := range p.Entries {
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
			for _, e := range p.Entries {
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
