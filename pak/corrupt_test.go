package pak_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

// TestCorruptData damages stored bytes: Verify, reading and making a
// BlockReader report a SHA-1 mismatch (or a decompression error) naming the
// entry and its offset, and the other entries still read.
func TestCorruptData(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version int
		file    paktest.File
		want    error
	}{
		{"stored v8", 8, paktest.File{Path: "a/stored.bin", Data: bytes.Repeat([]byte("stored data "), 50)}, pak.ErrChecksum},
		{"stored v11 encoded", 11, paktest.File{Path: "a/stored.bin", Data: bytes.Repeat([]byte("stored data "), 50)}, pak.ErrChecksum},
		{"zlib v11", 11, paktest.File{Path: "a/zlib.bin", Data: bytes.Repeat([]byte("zlib data "), 500), Compress: true, BlockSize: 1024}, nil},
		{"aes v8", 8, paktest.File{Path: "a/aes.bin", Data: bytes.Repeat([]byte("aes data "), 50), Encrypt: true}, pak.ErrChecksum},
	} {
		t.Run(tc.name, func(t *testing.T) {
			good := paktest.File{Path: "a/good.txt", Data: []byte("untouched")}
			b, err := paktest.Build(paktest.Options{Version: tc.version, Mount: "../../../G/", Key: testKey}, []paktest.File{good, tc.file})
			if err != nil {
				t.Fatal(err)
			}
			p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), pak.WithKey(testKey))
			if err != nil {
				t.Fatal(err)
			}
			e, ok := p.Lookup("G/" + tc.file.Path)
			if !ok {
				t.Fatal("entry missing")
			}
			b[e.DataOffset()+e.StoredSize()/2] ^= 0x55
			if err := e.Verify(); !errors.Is(err, pak.ErrChecksum) || !strings.Contains(err.Error(), tc.file.Path) {
				t.Errorf("Verify: %v", err)
			}
			_, err = e.Data()
			var fe *pak.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.file.Path) {
				t.Errorf("Data: %v", err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Data: %v, want %v", err, tc.want)
			}
			// A BlockReader checks the hash when it is made.
			if _, err := e.BlockReader(); !errors.Is(err, pak.ErrChecksum) || !strings.Contains(err.Error(), tc.file.Path) {
				t.Errorf("BlockReader: %v", err)
			}
			g, _ := p.Lookup("G/a/good.txt")
			if d, err := g.Data(); err != nil || string(d) != "untouched" {
				t.Errorf("good entry: %q %v", d, err)
			}
		})
	}
}

// TestBadEntries crafts entries that point outside the file or contradict
// themselves; opening the pak fails with a FormatError naming the entry.
func TestBadEntries(t *testing.T) {
	b, err := paktest.Build(paktest.Options{Version: 8, Mount: "/"}, []paktest.File{
		{Path: "x.bin", Data: bytes.Repeat([]byte{7}, 3000), Compress: true, BlockSize: 1024},
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	e := p.Entry(0)
	idx := bytes.LastIndex(b, []byte("x.bin\x00")) + 6 // the FPakEntry in the index
	for _, tc := range []struct {
		name  string
		patch func(m []byte)
	}{
		{"offset past the end", func(m []byte) { putU64(m[idx:], uint64(len(m))) }},
		{"negative size", func(m []byte) { putU64(m[idx+8:], 1<<63) }},
		{"uncompressed size too large for its blocks", func(m []byte) { putU64(m[idx+16:], 1<<40) }},
		{"unknown compression slot", func(m []byte) { m[idx+24] = 4 }},
		{"block outside the file", func(m []byte) { putU64(m[idx+24+4+20+4+8:], 1<<40) }},
		{"huge block size", func(m []byte) { m[idx+24+4+20+4+16*3+1+3] = 0x7f }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := append([]byte(nil), b...)
			tc.patch(m)
			// Keep the index hash check from catching the change first.
			zeroIndexHash(m)
			_, err := pak.NewReader(bytes.NewReader(m), int64(len(m)))
			var fe *pak.FormatError
			t.Log(err)
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), "x.bin") && !strings.Contains(err.Error(), "FPakEntry") {
				t.Errorf("%v", err)
			}
		})
	}
	_ = e
}

func putU64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// zeroIndexHash clears FPakInfo.IndexHash of a version 8B pak (which makes
// the reader skip the index check).
func zeroIndexHash(b []byte) {
	start := len(b) - (17 + 44 + 5*32)
	copy(b[start+17+4+4+8+8:], make([]byte, 20))
}

// TestLookup resolves the spellings of one entry.
func TestLookup(t *testing.T) {
	b, _ := paktest.Build(paktest.Options{Version: 11, Mount: "../../../Game/"}, []paktest.File{{Path: "Content/Maps/Level1.umap", Data: []byte("m")}})
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Game/Content/Maps/Level1.umap", "/Game/Content/Maps/Level1.umap", "Content/Maps/Level1.umap",
		"../../../Game/Content/Maps/Level1.umap", "game/content/maps/LEVEL1.umap", "content/maps/level1.UMAP"} {
		if e, ok := p.Lookup(name); !ok || e.Name != "Game/Content/Maps/Level1.umap" {
			t.Errorf("Lookup(%q) = %v, %v", name, e, ok)
		}
	}
	if _, ok := p.Lookup("Game/Content/Maps/Level2.umap"); ok {
		t.Error("found a missing file")
	}
	rc, _ := p.Entry(0).Open()
	if d, err := io.ReadAll(rc); err != nil || string(d) != "m" {
		t.Errorf("%q %v", d, err)
	}
}

// TestUnsupportedCompression: a method without a decoder names the entry.
func TestUnsupportedCompression(t *testing.T) {
	b, _ := paktest.Build(paktest.Options{Version: 11, Mount: "/"}, []paktest.File{{Path: "o.bin", Data: bytes.Repeat([]byte("o"), 100), Compress: true}})
	// Rename the footer's first method slot from Zlib to Lzip, a method
	// nothing registers (Oodle has a decoder now).
	i := bytes.LastIndex(b, []byte("Zlib"))
	copy(b[i:], "Lzip")
	zeroIndexHash(b)
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Entry(0).Data()
	var ue *compression.UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `o.bin: compression method "Lzip": no decoder available`) {
		t.Errorf("%v", err)
	}
}

// TestDataAfterVerify reads entries Verify checked (Data then skips the
// second hash): the bytes are the same as without Verify.
func TestDataAfterVerify(t *testing.T) {
	files := []paktest.File{
		{Path: "a/stored.bin", Data: bytes.Repeat([]byte("stored data "), 50)},
		{Path: "a/zlib.bin", Data: bytes.Repeat([]byte("zlib data "), 500), Compress: true, BlockSize: 1024},
		{Path: "a/aes.bin", Data: bytes.Repeat([]byte("aes data "), 50), Encrypt: true},
	}
	for _, version := range []int{8, 11} {
		b, err := paktest.Build(paktest.Options{Version: version, Mount: "../../../G/", Key: testKey}, files)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), pak.WithKey(testKey))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			e, ok := p.Lookup("G/" + f.Path)
			if !ok {
				t.Fatalf("v%d: %s missing", version, f.Path)
			}
			if err := e.Verify(); err != nil {
				t.Errorf("v%d: %s: Verify: %v", version, f.Path, err)
			}
			if d, err := e.Data(); err != nil || !bytes.Equal(d, f.Data) {
				t.Errorf("v%d: %s: Data after Verify: %d bytes, %v", version, f.Path, len(d), err)
			}
		}
	}
}

// TestUndecodableEntry sets an encoded entry's compression slot to one the
// footer has no method in (and re-signs the index): opening fails naming
// the entry by its path, or by its path hash when the pak has no full
// directory index.
func TestUndecodableEntry(t *testing.T) {
	for _, noFDI := range []bool{false, true} {
		b, r := buildPak(t, paktest.Options{Version: 11, Mount: "../../../", NoFullDirectoryIndex: noFDI}, []paktest.File{
			{Path: "Game/Content/A.uasset", Data: bytes.Repeat([]byte("a"), 3000), Compress: true},
			{Path: "Game/Content/B.uasset", Data: []byte("b")},
		})
		f := r.Footer
		// The primary index: mount point, entry count, seed, the two
		// secondary index references, then the encoded entries' size
		// and the first one's flags word.
		idx := b[f.IndexOffset : f.IndexOffset+f.IndexSize]
		at := 4 + int(binary.LittleEndian.Uint32(idx)) + 4 + 8
		for range 2 {
			if binary.LittleEndian.Uint32(idx[at:]) != 0 {
				at += 4 + 8 + 8 + 20
			} else {
				at += 4
			}
		}
		at += 4
		flags := binary.LittleEndian.Uint32(idx[at:])
		binary.LittleEndian.PutUint32(idx[at:], flags|0x1f<<23) // slot 31
		sum := sha1.Sum(idx)
		copy(b[f.IndexOffset+f.IndexSize+int64(bytes.Index(b[f.IndexOffset+f.IndexSize:], f.IndexHash[:])):], sum[:])
		_, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
		want := `entry "Game/Content/A.uasset"`
		if noFDI {
			want = "path hash "
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "slot 31") {
			t.Errorf("no full directory index %v: %v, want an error naming %s and slot 31", noFDI, err, want)
		}
	}
}

// buildPak builds a pak with paktest and opens it.
func buildPak(t *testing.T, o paktest.Options, files []paktest.File) ([]byte, *pak.Reader) {
	t.Helper()
	b, err := paktest.Build(o, files)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return b, r
}
