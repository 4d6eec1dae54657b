package uasset

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// fuzzSeedMax keeps fuzz seeds small, so the fuzzer mutates headers rather
// than export data.
const fuzzSeedMax = 16 << 10

// addCorpusSeeds adds up to n tagged packages of the corpus, spread over the
// size range (and so over versions).
func addCorpusSeeds(f *testing.F, n int) {
	dir, ok := corpus.Find()
	if !ok {
		return
	}
	type cand struct {
		path string
		size int64
	}
	var cands []cand
	for _, sub := range []string{"uncooked", "cooked", "uassetapi"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			ext := filepath.Ext(p)
			if ext != ".uasset" && ext != ".umap" {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= fuzzSeedMax && hasTag(p) {
				cands = append(cands, cand{p, info.Size()})
			}
			return nil
		})
	}
	if len(cands) == 0 {
		f.Fatal("corpus present but no seed package found")
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].size < cands[j].size })
	step := max(1, len(cands)/n)
	for i := 0; i < len(cands); i += step {
		if b, err := os.ReadFile(cands[i].path); err == nil {
			f.Add(b)
		}
	}
}

// checkRoundTrip asserts that the header rewrite of a package that read
// equals its bytes.
func checkRoundTrip(t *testing.T, f *File, data []byte) {
	// HeaderRoundTrip compares section by section: it must say what
	// comparing the whole rewrite says.
	ok1, at1, err1 := f.HeaderRoundTrip()
	ok2, at2, err2 := writeHeaderRoundTrip(f)
	if ok1 != ok2 || at1 != at2 || (err1 == nil) != (err2 == nil) {
		t.Fatalf("HeaderRoundTrip = %v, %d, %v; whole rewrite = %v, %d, %v", ok1, at1, err1, ok2, at2, err2)
	}
	hdr, err := f.WriteHeader()
	if err != nil || len(hdr) > len(data) {
		return // overlapping sections, or a section reaching past the header
	}
	if !bytes.Equal(hdr, data[:len(hdr)]) {
		i := 0
		for i < len(hdr) && hdr[i] == data[i] {
			i++
		}
		t.Fatalf("rewrite differs at 0x%x of 0x%x", i, len(hdr))
	}
}

// FuzzNewFile reads arbitrary bytes as a package; whatever reads must
// rewrite to the same header bytes, and every accessor must hold up.
func FuzzNewFile(f *testing.F) {
	addCorpusSeeds(f, 24)
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			// Released at the end, as verify does: the next inputs read
			// into the memory this one used.
			file, err := NewFile(bytes.NewReader(data), int64(len(data)), WithRelease())
			if err != nil {
				return
			}
			defer file.Release()
			checkRoundTrip(t, file, data)
			for i := range file.Exports {
				file.ObjectPath(ExportIndex(i))
				file.ClassPath(ExportIndex(i))
				file.Exports[i].Data()
			}
			for i := range file.Imports {
				file.ObjectPath(ImportIndex(i))
			}
			for i := range file.Thumbnails {
				file.Thumbnails[i].Data()
			}
			file.HeaderGaps()
			file.AssetExport()
		})
	})
}

// FuzzSummary reads the summary alone (unversioned ones as 5.3) and
// rewrites it.
func FuzzSummary(f *testing.F) {
	addCorpusSeeds(f, 12)
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			r := binread.FromBytes(data)
			var s PackageFileSummary
			s.serializeVersions(loader{r})
			if r.Err() != nil || s.LegacyFileVersion >= 0 || s.LegacyFileVersion < LegacyFileVersionCurrent {
				return
			}
			v := Versions{UE4: s.FileVersionUE4, UE5: s.FileVersionUE5}
			if s.Unversioned() {
				e, _ := LookupEngine("5.3")
				v = e.versions()
			}
			r = binread.FromBytes(data)
			s = PackageFileSummary{}
			s.serialize(loader{r}, &v)
			if r.Err() != nil {
				return
			}
			n := r.Offset()
			sv := newSaver(r.Order(), 0)
			s.serialize(sv, &v)
			if !bytes.Equal(sv.w.Bytes(), data[:n]) {
				t.Fatalf("summary rewrite differs (%d bytes read, %d written)", n, len(sv.w.Bytes()))
			}
			s.Fields(&v)
		})
	})
}

// FuzzTables reads arbitrary bytes as a name, import and export map entry
// under several versions and rewrites what reads.
func FuzzTables(f *testing.F) {
	f.Add([]byte("\x05\x00\x00\x00None\x00\x12\x34\x56\x78"), uint8(0))
	f.Add(bytes.Repeat([]byte{1, 0, 0, 0}, 40), uint8(1))
	f.Add(bytes.Repeat([]byte{0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0}, 16), uint8(2))
	f.Add([]byte("\xfe\xff\xff\xff\x00\xd8\x00\x00"), uint8(3))
	versions := []Versions{{UE4: 342}, {UE4: 504}, {UE4: 510}, {UE4: 522}, {UE4: 522, UE5: 1004}, {UE4: 522, UE5: 1010}, {UE4: 522, UE5: 1018}}
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		alloctest.Check(t, len(data), func() {
			v := versions[int(sel)%len(versions)]
			editor := sel&0x80 == 0
			unv := sel&0x40 != 0
			for kind := 0; kind < 3; kind++ {
				r := binread.FromBytes(data)
				a := loader{r}
				sv := newSaver(r.Order(), 0)
				switch kind {
				case 0:
					var e NameEntry
					e.serialize(a, &v)
					if r.Err() == nil {
						e.serialize(sv, &v)
					}
				case 1:
					var im ObjectImport
					im.serialize(a, importLayoutOf(&v, editor))
					if r.Err() == nil {
						im.serialize(sv, importLayoutOf(&v, editor))
					}
				case 2:
					var e ObjectExport
					e.serialize(a, exportLayoutOf(&v, unv))
					if r.Err() == nil {
						e.serialize(sv, exportLayoutOf(&v, unv))
					}
				}
				if r.Err() != nil {
					continue
				}
				if !bytes.Equal(sv.w.Bytes(), data[:r.Offset()]) {
					t.Fatalf("table entry %d rewrite differs", kind)
				}
			}
		})
	})
}
