package zen

import (
	"os"
	"testing"
)

// FuzzZenSummary parses arbitrary zen packages in every layout: no panic,
// and a package that parses is consistent.
func FuzzZenSummary(f *testing.F) {
	for _, p := range retocZenFiles(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 8<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []Options{{Auto: true}, {HeaderVersion: HeaderPreInitial}, {HeaderVersion: HeaderLocalizedPackages}, {HeaderVersion: HeaderNoExportInfo}} {
			p, err := Parse(data, opts)
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
