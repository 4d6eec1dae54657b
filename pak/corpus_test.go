package pak_test

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/pak"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// Keys from the corpus README.
const (
	repakKey     = "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94="
	cue4parseKey = "CUE4ParseFixtureAESKey0123456789"
)

// corpusPaks returns every .pak of the corpus, relative to its pak folder.
func corpusPaks(t testing.TB) (string, []string) {
	dir := corpus.Path(t, "pak")
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".pak") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no .pak files in the corpus")
	}
	return dir, out
}

func keyFor(rel string) string {
	if strings.Contains(rel, "repak") {
		return repakKey
	}
	return cue4parseKey
}

func openCorpus(t testing.TB, dir, rel string) *pak.Reader {
	t.Helper()
	p, err := pak.OpenReader(filepath.Join(dir, rel), pak.WithKeyString(keyFor(rel)))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return p
}

// TestCorpus opens every pak of the corpus, checks every entry's SHA-1 and
// reads every entry: all succeed, Oodle ones included (internal/oodle decodes
// them through the compression registry). The listing of every pak
// is compared with testdata/corpus_lists.golden.
func TestCorpus(t *testing.T) {
	dir, paks := corpusPaks(t)
	var golden strings.Builder
	files, hashes, oodle := 0, 0, 0
	for _, rel := range paks {
		p := openCorpus(t, dir, rel)
		fmt.Fprintf(&golden, "%s: version %s, mount %q, %d entries\n", rel, p.Footer.VersionName(), p.MountPoint, p.Len())
		for _, e := range p.All() {
			method := e.CompressionMethod
			if method == "" {
				method = "None"
			}
			enc := ""
			if e.Encrypted() {
				enc = " encrypted"
			}
			fmt.Fprintf(&golden, "\t%s %d %s%s\n", e.Name, e.UncompressedSize, method, enc)
			if err := e.Verify(); err != nil {
				t.Errorf("%s: %v", rel, err)
			} else {
				hashes++
			}
			data, err := e.Data()
			if err == nil && e.CompressionMethod == "Oodle" {
				oodle++
			}
			switch {
			case err != nil:
				t.Errorf("%s: %s: %v", rel, e.Name, err)
			case int64(len(data)) != e.UncompressedSize:
				t.Errorf("%s: %s: %d bytes, want %d", rel, e.Name, len(data), e.UncompressedSize)
			default:
				files++
			}
		}
		p.Close()
	}
	t.Logf("%d paks: %d hashes verified, %d files read (%d of them Oodle)", len(paks), hashes, files, oodle)
	checkGolden(t, "testdata/corpus_lists.golden", golden.String())
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s line %d:\nhave %q\nwant %q", name, i+1, g, w)
			}
		}
	}
}

// extractAll reads every readable entry into a map by name.
func extractAll(t *testing.T, p *pak.Reader) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, e := range p.All() {
		b, err := e.Data()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		out[e.Name] = b
	}
	return out
}

// TestRepakVariants: repak's 48 paks (versions 5, 7, 8A, 8B, 9, 11, each
// plain, compressed, encrypted and with an encrypted index, in all eight
// combinations) hold the same four files with the same bytes.
func TestRepakVariants(t *testing.T) {
	dir := corpus.Path(t, "pak", "trumank+repak", "repak", "tests", "packs")
	wantNames := []string{"mount/point/root/directory/nested.txt", "mount/point/root/test.png", "mount/point/root/test.txt", "mount/point/root/zeros.bin"}
	var ref map[string][]byte
	n := 0
	for _, v := range []string{"5", "7", "8a", "8b", "9", "11"} {
		var verRef map[string][]byte
		for _, variant := range []string{"", "_compress", "_encrypt", "_encryptindex", "_compress_encrypt", "_compress_encryptindex", "_encrypt_encryptindex", "_compress_encrypt_encryptindex"} {
			name := "pack_v" + v + variant + ".pak"
			p, err := pak.OpenReader(filepath.Join(dir, name), pak.WithKeyString(repakKey))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := strings.ToUpper(v); p.Footer.VersionName() != want {
				t.Errorf("%s: version %s, want %s", name, p.Footer.VersionName(), want)
			}
			if p.MountPoint != "../mount/point/root/" {
				t.Errorf("%s: mount point %q", name, p.MountPoint)
			}
			if got := p.Names(); strings.Join(got, ",") != strings.Join(wantNames, ",") {
				t.Fatalf("%s: files %v, want %v", name, got, wantNames)
			}
			files := extractAll(t, p)
			p.Close()
			n++
			if verRef == nil {
				verRef = files
			}
			for k, b := range files {
				if !bytes.Equal(b, verRef[k]) {
					t.Errorf("%s: %s differs from the plain pak of version %s", name, k, v)
				}
			}
		}
		if ref == nil {
			ref = verRef
		}
		for k, b := range verRef {
			if !bytes.Equal(b, ref[k]) {
				t.Errorf("v%s: %s differs from version 5", v, k)
			}
		}
	}
	if z := ref["mount/point/root/zeros.bin"]; len(z) != 2048 || !bytes.Equal(z, make([]byte, 2048)) {
		t.Errorf("zeros.bin: %d bytes, not all zero", len(z))
	}
	if !bytes.HasPrefix(ref["mount/point/root/test.png"], []byte("\x89PNG\r\n\x1a\n")) {
		t.Error("test.png is not a PNG")
	}
	if !bytes.HasPrefix(ref["mount/point/root/test.txt"], []byte("Lorem ipsum")) {
		t.Errorf("test.txt starts %q", ref["mount/point/root/test.txt"][:20])
	}
	t.Logf("%d repak paks: identical files across all variants and versions", n)
}

// TestCUE4ParseVariants: in the CUE4Parse fixtures (UE5.8 pak version 12,
// UE6.0 version 15), the Zlib, uncompressed, Oodle and Oodle+AES variants
// list the same files; Zlib and uncompressed extract byte-identical; the
// encrypted variant's uncompressed entries equal the plain ones.
func TestCUE4ParseVariants(t *testing.T) {
	dir := corpus.Path(t, "pak", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures")
	for _, ue := range []string{"UE5_8", "UE6_0"} {
		for _, ser := range []string{"Tagged", "Unversioned"} {
			t.Run(ue+"/"+ser, func(t *testing.T) {
				open := func(variant string) *pak.Reader {
					p, err := pak.OpenReader(filepath.Join(dir, ue, "LegacyPak", ser, variant, "CUE4ParseFixtures-Legacy-"+ser+"-"+variant+".pak"), pak.WithKeyString(cue4parseKey))
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { p.Close() })
					return p
				}
				plain, zlib, oodle, enc := open("Uncompressed"), open("Zlib"), open("Oodle"), open("OodleEncrypted")
				want := strings.Join(plain.Names(), "\n")
				for name, p := range map[string]*pak.Reader{"Zlib": zlib, "Oodle": oodle, "OodleEncrypted": enc} {
					if got := strings.Join(p.Names(), "\n"); got != want {
						t.Errorf("%s lists\n%s\nwant\n%s", name, got, want)
					}
				}
				if plain.Len() != 11 {
					t.Errorf("%d entries, want 11", plain.Len())
				}
				a, b := extractAll(t, plain), extractAll(t, zlib)
				for k := range a {
					if !bytes.Equal(a[k], b[k]) {
						t.Errorf("%s differs between Zlib and uncompressed", k)
					}
				}
				nz := 0
				for _, e := range zlib.All() {
					if e.CompressionMethod == "Zlib" {
						nz++
					}
				}
				if nz == 0 {
					t.Error("the Zlib variant has no Zlib entries")
				}
				same := 0
				for _, e := range enc.All() {
					if !e.Encrypted() {
						t.Errorf("%s not encrypted in the encrypted variant", e.Name)
					}
					if e.Compressed() {
						continue
					}
					d, err := e.Data()
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(d, a[e.Name]) {
						t.Errorf("%s: decrypted data differs from the plain variant", e.Name)
					}
					same++
				}
				if same == 0 {
					t.Error("no uncompressed encrypted entry compared")
				}
			})
		}
	}
}

// TestCUE4ParseMinimal checks the exact file list of the minimal paks, as
// CUE4Parse's own FixturePakTests expects it.
func TestCUE4ParseMinimal(t *testing.T) {
	dir := corpus.Path(t, "pak", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures")
	want := []string{
		"CUE4ParseFixtures/AssetRegistry.bin",
		"CUE4ParseFixtures/Config/DefaultGame.ini",
		"CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures/de/CUE4ParseFixtures.locres",
		"CUE4ParseFixtures/Content/Localization/CUE4ParseFixtures/en/CUE4ParseFixtures.locres",
	}
	for _, ue := range []string{"UE5_8", "UE6_0"} {
		var ini []byte
		for _, c := range []string{"Uncompressed", "Oodle"} {
			p, err := pak.OpenReader(filepath.Join(dir, ue, "Pak", c, "CUE4ParseFixtures-Minimal-"+c+".pak"))
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Names(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s %s: %v", ue, c, got)
			}
			e, _ := p.Lookup("CUE4ParseFixtures/Config/DefaultGame.ini")
			b, err := e.Data() // stored uncompressed in both variants
			if err != nil {
				t.Fatal(err)
			}
			if ini != nil && !bytes.Equal(ini, b) {
				t.Errorf("%s: DefaultGame.ini differs between variants", ue)
			}
			ini = b
			p.Close()
		}
		if !strings.Contains(string(ini), "Text=Greetings from Frankfurt – 日本語 – Ω – 🚀") {
			t.Errorf("%s: DefaultGame.ini lacks the fixture text", ue)
		}
	}
}

// TestWrongKey: a wrong key is rejected with ErrWrongKey, a missing key with
// ErrKeyNeeded naming the key GUID, never turned into data.
func TestWrongKey(t *testing.T) {
	dir, paks := corpusPaks(t)
	wrong := bytes.Repeat([]byte{0x42}, aeskey.KeySize)
	checked := 0
	for _, rel := range paks {
		if !strings.Contains(strings.ToLower(rel), "encrypt") {
			continue
		}
		path := filepath.Join(dir, rel)
		p, err := pak.OpenReader(path, pak.WithKey(wrong))
		if err == nil {
			for _, e := range p.All() {
				if e.Encrypted() && e.CompressionMethod != "Oodle" {
					_, err = e.Data()
					break
				}
			}
			p.Close()
		}
		// UnrealPak 4.20 (version 5) leaves nothing to check an
		// uncompressed entry against when only the entries are encrypted.
		if strings.HasSuffix(rel, "pack_v5_encrypt.pak") {
			continue
		}
		if !errors.Is(err, pak.ErrWrongKey) {
			t.Errorf("%s: wrong key gave %v", rel, err)
			continue
		}
		if !strings.Contains(err.Error(), "wrong AES key") {
			t.Errorf("%s: message %q", rel, err)
		}
		checked++
		if strings.Contains(rel, "ncryptindex") || strings.Contains(rel, "OodleEncrypted") {
			_, err := pak.OpenReader(path)
			var ke *pak.KeyError
			if !errors.Is(err, pak.ErrKeyNeeded) || !errors.As(err, &ke) || !strings.Contains(err.Error(), ke.KeyGuid.String()) {
				t.Errorf("%s: no key gave %v", rel, err)
			}
		}
	}
	t.Logf("%d encrypted paks reject a wrong key", checked)
}

// TestIndexStreamedCorpus reads every corpus pak with its index parsed as
// it is read and read into memory first: the entries, and the error of a
// copy damaged in its index, must come out the same.
func TestIndexStreamedCorpus(t *testing.T) {
	dir, paks := corpusPaks(t)
	checked := 0
	for _, rel := range paks {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, data []byte) {
			var whole, streamed string
			pak.WithIndexStreamed(false, func() { whole = describePak(data, keyFor(rel)) })
			pak.WithIndexStreamed(true, func() { streamed = describePak(data, keyFor(rel)) })
			if whole != streamed {
				t.Errorf("%s (%s): read whole:\n%.600s\nstreamed:\n%.600s", rel, what, whole, streamed)
			}
		}
		check("as stored", data)
		p, err := pak.NewReader(bytes.NewReader(data), int64(len(data)), pak.WithKeyString(keyFor(rel)))
		if err != nil || p.Footer.EncryptedIndex || p.Footer.IndexSize < 8 {
			continue
		}
		index := data[p.Footer.IndexOffset : p.Footer.IndexOffset+p.Footer.IndexSize]
		hashAt := bytes.LastIndex(data, p.Footer.IndexHash[:]) // in the footer
		for _, at := range []int64{0, 4, 9, 13, 40, 77, p.Footer.IndexSize / 2, p.Footer.IndexSize - 1} {
			for _, rehash := range []bool{false, true} {
				bad := bytes.Clone(data)
				bad[p.Footer.IndexOffset+at] ^= 0x5a
				if rehash {
					// The footer's hash made to match, so that the damaged
					// index is parsed.
					if hashAt < 0 || p.Footer.IndexHash.IsZero() {
						continue
					}
					sum := sha1.Sum(bad[p.Footer.IndexOffset : p.Footer.IndexOffset+int64(len(index))])
					copy(bad[hashAt:], sum[:])
				}
				check(fmt.Sprintf("index byte %d flipped, hash matching %v", at, rehash), bad)
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no damaged index compared")
	}
	t.Logf("%d paks, %d damaged indexes compared", len(paks), checked)
}

// describePak opens data with key and describes its entries, or the error.
func describePak(data []byte, key string) string {
	opts := []pak.Option{pak.WithMaxBlockSize(fuzzMaxBlock)}
	if key != "" {
		opts = append(opts, pak.WithKeyString(key))
	}
	p, err := pak.NewReader(bytes.NewReader(data), int64(len(data)), opts...)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mount %q, %d entries\n", p.MountPoint, p.Len())
	for _, e := range p.All() {
		fmt.Fprintf(&b, "%q %q %d %d %d %q %d %s %v %d %d %v %x %d %x %x\n", e.Path, e.Name, e.Offset, e.CompressedSize, e.UncompressedSize,
			e.CompressionMethod, e.CompressionSlot, e.Hash, e.Blocks, e.Flags, e.CompressionBlockSize, e.Encoded, e.PathHash, e.StoredSize(), e.Timestamp(), e.IV())
	}
	return b.String()
}
