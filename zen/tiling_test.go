package zen_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/zen"
)

// fixtureAESKey is the key of the CUE4Parse fixture containers (corpus
// README).
const fixtureAESKey = "CUE4ParseFixtureAESKey0123456789"

// checkTiling checks that the data ranges of p's exports and cell exports
// tile the export data region: the first starts at HeaderSize, each starts
// where the one before ends, and the last ends at the end of the package,
// or (UE 5.3+) at the 4-byte package file tag the cooker leaves after the
// exports (the .uexp footer).
func checkTiling(t *testing.T, name string, p *zen.Package, data []byte) {
	size := len(data)
	if p.Layout >= zen.HeaderNoExportInfo && bytes.HasSuffix(data, []byte{0xC1, 0x83, 0x2A, 0x9E}) {
		size -= 4
	}
	t.Helper()
	at := int64(p.Summary.HeaderSize)
	for _, r := range p.DataRanges() {
		if r.Offset != at {
			t.Errorf("%s (%s): export %d (cell %v) data at %d, want %d (previous data ends there)", name, p.Layout, r.Export, r.Cell, r.Offset, at)
			return
		}
		at += r.Size
	}
	if at != int64(size) || p.ExportDataEnd() != at {
		t.Errorf("%s (%s): export data ends at %d (ExportDataEnd %d), package has %d bytes", name, p.Layout, at, p.ExportDataEnd(), size)
	}
	for i := range p.Exports {
		d, err := p.ExportData(i)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if uint64(len(d)) != p.Exports[i].CookedSerialSize {
			t.Errorf("%s: export %d: %d bytes, want %d", name, i, len(d), p.Exports[i].CookedSerialSize)
		}
	}
}

// TestExportDataTiling checks the export data placement of every zen
// package of the corpus whose data is readable: retoc's loose samples
// (4.27, 5.4–5.6) and the packages of every container with its .ucas
// (CUE4Parse's UE5.8 and 6.0 fixtures; Oodle ones are skipped for lack of
// a decoder).
func TestExportDataTiling(t *testing.T) {
	dir := corpus.Dir(t)
	loose := 0
	for _, p := range corpus.Files(t, "cooked/trumank+retoc", ".uzenasset", ".uasset") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) >= 4 && data[0] == 0xC1 && data[1] == 0x83 && data[2] == 0x2A && data[3] == 0x9E {
			continue
		}
		pkg, err := zen.Parse(data, zen.Options{Auto: true})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		loose++
		checkTiling(t, p, pkg, data)
	}
	if loose < 18 {
		t.Errorf("%d loose zen packages, want 18", loose)
	}
	packages := map[zen.HeaderVersion]int{}
	for _, toc := range corpus.Files(t, "iostore", ".utoc") {
		if _, err := os.Stat(strings.TrimSuffix(toc, ".utoc") + ".ucas"); err != nil {
			continue
		}
		f, err := iostore.Open(toc, iostore.WithAESKey([]byte(fixtureAESKey)))
		if err != nil {
			t.Errorf("%s: %v", toc, err)
			continue
		}
		h, err := f.ContainerHeader()
		if err != nil {
			if !errors.Is(err, iostore.ErrNotFound) {
				t.Errorf("%s: %v", toc, err)
			}
			f.Close()
			continue
		}
		rel, _ := filepath.Rel(dir, toc)
		for i, id := range f.ChunkIDs {
			if id.Type().Canonical(f.Header.Version) != iostore.ChunkExportBundleData {
				continue
			}
			data, err := f.ReadChunk(i)
			var unsup *compression.UnsupportedError
			if errors.As(err, &unsup) {
				continue
			}
			if err != nil {
				t.Errorf("%s: chunk %d: %v", rel, i, err)
				continue
			}
			opts := zen.Options{HeaderVersion: h.Version}
			if e, ok := h.StoreEntry(id.ID()); ok {
				opts.StoreExportBundleCount = e.ExportBundleCount
			}
			pkg, err := zen.Parse(data, opts)
			if err != nil {
				t.Errorf("%s: chunk %d: %v", rel, i, err)
				continue
			}
			packages[h.Version]++
			checkTiling(t, rel+"::"+f.PathOf(i), pkg, data)
		}
		f.Close()
	}
	t.Logf("%d loose zen packages, container packages by header version: %v", loose, packages)
	if packages[zen.HeaderSoftPackageReferencesOffset] == 0 {
		t.Error("no UE5.6+ container packages read")
	}
}
