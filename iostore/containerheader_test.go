package iostore

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/zen"
)

// TestContainerHeaderRetoc parses retoc's container header samples of every
// era and checks their shape.
func TestContainerHeaderRetoc(t *testing.T) {
	tests := []struct {
		file     string
		toc      TocVersion
		version  ContainerHeaderVersion
		packages int
	}{
		{"UE4.27/ContainerHeader_1.bin", TocPartitionSize, HeaderInitial, -1},
		{"UE5.0/ContainerHeader_1.bin", 0, HeaderLocalizedPackages, -1},
		{"UE5.3/ContainerHeader_1.bin", 0, HeaderNoExportInfo, -1},
		{"issues/issue18/header.bin", TocDirectoryIndex, HeaderPreInitial, -1},
		// A 4.26 container's (TOC DirectoryIndex) header in Initial's
		// layout, as the engine writes it (it was read as PreInitial's,
		// 16-byte entries: wrong counts and imports, and no error).
		{"UE4.27/ContainerHeader_1.bin", TocDirectoryIndex, HeaderInitial, -1},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(corpus.Path(t, "iostore/trumank+retoc/retoc/tests", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseContainerHeader(data, tt.toc)
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if h.Version != tt.version {
			t.Errorf("%s: version %s, want %s", tt.file, h.Version, tt.version)
		}
		imports, shaders, badHash := 0, 0, 0
		if h.Version == HeaderInitial {
			// Every UE4 package has at least one export in one bundle
			// (read in the wrong layout, counts are sizes and zeros).
			for i := range h.StoreEntries.Len() {
				if e := h.StoreEntries.At(i); e.ExportCount < 1 || e.ExportBundleCount < 1 || e.ExportCount > 1<<20 {
					t.Errorf("%s: store entry %d: %d exports in %d bundles", tt.file, i, e.ExportCount, e.ExportBundleCount)
					break
				}
			}
		}
		for i := range h.StoreEntries.Len() {
			e := h.StoreEntries.At(i)
			imports += len(e.ImportedPackages)
			shaders += len(e.ShaderMapHashes)
		}
		for _, n := range h.Names {
			if !n.HashOK && n.Hash != 0 {
				badHash++
			}
		}
		if badHash > 0 {
			t.Errorf("%s: %d name hashes do not match", tt.file, badHash)
		}
		t.Logf("%s: %s container %016x: %d packages, %d imports, %d shader maps, %d optional, %d names, %d localized, %d redirects, %d cultures",
			tt.file, h.Version, h.ContainerID, len(h.PackageIDs), imports, shaders, len(h.OptionalSegmentPackageIDs), len(h.Names), len(h.LocalizedPackages), len(h.PackageRedirects), len(h.CulturePackageMap))
	}
}

// TestContainerHeaderPackageIDs checks that every package of the fixture
// containers is in the store under the CityHash64 of its package name.
func TestContainerHeaderPackageIDs(t *testing.T) {
	for _, p := range corpus.Files(t, "iostore/FabianFG+CUE4Parse", ".utoc") {
		f, err := Open(p, WithAESKey([]byte("CUE4ParseFixtureAESKey0123456789")))
		if err != nil {
			t.Fatal(err)
		}
		h, err := f.ContainerHeader()
		if err != nil {
			if f.DirectoryIndex == nil { // global container
				f.Close()
				continue
			}
			t.Errorf("%s: %v", p, err)
			f.Close()
			continue
		}
		checked := 0
		for _, fe := range f.DirectoryIndex.Files() {
			id := f.ChunkIDs[fe.Chunk]
			if id.Type().Canonical(f.Header.Version) != ChunkExportBundleData || id.Index() != 0 {
				continue
			}
			name, ok := PackageName(fe.Path)
			if !ok {
				t.Errorf("%s: no package name", fe.Path)
				continue
			}
			if got := zen.PackageID(name); got != id.ID() {
				t.Errorf("%s: PackageID(%q) = %016x, chunk has %016x", fe.Path, name, got, id.ID())
			}
			if _, ok := h.StoreEntry(id.ID()); !ok {
				t.Errorf("%s: package %016x not in the store", fe.Path, id.ID())
			}
			checked++
		}
		if h.ContainerID != f.Header.ContainerID {
			t.Errorf("%s: header container ID %x, TOC %x", p, h.ContainerID, f.Header.ContainerID)
		}
		if checked == 0 || checked != len(h.PackageIDs)+len(h.OptionalSegmentPackageIDs) {
			t.Errorf("%s: %d packages checked, store has %d", p, checked, len(h.PackageIDs))
		}
		f.Close()
	}
}

// TestContainerHeaderSharedArrays: store entries whose import arrays fit
// the buffer one by one but all point at the same bytes (1,000 entries of
// 1,000 imports: 8 MB from a 40 KB header) are refused, not expanded; the
// same entries with arrays of their own read.
func TestContainerHeaderSharedArrays(t *testing.T) {
	const n, k = 1000, 1000
	header := func(shared bool) []byte {
		le := binary.LittleEndian
		b := le.AppendUint64(nil, 0x1234) // ContainerId
		b = le.AppendUint32(b, n)         // PackageCount
		b = le.AppendUint32(b, 0)         // NamesBuffer
		b = le.AppendUint32(b, 0)         // NameHashesBuffer
		b = le.AppendUint32(b, n)
		for i := range n {
			b = le.AppendUint64(b, uint64(i+1))
		}
		arrays := 1
		if !shared {
			arrays = n
		}
		b = le.AppendUint32(b, uint32(n*32+arrays*k*8))
		for i := range n {
			b = append(b, make([]byte, 24)...) // ExportBundlesSize, counts, LoadOrder, Pad
			at := n * 32
			if !shared {
				at += i * k * 8
			}
			b = le.AppendUint32(b, k)
			b = le.AppendUint32(b, uint32(at-(i*32+24)))
		}
		for i := range arrays * k {
			b = le.AppendUint64(b, uint64(i))
		}
		b = le.AppendUint32(b, 0)    // CulturePackageMap
		return le.AppendUint32(b, 0) // PackageRedirects
	}
	h, err := ParseContainerHeader(header(false), TocPartitionSize)
	if err != nil || h.StoreEntries.Len() != n || len(h.StoreEntries.At(n-1).ImportedPackages) != k || h.StoreEntries.At(n - 1).ImportedPackages[k-1] != ue.ID(n*k-1) {
		t.Fatalf("arrays of their own: %v", err)
	}
	if _, err := ParseContainerHeader(header(true), TocPartitionSize); err == nil || !strings.Contains(err.Error(), "share their arrays") {
		t.Errorf("shared arrays: %v", err)
	}
}
