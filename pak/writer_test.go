package pak_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

// synthFiles are the files of the synthetic round-trip paks.
func synthFiles(compress, encrypt bool) []paktest.File {
	big := make([]byte, 300_000)
	for i := range big {
		big[i] = byte(i * 7 / 5)
	}
	return []paktest.File{
		{Path: "Content/Maps/Level1.umap", Data: []byte("level one data, not a real package"), Compress: compress, Encrypt: encrypt},
		{Path: "Content/Big.bin", Data: big, Compress: compress, Encrypt: encrypt, BlockSize: 64 << 10},
		{Path: "Config/Empty.ini", Data: nil, Compress: compress, Encrypt: encrypt},
		{Path: "Content/Ünïcode/Ä.txt", Data: []byte("unicode path"), Compress: compress, Encrypt: encrypt},
		{Path: "Content/Odd.bin", Data: bytes.Repeat([]byte{1, 2, 3}, 1000), Compress: compress, Encrypt: encrypt, BlockSize: 2048},
	}
}

// TestRoundTrip writes paks of every version the test writer knows, in
// every combination of compression and encryption, and reads them back.
func TestRoundTrip(t *testing.T) {
	for _, v := range []struct {
		version int
		is8A    bool
	}{{1, false}, {2, false}, {3, false}, {4, false}, {5, false}, {6, false}, {7, false}, {8, true}, {8, false}, {9, false}, {10, false}, {11, false}} {
		for _, compress := range []bool{false, true} {
			for _, encrypt := range []bool{false, true} {
				for _, encIndex := range []bool{false, true} {
					if v.version < 4 && encIndex || v.version < 3 && (compress || encrypt) {
						continue
					}
					name := fmt.Sprintf("v%d", v.version)
					if v.is8A {
						name += "A"
					}
					name += fmt.Sprintf("/compress=%v/encrypt=%v/encindex=%v", compress, encrypt, encIndex)
					t.Run(name, func(t *testing.T) {
						files := synthFiles(compress, encrypt)
						b, err := paktest.Build(paktest.Options{Version: v.version, Is8A: v.is8A, Mount: "../../../Game/", Key: testKey, EncryptIndex: encIndex}, files)
						if err != nil {
							t.Fatal(err)
						}
						p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), pak.WithKey(testKey))
						if err != nil {
							t.Fatal(err)
						}
						if p.Footer.Version != int32(v.version) || p.Footer.SubVersion8A != v.is8A {
							t.Fatalf("version %s, want %d (8A %v)", p.Footer.VersionName(), v.version, v.is8A)
						}
						if p.Len() != len(files) {
							t.Fatalf("%d entries, want %d", p.Len(), len(files))
						}
						for _, f := range files {
							e, ok := p.Lookup("Game/" + f.Path)
							if !ok {
								t.Fatalf("%s missing; have %v", f.Path, p.Names())
							}
							got, err := e.Data()
							if err != nil {
								t.Fatalf("%s: %v", f.Path, err)
							}
							if !bytes.Equal(got, f.Data) {
								t.Fatalf("%s: data differs (%d vs %d bytes)", f.Path, len(got), len(f.Data))
							}
							if err := e.Verify(); err != nil {
								t.Fatal(err)
							}
						}
						if encIndex {
							_, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
							if !errors.Is(err, pak.ErrKeyNeeded) {
								t.Fatalf("no key: %v, want ErrKeyNeeded", err)
							}
						}
						if encIndex || encrypt {
							wrong := bytes.Repeat([]byte{0xAA}, 32)
							p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), pak.WithKey(wrong))
							if err == nil {
								_, err = p.Entry(0).Data()
							}
							if !errors.Is(err, pak.ErrWrongKey) {
								t.Fatalf("wrong key: %v, want ErrWrongKey", err)
							}
						}
					})
				}
			}
		}
	}
}

// TestNoDirectoryIndex reads a v11 pak without a full directory index: the
// files are listed by path hash.
func TestNoDirectoryIndex(t *testing.T) {
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/", NoFullDirectoryIndex: true}, synthFiles(true, false))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasFullDirectoryIndex || !p.HasPathHashIndex || p.Len() != 5 {
		t.Fatalf("FDI %v PHI %v entries %d", p.HasFullDirectoryIndex, p.HasPathHashIndex, p.Len())
	}
	for i, e := range p.All() {
		if e.Name != "" || e.PathHash == 0 {
			t.Errorf("entry %d: name %q hash %d", i, e.Name, e.PathHash)
		}
		if _, err := e.Data(); err != nil {
			t.Error(err)
		}
	}
	// Lookup finds a file by its path through its hash, given as its fs
	// name or from the mount point, in any case.
	for _, name := range []string{"Game/Content/Maps/Level1.umap", "Content/Maps/Level1.umap", "/game/content/maps/LEVEL1.umap"} {
		e, ok := p.Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q): not found", name)
			continue
		}
		if d, err := e.Data(); err != nil || string(d) != "level one data, not a real package" {
			t.Errorf("Lookup(%q): %q, %v", name, d, err)
		}
	}
	if e, ok := p.Lookup("Game/Content/Maps/Level2.umap"); ok {
		t.Errorf("a path not in the pak: found %v", e)
	}
}

// TestFrozenIndex: a version 9 pak with bIndexIsFrozen set (UE4.25's memory
// image index) is reported as unsupported, not misread.
func TestFrozenIndex(t *testing.T) {
	b, err := paktest.Build(paktest.Options{Version: 9, Mount: "../../../G/"}, synthFiles(false, false)[:1])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-5*32-1] = 1 // bIndexIsFrozen, just before the compression names
	_, err = pak.NewReader(bytes.NewReader(b), int64(len(b)))
	var ue *pak.UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "frozen index") {
		t.Fatalf("frozen index: %v", err)
	}
}

// TestNotAPak: files without a footer, or with a future version.
func TestNotAPak(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("short"), bytes.Repeat([]byte{0}, 300)} {
		if _, err := pak.NewReader(bytes.NewReader(b), int64(len(b))); !errors.Is(err, pak.ErrFormat) {
			t.Errorf("%d bytes: %v", len(b), err)
		}
	}
	b, _ := paktest.Build(paktest.Options{Version: 11, Mount: "/"}, synthFiles(false, false)[:1])
	b[len(b)-5*32-20-8-8-4] = 99 // Version
	var ue *pak.UnsupportedError
	if _, err := pak.NewReader(bytes.NewReader(b), int64(len(b))); !errors.As(err, &ue) || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("version 99: %v", err)
	}
}

// TestDeleteRecords: a patch pak's delete records are listed but are not
// files.
func TestDeleteRecords(t *testing.T) {
	for _, v := range []int{6, 8, 11} {
		b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../Game/"}, []paktest.File{
			{Path: "Content/Kept.txt", Data: []byte("kept")},
			{Path: "Content/Gone.uasset", Delete: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if p.Len() != 2 || strings.Join(p.Names(), ",") != "Game/Content/Kept.txt" {
			t.Fatalf("v%d: %d entries, names %v", v, p.Len(), p.Names())
		}
		var del *pak.Entry
		for _, e := range p.All() {
			if e.Deleted() {
				del = e
			}
		}
		if del == nil || del.Name != "Game/Content/Gone.uasset" || del.Encoded {
			t.Fatalf("v%d: delete record %+v", v, del)
		}
		if _, err := del.Data(); err == nil || !strings.Contains(err.Error(), "delete record") {
			t.Errorf("v%d: Data of a delete record: %v", v, err)
		}
		if err := del.Verify(); err != nil {
			t.Errorf("v%d: %v", v, err)
		}
	}
}

func TestReadFooter(t *testing.T) {
	b, err := paktest.Build(paktest.Options{Version: 8, Is8A: true, Mount: "/", Key: testKey, EncryptIndex: true}, synthFiles(true, true)[:2])
	if err != nil {
		t.Fatal(err)
	}
	f, err := pak.ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if f.VersionName() != "8A" || !f.EncryptedIndex || f.Size != 17+44+4*32 || len(f.CompressionMethods) != 4 || f.CompressionMethods[0] != "Zlib" {
		t.Errorf("footer %+v", f)
	}
}

// TestLeadingSlashNames checks entry names for index paths that start with
// "/" (in a v10+ directory index, a directory "//x/"): the name drops the
// slash, with or without a mount point, in every index layout, and the
// file is found by it.
func TestLeadingSlashNames(t *testing.T) {
	for _, v := range []int{8, 9, 11} {
		for _, mount := range []string{"../../../", "../../../Game/"} {
			prefix := strings.TrimPrefix(mount, "../../../")
			files := []paktest.File{{Path: "/x/a.txt", Data: []byte("a")}, {Path: "y/b.txt", Data: []byte("b")}, {Path: "/c.txt", Data: []byte("c")}}
			b, err := paktest.Build(paktest.Options{Version: v, Mount: mount}, files)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("v%d %q: %v", v, mount, err)
			}
			var names []string
			for _, e := range p.All() {
				names = append(names, e.Name)
			}
			for _, want := range []string{"x/a.txt", "y/b.txt", "c.txt"} {
				if !slices.Contains(names, prefix+want) {
					t.Errorf("v%d %q: names %q, want %q among them", v, mount, names, prefix+want)
				}
				if d, err := p.ReadFile(prefix + want); err != nil || string(d) != strings.TrimSuffix(want[len(want)-5:], ".txt") {
					t.Errorf("v%d %q: ReadFile(%q) = %q, %v", v, mount, prefix+want, d, err)
				}
			}
		}
	}
}

// TestLookupName checks the exact lookup of companions: a name found, a
// name differing in case not (Lookup finds it), and a name that is no
// valid fs path looked up as Lookup does.
func TestLookupName(t *testing.T) {
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/"}, []paktest.File{
		{Path: "Content/A.uasset", Data: []byte("a")}, {Path: "Content/A.uexp", Data: []byte("e")}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := p.LookupName("Game/Content/A.uexp"); !ok || e.Path != "Content/A.uexp" {
		t.Errorf("exact name: %v, %v", e, ok)
	}
	if _, ok := p.LookupName("Game/Content/a.UEXP"); ok {
		t.Error("a name in another case was found by the exact lookup")
	}
	if _, ok := p.Lookup("Game/Content/a.UEXP"); !ok {
		t.Error("Lookup did not find a name in another case")
	}
	if _, ok := p.LookupName("Game/Content/A.ubulk"); ok {
		t.Error("a missing companion was found")
	}
	if e, ok := p.LookupName("/Game/Content/A.uexp"); !ok || e.Path != "Content/A.uexp" {
		t.Errorf("a name with a leading slash (no fs path): %v, %v", e, ok)
	}
}
