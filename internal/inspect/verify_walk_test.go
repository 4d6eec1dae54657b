package inspect

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/corpus"
)

// TestWalkVerifyLikeWalkDir checks that the verify walk lists the corpus
// as filepath.WalkDir does.
func TestWalkVerifyLikeWalkDir(t *testing.T) {
	dir := corpus.Dir(t)
	want := walkDirCandidates(t, dir)
	got, err := VerifyFiles([]string{dir})
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("VerifyFiles: %d files, %v; WalkDir: %d", len(got), err, len(want))
	}
}

// TestDirListAbsent checks the companion lookups the walk's listings
// answer, and that results do not depend on them.
func TestDirListAbsent(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"A.uasset", "a.UEXP", "B.uasset", "sub/x.uexp"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a package"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var r dirReader
	fd, entries, err := r.read(-1, dir, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.closeDir(fd)
	l := newDirList(dir+string(filepath.Separator), entries)
	for name, want := range map[string]bool{
		"A.uexp":     false, // listed in another case: the file system decides
		"A.ubulk":    true,
		"B.uexp":     true,
		"sub":        false,
		"sub/x.uexp": false, // another folder: not known
		"sub/y.uexp": false,
		"é.uexp":     false, // not ASCII: not known
	} {
		if got := l.absent(filepath.Join(dir, name)); got != want {
			t.Errorf("absent(%q) = %v, want %v", name, got, want)
		}
	}
	var nilList *dirList
	if nilList.absent(filepath.Join(dir, "B.uexp")) {
		t.Error("a nil listing knows nothing")
	}
	if newDirList(dir, append(entries[:len(entries):len(entries)], dirEntry{name: "é"})) != nil {
		t.Error("a listing with a non-ASCII name is used")
	}
	var walked, listed []VerifyResult
	if err := VerifyEach(func(yield func(string) bool) error { return WalkVerifyFiles([]string{dir}, yield) },
		&Options{}, 1, func(r VerifyResult) { walked = append(walked, r) }); err != nil {
		t.Fatal(err)
	}
	// The walk making its calls directly (as the CLI's verify does) finds
	// the same.
	if err := VerifyPaths([]string{dir}, &Options{DirectCalls: true}, 2, func(r VerifyResult) { listed = append(listed, r) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(walked, listed) {
		t.Errorf("VerifyPaths: %+v\nVerifyEach: %+v", listed, walked)
	}
	// Files named directly, two in one folder (which is then listed).
	named := []string{filepath.Join(dir, "A.uasset"), filepath.Join(dir, "B.uasset"), filepath.Join(dir, "sub", "x.uexp")}
	walked, listed = nil, nil
	Verify(named, &Options{}, 1, func(r VerifyResult) { walked = append(walked, r) })
	if err := VerifyPaths(named, &Options{}, 2, func(r VerifyResult) { listed = append(listed, r) }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(walked, listed) || len(listed) != len(named) {
		t.Errorf("named files: VerifyPaths: %+v\nVerify: %+v", listed, walked)
	}
	var lists []*dirList
	walkVerify(named, true, func(_ string, l *dirList) bool { lists = append(lists, l); return true }, nil)
	if lists[0] == nil || lists[1] != lists[0] || lists[2] != nil || !lists[0].absent(filepath.Join(dir, "B.uexp")) {
		t.Errorf("listings of named files: %v", lists)
	}
}

type fakeInfo string

func (n fakeInfo) Name() string         { return string(n) }
func (fakeInfo) Size() int64            { return 0 }
func (fakeInfo) Mode() fs.FileMode      { return 0 }
func (fakeInfo) ModTime() (t time.Time) { return }
func (fakeInfo) IsDir() bool            { return false }
func (fakeInfo) Sys() any               { return nil }

// BenchmarkWalkCorpus is the verify walk of the whole shared corpus alone:
// listing folders, choosing candidates, listings for companion lookups
// (with direct calls, as the CLI walks).
func BenchmarkWalkCorpus(b *testing.B) {
	dir := corpus.Dir(b)
	n := 0
	for b.Loop() {
		n = 0
		if err := walkVerify([]string{dir}, true, func(string, *dirList) bool { n++; return true }, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "files")
}

// TestIsCandidateExt checks the extension rules of isCandidate against
// lowering the whole path, on names in every case (and ones whose
// lowering is not plain ASCII).
func TestIsCandidateExt(t *testing.T) {
	dir := t.TempDir()
	for _, base := range []string{
		"A.uasset", "A.UASSET", "a.UExp", "a.m.ubulk", "a.M.UBULK", "a.ubulk", "a.Utoc", "a.ucas",
		"Map.UT2", "x.u\u212Ax", "\u212A.ukx", "x.\u0130", "x.uasset\u212A", "noext", "a.b.c", "a.verylongext",
		"a.usmap", "a.sig", "a.PAK", "a.txt",
	} {
		name := filepath.Join(dir, base)
		// Not a package inside: the sniff says no, so only the
		// extension rules decide.
		if err := os.WriteFile(name, []byte("text"), 0o644); err != nil {
			t.Fatal(err)
		}
		lower := strings.ToLower(name)
		ext := filepath.Ext(lower)
		want := !strings.HasSuffix(lower, ".m.ubulk") && !companionExts[ext] && packageExts[ext]
		if got := isCandidate(name); got != want {
			t.Errorf("isCandidate(%q) = %v, want %v", base, got, want)
		}
	}
	if got := joinName("/", "a"); got != "/a" {
		t.Errorf("joinName(/, a) = %q", got)
	}
	for _, dir := range []string{".", "", "a/", "a//b", "./a", "../x", "/x/y"} {
		if got, want := joinName(dir, "n"), filepath.Join(dir, "n"); got != want {
			t.Errorf("joinName(%q, n) = %q, want %q", dir, got, want)
		}
	}
}

// TestWalkVerifyTree walks a tree with symbolic links (followed only as
// the root), names in both cases and a folder deeper than the walk keeps
// descriptors for, as filepath.WalkDir does.
func TestWalkVerifyTree(t *testing.T) {
	dir := t.TempDir()
	deep := "d"
	for range maxHeldDirs + 6 {
		deep = filepath.Join(deep, "d")
	}
	for _, name := range []string{"a/B.UASSET", "a/a.uasset", "a/a.uexp", "a/x.bin", "b/c.umap", filepath.Join(deep, "z.uasset"), "Z.pak"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a package"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Files sniffed for the package tag (either byte order), near and deep.
	for _, name := range []string{"a/tagged.dat", "a/be.dat", filepath.Join(deep, "tagged.bin"), "a/short.dat"} {
		b := []byte{0xC1, 0x83, 0x2A, 0x9E, 0}
		switch filepath.Base(name) {
		case "be.dat":
			b = []byte{0x9E, 0x2A, 0x83, 0xC1}
		case "short.dat":
			b = b[:3]
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"linkdir": "a", "a/link.uasset": "a.uasset", "b/dangling.uasset": "nothing"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links:", err)
		}
	}
	for _, root := range []string{dir, dir + string(filepath.Separator), filepath.Join(dir, "a")} {
		want := walkDirCandidates(t, root)
		got, err := VerifyFiles([]string{root})
		if err != nil || !slices.Equal(got, want) || len(want) < 3 {
			t.Errorf("%s: VerifyFiles %q, %v; WalkDir %q", root, got, err, want)
		}
	}
	// A root that is a symbolic link to a folder is walked, as the folder
	// (the links inside it are not followed).
	var want []string
	for _, p := range walkDirCandidates(t, filepath.Join(dir, "a")) {
		want = append(want, filepath.Join(dir, "linkdir", strings.TrimPrefix(p, filepath.Join(dir, "a"))))
	}
	if got, err := VerifyFiles([]string{filepath.Join(dir, "linkdir")}); err != nil || !slices.Equal(got, want) || len(want) < 3 {
		t.Errorf("a root that is a symbolic link: VerifyFiles %q, %v; want %q", got, err, want)
	}
	if _, err := VerifyFiles([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing root walked")
	}
}

// walkDirCandidates lists the files under root that verify checks, the
// reference way: filepath.WalkDir and isCandidate.
func walkDirCandidates(t *testing.T, root string) []string {
	t.Helper()
	var want []string
	err := filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		if isCandidate(q) {
			want = append(want, q)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// TestVerifyNamedCompanions checks that a companion named together with
// the file that reads it (as a shell glob over a folder names them) is
// left to that file, and one named without it is checked as named.
func TestVerifyNamedCompanions(t *testing.T) {
	dir := t.TempDir()
	names := []string{
		"A.uasset", "A.uexp", "A.ubulk", // a cooked package
		"B.uexp",           // its package not named
		"C.utoc", "C.ucas", // an IoStore container
		"D.pak", "D.sig", // a pak and its signatures
		"E.m.ubulk", "E.umap", // a map's mip bulk data
		"F.UASSET", "F.uexp", // owner in another case
		"G.uzenasset", "G.uptnl", // a zen package file's bulk data
		"H.usmap", // mappings: no package's companion
	}
	var paths []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("not a package"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got, err := VerifyFiles(paths)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range []string{"A.uasset", "B.uexp", "C.utoc", "D.pak", "E.umap", "F.UASSET", "G.uzenasset", "H.usmap"} {
		want = append(want, filepath.Join(dir, n))
	}
	// The commands that take many files leave out the same.
	if kept := WithoutNamedCompanions(paths); !slices.Equal(kept, got) {
		t.Errorf("WithoutNamedCompanions: %q, VerifyFiles: %q", kept, got)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("VerifyFiles(%q):\n got %q\nwant %q", names, got, want)
	}
	// Named beside a folder holding its package, a companion is checked as
	// named: only a file named directly names its package.
	got, err = VerifyFiles([]string{dir, filepath.Join(dir, "A.uexp")})
	if err != nil || len(got) == 0 || got[len(got)-1] != filepath.Join(dir, "A.uexp") {
		t.Errorf("a folder and a companion named: %q, %v", got, err)
	}
	// Paths are compared cleaned: "./A.uexp" is the companion of "A.uasset".
	t.Chdir(dir)
	if got := WithoutNamedCompanions([]string{"A.uasset", "./A.uexp", "sub/../F.uexp", "F.UASSET"}); !slices.Equal(got, []string{"A.uasset", "F.UASSET"}) {
		t.Errorf("companions named in other spellings: kept %q", got)
	}
}

// TestVerifyPathsWalkErrors: a path named that does not exist, and a
// folder that cannot be listed, each get a failed line in their place; the
// other files are still checked (the first such error ended the run).
func TestVerifyPathsWalkErrors(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a/x.uasset", "b/sub/y.uasset", "c/z.uasset"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("not a package"), 0o644)
	}
	locked := filepath.Join(dir, "b", "sub")
	os.Chmod(locked, 0)
	defer os.Chmod(locked, 0o755)
	_, err := os.ReadDir(locked)
	canLock := err != nil // not as root
	var got []string
	err = VerifyPaths([]string{filepath.Join(dir, "missing"), dir}, &Options{}, 2, func(r VerifyResult) {
		rel, _ := filepath.Rel(dir, r.Path)
		got = append(got, filepath.ToSlash(rel)+": "+r.Error)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"missing: no such file or folder", "a/x.uasset: "}
	if canLock {
		want = append(want, "b/sub: cannot read this folder: permission denied")
	} else {
		want = append(want, "b/sub/y.uasset: ")
	}
	want = append(want, "c/z.uasset: ")
	if len(got) != len(want) {
		t.Fatalf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("result %d: %q, want %q...", i, got[i], want[i])
		}
	}
}
