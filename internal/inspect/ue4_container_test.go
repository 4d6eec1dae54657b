package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/iostoretest"
	"github.com/upkg/upkg/zen"
)

// TestUE4Container puts retoc's UE 4.27 zen packages into a TOC version 3
// (4.27) container with a 4.27 package store, as the engine would ship
// them, and reads them in place: UE4 chunk types, SHA-1 hashes, the
// Initial container header and the UE4 package summary.
func TestUE4Container(t *testing.T) {
	const containerID = 0x1234
	var chunks []iostoretest.Chunk
	var store []iostoretest.StoreEntry
	var names []string
	for _, p := range corpus.Files(t, "cooked/trumank+retoc/retoc/tests/UE4.27", ".uasset") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := zen.Parse(data, zen.Options{HeaderVersion: zen.HeaderInitial})
		if err != nil {
			continue // the tagged .uasset files
		}
		id := zen.PackageID(pkg.Name)
		path := "Game/Content" + strings.TrimPrefix(pkg.Name, "/Game") + ".uasset"
		if !strings.HasPrefix(pkg.Name, "/Game/") {
			path = "Engine/Content" + strings.TrimPrefix(pkg.Name, "/Engine") + ".uasset"
		}
		chunks = append(chunks, iostoretest.Chunk{ID: iostoretest.ChunkID(id, 0, 2), Path: path, Data: data})
		store = append(store, iostoretest.StoreEntry{PackageID: id, ExportCount: int32(len(pkg.Exports)), ExportBundleCount: int32(len(pkg.BundleHeaders))})
		names = append(names, pkg.Name)
	}
	if len(names) < 5 {
		t.Fatalf("%d UE 4.27 zen samples", len(names))
	}
	// UE4's ContainerHeader chunk type is 10.
	chunks = append(chunks, iostoretest.Chunk{ID: iostoretest.ChunkID(containerID, 0, 10), Data: iostoretest.ContainerHeaderUE427(containerID, store)})
	toc, cas := iostoretest.Build(3, containerID, "../../../", chunks)
	dir := t.TempDir()
	tp := filepath.Join(dir, "Game-WindowsNoEditor.utoc")
	if err := os.WriteFile(tp, toc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Game-WindowsNoEditor.ucas"), cas, 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []VerifyResult
	VerifyOne(tp, &Options{}, func(r VerifyResult) { lines = append(lines, r) })
	if c := lines[len(lines)-1]; len(lines) != len(names)+1 || !c.OK || *c.ChunksOK != len(chunks) {
		t.Fatalf("verify: %d lines, last %+v", len(lines), c)
	}
	for _, r := range lines[:len(lines)-1] {
		if !r.OK || r.Format != "zen" {
			t.Errorf("%+v", r)
		}
	}
	for _, n := range names {
		in, err := OpenInput(tp+ContainerSep+n, &Options{})
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := OpenPackage(in, &Options{})
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
		if pkg.Engine != "4.26-4.27" || len(pkg.Exports) == 0 {
			t.Errorf("%s: engine %s, %d exports", n, pkg.Engine, len(pkg.Exports))
		}
	}
	c, err := openUtoc(tp, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, e := range c.Entries() {
		if e.Path != "" && e.ChunkType != "ExportBundleData" {
			t.Errorf("%s: chunk type %s", e.Path, e.ChunkType)
		}
	}
}
