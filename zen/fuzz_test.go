package zen

import (
	"encoding/binary"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binread"
)

// FuzzZenSummary parses arbitrary zen packages in every layout: no panic,
// and a package that parses is consistent.
func FuzzZenSummary(f *testing.F) {
	var reuseFrom [][]byte // UE5 packages whose tables a reusing parse refills
	for _, p := range retocZenFiles(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 8<<10 {
			f.Add(b)
		}
		if pk, err := Parse(b, Options{Auto: true}); err == nil && pk.Layout > HeaderInitial && len(reuseFrom) < 2 {
			reuseFrom = append(reuseFrom, b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			for _, opts := range []Options{{Auto: true}, {HeaderVersion: HeaderPreInitial}, {HeaderVersion: HeaderLocalizedPackages}, {HeaderVersion: HeaderNoExportInfo}} {
				p, err := Parse(data, opts)
				checkReuse(t, data, opts, p, err, reuseFrom)
				checkBody(t, "input", data, len(data)/3, opts, p, err)
				if err != nil {
					continue
				}
				if len(p.BundleEntries) != 2*len(p.Exports) {
					t.Fatalf("%d bundle entries for %d exports", len(p.BundleEntries), len(p.Exports))
				}
				for i := range p.Exports {
					if d, err := p.ExportData(i); err == nil && uint64(len(d)) != p.Exports[i].CookedSerialSize {
						t.Fatalf("export %d: %d bytes, size %d", i, len(d), p.Exports[i].CookedSerialSize)
					}
				}
				for i := range p.CellExports {
					if d, err := p.CellExportData(i); err == nil && uint64(len(d)) != p.CellExports[i].CookedSerialSize {
						t.Fatalf("cell export %d: %d bytes, size %d", i, len(d), p.CellExports[i].CookedSerialSize)
					}
				}
				for _, r := range p.DataRanges() {
					if r.Offset < 0 || r.Size < 0 || r.Offset+r.Size > p.ExportDataEnd() {
						t.Fatalf("data range %+v beyond ExportDataEnd %d", r, p.ExportDataEnd())
					}
				}
			}
		})
	})
}

// checkReuse parses data with opts again, reusing packages parsed from
// each of from, and fails unless that gives what parsing afresh gave (p
// and err).
func checkReuse(t *testing.T, data []byte, opts Options, p *Package, err error, from [][]byte) {
	t.Helper()
	for _, b := range from {
		prev, perr := Parse(b, Options{Auto: true})
		if perr != nil {
			t.Fatal(perr)
		}
		o := opts
		o.Reuse = prev
		q, qerr := Parse(data, o)
		if fmt.Sprint(err) != fmt.Sprint(qerr) {
			t.Fatalf("reusing a package: error %v, afresh %v", qerr, err)
		}
		if err != nil {
			continue
		}
		want, got := *p, *q
		want.spare, got.spare = spareTables{}, spareTables{}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("reusing a package: %+v, afresh %+v", got, want)
		}
	}
}

// TestParseReuse parses every small sample reusing the packages of the
// others: the same packages as parsed afresh.
func TestParseReuse(t *testing.T) {
	var all, ue5 [][]byte
	for _, p := range retocZenFiles(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if pk, err := Parse(b, Options{Auto: true}); err == nil && pk.Layout > HeaderInitial {
			ue5 = append(ue5, b)
		}
		all = append(all, b)
	}
	if len(ue5) == 0 {
		t.Skip("no UE5 samples")
	}
	for _, b := range all {
		for _, opts := range []Options{{Auto: true}, {HeaderVersion: HeaderNoExportInfo}, {HeaderVersion: HeaderSoftPackageReferencesOffset}} {
			p, err := Parse(b, opts)
			checkReuse(t, b, opts, p, err, ue5)
			// And a chain: each parse reusing the one before.
			if err == nil {
				o := opts
				o.Reuse = p
				for _, c := range ue5 {
					q, err := Parse(c, Options{Auto: true, Reuse: o.Reuse})
					if err != nil {
						t.Fatal(err)
					}
					o.Reuse = q
				}
			}
		}
	}
}

// FuzzNameBatch reads arbitrary UE4 split name batches.
func FuzzNameBatch(f *testing.F) {
	f.Add([]byte{0, 4, 'N', 'o', 'n', 'e', 0x80, 2, 0, 'A', 0, 'B', 0}, []byte{0, 0, 0x64, 0xC1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, names, hashes []byte) {
		ParseNameBatchParts(names, hashes)
	})
}

// TestTruncatedZen parses every prefix of small samples: never a panic,
// and a prefix that ends inside the header fails.
func TestTruncatedZen(t *testing.T) {
	n := 0
	for _, p := range retocZenFiles(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 20000 {
			continue
		}
		full, err := Parse(b, Options{Auto: true})
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/400)
		for i := 0; i < len(b); i += step {
			pk, err := Parse(b[:i], Options{Auto: true})
			if err == nil && int64(i) < int64(full.Summary.HeaderSize) && pk.Layout == full.Layout {
				t.Errorf("%s: prefix of %d bytes (header %d) parsed", p, i, full.Summary.HeaderSize)
				break
			}
		}
		n++
	}
	if n == 0 {
		t.Skip("no small samples")
	}
}

// testNameBatch encodes names as a UE5 name batch with their hashes (the
// first one's hash wrong).
func testNameBatch(names ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(names)))
	n := 0
	for _, s := range names {
		n += len(s)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint64(b, HashAlgorithmID)
	for i, s := range names {
		h := NameHash(s)
		if i == 0 {
			h++
		}
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	for _, s := range names {
		b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	}
	for _, s := range names {
		b = append(b, s...)
	}
	return b
}

// FuzzNameBatchUE5 reads arbitrary UE5 name batches copied, in place and
// lazily: the same names or the same error.
func FuzzNameBatchUE5(f *testing.F) {
	f.Add(testNameBatch("None", "/Script/CoreUObject", "Object", "caf\xe9"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r1 := binread.FromBytes(data)
		copied := ReadNameBatch(r1, "N")
		r2 := binread.FromBytes(data)
		inPlace := readNameBatch(r2, data, "N")
		r3 := binread.FromBytes(data)
		lazy := readLazyNames(r3, data, "N")
		if fmt.Sprint(r1.Err()) != fmt.Sprint(r2.Err()) || fmt.Sprint(r1.Err()) != fmt.Sprint(r3.Err()) || r1.Offset() != r2.Offset() || r1.Offset() != r3.Offset() {
			t.Fatalf("errors %v, %v, %v; offsets %d, %d, %d", r1.Err(), r2.Err(), r3.Err(), r1.Offset(), r2.Offset(), r3.Offset())
		}
		if r1.Err() != nil {
			return
		}
		if !slices.Equal(copied, inPlace) || len(copied) != lazy.len() {
			t.Fatalf("copied %v, in place %v, %d lazy", copied, inPlace, lazy.len())
		}
		for i, n := range copied {
			if lazy.name(i) != n {
				t.Fatalf("name %d: lazy %+v, want %+v", i, lazy.name(i), n)
			}
		}
	})
}

// FuzzScriptObjects parses arbitrary ScriptObjects chunks and resolves
// every object: no panic, each path the plain one and each object found by
// its global index.
func FuzzScriptObjects(f *testing.F) {
	obj := func(b []byte, name uint32, global, outer, cdo ObjectIndex) []byte {
		b = binary.LittleEndian.AppendUint32(b, name)
		b = binary.LittleEndian.AppendUint32(b, 0)
		for _, x := range []ObjectIndex{global, outer, cdo} {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
		return b
	}
	seed := testNameBatch("/Script/Engine", "Actor", "Default__Actor")
	seed = binary.LittleEndian.AppendUint32(seed, 3)
	seed = obj(seed, 0, 1<<62|1, NullIndex, NullIndex)
	seed = obj(seed, 1, 1<<62|2, 1<<62|1, NullIndex)
	seed = obj(seed, 2, 1<<62|3, 1<<62|1, 1<<62|2)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			s, err := ParseScriptObjects(data)
			if err != nil {
				return
			}
			for i := range s.NumNames() {
				s.Name(i)
			}
			for i := range s.Len() {
				o := s.Object(i)
				if want := plainPath(s, i, 0); o.Path != want {
					t.Fatalf("object %d: path %q, want %q", i, o.Path, want)
				}
				if l, ok := s.Lookup(o.GlobalIndex); !ok || l.GlobalIndex != o.GlobalIndex {
					t.Fatalf("object %d: Lookup(%s) = %v, %v", i, o.GlobalIndex, l, ok)
				}
				s.IsClass(o.CDOClassIndex)
			}
			s.CheckHashes()
		})
	})
}
