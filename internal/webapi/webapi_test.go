package webapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// A test-only format: files starting with "PANIC!" make the opener panic,
// files starting with "TESTPKG" open as a two-export package whose export
// data lives in the .uexp companion.
func init() {
	inspect.RegisterOpener(inspect.Opener{
		Format:   "webapitest",
		Priority: 1000,
		Match: func(head []byte, name string) bool {
			return bytes.HasPrefix(head, []byte("PANIC!")) || bytes.HasPrefix(head, []byte("TESTPKG"))
		},
		Open: func(in *inspect.Input, opts *inspect.Options) (*inspect.Package, error) {
			head := make([]byte, 6)
			in.R.ReadAt(head, 0)
			if string(head) == "PANIC!" {
				var m map[string]int
				m["boom"]++ // a nil-map write: a reader bug
			}
			r, n, err := in.Sibling(".uexp")
			if err != nil {
				return nil, err
			}
			p := &inspect.Package{
				Sections: []inspect.Section{
					{Name: "Header", Offset: 0, Size: in.Size},
					{Name: "Outside", Offset: in.Size + 10, Size: 4},
				},
				Exports: []inspect.Object{
					{Index: 1, Name: "A", SerialOffset: in.Size, SerialSize: 4, File: ".uexp"},
					{Index: 2, Name: "B", SerialOffset: in.Size + 4, SerialSize: n - 4, File: ".uexp", IsAsset: true},
				},
			}
			p.ExportData = func(i int) ([]byte, error) {
				e := p.Exports[i]
				b := make([]byte, e.SerialSize)
				_, err := r.ReadAt(b, e.SerialOffset-in.Size)
				return b, err
			}
			return p, nil
		},
	})
}

func TestPlan(t *testing.T) {
	tests := []struct {
		in       []string
		groups   []Group
		orphans  []string
		mappings []string
	}{
		{
			in:     []string{"BP_Hero.uexp", "BP_Hero.uasset", "BP_Hero.ubulk", "T_Rock.uasset"},
			groups: []Group{{Kind: "package", Main: "BP_Hero.uasset", Files: []string{"BP_Hero.uasset", "BP_Hero.ubulk", "BP_Hero.uexp"}}, {Kind: "package", Main: "T_Rock.uasset", Files: []string{"T_Rock.uasset"}}},
		},
		{
			in:      []string{"Lonely.uexp", "Map.umap", "Map.uexp", "Tex.m.ubulk", "Tex.uasset"},
			groups:  []Group{{Kind: "package", Main: "Map.umap", Files: []string{"Map.umap", "Map.uexp"}}, {Kind: "package", Main: "Tex.uasset", Files: []string{"Tex.uasset", "Tex.m.ubulk"}}},
			orphans: []string{"Lonely.uexp"},
		},
		{
			in:       []string{"global.utoc", "global.ucas", "pakchunk0-Windows.utoc", "pakchunk0-Windows.ucas", "pakchunk0-Windows_s1.ucas", "pakchunk0-Windows.pak", "Game.usmap"},
			groups:   []Group{{Kind: "container", Main: "global.utoc", Files: []string{"global.utoc", "global.ucas"}}, {Kind: "container", Main: "pakchunk0-Windows.pak", Files: []string{"pakchunk0-Windows.pak"}}, {Kind: "container", Main: "pakchunk0-Windows.utoc", Files: []string{"pakchunk0-Windows.utoc", "pakchunk0-Windows.ucas", "pakchunk0-Windows_s1.ucas"}}},
			mappings: []string{"Game.usmap"},
		},
		{
			in:     []string{"DM-Deck16][.unr", "Botpack.u"},
			groups: []Group{{Kind: "package", Main: "Botpack.u", Files: []string{"Botpack.u"}}, {Kind: "package", Main: "DM-Deck16][.unr", Files: []string{"DM-Deck16][.unr"}}},
		},
		{in: nil},
	}
	for _, tt := range tests {
		g, o, m := Plan(tt.in)
		if !reflect.DeepEqual(g, tt.groups) || !reflect.DeepEqual(o, tt.orphans) || !reflect.DeepEqual(m, tt.mappings) {
			t.Errorf("Plan(%q)\nhave %#v %q %q\nwant %#v %q %q", tt.in, g, o, m, tt.groups, tt.orphans, tt.mappings)
		}
	}
}

func testFiles() map[string][]byte {
	return map[string][]byte{
		"Thing.uasset": []byte("TESTPKG header bytes"),
		"Thing.uexp":   []byte("AAAAexport-b-data"),
		"Other.txt":    []byte("unrelated"),
	}
}

func TestOpenPackage(t *testing.T) {
	s := NewSession()
	res, err := s.OpenPackage("Thing.uasset", testFiles(), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []FileInfo{{"Thing.uasset", 20, "main"}, {"Other.txt", 9, "unused"}, {"Thing.uexp", 17, "companion"}}
	if !reflect.DeepEqual(res.Files, want) {
		t.Errorf("files\nhave %+v\nwant %+v", res.Files, want)
	}
	if !res.Capabilities.ExportData || res.Capabilities.Props || res.Package.Format != "webapitest" {
		t.Errorf("capabilities %+v format %q", res.Capabilities, res.Package.Format)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatal(err)
	}

	// Export 2 sits in the .uexp at SerialOffset - len(.uasset).
	hx, err := s.Hex(res.Handle, HexRequest{Kind: "export", Index: 1})
	if err != nil {
		t.Fatal(err)
	}
	if hx.File != "Thing.uexp" || hx.Start != 4 || hx.Size != 13 || string(hx.Data[hx.Start-hx.Base:][:hx.Size]) != "export-b-data" {
		t.Errorf("export hex: %+v %q", hx, hx.Data)
	}
	hx, err = s.Hex(res.Handle, HexRequest{Kind: "section", Name: "Header"})
	if err != nil || hx.File != "Thing.uasset" || hx.Size != 20 {
		t.Errorf("section hex: %+v %v", hx, err)
	}
	if _, err := s.Hex(res.Handle, HexRequest{Kind: "section", Name: "Outside"}); err == nil || !strings.Contains(err.Error(), "lies outside") {
		t.Errorf("section outside the file: err = %v", err)
	}
	hx, err = s.Hex(res.Handle, HexRequest{Kind: "file", Name: ".uexp"})
	if err != nil || hx.FileSize != 17 || len(hx.Data) != 17 {
		t.Errorf("file hex: %+v %v", hx, err)
	}
	for _, req := range []HexRequest{{Kind: "export", Index: 2}, {Kind: "export", Index: -1}, {Kind: "thumbnail"}, {Kind: "nonsense"}, {Kind: "file", Name: ".ubulk"}} {
		if _, err := s.Hex(res.Handle, req); err == nil {
			t.Errorf("Hex(%+v): no error", req)
		}
	}
	if _, err := s.Props(res.Handle, 0); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("Props: err = %v", err)
	}
	if _, err := s.Dump(res.Handle); err == nil {
		t.Error("Dump: no error")
	}
	s.Close(res.Handle)
	if _, err := s.Hex(res.Handle, HexRequest{Kind: "file"}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("after Close: err = %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	s := NewSession()
	// The companion is missing: the reader's error names it.
	files := testFiles()
	delete(files, "Thing.uexp")
	_, err := s.OpenPackage("Thing.uasset", files, OpenOptions{})
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "Thing.uexp") {
		t.Errorf("missing .uexp: err = %v", err)
	}
	_, err = s.OpenPackage("Garbage.uasset", map[string][]byte{"Garbage.uasset": []byte("hello")}, OpenOptions{})
	if err == nil || !errors.Is(err, inspect.ErrUnknownFormat) || !strings.Contains(err.Error(), "Garbage.uasset") {
		t.Errorf("garbage: err = %v", err)
	}
	_, err = s.OpenPackage("Nope.uasset", map[string][]byte{}, OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "Nope.uasset") {
		t.Errorf("not dropped: err = %v", err)
	}
	_, err = s.OpenPackage("Empty.uasset", map[string][]byte{"Empty.uasset": nil}, OpenOptions{})
	if err == nil {
		t.Error("empty file: no error")
	}
	// A reader that panics: the session reports it and keeps working.
	_, err = s.OpenPackage("Bad.uasset", map[string][]byte{"Bad.uasset": []byte("PANIC! and more")}, OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "Bad.uasset") {
		t.Errorf("panicking reader: err = %v", err)
	}
	if _, err := s.OpenPackage("Thing.uasset", testFiles(), OpenOptions{}); err != nil {
		t.Errorf("next file after a panic: %v", err)
	}
	if _, err := s.OpenContainer("/in/x.zip", OpenOptions{}); err == nil {
		t.Error("OpenContainer(.zip): no error")
	}
	if _, _, err := s.Thumbnail(999, 0); err == nil {
		t.Error("Thumbnail on a bad handle: no error")
	}
}

// TestCorpusSameAsDisk opens real files from memory, as the page does, and
// checks the result equals opening them from disk, as the CLI does.
func TestCorpusSameAsDisk(t *testing.T) {
	dir := corpus.Dir(t)
	paths := []string{
		"uassetapi/TestEditorUE5_7/Blueprints/BP_FirstPersonCharacter.uasset",
		"cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uasset",
	}
	s := NewSession()
	for _, rel := range paths {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		in, err := inspect.OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		disk, err := inspect.OpenPackage(in, &inspect.Options{})
		in.Close()
		if err != nil {
			t.Logf("%s: %v (no reader for it in this build yet)", rel, err)
			continue
		}
		files := map[string][]byte{}
		base := strings.TrimSuffix(p, filepath.Ext(p))
		for _, ext := range []string{filepath.Ext(p), ".uexp", ".ubulk"} {
			if b, err := os.ReadFile(base + ext); err == nil {
				files[filepath.Base(base+ext)] = b
			}
		}
		res, err := s.OpenPackage(filepath.Base(p), files, OpenOptions{})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		mem := res.Package
		if len(mem.Names) != len(disk.Names) || len(mem.Imports) != len(disk.Imports) || len(mem.Exports) != len(disk.Exports) || len(mem.Thumbnails) != len(disk.Thumbnails) || mem.Engine != disk.Engine {
			t.Errorf("%s: memory %d/%d/%d/%d %s, disk %d/%d/%d/%d %s", rel,
				len(mem.Names), len(mem.Imports), len(mem.Exports), len(mem.Thumbnails), mem.Engine,
				len(disk.Names), len(disk.Imports), len(disk.Exports), len(disk.Thumbnails), disk.Engine)
		}
		for i := range mem.Exports {
			if _, err := s.Hex(res.Handle, HexRequest{Kind: "export", Index: i}); err != nil && mem.Exports[i].SerialSize > 0 {
				t.Errorf("%s: hex of export %d: %v", rel, i, err)
			}
		}
		for i := range mem.Thumbnails {
			if _, data, err := s.Thumbnail(res.Handle, i); err != nil || len(data) == 0 {
				t.Errorf("%s: thumbnail %d: %v", rel, i, err)
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
}

// TestContentUT99 converts a texture of a UT99 texture package, as the
// page's Content tab does.
func TestContentUT99(t *testing.T) {
	dir := corpus.Dir(t)
	p := filepath.Join(dir, "legacy_ue123/nrempel+ut-server/Textures/Crypt.utx")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession()
	res, err := s.OpenPackage("Crypt.utx", map[string][]byte{"Crypt.utx": b}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, e := range res.Package.Exports {
		if !strings.Contains(e.Class, "Texture") {
			continue
		}
		info, data, err := s.Content(res.Handle, i)
		if err != nil {
			t.Fatalf("export %d %s: %v", i, e.Name, err)
		}
		if info.Kind != "texture" || !bytes.HasPrefix(data, []byte("\x89PNG")) {
			t.Errorf("export %d %s: kind %q, %d bytes", i, e.Name, info.Kind, len(data))
		}
		if n++; n == 3 {
			break
		}
	}
	if n == 0 {
		t.Fatal("no texture in Crypt.utx")
	}
	if _, _, err := s.Content(res.Handle, 999999); err == nil {
		t.Error("bad index: no error")
	}
}

// TestPackageFiles reads a package out of a pak with PackageFiles and opens
// it with OpenPackage, as the page does when the pak's module has no uasset
// reader: the result matches OpenFromContainer's.
func TestPackageFiles(t *testing.T) {
	pak := corpus.Path(t, "pak/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/LegacyPak/Tagged/Uncompressed/CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak")
	s := NewSession()
	c, err := s.OpenContainer(pak, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.PackageReader != "" {
		t.Errorf("PackageReader = %q in a build with every reader", c.PackageReader)
	}
	opened := 0
	for _, e := range c.Entries {
		if !isPackagePath(e.Path) {
			continue
		}
		want, err := s.OpenFromContainer(c.Handle, e.Path)
		if err != nil {
			continue
		}
		names, data, err := s.PackageFiles(c.Handle, e.Path)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if len(names) < 2 || names[0] != pak+inspect.ContainerSep+e.Path {
			t.Errorf("%s: names %q", e.Path, names)
		}
		files := map[string][]byte{}
		for i, n := range names {
			files[n] = data[i]
		}
		got, err := s.OpenPackage(names[0], files, OpenOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		gp, wp := got.Package, want.Package
		if len(gp.Names) != len(wp.Names) || len(gp.Imports) != len(wp.Imports) || len(gp.Exports) != len(wp.Exports) || gp.Path != wp.Path {
			t.Errorf("%s: names/imports/exports %d/%d/%d path %q, OpenFromContainer %d/%d/%d %q", e.Path,
				len(gp.Names), len(gp.Imports), len(gp.Exports), gp.Path, len(wp.Names), len(wp.Imports), len(wp.Exports), wp.Path)
		}
		if _, err := s.Props(got.Handle, 0); (err == nil) != (wp.Props != nil) {
			t.Errorf("%s: props of export 0: %v", e.Path, err)
		}
		opened++
	}
	if opened == 0 {
		t.Fatal("no package of the pak opened")
	}
	if _, _, err := s.PackageFiles(c.Handle, "no/such.uasset"); err == nil {
		t.Error("PackageFiles of a missing entry: no error")
	}
}
