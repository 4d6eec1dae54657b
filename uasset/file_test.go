package uasset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// fileTest is one real package and what reading it must give.
type fileTest struct {
	path      string // relative to the corpus
	engine    string // --engine for unversioned packages
	wantEng   string // File.Engine.Version
	legacy    int32
	ue4, ue5  int32
	names     int
	imports   int
	exports   int
	thumbs    string // formats, space-separated
	asset     string // path of the asset export
	class     string // class path of the asset export
	import0   string // path of import 0
	headerLen int32
}

var fileTests = []fileTest{
	{"uncooked/EdwardDuduLiu+2_FPS_UE4.27/Content/ExampleContent/Effects/Textures/T_Smoke_Tiled_D.uasset", "", "", -3, 315, 0, 30, 2, 1, "png",
		"/Game/ExampleContent/Effects/Textures/T_Smoke_Tiled_D.T_Smoke_Tiled_D", "/Script/Engine.Texture2D", "/Script/Engine.Texture2D", 43737},
	{"uncooked/AntSarYon+UE426_TheSanctuaryToCpp/Content/FirstPerson/Character/Mesh/FirstPersonAnimBlueprint_Copy.uasset", "", "4.8", -5, 451, 0, 18, 7, 4, "empty empty empty",
		"/Game/FirstPerson/Character/Mesh/FirstPersonAnimBlueprint_Copy.FirstPersonAnimBlueprint_Copy", "/Script/CoreUObject.ObjectRedirector", "/Game/FirstPerson/Animations/FirstPerson_AnimBP.FirstPerson_AnimBP", 1999},
	{"uncooked/DMinsky+UE426SteamCpp/Content/ThirdPersonCPP/Blueprints/ThirdPersonCharacter.uasset", "", "4.13", -6, 505, 0, 123, 38, 21, "png",
		"/Game/ThirdPersonCPP/Blueprints/ThirdPersonCharacter.ThirdPersonCharacter", "/Script/Engine.Blueprint", "/Game/Mannequin/Animations/ThirdPerson_AnimBP.ThirdPerson_AnimBP_C", 100206},
	{"uncooked/AgnivC+UE4.19_BattleTank/UE_BTN/Content/StarterContent/Maps/Advanced_Lighting.umap", "", "4.15", -7, 510, 0, 344, 78, 47, "empty",
		"/Game/StarterContent/Maps/Advanced_Lighting.Advanced_Lighting", "/Script/Engine.World", "/Script/Engine.Default__PlayerStart:Arrow", 17107},
	{"uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/Materials/M_BiomeDebug.uasset", "", "5.7", -9, 522, 1018, 107, 4, 3, "jpeg",
		"/Game/WorldGen/Materials/M_BiomeDebug.M_BiomeDebug", "/Script/Engine.Material", "/Script/Engine.Material", 9082},
	{"uassetapi/TestEditorUE5_7/Blueprints/BP_FirstPersonCameraManager.uasset", "", "5.7", -9, 522, 1018, 95, 18, 11, "empty empty",
		"/Game/FirstPerson/Blueprints/BP_FirstPersonCameraManager.BP_FirstPersonCameraManager", "/Script/Engine.Blueprint", "/Script/BlueprintGraph.EdGraphSchema_K2", 13216},
	{"cooked/AstroTechies+unrealmodding/unreal_mod_integrator/src/handlers/ue4_27/assets/LevelTemplate.umap", "4.27", "4.27", -7, 522, 0, 71, 28, 17, "",
		"/Game/Level.Level", "/Script/Engine.World", "/Game/Atenfyr/AnalyticsMod/AnalyticsModActor.AnalyticsModActor_C", 4740},
}

func TestFiles(t *testing.T) {
	root := corpus.Dir(t)
	for _, tt := range fileTests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			f, err := openCorpus(t, filepath.Join(root, tt.path), tt.engine)
			if err != nil {
				t.Fatal(err)
			}
			s := &f.Summary
			var thumbs []string
			for _, th := range f.Thumbnails {
				thumbs = append(thumbs, th.Format)
			}
			a := f.AssetExport()
			if a < 0 {
				t.Fatal("no asset export")
			}
			have := fileTest{tt.path, tt.engine, f.Engine.Version, s.LegacyFileVersion, f.Versions.UE4, f.Versions.UE5,
				len(f.Names), len(f.Imports), len(f.Exports), strings.Join(thumbs, " "),
				f.ObjectPath(ExportIndex(a)), f.ClassPath(ExportIndex(a)), f.ObjectPath(ImportIndex(0)), s.TotalHeaderSize}
			if have != tt {
				t.Errorf("\nhave %#v\nwant %#v", have, tt)
			}
			if err := f.SectionErrors(); err != nil {
				t.Error(err)
			}
			for i := range f.Exports {
				b, err := f.Exports[i].Data()
				if err != nil {
					t.Fatalf("export %d data: %v", i, err)
				}
				if int64(len(b)) != f.Exports[i].SerialSize {
					t.Fatalf("export %d: %d bytes, want %d", i, len(b), f.Exports[i].SerialSize)
				}
			}
			for i := range f.Thumbnails {
				b, err := f.Thumbnails[i].Data()
				if err != nil || int64(len(b)) != f.Thumbnails[i].DataSize {
					t.Fatalf("thumbnail %d: %d bytes, %v", i, len(b), err)
				}
			}
		})
	}
}

// TestPackageIndex covers FPackageIndex's encoding.
func TestPackageIndex(t *testing.T) {
	for _, tc := range []struct {
		p              PackageIndex
		null, imp, exp bool
		i              int
	}{
		{0, true, false, false, 0},
		{-1, false, true, false, 0},
		{-5, false, true, false, 4},
		{1, false, false, true, 0},
		{7, false, false, true, 6},
	} {
		if tc.p.IsNull() != tc.null || tc.p.IsImport() != tc.imp || tc.p.IsExport() != tc.exp {
			t.Errorf("%d: null/import/export = %v/%v/%v", tc.p, tc.p.IsNull(), tc.p.IsImport(), tc.p.IsExport())
		}
		if tc.imp && (tc.p.ToImport() != tc.i || ImportIndex(tc.i) != tc.p) {
			t.Errorf("%d: import %d", tc.p, tc.p.ToImport())
		}
		if tc.exp && (tc.p.ToExport() != tc.i || ExportIndex(tc.i) != tc.p) {
			t.Errorf("%d: export %d", tc.p, tc.p.ToExport())
		}
	}
}

func TestLookupEngine(t *testing.T) {
	for in, want := range map[string]string{"4.27": "4.27", "UE4.27": "4.27", "5.3.2": "5.3", "UE5_1": "5.1", "5": "5.0", "5.0ea": "5.0EA", "UE5_8": "5.8", "6": "6.0", "UE6_0": "6.0"} {
		e, ok := LookupEngine(in)
		if !ok || e.Name != want {
			t.Errorf("LookupEngine(%q) = %q, %v; want %q", in, e.Name, ok, want)
		}
	}
	if _, ok := LookupEngine("3.0"); ok {
		t.Error("LookupEngine(3.0) succeeded")
	}
}

func TestErrors(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		_, err := NewFile(bytes.NewReader(nil), 0)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("err = %v, want FormatError", err)
		}
	})
	t.Run("not a package", func(t *testing.T) {
		_, err := NewFile(bytes.NewReader(make([]byte, 64)), 64)
		if !errors.Is(err, ErrNotPackage) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ace7", func(t *testing.T) {
		b := append([]byte("ACE7"), make([]byte, 60)...)
		_, err := NewFile(bytes.NewReader(b), int64(len(b)))
		if !errors.Is(err, ErrEncrypted) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ue3", func(t *testing.T) {
		b := make([]byte, 64)
		binary.LittleEndian.PutUint32(b, PackageFileTag)
		binary.LittleEndian.PutUint32(b[4:], 868)
		_, err := NewFile(bytes.NewReader(b), int64(len(b)))
		var ue *UnsupportedError
		if !errors.As(err, &ue) {
			t.Fatalf("err = %v, want UnsupportedError", err)
		}
	})
	t.Run("huge name count", func(t *testing.T) {
		// A -7 summary claiming 2^31-1 names must fail before allocating.
		b := smallSummary(t)
		off := bytes.Index(b, []byte("None\x00")) // PackageName
		if off < 0 {
			t.Skip("no test summary")
		}
		binary.LittleEndian.PutUint32(b[off+5+4:], 0x7fffffff)
		_, err := NewFile(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			t.Fatal("no error")
		}
	})
}

// smallSummary returns the first bytes of a real -7 package (from the
// corpus), or skips.
func smallSummary(t *testing.T) []byte {
	p := corpus.Path(t, "uncooked/AgnivC+UE4.19_BattleTank/UE_BTN/Content/BattleGround_sharedassets/Snow_LayerInfo.uasset")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Skip(err)
	}
	return b
}

// TestBigEndian writes a real package's header in big-endian order (as a
// console cooker would) and reads it back: the swapped tag must be
// recognised and every table must read the same.
func TestBigEndian(t *testing.T) {
	b := smallSummary(t)
	f, err := NewFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	f.BigEndian = true
	hdr, err := f.WriteHeader()
	if err != nil {
		t.Fatal(err)
	}
	be := append(hdr, b[len(hdr):]...)
	if binary.LittleEndian.Uint32(be) != PackageFileTagSwapped {
		t.Fatalf("tag %08x", binary.LittleEndian.Uint32(be))
	}
	g, err := NewFile(bytes.NewReader(be), int64(len(be)))
	if err != nil {
		t.Fatal(err)
	}
	if !g.BigEndian {
		t.Error("BigEndian not set")
	}
	if len(g.Names) != len(f.Names) || len(g.Exports) != len(f.Exports) || len(g.Imports) != len(f.Imports) {
		t.Fatalf("tables differ: %d/%d/%d vs %d/%d/%d", len(g.Names), len(g.Imports), len(g.Exports), len(f.Names), len(f.Imports), len(f.Exports))
	}
	for i := range f.Exports {
		if f.ObjectPath(ExportIndex(i)) != g.ObjectPath(ExportIndex(i)) {
			t.Errorf("export %d: %s vs %s", i, g.ObjectPath(ExportIndex(i)), f.ObjectPath(ExportIndex(i)))
		}
	}
	hdr2, err := g.WriteHeader()
	if err != nil || !bytes.Equal(hdr2, hdr) {
		t.Errorf("big-endian rewrite differs (%v)", err)
	}
}

// truncationFiles are small real packages of different versions.
var truncationFiles = []string{
	"uncooked/AgnivC+UE4.19_BattleTank/UE_BTN/Content/BattleGround_sharedassets/Snow_LayerInfo.uasset",
	"uncooked/KuKKilicious+BuildingEscape-UE4.23/Content/StarterContent/Blueprints/Assets/FogBrightnessLUT.uasset",
	"uncooked/AntSarYon+UE426_TheSanctuaryToCpp/Content/FirstPerson/Character/Mesh/FirstPersonAnimBlueprint_Copy.uasset",
	"uassetapi/TestEditorUE5_7/Blueprints/BP_FirstPersonCameraManager.uasset",
}

// TestTruncated reads every prefix of a few real packages: each must fail
// cleanly (or, past the header, read) without panicking.
func TestTruncated(t *testing.T) {
	root := corpus.Dir(t)
	for _, p := range truncationFiles {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		step := 1
		if testing.Short() {
			step = 7
		}
		for n := 0; n < len(b); n += step {
			f, err := NewFile(bytes.NewReader(b[:n]), int64(n))
			if err == nil {
				if n < int(f.Summary.TotalHeaderSize) && f.SectionErrors() == nil && len(f.Exports) > 0 {
					// A prefix shorter than the header can only read when the
					// missing tail holds no section.
					_ = f.HeaderGaps()
				}
				f.WriteHeader()
				continue
			}
			if msg := err.Error(); strings.Contains(msg, "\n") {
				t.Fatalf("%s[:%d]: multi-line error %q", p, n, msg)
			}
		}
	}
}

// TestCutShortUnversioned: an unversioned package cut inside its summary
// says so, leading with the truncation rather than a missing engine
// version; one whose summary reads under no layout still asks for the
// engine.
func TestCutShortUnversioned(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/PlayerPower_UI.uasset"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{20, 40} {
		_, err := NewFile(bytes.NewReader(b[:n]), int64(n))
		if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrNeedEngine) ||
			!strings.HasPrefix(err.Error(), "uasset: unversioned package cut short? its header runs past the end of the file (no engine layout reads it; tried ") {
			t.Errorf("first %d bytes: %v", n, err)
		}
	}
	// A whole file whose summary no layout reads (its counts run past
	// the end): the engine is what is asked for.
	bad := bytes.Clone(b)
	binary.LittleEndian.PutUint32(bad[len(bad)-4:], 0xFFFFFFFF)
	for i := 24; i < 40; i++ {
		bad[i] = 0xFF
	}
	if _, err := NewFile(bytes.NewReader(bad), int64(len(bad))); err == nil || !errors.Is(err, ErrNeedEngine) || errors.Is(err, errCutShort) {
		t.Errorf("a damaged summary: %v", err)
	}
}

// TestReaderAtErrors makes sure an I/O error from the ReaderAt surfaces.
func TestReaderAtErrors(t *testing.T) {
	b := smallSummary(t)
	r := &failingReader{b: b, failAt: 300}
	_, err := NewFile(r, int64(len(b)))
	if err == nil {
		t.Fatal("no error")
	}
}

type failingReader struct {
	b      []byte
	failAt int64
}

func (r *failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > r.failAt {
		return 0, io.ErrClosedPipe
	}
	return copy(p, r.b[off:]), nil
}

// TestReadSummary checks the summary-only path against NewFile on corpus
// packages, versioned and unversioned.
func TestReadSummary(t *testing.T) {
	root := corpus.Dir(t)
	for _, rel := range []string{
		"uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/Materials/M_BiomeDebug.uasset",
		"uncooked/EdwardDuduLiu+2_FPS_UE4.27/Content/ExampleContent/Effects/Textures/T_Smoke_Tiled_D.uasset",
		"uassetapi/TestManyAssets/Palworld/BP_InteractableBox.uasset",
		"uassetapi/TestManyAssets/LiesOfP/ItemInfo.uasset",
	} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		s, v, err := ReadSummary(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		f, err := openCorpus(t, filepath.Join(root, rel), "")
		if err != nil {
			t.Fatal(err)
		}
		if s.NameCount != f.Summary.NameCount || s.ExportOffset != f.Summary.ExportOffset || s.TotalHeaderSize != f.Summary.TotalHeaderSize {
			t.Errorf("%s: summary differs from NewFile's", rel)
		}
		if v.UE4 != f.Versions.UE4 {
			t.Errorf("%s: versions %+v, NewFile read with %+v", rel, v, f.Versions)
		}
	}
}

// TestEngineForVersions names the release of a versioned package without a
// saved-by version from its object versions, import layout and custom
// versions.
func TestEngineForVersions(t *testing.T) {
	fnm := func(v int32) []CustomVersion {
		return []CustomVersion{{Key: fortniteMainBranchObjectVersion, Version: v}}
	}
	for _, tc := range []struct {
		v     Versions
		want  string
		alike int
	}{
		{Versions{UE4: 522, UE5: 1013}, "5.5", 0},
		{Versions{UE4: 522, UE5: 1018}, "5.7", 0},
		{Versions{UE4: 522, UE5: 1018, CookedImportPackageName: true}, "6.0", 2},
		{Versions{UE4: 522, UE5: 1018, CookedImportPackageName: true, Custom: fnm(268)}, "5.8", 0},
		{Versions{UE4: 522, UE5: 1018, CookedImportPackageName: true, Custom: fnm(271)}, "6.0", 0},
		{Versions{UE4: 482}, "4.10", 2},
		{Versions{UE4: 517}, "4.23", 3},
	} {
		name, alike := engineForVersions(&tc.v)
		if name != tc.want || len(alike) != tc.alike {
			t.Errorf("%+v: %s %v, want %s and %d alike", tc.v, name, alike, tc.want, tc.alike)
		}
	}
}

// TestImportSize checks the import entry sizes the 5.8 layout detection
// relies on.
func TestImportSize(t *testing.T) {
	for _, tc := range []struct {
		v      Versions
		editor bool
		want   int64
	}{
		{Versions{UE4: 519}, true, 28},
		{Versions{UE4: 522}, true, 36},
		{Versions{UE4: 522}, false, 28},
		{Versions{UE4: 522, UE5: 1018}, false, 32},
		{Versions{UE4: 522, UE5: 1018, CookedImportPackageName: true}, false, 40},
		{Versions{UE4: 522, UE5: 1018}, true, 40},
	} {
		if got := importSize(&tc.v, tc.editor); got != tc.want {
			t.Errorf("%+v editor %v: %d, want %d", tc.v, tc.editor, got, tc.want)
		}
		// The serializer writes exactly that many bytes.
		sv := newSaver(nil, 0)
		var im ObjectImport
		im.serialize(sv, importLayoutOf(&tc.v, tc.editor))
		if int64(sv.w.Len()) != tc.want {
			t.Errorf("%+v editor %v: serializer wrote %d bytes, want %d", tc.v, tc.editor, sv.w.Len(), tc.want)
		}
	}
}

// TestCutNotSplit: a cooked package that keeps its export data after its
// header (no .uexp), cut short, is told as such, not as a split package
// whose .uexp is missing; a split package's .uasset alone (the header and
// nothing after it) is the latter.
func TestCutNotSplit(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "uassetapi/TestManyAssets/Bloodstained/m01SIP_000_BG.umap"))
	if err != nil {
		t.Fatal(err)
	}
	b = b[:900000]
	f, err := NewFile(bytes.NewReader(b), int64(len(b)), WithEngine("4.18"))
	if err == nil || !strings.Contains(err.Error(), "outside the package data") || f != nil && f.MissingUexp() {
		t.Errorf("cut short: %v", err)
	}
	h, err := os.ReadFile(corpus.Path(t, "cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/PlayerPower_UI.uasset"))
	if err != nil {
		t.Fatal(err)
	}
	f, err = NewFile(bytes.NewReader(h), int64(len(h)))
	if err != nil || !f.MissingUexp() {
		t.Errorf("header alone: %v, missing .uexp %v", err, err == nil && f.MissingUexp())
	}
}

// TestUnreadableUexp: a .uexp that is there but cannot be read fails the
// package with the reason; only one that does not exist is missing.
func TestUnreadableUexp(t *testing.T) {
	h, err := os.ReadFile(corpus.Path(t, "cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/PlayerPower_UI.uasset"))
	if err != nil {
		t.Fatal(err)
	}
	denied := WithSibling(func(ext string) (io.ReaderAt, int64, error) {
		return nil, 0, &fs.PathError{Op: "open", Path: "PlayerPower_UI" + ext, Err: fs.ErrPermission}
	})
	if _, err := NewFile(bytes.NewReader(h), int64(len(h)), denied); err == nil || !strings.Contains(err.Error(), "PlayerPower_UI.uexp: permission denied") {
		t.Errorf("unreadable .uexp: %v", err)
	}
	missing := WithSibling(func(ext string) (io.ReaderAt, int64, error) {
		return nil, 0, &fs.PathError{Op: "open", Path: "PlayerPower_UI" + ext, Err: fs.ErrNotExist}
	})
	if f, err := NewFile(bytes.NewReader(h), int64(len(h)), missing); err != nil || !f.MissingUexp() {
		t.Errorf("missing .uexp: %v", err)
	}
}
