package inspect

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/uasset"
)

func TestMatchUasset(t *testing.T) {
	le := func(tag uint32, ver int32) []byte {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint32(b, tag)
		binary.LittleEndian.PutUint32(b[4:], uint32(ver))
		return b
	}
	be := func(ver int32) []byte {
		b := make([]byte, 16)
		binary.BigEndian.PutUint32(b, 0x9E2A83C1)
		binary.BigEndian.PutUint32(b[4:], uint32(ver))
		return b
	}
	for _, tc := range []struct {
		name string
		head []byte
		want bool
	}{
		{"ue4", le(0x9E2A83C1, -7), true},
		{"ue5", le(0x9E2A83C1, -9), true},
		{"big-endian ue4", be(-7), true},
		{"ue3", le(0x9E2A83C1, 868), false},
		{"big-endian ue3", be(491), false},
		{"ace7", append([]byte("ACE7"), make([]byte, 12)...), true},
		{"zen", make([]byte, 16), false},
		{"short", []byte{0xC1, 0x83, 0x2A, 0x9E}, false},
	} {
		if got := matchUasset(tc.head, "x.uasset"); got != tc.want {
			t.Errorf("%s: match = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestGuessPackagePath(t *testing.T) {
	for in, want := range map[string]string{
		"/p/MyGame/Content/Maps/Level1.umap":                    "/Game/Maps/Level1",
		"C:/p/MyGame/Plugins/Foo/Content/Bar/Baz.uasset":        "/Foo/Bar/Baz",
		"/p/Saved/Cooked/Windows/Engine/Content/Fonts/R.uasset": "/Engine/Fonts/R",
		"/tmp/Loose.uasset":                                     "",
		"Game.utoc::/Game/Maps/Level1.umap":                     "/Game/Maps/Level1",
	} {
		if got := guessPackagePath(in); got != want {
			t.Errorf("guessPackagePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOpenUasset opens a real package through the opener registry and
// checks the shared model.
func TestOpenUasset(t *testing.T) {
	p := corpus.Path(t, "uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/Materials/M_BiomeDebug.uasset")
	in, err := OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pkg, err := OpenPackage(in, &Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Format != "uasset" || pkg.Engine != "5.7" || pkg.EngineSource != "header" {
		t.Errorf("format/engine = %s/%s/%s", pkg.Format, pkg.Engine, pkg.EngineSource)
	}
	if pkg.HeaderRoundtrip == nil || !*pkg.HeaderRoundtrip {
		t.Error("header round trip not true")
	}
	if len(pkg.Names) != 107 || pkg.Names[0].Hash == "" {
		t.Errorf("names: %d, first hash %q", len(pkg.Names), pkg.Names[0].Hash)
	}
	var asset *Object
	for i := range pkg.Exports {
		if pkg.Exports[i].IsAsset {
			asset = &pkg.Exports[i]
		}
	}
	if asset == nil || asset.Class != "/Script/Engine.Material" || asset.Path != "/Game/WorldGen/Materials/M_BiomeDebug.M_BiomeDebug" {
		t.Errorf("asset export = %+v", asset)
	}
	named := 0
	for _, c := range pkg.CustomVersions {
		if c.Name != "" {
			named++
		}
	}
	if named != len(pkg.CustomVersions) || named == 0 {
		t.Errorf("%d of %d custom versions named", named, len(pkg.CustomVersions))
	}
	for _, s := range pkg.Sections {
		if s.Error != "" {
			t.Errorf("section %s: %s", s.Name, s.Error)
		}
	}
	if len(pkg.Thumbnails) != 1 {
		t.Fatalf("%d thumbnails", len(pkg.Thumbnails))
	}
	img, err := pkg.ThumbnailData(0)
	if err != nil || int64(len(img)) != pkg.Thumbnails[0].Size {
		t.Errorf("thumbnail: %d bytes, %v", len(img), err)
	}
	data, err := pkg.ExportData(0)
	if err != nil || int64(len(data)) != pkg.Exports[0].SerialSize {
		t.Errorf("export 0: %d bytes, %v", len(data), err)
	}
	if raw, err := pkg.Raw("names"); err != nil || len(raw) == 0 {
		t.Errorf("raw names: %d bytes, %v", len(raw), err)
	}
	b, err := json.Marshal(pkg.Dump)
	if err != nil || !strings.Contains(string(b), `"package_path":"/Game/WorldGen/Materials/M_BiomeDebug"`) {
		t.Errorf("dump: %v", err)
	}
	res := ResultFor(pkg)
	if !res.OK || res.HeaderRoundtrip == nil || !*res.HeaderRoundtrip {
		t.Errorf("verify result %+v", res)
	}
}

// TestUassetHooks checks that a hook added from another file runs and can
// fill the package, and that inference options from uassetOptions apply.
func TestUassetHooks(t *testing.T) {
	p := corpus.Path(t, "uassetapi/TestManyAssets/LiesOfP/ItemInfo.uasset")
	saveH, saveO := uassetHooks, uassetOptions
	defer func() { uassetHooks, uassetOptions = saveH, saveO }()
	uassetHooks = append(uassetHooks, func(f *uasset.File, pkg *Package, _ *Options) error {
		pkg.Props = func(i int) (any, error) { return f.NameString(f.Exports[i].ObjectName), nil }
		return nil
	})
	dropped := 0
	uassetOptions = append(uassetOptions, func(*Input, *Options) []uasset.Option {
		return []uasset.Option{uasset.WithCandidateCheck(func(f *uasset.File) error {
			if f.Versions.UE4 != 522 {
				dropped++
				return errors.New("not 4.27")
			}
			return nil
		})}
	})
	in, err := OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pkg, err := OpenPackage(in, &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Props == nil {
		t.Fatal("hook did not run")
	}
	if v, _ := pkg.Props(0); v != pkg.Exports[0].Name {
		t.Errorf("props = %v", v)
	}
	if dropped == 0 || pkg.EngineSource != "detected" {
		t.Errorf("candidate check: dropped %d, source %s", dropped, pkg.EngineSource)
	}
	for _, c := range pkg.EngineCandidates {
		if !strings.HasPrefix(c, "4.27") && c != "5.0EA" {
			t.Errorf("candidate %s survived the check", c)
		}
	}
}

// TestPackagePathRecorded checks that the package name a file records wins
// over the one its location suggests, and that a guess is reported as one.
func TestPackagePathRecorded(t *testing.T) {
	p := corpus.Path(t, "uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/BP_WorldChunk.uasset")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Dropped without its folders, or moved to another Content folder.
	for _, name := range []string{"BP_WorldChunk.uasset", "/x/Content/BP_WorldChunk.uasset", "/Game/BP_WorldChunk.uasset"} {
		pkg, err := OpenPackage(BytesInput(name, map[string][]byte{name: b}), &Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := pkg.Exports[0].Path; got != "/Game/WorldGen/BP_WorldChunk.BP_WorldChunk" {
			t.Errorf("%s: export path %s", name, got)
		}
		if len(pkg.Warnings) != 0 {
			t.Errorf("%s: warnings %v", name, pkg.Warnings)
		}
	}

	// A cooked UE5 EA package records no name: the file name is used, and
	// said to be a guess.
	c := corpus.Path(t, "cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/PlayerPower_UI.uasset")
	hdr, err := os.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	uexp, err := os.ReadFile(strings.TrimSuffix(c, ".uasset") + ".uexp")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := OpenPackage(BytesInput("PlayerPower_UI.uasset", map[string][]byte{"PlayerPower_UI.uasset": hdr, "PlayerPower_UI.uexp": uexp}), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Warnings) != 1 || !strings.Contains(pkg.Warnings[0], "/Game/PlayerPower_UI guessed from the file name") {
		t.Errorf("warnings %v", pkg.Warnings)
	}
}

// TestResultOnlyUasset checks that verify's lean model of a UE4/UE5 package
// (Options.resultOnly) gives the result line the full model gives: for every
// loose package of the corpus, and for every cut of a few of them, where
// sections fail to read.
func TestResultOnlyUasset(t *testing.T) {
	sectionErrs := 0 // lean models that list sections: one failed to read
	same := func(t *testing.T, label string, open func(opts *Options) (*Package, error)) {
		t.Helper()
		full, ferr := open(&Options{Verify: true, AESKey: corpusKeys})
		lean, lerr := open(&Options{Verify: true, AESKey: corpusKeys, resultOnly: true})
		if (ferr == nil) != (lerr == nil) || ferr != nil && ferr.Error() != lerr.Error() {
			t.Fatalf("%s: errors differ: %v / %v", label, ferr, lerr)
		}
		if ferr != nil {
			return
		}
		a, b := ResultFor(full), ResultFor(lean)
		if lean.Sections != nil {
			sectionErrs++
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("%s: results differ:\nfull %s\nlean %s", label, ja, jb)
		}
	}
	var files []string
	for _, dir := range []string{"uncooked", "cooked", "uassetapi"} {
		files = append(files, corpus.Files(t, dir, ".uasset", ".umap")...)
	}
	for _, p := range files {
		same(t, p, func(opts *Options) (*Package, error) {
			in, err := OpenInput(p, opts)
			if err != nil {
				return nil, err
			}
			if in.Close != nil {
				defer in.Close()
			}
			return OpenPackage(in, opts)
		})
	}
	for _, rel := range []string{
		"uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Input/Actions/IA_MoveCamera.uasset",
		"uncooked/xiaoheige+VRTemplateUE426/Content/VirtualRealityBP/Blueprints/MotionControllerHaptics.uasset",
	} {
		data, err := os.ReadFile(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(data); n += 7 {
			same(t, rel, func(opts *Options) (*Package, error) {
				return OpenPackage(BytesInput("a.uasset", map[string][]byte{"a.uasset": data[:n]}), opts)
			})
		}
	}
	if sectionErrs == 0 {
		t.Error("no package with a section that failed to read: the cuts test nothing")
	}
	t.Logf("%d packages with sections that failed to read", sectionErrs)
}
