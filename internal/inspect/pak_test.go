package inspect

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/pak/paktest"
)

func fixtures(t *testing.T, elem ...string) string {
	return corpus.Path(t, append([]string{"pak", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures"}, elem...)...)
}

func TestPakContainer(t *testing.T) {
	p := fixtures(t, "UE6_0", "LegacyPak", "Tagged", "Zlib", "CUE4ParseFixtures-Legacy-Tagged-Zlib.pak")
	c, err := OpenContainer(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Format() != "pak" {
		t.Fatalf("format %q", c.Format())
	}
	entries := c.Entries()
	if len(entries) != 11 {
		t.Fatalf("%d entries", len(entries))
	}
	for i, e := range entries {
		if e.Hash == "" || e.Size == 0 || !strings.HasPrefix(e.Path, "CUE4ParseFixtures/Content/Fixtures/") {
			t.Errorf("entry %d: %+v", i, e)
		}
		if err := c.VerifyEntry(i); err != nil {
			t.Error(err)
		}
	}
	sum := map[string]any{}
	for _, f := range c.Summary() {
		sum[f.Key] = f.Value
	}
	if sum["Version"] != "15" || sum["FlatDirectoryIndex"] != true || sum["EncryptionMethod"] != "AES-ECB" {
		t.Errorf("summary %v", sum)
	}
	if _, err := fs.ReadFile(c, "CUE4ParseFixtures/Content/Fixtures/Maps/Empty.umap"); err != nil {
		t.Error(err)
	}
}

// TestPakInput resolves the ways a user names a package inside a pak.
func TestPakInput(t *testing.T) {
	p := fixtures(t, "UE5_8", "LegacyPak", "Unversioned", "Uncompressed", "CUE4ParseFixtures-Legacy-Unversioned-Uncompressed.pak")
	const want = "CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.uasset"
	for _, inner := range []string{
		"/" + want, want,
		"/Game/Fixtures/Textures/T_Streaming",
		"/Game/Fixtures/Textures/T_Streaming.T_Streaming",
		"/Game/Fixtures/Textures/T_Streaming.uasset",
		"Content/Fixtures/Textures/T_Streaming",
		"../../../CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.uasset",
		"Textures/T_Streaming.uasset",
		"/CUE4ParseFixtures/Fixtures/Textures/T_Streaming",
		"/game/fixtures/textures/t_streaming",
		"cue4parsefixtures/content/fixtures/textures/T_STREAMING.UASSET",
	} {
		in, err := OpenInput(p+ContainerSep+inner, &Options{})
		if err != nil {
			t.Errorf("%s: %v", inner, err)
			continue
		}
		if in.Name != p+ContainerSep+want {
			t.Errorf("%s: opened %s", inner, in.Name)
		}
		var tag [4]byte
		in.R.ReadAt(tag[:], 0)
		if tag != [4]byte{0xC1, 0x83, 0x2A, 0x9E} {
			t.Errorf("%s: first bytes % x", inner, tag)
		}
		for _, ext := range []string{".uexp", ".ubulk"} {
			r, n, err := in.Sibling(ext)
			if err != nil || n == 0 {
				t.Errorf("%s: sibling %s: %v", inner, ext, err)
				continue
			}
			io.ReadAll(io.NewSectionReader(r, 0, n))
		}
		if _, _, err := in.Sibling(".uptnl"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing sibling: %v", err)
		}
		in.Close()
	}
	for _, bad := range []string{"/Game/Nope", "T_Streaming.uexp.x"} {
		if _, err := OpenInput(p+ContainerSep+bad, &Options{}); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// Two Empty-named files would be ambiguous only by suffix; a unique
	// suffix resolves.
	if _, err := OpenInput(p+ContainerSep+"Empty", &Options{}); err != nil {
		t.Errorf("Empty: %v", err)
	}
}

func TestPakInputKeys(t *testing.T) {
	p := fixtures(t, "UE6_0", "LegacyPak", "Tagged", "OodleEncrypted", "CUE4ParseFixtures-Legacy-Tagged-OodleEncrypted.pak")
	_, err := OpenInput(p+"::/Game/Fixtures/Maps/Empty", &Options{})
	if err == nil || !strings.Contains(err.Error(), "--aes-key") {
		t.Errorf("no key: %v", err)
	}
	_, err = OpenInput(p+"::/Game/Fixtures/Maps/Empty", &Options{AESKey: "0x" + strings.Repeat("00", 32)})
	if err == nil || !strings.Contains(err.Error(), "wrong AES key") {
		t.Errorf("wrong key: %v", err)
	}
	// With the key, the Oodle (Kraken) entry decodes.
	in, err := OpenInput(p+"::/Game/Fixtures/Maps/Empty", &Options{AESKey: "CUE4ParseFixtureAESKey0123456789"})
	if err != nil {
		t.Fatalf("Oodle: %v", err)
	}
	in.Close()
}

// TestVerifyPak: a line per package inside, then one pak line with every
// hash checked.
func TestVerifyPak(t *testing.T) {
	p := fixtures(t, "UE5_8", "LegacyPak", "Tagged", "Zlib", "CUE4ParseFixtures-Legacy-Tagged-Zlib.pak")
	var got []VerifyResult
	VerifyOne(p, &Options{}, func(r VerifyResult) { got = append(got, r) })
	if len(got) != 1+5 {
		t.Fatalf("%d results, want 6", len(got))
	}
	c := got[len(got)-1]
	if c.Format != "pak" || !c.OK || *c.Entries != 11 || *c.ChunksOK != 11 || *c.ChunksFailed != 0 {
		t.Fatalf("container line %+v", c)
	}
	for _, r := range got[:len(got)-1] {
		if !strings.HasPrefix(r.Path, p+ContainerSep+"CUE4ParseFixtures/Content/Fixtures/") || filepath.Ext(r.Path) == ".uexp" {
			t.Errorf("package line %+v", r)
		}
	}
	got = nil
	VerifyOne(fixtures(t, "UE5_8", "LegacyPak", "Tagged", "OodleEncrypted", "CUE4ParseFixtures-Legacy-Tagged-OodleEncrypted.pak"), &Options{}, func(r VerifyResult) { got = append(got, r) })
	if len(got) != 1 || got[0].OK || !strings.Contains(got[0].Error, "AES key") {
		t.Errorf("encrypted without key: %+v", got)
	}
}

// pakBlocksAlways makes every pak entry a package is read from go through
// a pak.BlockReader until the test ends.
func pakBlocksAlways(tb testing.TB) {
	old := pakWholeMax
	pakWholeMax = -1
	tb.Cleanup(func() { pakWholeMax = old })
}

// TestPakPackages stores real cooked packages (with .uexp and .ubulk) in
// synthetic paks (compressed, encrypted) and reads them through
// "PAK::/Game/..." : the model equals the one read from the loose files,
// and verify gives the same verdict; also when the entries are read
// through a BlockReader (as entries over pakWholeMax are).
func TestPakPackages(t *testing.T) {
	t.Run("whole", testPakPackages)
	t.Run("blocks", func(t *testing.T) {
		pakBlocksAlways(t)
		testPakPackages(t)
	})
}

func testPakPackages(t *testing.T) {
	base := corpus.Path(t, "cooked", "LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector", "Saved", "Cooked", "Windows", "Battery_Collector")
	pkgs := []string{"Content/StarterContent/Textures/T_Gradinet_01", "Content/Blueprints/BatteryMan_GameMode_BP"}
	var files []paktest.File
	for _, p := range pkgs {
		for _, ext := range []string{".uasset", ".uexp", ".ubulk"} {
			b, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(p+ext)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, paktest.File{Path: p + ext, Data: b, Compress: true, Encrypt: true, BlockSize: 4096})
		}
	}
	key := "0x" + strings.Repeat("5a", 32)
	keyBytes := bytes.Repeat([]byte{0x5a}, 32)
	pakPath := writePak(t, "Battery-Windows.pak", paktest.Options{Version: 11, Mount: "../../../Battery_Collector/", Key: keyBytes, EncryptIndex: true}, files)
	opts := &Options{AESKey: key}
	for _, p := range pkgs {
		loose, err := OpenInput(filepath.Join(base, filepath.FromSlash(p+".uasset")), opts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := OpenPackage(loose, opts)
		loose.Close()
		if err != nil {
			t.Fatal(err)
		}
		in, err := OpenInput(pakPath+"::/Game/"+strings.TrimPrefix(p, "Content/"), opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := OpenPackage(in, opts)
		in.Close()
		if err != nil {
			t.Fatalf("%s in pak: %v", p, err)
		}
		for _, c := range []struct {
			what string
			a, b any
		}{{"names", got.Names, want.Names}, {"imports", got.Imports, want.Imports}, {"exports", got.Exports, want.Exports}, {"summary", got.Summary, want.Summary}} {
			ja, _ := json.Marshal(c.a)
			jb, _ := json.Marshal(c.b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("%s: %s differ between the pak and the loose file", p, c.what)
			}
		}
		if len(got.Exports) == 0 {
			t.Errorf("%s: no exports", p)
		}
	}
	var results []VerifyResult
	VerifyOne(pakPath, opts, func(r VerifyResult) { results = append(results, r) })
	if c := results[len(results)-1]; len(results) != 1+len(pkgs) || !c.OK || *c.ChunksOK != len(files) {
		t.Fatalf("verify: %+v", results)
	}
	for _, r := range results[:len(results)-1] {
		rel := strings.TrimPrefix(r.Path, pakPath+"::Battery_Collector/")
		var loose VerifyResult
		VerifyOne(filepath.Join(base, filepath.FromSlash(rel)), opts, func(v VerifyResult) { loose = v })
		if r.OK != loose.OK || r.Exports != loose.Exports || r.Format != loose.Format || (r.HeaderRoundtrip == nil) != (loose.HeaderRoundtrip == nil) {
			t.Errorf("%s: verify in pak %+v, loose %+v", rel, r, loose)
		}
	}
}

// TestVerifyPakBlocks verifies every corpus pak with its packages read
// whole and read through BlockReaders: the result lines are the same.
func TestVerifyPakBlocks(t *testing.T) {
	dir := corpus.Path(t, "pak")
	opts := &Options{AESKey: corpusKeys}
	lines := func(p string) []byte { return verifyLines(t, p, opts) }
	paks, packages := 0, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".pak") {
			return err
		}
		whole := lines(p)
		restore := pakWholeMax
		pakWholeMax = -1
		blocks := lines(p)
		pakWholeMax = restore
		if !bytes.Equal(whole, blocks) {
			t.Errorf("%s: read whole:\n%s\nthrough BlockReaders:\n%s", p, whole, blocks)
		}
		paks++
		packages += bytes.Count(whole, []byte("\n")) - 1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if packages == 0 {
		t.Fatal("no package verified in a pak")
	}
	t.Logf("%d paks, %d package lines alike", paks, packages)
}

// verifyLines is what `upkg verify --json p` prints for p, less the
// summary line.
func verifyLines(t *testing.T, p string, opts *Options) []byte {
	var b bytes.Buffer
	VerifyOne(p, opts, func(r VerifyResult) {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	})
	return b.Bytes()
}

// TestPakBlocksMemory verifies a pak holding CodeVein's SK_Inner_Female1
// (a 3.2 MB .uexp, 64 KiB zlib blocks), its package read whole and read
// through BlockReaders: the same line, and through BlockReaders a fraction
// of the memory (what is left is mostly its one big export, read whole).
func TestPakBlocksMemory(t *testing.T) {
	base := corpus.Path(t, "uassetapi", "TestManyAssets", "CodeVein")
	var files []paktest.File
	for _, ext := range []string{".uasset", ".uexp"} {
		b, err := os.ReadFile(filepath.Join(base, "SK_Inner_Female1"+ext))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, paktest.File{Path: "Content/SK_Inner_Female1" + ext, Data: b, Compress: true, BlockSize: 64 << 10})
	}
	p := writePak(t, "CodeVein.pak", paktest.Options{Version: 8, Mount: "../../../CodeVein/"}, files)
	opts := &Options{Engine: "4.18"}
	var lines [2][]byte
	var alloc [2]uint64
	for i, blocks := range []bool{false, true} {
		old := pakWholeMax
		if blocks {
			pakWholeMax = -1
		}
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		lines[i] = verifyLines(t, p, opts)
		runtime.ReadMemStats(&m1)
		pakWholeMax = old
		alloc[i] = m1.TotalAlloc - m0.TotalAlloc
	}
	if !bytes.Equal(lines[0], lines[1]) || !bytes.Contains(lines[0], []byte(`"ok":true`)) {
		t.Fatalf("read whole:\n%s\nthrough BlockReaders:\n%s", lines[0], lines[1])
	}
	t.Logf("verify allocated %.1f MB reading the package whole, %.1f MB through BlockReaders", float64(alloc[0])/1e6, float64(alloc[1])/1e6)
	if alloc[1] > alloc[0]/2 && !raceEnabled {
		t.Errorf("through BlockReaders %d bytes, whole %d", alloc[1], alloc[0])
	}
}

// writePak builds a pak of files with paktest and writes it as name in a
// temporary folder of tb's, whose path it returns.
func writePak(tb testing.TB, name string, o paktest.Options, files []paktest.File) string {
	tb.Helper()
	b, err := paktest.Build(o, files)
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestVerifyPakExpands: verify decompresses a compressed entry no package
// check reads. Its SHA-1 covers the stored bytes only: an entry whose hash
// is all zero and whose zlib block is damaged passed verify, and failed
// extract. One with no hash that decompresses gets a note, not a failure.
func TestVerifyPakExpands(t *testing.T) {
	data := bytes.Repeat([]byte("sixteen bytes.. "), 300000/16)
	for i := range data {
		data[i] ^= byte(i * 7 >> 5) // compressible, not trivially
	}
	b, err := paktest.Build(paktest.Options{Version: 8, Mount: "../../../"}, []paktest.File{{Path: "Game/f0.bin", Data: data, Compress: true}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := OpenPakContainer(write("good.pak", b), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.R.Entry(0).StoredHash()
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The entry's hash, in its data header and in the index, made zero;
	// then the index hash in the footer made right again.
	noHash := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, h[:], make([]byte, 20))
		m := bytes.LastIndex(b, []byte{0xE1, 0x12, 0x6F, 0x5A}) // the footer's magic
		off := int64(binary.LittleEndian.Uint64(b[m+8:]))
		size := int64(binary.LittleEndian.Uint64(b[m+16:]))
		sum := sha1.Sum(b[off : off+size])
		copy(b[m+24:m+44], sum[:])
		return b
	}
	nh := noHash(b)
	z := bytes.Index(nh, []byte{0x78, 0x9c}) // the first zlib block
	bad := bytes.Clone(nh)
	bad[z+200] ^= 0xff
	bad[z+201] ^= 0xff
	for _, tc := range []struct {
		name string
		b    []byte
		ok   bool
		note string
	}{
		{"good.pak", b, true, ""},
		{"nohash.pak", nh, true, "1 of 1 entries store no hash"},
		{"damaged.pak", bad, false, ""},
	} {
		var got []VerifyResult
		VerifyOne(write(tc.name, tc.b), &Options{}, func(r VerifyResult) { got = append(got, r) })
		if len(got) != 1 || got[0].OK != tc.ok || !strings.HasPrefix(got[0].Note, tc.note) || tc.note == "" && got[0].Note != "" {
			t.Errorf("%s: %+v", tc.name, got)
		}
	}
}

// TestPakPackageByPathHash opens a package of a pak stripped of its full
// directory index (its files known by path hash only) by its path: the
// package and its .uexp are found through their hashes, and it reads as
// the loose file does.
func TestPakPackageByPathHash(t *testing.T) {
	base := corpus.Path(t, "cooked", "LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector", "Saved", "Cooked", "Windows", "Battery_Collector")
	const pkg = "Content/Blueprints/BatteryMan_GameMode_BP"
	var files []paktest.File
	for _, ext := range []string{".uasset", ".uexp"} {
		b, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(pkg+ext)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, paktest.File{Path: pkg + ext, Data: b})
	}
	pakPath := writePak(t, "Hashed-Windows.pak", paktest.Options{Version: 11, Mount: "../../../Battery_Collector/", NoFullDirectoryIndex: true}, files)
	in, err := OpenInput(pakPath+"::Battery_Collector/"+pkg+".uasset", &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	p, err := OpenPackage(in, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Exports) != 5 || slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, ".uexp") }) {
		t.Errorf("%d exports, warnings %q; want 5 exports read with their .uexp", len(p.Exports), p.Warnings)
	}
}
