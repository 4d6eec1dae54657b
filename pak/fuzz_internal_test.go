package pak

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
)

// Run the fuzz targets with a short -fuzzminimizetime (e.g. 2s): the
// default minimizes each new input for a minute.

// FuzzFooter feeds file tails to the footer search.
func FuzzFooter(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, rel := range []string{
			"trumank+repak/repak/tests/packs/pack_v5.pak", "trumank+repak/repak/tests/packs/pack_v7.pak",
			"trumank+repak/repak/tests/packs/pack_v8a.pak", "trumank+repak/repak/tests/packs/pack_v8b.pak",
			"trumank+repak/repak/tests/packs/pack_v9.pak", "trumank+repak/repak/tests/packs/pack_v11_encryptindex.pak",
			"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/Pak/CUE4ParseFixtures-PatchBase.pak",
			"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Patch/Pak/CUE4ParseFixtures-PatchBase.pak",
		} {
			b, err := os.ReadFile(filepath.Join(dir, "pak", rel))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[max(0, len(b)-maxFooterSize-8):])
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ft, err := readFooter(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		if ft.Magic != Magic || ft.Size > int64(len(b)) || ft.IndexOffset < 0 || ft.IndexOffset+ft.IndexSize > int64(len(b))-ft.Size {
			t.Fatalf("accepted footer %+v for %d bytes", ft, len(b))
		}
	})
}

// FuzzEncodedEntry decodes bit-packed v10+ entries and validates them
// against a 1 MiB file.
func FuzzEncodedEntry(f *testing.F) {
	f.Add([]byte{0x41, 0x00, 0x80, 0xe0, 0x10, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00}, uint8(11))
	f.Add([]byte{0x3f, 0x00, 0xc0, 0xe0, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x10, 0, 0, 0, 0x10, 0, 0, 0}, uint8(15))
	f.Fuzz(func(t *testing.T, b []byte, v uint8) {
		p := &Reader{size: 1 << 20, maxBlock: 1 << 20}
		p.Footer.Version = int32(10 + int(v)%6)
		p.Footer.CompressionMethods = []string{"Zlib", "Gzip", "Oodle", "", "Zstd"}
		if v&0x80 != 0 {
			p.Footer.EncryptionMethod = EncryptionAESCTR
		}
		r := memReader(b, 0, "EncodedPakEntries")
		e := p.decodeEntry(r, 0)
		if r.Err() != nil {
			return
		}
		e.Path = "x"
		if err := p.validate(&e); err != nil {
			return
		}
		if e.Compressed() {
			var total int64
			for _, blk := range e.Blocks {
				if blk.Start < 0 || blk.End > p.size || blk.End < blk.Start {
					t.Fatalf("block %+v accepted", blk)
				}
				total += blk.End - blk.Start
			}
		} else if e.DataOffset()+e.StoredSize() > p.size {
			t.Fatalf("data past the end accepted: %+v", e)
		}
	})
}

// FuzzDirectoryIndex feeds full directory indexes, both the TMap form
// (v10–v12) and the flat form (v13+), seeded from the corpus's UE5.8 and
// UE6.0 paks.
func FuzzDirectoryIndex(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, ue := range []string{"UE5_8", "UE6_0"} {
			for _, rel := range []string{"Pak/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed.pak", "AndroidPak/CUE4ParseFixtures-Android-Textures.pak"} {
				name := filepath.Join(dir, "pak", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures", ue, rel)
				p, err := OpenReader(name)
				if err != nil {
					f.Fatal(err)
				}
				rng := p.FullDirectoryIndexRange
				b := make([]byte, rng[1])
				if err := readAtFull(p.r, b, rng[0]); err != nil {
					f.Fatal(err)
				}
				p.Close()
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		alloctest.Check(t, len(b), func() {
			p := &Reader{}
			p.Footer.Version = VersionLatest
			for _, flat := range []bool{false, true} {
				files := 0
				add := func(string, int32) error { files++; return nil }
				var err error
				if flat {
					err = p.readFlatDirectoryIndex(memReader(b, 0, ""), add)
				} else {
					err = p.readDirectoryIndex(memReader(b, 0, ""), add)
				}
				if err == nil && int64(files) > int64(len(b)) {
					t.Fatalf("%d files from %d bytes", files, len(b))
				}
			}
		})
	})
}

// TestFlatDirectoryNamesGrowing gives a flat directory index of 100,000
// directories of a file each, each name sharing all of the one before and
// adding a byte: 2.1 MB of index for names of 5 GB in all. It is refused,
// within alloctest's bound.
func TestFlatDirectoryNamesGrowing(t *testing.T) {
	const n = 100_000
	var w bytes.Buffer
	u32 := func(v uint32) { w.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }
	u32(flatIndexMagic)
	u32(n)     // NumDirs
	u32(n)     // NumFiles
	u32(1)     // RestartInterval
	u32(n * 9) // DirBlobBytes
	u32(0)     // FileBlobBytes
	u32(0)     // NumPathHashes
	u32(0)     // pad
	for range n + 1 {
		u32(0) // anchors
	}
	for k := range n + 1 {
		u32(uint32(k)) // DirFileStart: a file each
	}
	for range n + 1 {
		u32(0) // FileNameOffsets: empty names
	}
	for range n {
		u32(0) // FileLocations
	}
	for k := range n {
		u32(uint32(k)) // shared: all of the name before
		u32(1)
		w.WriteByte('a')
	}
	b := w.Bytes()
	alloctest.Check(t, len(b), func() {
		p := &Reader{}
		p.Footer.Version = VersionLatest
		err := p.readFlatDirectoryIndex(memReader(b, 0, ""), func(string, int32) error { return nil })
		if err == nil {
			t.Fatalf("read, %d directories", len(p.dirNames))
		}
		t.Log(err)
	})
}
