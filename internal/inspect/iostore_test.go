package inspect

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/iostore"
)

const fixtureKey = "CUE4ParseFixtureAESKey0123456789"

func fixtureDir(t testing.TB, engine string) string {
	return corpus.Path(t, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures", engine)
}

func fixtureToc(t testing.TB, engine, mode, variant string) string {
	return filepath.Join(fixtureDir(t, engine), "IoStore", mode, variant, "CUE4ParseFixtures-Minimal-"+variant+"-Windows.utoc")
}

// manifestLists reads the package names and bulk paths the fixture
// manifest says every minimal container holds.
func manifestLists(t *testing.T, engine string) (packages, bulk []string) {
	data, err := os.ReadFile(filepath.Join(fixtureDir(t, engine), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Packages []string `json:"testContainerPackages"`
		Bulk     []string `json:"testContainerBulkPaths"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	sort.Strings(m.Packages)
	sort.Strings(m.Bulk)
	return m.Packages, m.Bulk
}

var variants = []string{"Zlib", "Uncompressed", "Oodle", "OodlePartitioned", "OodleEncrypted"}

// TestFixtureFileLists checks every fixture container lists exactly the
// packages and bulk files of the fixture manifest, and nothing else.
func TestFixtureFileLists(t *testing.T) {
	for _, engine := range []string{"UE5_8", "UE6_0"} {
		packages, bulk := manifestLists(t, engine)
		modes := []string{"Tagged", "Unversioned"}
		for _, mode := range modes {
			for _, v := range variants {
				p := fixtureToc(t, engine, mode, v)
				if _, err := os.Stat(p); err != nil {
					continue // UE6_0 has no Unversioned set
				}
				c, err := openUtoc(p, &Options{AESKey: fixtureKey})
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				var gotPkgs, gotBulk []string
				for _, e := range c.Entries() {
					if e.Path == "" {
						continue
					}
					switch filepath.Ext(e.Path) {
					case ".uasset", ".umap":
						n, _ := iostore.PackageName(e.Path)
						gotPkgs = append(gotPkgs, n)
					default:
						gotBulk = append(gotBulk, e.Path)
					}
				}
				sort.Strings(gotPkgs)
				sort.Strings(gotBulk)
				if strings.Join(gotPkgs, "\n") != strings.Join(packages, "\n") || strings.Join(gotBulk, "\n") != strings.Join(bulk, "\n") {
					t.Errorf("%s %s %s: %d packages, %d bulk files; manifest %d, %d", engine, mode, v, len(gotPkgs), len(gotBulk), len(packages), len(bulk))
				}
				if n := len(c.Entries()); n != 112 {
					t.Errorf("%s %s %s: %d entries, want 112", engine, mode, v, n)
				}
				c.Close()
			}
		}
	}
}

func TestContainerFS(t *testing.T) {
	c, err := openUtoc(fixtureToc(t, "UE6_0", "Tagged", "Zlib"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := fstest.TestFS(c, "CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset"); err != nil {
		t.Fatal(err)
	}
}

// TestKeyForms opens the encrypted fixture with the key typed as raw text,
// hex (with and without 0x) and base64, and rejects a wrong key clearly.
func TestKeyForms(t *testing.T) {
	p := fixtureToc(t, "UE6_0", "Tagged", "OodleEncrypted")
	h := hex.EncodeToString([]byte(fixtureKey))
	for _, k := range []string{fixtureKey, h, "0x" + h, base64.StdEncoding.EncodeToString([]byte(fixtureKey))} {
		c, err := openUtoc(p, &Options{AESKey: k})
		if err != nil {
			t.Errorf("key %q: %v", k, err)
			continue
		}
		c.Close()
	}
	_, err := openUtoc(p, &Options{AESKey: strings.Repeat("ab", 32)})
	if err == nil || !strings.Contains(err.Error(), "wrong AES key") {
		t.Errorf("wrong key: %v", err)
	}
	_, err = openUtoc(p, &Options{})
	if err == nil || !strings.Contains(err.Error(), "--aes-key") {
		t.Errorf("no key: %v", err)
	}
}

// TestPackagesInContainers opens every package of the Zlib fixtures in place
// and checks that all imports and export classes are named.
func TestPackagesInContainers(t *testing.T) {
	for _, tc := range []struct{ engine, mode string }{{"UE5_8", "Tagged"}, {"UE5_8", "Unversioned"}, {"UE6_0", "Tagged"}} {
		packages, _ := manifestLists(t, tc.engine)
		p := fixtureToc(t, tc.engine, tc.mode, "Zlib")
		imports, exports := 0, 0
		for _, name := range packages {
			in, err := OpenInput(p+ContainerSep+name, &Options{})
			if err != nil {
				t.Fatal(err)
			}
			pkg, err := OpenPackage(in, &Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if pkg.Format != "zen" || len(pkg.Warnings) != 0 {
				t.Errorf("%s: format %s, warnings %v", name, pkg.Format, pkg.Warnings)
			}
			for _, o := range pkg.Imports {
				if strings.Contains(o.Path, "<") {
					t.Errorf("%s: import %d unresolved: %s", name, o.Index, o.Path)
				}
			}
			for i, o := range pkg.Exports {
				if o.Class == "" || strings.Contains(o.Class, "<") {
					t.Errorf("%s: export %d class %q", name, o.Index, o.Class)
				}
				if _, err := pkg.ExportData(i); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			imports += len(pkg.Imports)
			exports += len(pkg.Exports)
			in.Close()
		}
		t.Logf("%s %s: %d packages, %d imports and %d exports resolved", tc.engine, tc.mode, len(packages), imports, exports)
	}
}

// TestBulkSibling reads a package's .ubulk through Input.Sibling.
func TestBulkSibling(t *testing.T) {
	p := fixtureToc(t, "UE5_8", "Tagged", "Zlib")
	_, bulk := manifestLists(t, "UE5_8")
	pkg := strings.TrimSuffix(bulk[0], filepath.Ext(bulk[0])) + ".uasset"
	in, err := OpenInput(p+ContainerSep+pkg, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, n, err := in.Sibling(filepath.Ext(bulk[0]))
	if err != nil || n == 0 || r == nil {
		t.Fatalf("sibling of %s: %v (%d bytes)", pkg, err, n)
	}
}

// TestVerifyContainer checks the verify lines of a container: one zen line
// per package, then one utoc line with every chunk hash.
func TestVerifyContainer(t *testing.T) {
	var got []VerifyResult
	VerifyOne(fixtureToc(t, "UE6_0", "Tagged", "Zlib"), &Options{}, func(r VerifyResult) { got = append(got, r) })
	last := got[len(got)-1]
	if len(got) != 98 || last.Format != "utoc" || !last.OK || *last.ChunksOK != 112 || *last.ChunksFailed != 0 {
		t.Fatalf("%d lines, last %+v", len(got), last)
	}
	for _, r := range got[:len(got)-1] {
		if r.Format != "zen" || !r.OK {
			t.Errorf("%+v", r)
		}
	}
	got = nil
	VerifyOne(fixtureToc(t, "UE5_8", "Tagged", "Oodle"), &Options{}, func(r VerifyResult) { got = append(got, r) })
	// Oodle (Kraken) chunks decode through the registry and hash-check.
	last = got[len(got)-1]
	if !last.OK || last.Error != "" || *last.ChunksFailed != 0 || *last.ChunksOK < 100 {
		t.Errorf("Oodle container: %+v", last)
	}
	if len(got) != 98 {
		t.Errorf("Oodle container: %d lines, want 98", len(got))
	}
	for _, r := range got[:len(got)-1] {
		if r.Format != "zen" || !r.OK {
			t.Errorf("Oodle package line: %+v", r)
		}
	}
	// TOC-only: listed completely, reads refused clearly.
	got = nil
	VerifyOne(corpus.Path(t, "iostore/GAMEWayOfTheNinja+wayoftheninja.github.io/WayOfTheNinja-Windows.utoc"), &Options{}, func(r VerifyResult) { got = append(got, r) })
	if len(got) != 1 || *got[0].Entries != 5370 || !strings.Contains(got[0].Error, "no .ucas") {
		t.Errorf("TOC-only: %+v", got)
	}
}

// spoiledFixture copies the UE 5.8 Zlib fixture container (with the
// global container beside it) and spoils a block in the middle of its
// biggest package chunk. It returns the copy, that package's container
// path and the error VerifyChunk gives for its chunk.
func spoiledFixture(t *testing.T) (utoc, path string, want error) {
	t.Helper()
	src := fixtureToc(t, "UE5_8", "Tagged", "Zlib")
	dir := filepath.Join(t.TempDir(), "Tagged")
	utoc = filepath.Join(dir, "Zlib", filepath.Base(src))
	for _, p := range []string{src, strings.TrimSuffix(src, ".utoc") + ".ucas", filepath.Join(filepath.Dir(src), "..", "global.utoc"), filepath.Join(filepath.Dir(src), "..", "global.ucas")} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(src)), p)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := iostore.Open(utoc)
	if err != nil {
		t.Fatal(err)
	}
	// The package chunk over the most blocks, and a block in its middle.
	bs := uint64(f.Header.CompressionBlockSize)
	chunk, most := -1, uint64(0)
	for _, fe := range f.DirectoryIndex.Files() {
		ol := f.OffsetLength(fe.Chunk)
		if f.ChunkIDs[fe.Chunk].Type().Canonical(f.Header.Version) == iostore.ChunkExportBundleData && ol.Length/bs > most {
			path, chunk, most = fe.Path, fe.Chunk, ol.Length/bs
		}
	}
	if most < 3 {
		t.Fatalf("no package chunk over 3 blocks (%d)", most)
	}
	ol := f.OffsetLength(chunk)
	blk := f.Block(int((ol.Offset + ol.Length/2) / bs))
	f.Close()
	cas, err := os.ReadFile(strings.TrimSuffix(utoc, ".utoc") + ".ucas")
	if err != nil {
		t.Fatal(err)
	}
	for k := range uint64(8) {
		cas[blk.Offset+uint64(blk.CompressedSize)/2+k] ^= 0xA5
	}
	if err := os.WriteFile(strings.TrimSuffix(utoc, ".utoc")+".ucas", cas, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = iostore.Open(utoc)
	if err != nil {
		t.Fatal(err)
	}
	want = f.VerifyChunk(chunk)
	f.Close()
	if want == nil {
		t.Fatal("the spoiled block reads")
	}
	return utoc, path, want
}

// TestVerifyUtocLazyDamaged verifies a copy of the UE 5.8 Zlib fixture
// container with a block of its biggest package spoiled, the package read
// through a ChunkReader and its hash checked after its checks read it:
// the package's line fails with the error VerifyChunk gives, as when the
// hash was checked first, and the container counts the chunk failed.
func TestVerifyUtocLazyDamaged(t *testing.T) {
	utoc, path, want := spoiledFixture(t)
	old := zenWholeMax
	zenWholeMax = -1
	defer func() { zenWholeMax = old }()
	var lines []VerifyResult
	VerifyOne(utoc, &Options{}, func(r VerifyResult) { lines = append(lines, r) })
	if len(lines) < 2 || *lines[len(lines)-1].ChunksFailed != 1 || lines[len(lines)-1].OK {
		t.Fatalf("%d lines, container line last: %+v", len(lines), lines[len(lines)-1])
	}
	found := false
	for _, r := range lines[:len(lines)-1] {
		if strings.HasSuffix(r.Path, ContainerSep+path) {
			found = true
			if r.OK || r.Error != want.Error() {
				t.Errorf("damaged package: ok %v, error %q; want %q", r.OK, r.Error, want)
			}
		} else if !r.OK {
			t.Errorf("%s: %s", r.Path, r.Error)
		}
	}
	if !found {
		t.Errorf("no line for %s", path)
	}
}

// TestVerifyUtocLazy verifies every corpus container with its packages
// read whole and read through ChunkReaders (as chunks over zenWholeMax
// are): the result lines are the same, and so is what `upkg info` reads
// of a package inside.
func TestVerifyUtocLazy(t *testing.T) {
	opts := &Options{AESKey: corpusKeys}
	lines := func(p string) []byte { return verifyLines(t, p, opts) }
	lazily := func(fn func()) {
		oldMax, oldPrefix := zenWholeMax, zenPrefix
		zenWholeMax, zenPrefix = -1, 100 // most headers are read through Body too
		defer func() { zenWholeMax, zenPrefix = oldMax, oldPrefix }()
		fn()
	}
	containers, packages := 0, 0
	for _, p := range corpus.Files(t, "iostore", ".utoc") {
		whole := lines(p)
		var lazy []byte
		lazily(func() { lazy = lines(p) })
		if !bytes.Equal(whole, lazy) {
			t.Errorf("%s: read whole:\n%s\nthrough ChunkReaders:\n%s", p, whole, lazy)
		}
		containers++
		packages += bytes.Count(whole, []byte("\n")) - 1
	}
	if packages < 1000 {
		t.Fatalf("only %d package lines", packages)
	}
	t.Logf("%d containers, %d package lines alike", containers, packages)
	// One package opened on its own (upkg info CONTAINER::PACKAGE).
	p := filepath.Join(corpus.Path(t, "iostore", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures", "UE5_8", "IoStore", "Tagged", "Zlib"), "CUE4ParseFixtures-Minimal-Zlib-Windows.utoc")
	dump := func() []byte {
		in, err := OpenInput(p+"::/Game/Fixtures/Maps/Empty", opts)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		pkg, err := OpenPackage(in, opts)
		if err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(pkg)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	whole := dump()
	var lazy []byte
	lazily(func() { lazy = dump() })
	if !bytes.Equal(whole, lazy) {
		t.Errorf("Empty.umap read whole and through a ChunkReader differ:\n%s\n%s", whole, lazy)
	}
}

// TestOpenInputLateChunkHash opens a package chunk over zenWholeMax from a
// container as the CLI does (Options.LateChunkHash) and reads all of it
// (header and every export's properties). Intact, it reads as with the
// hash checked first and closes without error, and checking the hash
// decodes no block of its own (checking first decodes them all once more). With a block spoiled, closing (or
// opening, when the damage stops the reads) gives the error VerifyChunk
// gives, and so does verify's line for CONTAINER::PACKAGE.
func TestOpenInputLateChunkHash(t *testing.T) {
	old := zenWholeMax
	zenWholeMax = -1
	defer func() { zenWholeMax = old }()
	inflate := compression.Lookup("Zlib")
	defer compression.Register("Zlib", inflate)
	var decodes int
	compression.Register("Zlib", func(dst, src []byte) error {
		decodes++
		return inflate(dst, src)
	})
	// read opens name, reads it through and returns its JSON, the
	// decodes it took and the error of opening, reading or closing.
	read := func(name string, late bool) ([]byte, int, error) {
		decodes = 0
		opts := &Options{LateChunkHash: late}
		in, err := OpenInput(name, opts)
		if err != nil {
			return nil, decodes, err
		}
		p, err := OpenPackage(in, opts)
		var j []byte
		if err == nil {
			for i := range p.Exports {
				p.Props(i)
			}
			j, err = json.Marshal(p)
		}
		if cerr := in.Close(); cerr != nil {
			err = cerr
		}
		return j, decodes, err
	}
	utoc, path, want := spoiledFixture(t)
	intact := fixtureToc(t, "UE5_8", "Tagged", "Zlib") + ContainerSep + path
	first, twice, err := read(intact, false)
	if err != nil {
		t.Fatal(err)
	}
	late, once, err := read(intact, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, late) {
		t.Errorf("%s reads differently with its hash checked last:\n%s\n%s", path, first, late)
	}
	// Checking first decodes every block of the chunk once more.
	f, err := iostore.Open(strings.TrimSuffix(intact, ContainerSep+path))
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, fe := range f.DirectoryIndex.Files() {
		if fe.Path == path {
			ol, bs := f.OffsetLength(fe.Chunk), uint64(f.Header.CompressionBlockSize)
			blocks = int((ol.Offset+ol.Length-1)/bs - ol.Offset/bs + 1)
		}
	}
	f.Close()
	if twice-once != blocks {
		t.Errorf("%s (%d blocks): %d block decodes with the hash checked first, %d checked last", path, blocks, twice, once)
	}

	damaged := utoc + ContainerSep + path
	if _, _, err := read(damaged, true); err == nil || err.Error() != want.Error() {
		t.Errorf("damaged %s: error %v, want %v", path, err, want)
	}
	var lines []VerifyResult
	VerifyOne(damaged, &Options{LateChunkHash: true}, func(r VerifyResult) { lines = append(lines, r) })
	if len(lines) != 1 || lines[0].OK || lines[0].Error != trimPath(want.Error(), damaged) {
		t.Errorf("verify %s: %+v, want the error %q", damaged, lines, want)
	}
}

// TestImportersCounted checks verify's importer counts on a container whose
// packages import each other: a package's exports are kept only while
// packages importing it are left to check (none once all are), and every
// import is named as it is without the counts.
func TestImportersCounted(t *testing.T) {
	p := fixtureToc(t, "UE5_8", "Tagged", "Zlib")
	opts := &Options{}
	named := func(counted bool) (got map[string][]string, importers int, x *utocContext) {
		c, err := openUtoc(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		x = c.context()
		files := c.f.DirectoryIndex
		pkgFiles := packageFiles(c.f, files)
		order, first := packageOrder(x, len(pkgFiles), func(j int) uint64 { return c.f.ChunkIDs[files.FileChunk(int(pkgFiles[j]))].ID() })
		if counted {
			importers = len(x.importers)
		} else {
			x.importers = nil // as when not counted
		}
		got = map[string][]string{}
		for _, j := range order {
			fe := files.File(int(pkgFiles[j]))
			data, err := c.f.ReadChunk(fe.Chunk)
			if err != nil {
				t.Fatal(err)
			}
			zc := &zenChunk{Reader: *bytes.NewReader(data), data: data, c: c, chunk: fe.Chunk}
			zc.in = Input{Name: fe.Path, R: zc, Size: int64(len(data))}
			pkg, _, err := openZenResolver(&zc.in, opts)
			if err != nil {
				t.Fatalf("%s: %v", fe.Path, err)
			}
			for _, o := range pkg.Imports {
				got[fe.Path] = append(got[fe.Path], o.Path+" "+o.Class)
			}
			if counted && first[j] {
				x.importsNamed(c.f.ChunkIDs[fe.Chunk].ID())
			}
		}
		return got, importers, x
	}
	want, _, _ := named(false)
	got, importers, x := named(true)
	if importers == 0 {
		t.Fatal("no package of the container imports another")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("imports named with importer counts differ:\n%v\nwithout:\n%v", got, want)
	}
	if len(x.importers) != 0 || len(x.exports) != 0 || x.exportCount != 0 || len(x.packages) != 0 {
		t.Errorf("after every package: %d importer counts, %d packages' exports (%d), %d parsed packages kept", len(x.importers), len(x.exports), x.exportCount, len(x.packages))
	}
	t.Logf("%d packages imported by others", importers)
}

// TestContainerLines: verify tells Options.ContainerLines how many package
// lines a container gives beside its own, before the first of them.
func TestContainerLines(t *testing.T) {
	for _, p := range []string{
		fixtureToc(t, "UE5_8", "Tagged", "Zlib"),
		fixtures(t, "UE5_8", "LegacyPak", "Tagged", "Zlib", "CUE4ParseFixtures-Legacy-Tagged-Zlib.pak"),
	} {
		told, lines, before := -1, 0, -1
		opts := &Options{ContainerLines: func(n int) { told, before = n, lines }}
		VerifyOne(p, opts, func(VerifyResult) { lines++ })
		if told != lines-1 || before != 0 {
			t.Errorf("%s: told %d package lines (after %d lines), gave %d lines", filepath.Base(p), told, before, lines)
		}
	}
}

// TestVerifyUtocManyFailed spoils most of a container's .ucas (zeros up to
// the container header at its end): the container's line counts every
// failed chunk once and names the first three.
func TestVerifyUtocManyFailed(t *testing.T) {
	src := fixtureToc(t, "UE5_8", "Tagged", "Uncompressed")
	dir := t.TempDir()
	utoc := filepath.Join(dir, filepath.Base(src))
	for _, ext := range []string{".utoc", ".ucas"} {
		b, err := os.ReadFile(strings.TrimSuffix(src, ".utoc") + ext)
		if err != nil {
			t.Fatal(err)
		}
		if ext == ".ucas" {
			clear(b[:len(b)*2/3])
		}
		if err := os.WriteFile(strings.TrimSuffix(utoc, ".utoc")+ext, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []VerifyResult
	VerifyOne(utoc, &Options{}, func(r VerifyResult) { lines = append(lines, r) })
	last := lines[len(lines)-1]
	pkgFailed := 0
	for _, r := range lines[:len(lines)-1] {
		if !r.OK {
			pkgFailed++
		}
	}
	m := regexp.MustCompile(`^(\d+) chunks failed: iostore: .*: chunk 0 \(.*, and (\d+) more$`).FindStringSubmatch(last.Error)
	if last.Format != "utoc" || last.OK || m == nil || pkgFailed < 4 {
		t.Fatalf("%d package lines failed; container line %+v", pkgFailed, last)
	}
	if n, _ := strconv.Atoi(m[1]); n != *last.ChunksFailed || n < pkgFailed || *last.ChunksOK+n != *last.Entries {
		t.Errorf("%s: %d chunks failed, %d ok of %d, %d package lines failed", last.Error, *last.ChunksFailed, *last.ChunksOK, *last.Entries, pkgFailed)
	}
	if more, _ := strconv.Atoi(m[2]); more != *last.ChunksFailed-3 {
		t.Errorf("%s: %d failed", last.Error, *last.ChunksFailed)
	}
}
