package main

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/pak/paktest"
)

// writePak builds a pak with the given paths (each file's content is its
// path) into dir.
func writePak(t *testing.T, dir string, version int, mount string, paths ...string) string {
	t.Helper()
	var files []paktest.File
	for _, p := range paths {
		files = append(files, paktest.File{Path: p, Data: []byte("content of " + p)})
	}
	b, err := paktest.Build(paktest.Options{Version: version, Mount: mount}, files)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "crafted.pak")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// damagedPak writes a pak of Game/a.txt and Game/b.txt into dir, b.txt's
// stored bytes changed after its hash was taken.
func damagedPak(t *testing.T, dir string) string {
	t.Helper()
	pakPath := writePak(t, dir, 8, "../../../", "Game/a.txt", "Game/b.txt")
	b, _ := os.ReadFile(pakPath)
	i := bytes.Index(b, []byte("content of Game/b.txt"))
	b[i] ^= 0xff
	os.WriteFile(pakPath, b, 0o644)
	return pakPath
}

// listFiles returns every file and symlink under root, relative.
func listFiles(t *testing.T, root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func runExtractTest(t *testing.T, o extractOpts, pakPath string) (string, string, error) {
	t.Helper()
	return runExtractTestArgs(t, o, []string{pakPath})
}

func runExtractTestArgs(t *testing.T, o extractOpts, args []string) (string, string, error) {
	t.Helper()
	errf, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer errf.Close()
	var out bytes.Buffer
	rerr := runExtract(&inspect.Options{}, o, args, &out, errf)
	b, _ := os.ReadFile(errf.Name())
	return out.String(), string(b), rerr
}

// TestExtractRefusesEscapes crafts paks whose paths try to leave the output
// folder: nothing is written outside it, each is reported, exit status 1.
func TestExtractRefusesEscapes(t *testing.T) {
	hostile := []string{
		"../../evil.txt",
		"a/../../../evil2.txt",
		`..\..\evil3.txt`,
		"C:/Windows/evil4.txt",
		"ok/../../evil5.txt",
		"dir/./x.txt",
		"nul\x00byte.txt",
	}
	for _, v := range []int{5, 8, 11} {
		top := t.TempDir()
		pakPath := writePak(t, top, v, "../../../", append(hostile, "Game/safe.txt")...)
		out := filepath.Join(top, "out")
		stdout, stderr, err := runExtractTest(t, extractOpts{out: out}, pakPath)
		var fe *failedError
		if !errors.As(err, &fe) || fe.n != len(hostile) {
			t.Fatalf("v%d: err %v, want %d failures\nstderr:\n%s", v, err, len(hostile), stderr)
		}
		if got := listFiles(t, top); strings.Join(got, ",") != "crafted.pak,out/Game/safe.txt" {
			t.Fatalf("v%d: files after extraction: %v", v, got)
		}
		if c := strings.Count(stderr, "refusing"); c != len(hostile) {
			t.Errorf("v%d: %d refusals reported:\n%s", v, c, stderr)
		}
		if !strings.Contains(stdout, "extracted 1 files") || !strings.Contains(stdout, "7 unsafe paths refused") {
			t.Errorf("v%d: summary %q", v, stdout)
		}
	}
}

// TestExtractSymlink: a symbolic link already in the output folder cannot
// redirect a write outside it.
func TestExtractSymlink(t *testing.T) {
	top := t.TempDir()
	outside := filepath.Join(top, "outside")
	out := filepath.Join(top, "out")
	os.MkdirAll(outside, 0o755)
	os.MkdirAll(out, 0o755)
	if err := os.Symlink(outside, filepath.Join(out, "link")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "target.txt"), filepath.Join(out, "file-link.txt")); err != nil {
		t.Fatal(err)
	}
	pakPath := writePak(t, top, 11, "", "link/pwned.txt", "file-link.txt", "fine.txt")
	for _, force := range []bool{false, true} {
		_, stderr, err := runExtractTest(t, extractOpts{out: out, force: force}, pakPath)
		if err == nil {
			t.Fatalf("force=%v: no error; stderr %s", force, stderr)
		}
		if got := listFiles(t, outside); len(got) != 0 {
			t.Fatalf("force=%v: written outside the output folder: %v", force, got)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "fine.txt")); err != nil || string(b) != "content of fine.txt" {
		t.Errorf("fine.txt: %q %v", b, err)
	}
	if fi, err := os.Lstat(filepath.Join(out, "file-link.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 && !fi.Mode().IsRegular() {
		t.Errorf("file-link.txt: %v %v", fi, err)
	}
}

// TestExtractBadHash: a file whose stored bytes fail the SHA-1 check is
// reported and not left behind.
func TestExtractBadHash(t *testing.T) {
	top := t.TempDir()
	pakPath := damagedPak(t, top)
	out := filepath.Join(top, "out")
	_, stderr, err := runExtractTest(t, extractOpts{out: out}, pakPath)
	if err == nil || !strings.Contains(stderr, "Game/b.txt") || !strings.Contains(stderr, "SHA-1 hash mismatch") {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	if got := listFiles(t, out); strings.Join(got, ",") != "Game/a.txt" {
		t.Errorf("files %v", got)
	}
}

func TestSafeRelPath(t *testing.T) {
	for name, want := range map[string]bool{
		"a/b.txt": true, "Game/Content/X.uasset": true, "a..b/c": true,
		"": false, "/a": false, "../a": false, "a/../b": false, "a//b": false, "./a": false,
		`a\b`: false, "c:/x": false, "a/\x00": false, "a/.": false, "..": false,
	} {
		if got := safeRelPath(name); got != want {
			t.Errorf("safeRelPath(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSortMountOrder(t *testing.T) {
	names := []string{"Paks/z_2_P.pak", "Paks/b.pak", "Paks/a_P.utoc", "Paks/c_10_P.pak", "Paks/a.pak", "Paks/global.utoc"}
	sortMountOrder(names)
	want := "Paks/a.pak,Paks/b.pak,Paks/global.utoc,Paks/a_P.utoc,Paks/z_2_P.pak,Paks/c_10_P.pak"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("have %s\nwant %s", got, want)
	}
}

// TestExtractPatchOrder: a folder with a base pak and a patch pak extracts
// into one tree where the patch's files win and its delete records remove
// base files, whatever order the names sort in.
func TestExtractPatchOrder(t *testing.T) {
	top := t.TempDir()
	paks := filepath.Join(top, "Paks")
	os.MkdirAll(paks, 0o755)
	write := func(name string, files ...paktest.File) {
		b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/"}, files)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(paks, name), b, 0o644)
	}
	// "A_0_P" sorts before "B" by name; mount order puts it last.
	write("B-Windows.pak",
		paktest.File{Path: "Content/Same.txt", Data: []byte("base")},
		paktest.File{Path: "Content/Changed.txt", Data: []byte("old")},
		paktest.File{Path: "Content/Removed.txt", Data: []byte("removed later")})
	write("A-Windows_0_P.pak",
		paktest.File{Path: "Content/Changed.txt", Data: []byte("new")},
		paktest.File{Path: "Content/Removed.txt", Delete: true},
		paktest.File{Path: "Content/Added.txt", Data: []byte("added")})
	out := filepath.Join(top, "out")
	stdout, stderr, err := runExtractTestArgs(t, extractOpts{out: out, quiet: true}, []string{paks})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got := strings.Join(listFiles(t, out), ","); got != "Game/Content/Added.txt,Game/Content/Changed.txt,Game/Content/Same.txt" {
		t.Fatalf("files %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "Game/Content/Changed.txt")); string(b) != "new" {
		t.Errorf("Changed.txt = %q", b)
	}
	if !strings.Contains(stdout, "from 2 containers; 1 replaced by later (patch) containers, 1 removed by delete records") {
		t.Errorf("summary %q", stdout)
	}
	if _, _, err := runExtractTestArgs(t, extractOpts{}, []string{paks}); err == nil || !strings.Contains(err.Error(), "-o DIR") {
		t.Errorf("no -o: %v", err)
	}
}

// TestExtractParallel extracts a pak with many workers and with one: the
// same files with the same contents, the same lines in the same order and
// the same summary, also for entries that collide (the same path twice,
// in another case, a file where another entry needs a folder, one inside
// a path that is a file) and with --force.
func TestExtractParallel(t *testing.T) {
	top := t.TempDir()
	var files []paktest.File
	for i := range 300 {
		files = append(files, paktest.File{Path: fmt.Sprintf("Content/D%d/F%d.bin", i%7, i), Data: bytes.Repeat([]byte{byte(i)}, 1000+i*37), Compress: i%2 == 0})
	}
	files = append(files,
		paktest.File{Path: "Content/Dup.txt", Data: []byte("first")},
		paktest.File{Path: "Content/D1", Data: []byte("a file where folders are")},
		paktest.File{Path: "Content/dup.TXT", Data: []byte("second, other case")},
		paktest.File{Path: "Content/Dup.txt/inside", Data: []byte("below a file")},
		paktest.File{Path: "Content/Dup.txt", Data: []byte("third")},
		paktest.File{Path: "../escape.txt", Data: []byte("refused")},
	)
	for i := range 50 {
		files = append(files, paktest.File{Path: fmt.Sprintf("Content/D%d/Late%d.bin", i%3, i), Data: []byte(fmt.Sprint(i))})
	}
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/"}, files)
	if err != nil {
		t.Fatal(err)
	}
	pakPath := filepath.Join(top, "many.pak")
	os.WriteFile(pakPath, b, 0o644)
	tree := func(root string) string {
		var sb strings.Builder
		for _, f := range listFiles(t, root) {
			data, _ := os.ReadFile(filepath.Join(root, f))
			fmt.Fprintf(&sb, "%s %x\n", f, sha1.Sum(data))
		}
		return sb.String()
	}
	for _, force := range []bool{false, true} {
		var want [3]string
		for _, jobs := range []int{1, 4, 16} {
			out := filepath.Join(top, fmt.Sprintf("out-%v-%d", force, jobs))
			if force {
				// Over an earlier extraction.
				runExtractTest(t, extractOpts{out: out, jobs: jobs}, pakPath)
			}
			stdout, stderr, err := runExtractTest(t, extractOpts{out: out, jobs: jobs, force: force}, pakPath)
			got := [3]string{strings.ReplaceAll(stdout, out, "OUT"), strings.ReplaceAll(stderr, out, "OUT"), tree(out)}
			if err == nil {
				t.Errorf("force %v, %d workers: no error for the refused and colliding entries", force, jobs)
			}
			if jobs == 1 {
				want = got
				if !strings.Contains(stdout, "Game/Content/D0/F0.bin") {
					t.Errorf("force %v: stdout lists no files:\n%s", force, stdout)
				}
				continue
			}
			for i, what := range []string{"stdout", "stderr", "files"} {
				if got[i] != want[i] {
					t.Errorf("force %v, %d workers: %s differs from one worker's:\n%s\nwant:\n%s", force, jobs, what, got[i], want[i])
				}
			}
		}
	}
}

// TestConflicts lists which earlier entries an entry's extraction waits for.
func TestConflicts(t *testing.T) {
	paths := []string{
		"A/b.txt",   // 0
		"A/c.txt",   // 1: none (a sibling)
		"a/B.TXT",   // 2: 0 (the same path in another case)
		"A",         // 3: 0 (the first entry inside it)
		"A/b.txt/x", // 4: 2 (the latest file where it needs a folder; it waited for 0), 3 (its folder A is a file)
		"Ä/x",       // 5: none
		"ä",         // 6: 5 (folded, the first inside it)
		"Z/y/z",     // 7: none
		"z/Y",       // 8: 7
	}
	want := [][]int{nil, nil, {0}, {0}, {3, 2}, nil, {5}, nil, {7}}
	var todo []todoEntry
	for i, p := range paths {
		todo = append(todo, todoEntry{i: i, path: p})
	}
	got, same := conflicts(todo)
	if want := []int{-1, -1, 0, -1, -1, -1, -1, -1, -1}; !slices.Equal(same, want) {
		t.Errorf("same path before: %v, want %v", same, want)
	}
	for k := range paths {
		g := append([]int(nil), got[k]...)
		sort.Ints(g)
		w := append([]int(nil), want[k]...)
		sort.Ints(w)
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s: waits for %v, want %v", paths[k], got[k], want[k])
		}
	}
}

// TestExtractCaseReplace: a path stored again in another case replaces the
// file written for it (the engine's paths ignore case), leaving one file,
// and a file a user has under the new spelling is never overwritten.
func TestExtractCaseReplace(t *testing.T) {
	top := t.TempDir()
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, []paktest.File{
		{Path: "Dir/same.txt", Data: []byte("first")},
		{Path: "Dir/Same.txt", Data: []byte("second")},
	})
	if err != nil {
		t.Fatal(err)
	}
	pakPath := filepath.Join(top, "dup.pak")
	os.WriteFile(pakPath, b, 0o644)

	out := filepath.Join(top, "out")
	stdout, stderr, err := runExtractTest(t, extractOpts{out: out, quiet: true}, pakPath)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got := listFiles(t, out); len(got) != 1 || !strings.EqualFold(got[0], "Dir/same.txt") {
		t.Fatalf("files %v, want one", got)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "Dir/Same.txt")); string(data) != "second" {
		t.Errorf("Dir/Same.txt holds %q", data)
	}
	if !strings.Contains(stdout, "extracted 1 files") || !strings.Contains(stdout, "1 replaced by a later entry of the same path") {
		t.Errorf("summary %q", stdout)
	}

	user := filepath.Join(top, "user")
	os.MkdirAll(filepath.Join(user, "Dir"), 0o755)
	os.WriteFile(filepath.Join(user, "Dir/Same.txt"), []byte("the user's"), 0o644)
	if _, err := os.Stat(filepath.Join(user, "Dir/same.txt")); err == nil {
		t.Skip("case-insensitive file system")
	}
	_, stderr, err = runExtractTest(t, extractOpts{out: user, quiet: true}, pakPath)
	if err == nil || !strings.Contains(stderr, "Dir/Same.txt: exists") {
		t.Errorf("err %v, stderr %q", err, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(user, "Dir/Same.txt")); string(data) != "the user's" {
		t.Errorf("the user's file now holds %q", data)
	}
}

// TestExtractTOCOnly: a .utoc without its .ucas gets one line, not one per
// file, and no output folder.
func TestExtractTOCOnly(t *testing.T) {
	utoc := corpus.Path(t, "iostore/HassonKP+ToonTanks/Content/Paks/ToonTanks-Windows.utoc")
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, err := runExtractTest(t, extractOpts{out: out}, utoc)
	if err == nil || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "none can be read") {
		t.Errorf("err %v, stderr:\n%s", err, stderr)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("output folder made: %v", err)
	}
}

// TestCatDamaged: cat of a file whose stored bytes fail their hash writes
// nothing and fails (it streamed the damaged bytes before failing).
func TestCatDamaged(t *testing.T) {
	pakPath := damagedPak(t, t.TempDir())
	var out bytes.Buffer
	if err := runCat(&inspect.Options{}, pakPath, "Game/b.txt", &out); err == nil || !strings.Contains(err.Error(), "SHA-1 hash mismatch") {
		t.Errorf("damaged: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("damaged: %d bytes written", out.Len())
	}
	out.Reset()
	if err := runCat(&inspect.Options{}, pakPath, "Game/a.txt", &out); err != nil || out.String() != "content of Game/a.txt" {
		t.Errorf("intact: %q, %v", out.String(), err)
	}
}

// TestPendingNames: two writers of one file in one folder (two extract runs)
// get temporary names of their own, and neither removes the other's; a long
// file name still gets a temporary name the file system takes.
func TestPendingNames(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var partials partialFiles
	f1, p1, err := createPending(root, "a.bin", &partials)
	if err != nil {
		t.Fatal(err)
	}
	f2, p2, err := createPending(root, "a.bin", &partials)
	if err != nil {
		t.Fatal(err)
	}
	if p1.tmp == p2.tmp {
		t.Fatalf("both writers use %s", p1.tmp)
	}
	f1.WriteString("first")
	f2.WriteString("second, longer")
	f1.Close()
	f2.Close()
	if err := p1.publish(false); err != nil {
		t.Fatal(err)
	}
	if b, err := root.ReadFile("a.bin"); err != nil || string(b) != "first" {
		t.Errorf("published %q, %v", b, err)
	}
	if _, err := root.Stat(p2.tmp); err != nil {
		t.Errorf("the other writer's file is gone: %v", err)
	}
	p2.abort()
	long := strings.Repeat("n", 250) + ".txt"
	f3, p3, err := createPending(root, long, &partials)
	if err != nil {
		t.Fatalf("long name: %v", err)
	}
	f3.Close()
	p3.abort()
}

// TestExtractKeepsItsInput: an entry whose path in the output folder is the
// container being read is not written, --force or not (it replaced the
// pak with the entry's bytes).
func TestExtractKeepsItsInput(t *testing.T) {
	dir := t.TempDir()
	pakPath := writePak(t, dir, 8, "../../../", "crafted.pak", "other.txt")
	before, _ := os.ReadFile(pakPath)
	_, stderr, err := runExtractTest(t, extractOpts{out: dir, force: true, jobs: 2}, pakPath)
	if err == nil || !strings.Contains(stderr, "crafted.pak: is a file this run reads") {
		t.Errorf("err %v, stderr %q", err, stderr)
	}
	if after, _ := os.ReadFile(pakPath); !bytes.Equal(before, after) {
		t.Error("the pak was overwritten")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "other.txt")); err != nil || string(b) != "content of other.txt" {
		t.Errorf("other.txt: %q, %v", b, err)
	}
}

// TestCatBig: cat of files around catWhole: each comes out whole, and one
// the index says is bigger than catWhole streams with its hash checked at
// the end, reading no head of catWhole bytes first (it allocates a
// fraction of its size).
func TestCatBig(t *testing.T) {
	sizes := []int{catWhole - 1, catWhole, catWhole + 1, catWhole + 3<<20}
	var files []paktest.File
	for _, n := range sizes {
		data := make([]byte, n)
		for i := 0; i < n; i += 4096 {
			data[i] = byte(i >> 12)
		}
		files = append(files, paktest.File{Path: fmt.Sprintf("Game/%d.bin", n), Data: data, Compress: true})
	}
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, files)
	if err != nil {
		t.Fatal(err)
	}
	pakPath := filepath.Join(t.TempDir(), "big.pak")
	if err := os.WriteFile(pakPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	b = nil
	for i, n := range sizes {
		h := sha1.New()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := runCat(&inspect.Options{}, pakPath, files[i].Path, h)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", files[i].Path, err)
		}
		if got, want := h.Sum(nil), sha1.Sum(files[i].Data); !bytes.Equal(got, want[:]) {
			t.Errorf("%s: output differs", files[i].Path)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes allocated", files[i].Path, alloc)
		if n > catWhole && alloc > 16<<20 {
			t.Errorf("%s (%d bytes): %d bytes allocated", files[i].Path, n, alloc)
		}
		if n <= catWhole && alloc > uint64(n)+16<<20 {
			t.Errorf("%s (%d bytes): %d bytes allocated for a head of %d", files[i].Path, n, alloc, n)
		}
	}
}

// TestExtractExistsBeforeOpen: a file that exists is reported as existing
// (not overwritten) before its entry is opened, even when the entry could
// not be: here an encrypted one, extracted without its key.
func TestExtractExistsBeforeOpen(t *testing.T) {
	dir := t.TempDir()
	files := []paktest.File{{Path: "Game/a.txt", Data: []byte("a")}, {Path: "Game/Sub/b.txt", Data: []byte("b")}}
	plain, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, files)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i].Encrypt = true
	}
	enc, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../", Key: bytes.Repeat([]byte{7}, 32)}, files)
	if err != nil {
		t.Fatal(err)
	}
	plainPath, encPath := filepath.Join(dir, "plain.pak"), filepath.Join(dir, "enc.pak")
	for p, b := range map[string][]byte{plainPath: plain, encPath: enc} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	if _, stderr, err := runExtractTest(t, extractOpts{out: out, jobs: 2}, plainPath); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	stdout, stderr, err := runExtractTest(t, extractOpts{out: out, jobs: 2}, encPath)
	if err == nil || !strings.Contains(stdout, "2 existing not overwritten") || strings.Contains(stdout, "failed") || strings.Count(stderr, "exists in") != 2 {
		t.Errorf("err %v\nstdout %s\nstderr %s", err, stdout, stderr)
	}
}
