package legacy

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// headerTests lists expected summary values across the versions in the
// corpus (legacy_ue123).
var headerTests = []struct {
	rel                     string
	ver, lic                uint16
	flags                   uint32
	names, imports, exports int
	guid                    string
	bigEndian               bool
	wrapper, game           string
	generations             int
}{
	{"lmudgett+zen_unreal/src/UnrealI/Textures/FireEffect60.utx", 44, 0, 0x0, 32, 2, 1, "D696CEC611D1B4DB4F003B8DED2A004C", false, "", "", 0},
	{"lmudgett+zen_unreal/content/Music/Guardian.umx", 61, 0, 0x1, 8, 2, 1, "1942A46B11D1ED664544A4BF00005453", false, "", "", 0},
	{"nrempel+ut-server/Textures/Faces.utx", 63, 0, 0x1, 55, 3, 36, "21A82F0011D2C8E24F006B8CDE9A0349", false, "", "", 0},
	{"elsheepo+ut99server/Maps/DM-Pyramid.unr", 68, 0, 0x1, 715, 111, 466, "37A97A0211D3818AE0006BA2D2321081", false, "", "", 1},
	{"nrempel+ut-server/System/Core.u", 69, 0, 0x1, 332, 16, 674, "4770B88411D38E3E100067B9F6F8975A", false, "", "", 11},
	{"lmudgett+zen_unreal/System/Core.u", 100, 0, 0x1, 236, 16, 458, "0DAFD82B4E43C8C4E14939AD4CB2FF6D", false, "", "", 0},
	{"HeffersonMan+UT2004/StaticMeshes/forest.usx", 121, 29, 0x1, 15, 7, 2, "0E05ABA74CDD8831B992DEBD34C15AE8", false, "", "", 1},
	{"iBlackair+Interface/System/Core.u", 123, 0, 0x1, 426, 17, 852, "938A0FA6477255B3397116BEF002BBE2", false, "", "", 1},
	{"iBlackair+Interface/Textures/L2UI_edKith.utx", 126, 0, 0x1, 56, 4, 34, "85AF1F8945E0D4A613328DAAEDDFF71A", false, "Lineage2Ver121 (XOR 0xE3)", "", 1},
	{"HeffersonMan+UT2004/System/Core.u", 128, 29, 0x20, 509, 18, 861, "1A7E493D4127EB5494CCAFA3110DF855", false, "", "", 64},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME1/BIOA_END70_00_ART.xxx", 391, 92, 0x28A0009, 209, 41, 3037, "4BAE095B41BA5B099C82619DF393AAA1", true, "compressed chunks (LZO)", "Mass Effect", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME1/BioGame/CookedPC/Core.u", 491, 1008, 0x2A80008, 743, 21, 1377, "09777B774F45EE5DBE5B1D8E3727F6A9", false, "compressed chunks (LZO)", "Mass Effect", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME2/BioGame/CookedPC/GameFramework.pcc", 512, 130, 0x2A80008, 234, 95, 149, "999A3E03400DA6657A216FA91B513FDC", false, "compressed chunks (LZO)", "Mass Effect 2", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME3/BIOGame/CookedPCConsole/entry.pcc", 684, 194, 0xA28A0009, 106, 33, 59, "CDD028714ADF95DD028DBD97AE93BDA2", false, "compressed chunks (Zlib)", "Mass Effect 3", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PS3/ME2/SFXTEST.XXX", 684, 150, 0xA4A80009, 277, 39, 102, "D545AA9C485AB3471EF9B4AD7BA1995A", true, "fully compressed (LZMA)", "Mass Effect 2 (PS3)", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/WiiU/ME3/BioD_CitHub_VolusPlot.xxx", 845, 194, 0xA28A0009, 758, 111, 195, "1242E507475EB66EAB94608A174BB57A", true, "compressed chunks (LZMA)", "Mass Effect 3", 1},
	{"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME3/biod_nor.xxx", 684, 194, 0xA28A0009, 1447, 325, 1087, "C2DE827B47800C51ED96F29247E0966A", true, "compressed chunks (LZX)", "Mass Effect 3", 1},
	{"RossM+XCOM2ShadowOps/Content/Perk_ShadowOps_ShieldProtocol.upk", 845, 108, 0x20000001, 57, 12, 4, "3D376E9F45F111457393A89902EE70E6", false, "", "", 1},
	{"provokingastorm+Tarp/UDKGame/Script/Core.u", 820, 0, 0x600001, 800, 20, 1506, "8D5933944FE711F66DDD32ABD87C0C5B", false, "", "", 1},
	{"EliotVU+Unreal-Library/Test/upk/TestUC3/TestUC3.u", 868, 0, 0x200001, 127, 36, 143, "BCFA3FC7445846CE72235EA1E80765A3", false, "", "", 1},
	{"Martinii89+RL-UPKSuite/Core.Test/TestData/RocketPass_Premium_T_SF_decrypted.upk", 868, 32, 0x288028D, 13, 6, 4, "91FF2BD14173A6DFC8B7DDB85AEE7C0D", false, "", "Rocket League", 2},
}

func TestHeaders(t *testing.T) {
	dir := corpus.Path(t, "legacy_ue123")
	for _, tt := range headerTests {
		t.Run(filepath.Base(tt.rel), func(t *testing.T) {
			f, err := Open(filepath.Join(dir, tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s := f.Summary
			have := []any{s.FileVersion, s.LicenseeVersion, s.PackageFlags, len(f.Names), len(f.Imports), len(f.Exports), s.Guid.String(), f.BigEndian, f.Wrapper, f.Game, len(s.Generations)}
			want := []any{tt.ver, tt.lic, tt.flags, tt.names, tt.imports, tt.exports, tt.guid, tt.bigEndian, tt.wrapper, tt.game, tt.generations}
			for i := range have {
				if have[i] != want[i] {
					t.Errorf("have %#v\nwant %#v", have, want)
					break
				}
			}
		})
	}
}

// expectedFailures are the corpus files that cannot be read, with the text
// their error must contain (naming the scheme or the missing decoder).
var expectedFailures = map[string]string{
	"RocketPass_Premium_T_SF.upk":    "Rocket League AES-256-ECB",
	"UELibTest/TestData/AkAudio.upk": "Rocket League AES-256-ECB",
}

func expectedFailure(p string) (string, bool) {
	for k, v := range expectedFailures {
		if strings.HasSuffix(filepath.ToSlash(p), k) {
			return v, true
		}
	}
	return "", false
}

// TestCorpus opens every file of legacy_ue123: header, names, imports and
// exports must read and every reference resolve to a full path; the files
// that cannot be read must fail with an error naming why. Properties of
// UE1/UE2 exports must decode to the terminator for at least 98%.
func TestCorpus(t *testing.T) {
	files := corpus.Files(t, "legacy_ue123")
	var read, failedAsExpected int
	var props12, ok12, props3, ok3, classes int
	for _, p := range files {
		f, err := Open(p)
		if want, ok := expectedFailure(p); ok {
			if err == nil {
				t.Errorf("%s: read, but expected a %q error", p, want)
				f.Close()
				continue
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not name %q", p, err, want)
			}
			var ee *EncryptedError
			var ue *UnsupportedError
			if !errors.As(err, &ee) && !errors.As(err, &ue) {
				t.Errorf("%s: error %v is neither EncryptedError nor UnsupportedError", p, err)
			}
			failedAsExpected++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		read++
		for i, im := range f.Imports {
			if path := f.ImportPath(i); path == "" || !strings.HasSuffix(path, im.ObjectName) {
				t.Errorf("%s: import %d path %q", p, i, path)
			}
		}
		for i, e := range f.Exports {
			path := f.ExportPath(i)
			if !strings.HasPrefix(path, f.PackageName+".") || !strings.HasSuffix(path, e.ObjectName) {
				t.Errorf("%s: export %d path %q", p, i, path)
			}
			if f.ClassPath(i) == "" {
				t.Errorf("%s: export %d has no class path", p, i)
			}
			_, err := f.Object(i)
			switch {
			case errors.Is(err, ErrNoProperties):
				classes++
				continue
			case f.Summary.FileVersion < verUE3:
				props12++
				if err == nil {
					ok12++
				}
			default:
				props3++
				if err == nil {
					ok3++
				}
			}
			if err != nil {
				t.Logf("%s: %v", p, err)
			}
		}
		f.Close()
	}
	t.Logf("%d files: %d read, %d failed as expected; properties UE1/UE2 %d/%d, UE3 %d/%d; %d class exports without a leading list",
		len(files), read, failedAsExpected, ok12, props12, ok3, props3, classes)
	if read+failedAsExpected != len(files) {
		t.Errorf("%d of %d files accounted for", read+failedAsExpected, len(files))
	}
	if props12 == 0 || float64(ok12) < 0.98*float64(props12) {
		t.Errorf("UE1/UE2 properties: %d of %d decode, want >= 98%%", ok12, props12)
	}
	if float64(ok3) < 0.98*float64(props3) {
		t.Errorf("UE3 properties: %d of %d decode, want >= 98%%", ok3, props3)
	}
}

// TestTexturesPNG exports every Texture of the UE1/UE2 .utx files to PNG
// and checks the decoded size against the mip header and the USize/VSize
// properties. Textures whose file holds no pixels (procedural Fire/Water
// textures, server-stripped packages) must say so with ErrNoPixels.
func TestTexturesPNG(t *testing.T) {
	var ok, noPixels int
	for _, p := range corpus.Files(t, "legacy_ue123", ".utx") {
		f, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for i := range f.Exports {
			if f.ContentKind(i) != "texture" {
				continue
			}
			tex, err := f.Texture(i)
			if err != nil {
				t.Errorf("%s: %s: %v", p, f.ExportPath(i), err)
				continue
			}
			c, err := f.ExportContent(i)
			if errors.Is(err, ErrNoPixels) {
				noPixels++
				continue
			}
			if err != nil {
				t.Errorf("%s: %s: %v", p, f.ExportPath(i), err)
				continue
			}
			img, err := png.Decode(bytes.NewReader(c.Data))
			if err != nil {
				t.Errorf("%s: %s: PNG does not decode: %v", p, f.ExportPath(i), err)
				continue
			}
			w, h := img.Bounds().Dx(), img.Bounds().Dy()
			if w != tex.Mips[0].Width || h != tex.Mips[0].Height {
				t.Errorf("%s: %s: PNG %dx%d, mip header %dx%d", p, f.ExportPath(i), w, h, tex.Mips[0].Width, tex.Mips[0].Height)
			}
			if (tex.USize != 0 && tex.USize != w) || (tex.VSize != 0 && tex.VSize != h) {
				t.Errorf("%s: %s: PNG %dx%d, USize/VSize %dx%d", p, f.ExportPath(i), w, h, tex.USize, tex.VSize)
			}
			ok++
		}
		f.Close()
	}
	t.Logf("%d textures exported to PNG with matching size; %d store no pixels", ok, noPixels)
	if ok == 0 {
		t.Error("no texture exported")
	}
}

// TestContent exports sounds, music and script text of the corpus.
func TestContent(t *testing.T) {
	counts := map[string]int{}
	for _, p := range corpus.Files(t, "legacy_ue123", ".uax", ".umx", ".u", ".upk") {
		if _, bad := expectedFailure(p); bad {
			continue
		}
		f, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for i := range f.Exports {
			kind := f.ContentKind(i)
			if kind == "" || kind == "texture" {
				continue
			}
			c, err := f.ExportContent(i)
			if err != nil {
				t.Errorf("%s: %s: %v", p, f.ExportPath(i), err)
				continue
			}
			counts[c.Kind]++
			if c.Kind == "sound" && len(c.Data) > 0 && !strings.HasSuffix(c.Name, ".wav") && !strings.HasSuffix(c.Name, ".ogg") {
				t.Errorf("%s: %s: sound exported as %s", p, f.ExportPath(i), c.Name)
			}
		}
		f.Close()
	}
	t.Logf("content: %v", counts)
	if counts["sound"] == 0 || counts["music"] == 0 || counts["script"] == 0 {
		t.Errorf("missing content kinds: %v", counts)
	}
}

// truncationFiles are small real files of each generation and wrapper.
var truncationFiles = []string{
	"nrempel+ut-server/Music/Run.umx",
	"lmudgett+zen_unreal/src/UnrealI/Textures/FireEffect60.utx",
	"HeffersonMan+UT2004/StaticMeshes/forest.usx",
	"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME2/BioGame/CookedPC/PlotManagerMap.pcc",
	"Martinii89+RL-UPKSuite/Core.Test/TestData/UDK/UDKTestPackage.upk",
	"Martinii89+Unreal-Library/010-Stuff/Stars_UDK.upk", // a thumbnail table
	"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PS3/ME2/SFXTEST.XXX",
	"elsheepo+ut99server/System/NewNetSDOMv0_9.u",
}

// TestTruncation opens every prefix of a few real files: each must fail
// cleanly or read (a prefix can hold every table), never panic; objects of
// prefixes that read must decode or fail cleanly too.
func TestTruncation(t *testing.T) {
	dir := corpus.Path(t, "legacy_ue123")
	for _, rel := range truncationFiles {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/20000)
		for n := 0; n < len(b); n += step {
			f, err := NewFile(bytes.NewReader(b[:n]), int64(n))
			if err != nil {
				continue
			}
			for i := range f.Exports {
				f.Object(i)
				f.ExportContent(i)
			}
			thumbs, _ := f.Thumbnails()
			for _, th := range thumbs {
				f.ThumbnailData(th)
			}
		}
	}
}

// seedFiles adds the small corpus files to a fuzz target's corpus.
func seedFiles(f *testing.F, max int64) {
	dir, ok := corpus.Find()
	if !ok {
		return
	}
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Size() <= max {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
}

// slowInput is how long one fuzz input may take (well above the slowest
// real file).
const slowInput = 2 * time.Second

// FuzzTables parses whole packages (summary, wrappers, decompression, the
// three tables) and every object; any input must fail cleanly, and a
// package that reads must have every reference inside its tables.
func FuzzTables(f *testing.F) {
	f.Add(synthPackage(synthNames, []int32{-1}, [][]byte{synthProps()}))
	seedFiles(f, 64<<10)
	f.Fuzz(func(t *testing.T, b []byte) {
		alloctest.Check(t, len(b), func() {
			start := time.Now()
			defer func() {
				if d := time.Since(start); d > slowInput {
					t.Fatalf("input took %v", d)
				}
			}()
			pf, err := NewFile(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				return
			}
			for i := range pf.Exports {
				_ = pf.ExportPath(i)
				_ = pf.ClassPath(i)
				for _, ref := range []int32{pf.Exports[i].ClassIndex, pf.Exports[i].OuterIndex, pf.Exports[i].SuperIndex} {
					if !pf.validRef(ref) {
						t.Fatalf("export %d keeps reference %d outside the tables", i, ref)
					}
				}
				o, err := pf.Object(i)
				checkObjectAgrees(t, pf, i, o, err)
				pf.ExportContent(i)
			}
		})
	})
}

// FuzzProperties decodes arbitrary bytes as the data of an export of the
// synthetic package; a list that decodes must end inside the data.
func FuzzProperties(f *testing.F) {
	f.Add(synthProps())
	if dir, ok := corpus.Find(); ok {
		for _, rel := range []string{"nrempel+ut-server/Textures/Faces.utx", "nrempel+ut-server/System/IpDrv.u"} {
			pf, err := Open(filepath.Join(dir, "legacy_ue123", rel))
			if err != nil {
				continue
			}
			for i := range min(len(pf.Exports), 40) {
				if d, err := pf.Data(i); err == nil && len(d) < 4096 {
					f.Add(d)
				}
			}
			pf.Close()
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			pkg := synthPackage(synthNames, []int32{-1}, [][]byte{data})
			pf, err := NewFile(bytes.NewReader(pkg), int64(len(pkg)))
			if err != nil {
				if len(data) == 0 {
					return
				}
				t.Fatalf("synthetic package does not read: %v", err)
			}
			o, err := pf.Object(0)
			checkObjectAgrees(t, pf, 0, o, err)
			// The same package held in memory: export data is shared, not
			// copied.
			mf, merr := NewFile(binread.Mem(pkg), int64(len(pkg)))
			if merr != nil {
				t.Fatalf("in memory: %v", merr)
			}
			mo, merr := mf.Object(0)
			checkObjectAgrees(t, mf, 0, mo, merr)
			if (err == nil) != (merr == nil) || err == nil && len(o.Properties) != len(mo.Properties) {
				t.Fatalf("in memory the object decodes to %v, %v; from a reader %v, %v", mo, merr, o, err)
			}
			if err != nil {
				return
			}
			if o.PropertiesEnd > int64(len(data)) || o.NativeSize < 0 {
				t.Fatalf("properties end at %d of %d", o.PropertiesEnd, len(data))
			}
		})
	})
}

// TestCheckObject compares CheckObject with Object on every export of
// the corpus packages.
func TestCheckObject(t *testing.T) {
	n := 0
	for _, p := range corpus.Files(t, "legacy_ue123", ".u", ".upk", ".pcc", ".xxx", ".utx", ".uax", ".umx", ".unr", ".ut2", ".udk", ".sfm") {
		if _, bad := expectedFailure(p); bad {
			continue
		}
		f, err := Open(p)
		if err != nil {
			continue
		}
		for i := range f.Exports {
			o, err := f.Object(i)
			checkObjectAgrees(t, f, i, o, err)
			n++
		}
		f.Close()
	}
	t.Logf("%d exports", n)
}

// TestRelease opens the compressed packages of the corpus one after
// another, releasing each: a package built in a reused image reads the
// same as one built in fresh memory, and a released File fails cleanly.
func TestRelease(t *testing.T) {
	type result struct {
		size       int64
		nativeSums int64
		errs       string
	}
	read := func(f *File) result {
		r := result{size: f.Size()}
		for i := range f.Exports {
			n, err := f.CheckObject(i)
			r.nativeSums += n
			if err != nil {
				r.errs += err.Error() + "\n"
			}
		}
		return r
	}
	var files []string
	for _, p := range corpus.Files(t, "legacy_ue123", ".pcc", ".xxx", ".u", ".sfm") {
		if _, bad := expectedFailure(p); !bad {
			files = append(files, p)
		}
	}
	// Nothing is released yet: these images are fresh memory.
	want := map[string]result{}
	datas := map[string][]byte{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := NewFile(bytes.NewReader(data), int64(len(data))); err == nil && f.pooled != nil {
			want[p], datas[p] = read(f), data
		}
	}
	// Largest images first, so that later ones reuse their memory.
	slices.Reverse(files)
	released := 0
	for _, p := range files {
		data, ok := datas[p]
		if !ok {
			continue
		}
		f, err := NewFile(binread.Mem(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got := read(f); got != want[p] {
			t.Errorf("%s: after reusing an image: %+v, fresh %+v", p, got, want[p])
		}
		f.Release()
		released++
		if len(f.Exports) > 0 {
			if _, err := f.Object(0); err == nil {
				t.Errorf("%s: Object(0) of a released File: no error", p)
			}
		}
		if _, err := f.ReadAt(make([]byte, 1), 0); err == nil {
			t.Errorf("%s: ReadAt of a released File: no error", p)
		}
	}
	if released == 0 {
		t.Skip("no compressed packages in the corpus")
	}
}

// checkObjectAgrees checks that CheckObject reports what Object did.
func checkObjectAgrees(t *testing.T, f *File, i int, o *Object, err error) {
	t.Helper()
	n, cerr := f.CheckObject(i)
	switch {
	case (err == nil) != (cerr == nil):
		t.Fatalf("export %d: Object says %v, CheckObject %v", i, err, cerr)
	case err != nil && err.Error() != cerr.Error():
		t.Fatalf("export %d: Object says %q, CheckObject %q", i, err, cerr)
	case err == nil && o.NativeSize != n:
		t.Fatalf("export %d: Object leaves %d native bytes, CheckObject %d", i, o.NativeSize, n)
	}
}

// BenchmarkCorpus reads every readable package of legacy_ue123 (tables
// and all properties) and reports packages/s and MB/s.
func BenchmarkCorpus(b *testing.B) {
	dir, ok := corpus.Find()
	if !ok {
		b.Skip("corpus not found")
	}
	var datas [][]byte
	var total int64
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if _, bad := expectedFailure(p); !bad {
				d, _ := os.ReadFile(p)
				datas = append(datas, d)
				total += int64(len(d))
			}
		}
		return nil
	})
	b.SetBytes(total)
	b.ResetTimer()
	for range b.N {
		for _, d := range datas {
			f, err := NewFile(bytes.NewReader(d), int64(len(d)))
			if err != nil {
				b.Fatal(err)
			}
			for i := range f.Exports {
				f.Object(i)
			}
		}
	}
	b.ReportMetric(float64(len(datas)*b.N)/b.Elapsed().Seconds(), "packages/s")
}

// BenchmarkTables measures the cheap path: summary and tables only.
func BenchmarkTables(b *testing.B) {
	dir, ok := corpus.Find()
	if !ok {
		b.Skip("corpus not found")
	}
	var datas [][]byte
	var total int64
	filepath.Walk(filepath.Join(dir, "legacy_ue123"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if _, bad := expectedFailure(p); !bad {
				d, _ := os.ReadFile(p)
				datas = append(datas, d)
				total += int64(len(d))
			}
		}
		return nil
	})
	b.SetBytes(total)
	b.ResetTimer()
	for range b.N {
		for _, d := range datas {
			if _, err := NewFile(bytes.NewReader(d), int64(len(d))); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(datas)*b.N)/b.Elapsed().Seconds(), "packages/s")
}

// TestTexture2D exports the UE3 textures of the corpus: every one becomes
// a PNG of its largest stored mip, or fails as unsupported (console
// layouts, pixel formats without a decoder) or as having no pixels.
func TestTexture2D(t *testing.T) {
	var ok, unsupported, noPixels int
	for _, p := range corpus.Files(t, "legacy_ue123", ".upk", ".udk", ".pcc", ".xxx", ".u") {
		if _, bad := expectedFailure(p); bad {
			continue
		}
		f, err := Open(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !f.ue3() {
			f.Close()
			continue
		}
		for i := range f.Exports {
			if f.ContentKind(i) != "texture" {
				continue
			}
			c, err := f.ExportContent(i)
			var ue *UnsupportedError
			switch {
			case errors.As(err, &ue):
				unsupported++
				continue
			case errors.Is(err, ErrNoPixels):
				noPixels++
				continue
			case err != nil:
				t.Errorf("%s: %s: %v", p, f.ExportPath(i), err)
				continue
			}
			img, err := png.Decode(bytes.NewReader(c.Data))
			if err != nil || img.Bounds().Dx() != c.Width || img.Bounds().Dy() != c.Height {
				t.Errorf("%s: %s: PNG %v, %v", p, f.ExportPath(i), img.Bounds(), err)
				continue
			}
			ok++
		}
		f.Close()
	}
	t.Logf("UE3 textures: %d PNG, %d unsupported, %d without pixels in the package", ok, unsupported, noPixels)
	if ok == 0 {
		t.Error("no UE3 texture exported")
	}
}

// TestClassDefaults checks default properties found after the script of
// UE1/UE2 classes against the values in the games' UnrealScript sources.
func TestClassDefaults(t *testing.T) {
	tests := []struct {
		rel, class, prop string
		want             any
	}{
		{"Deaod+UT99/System/Engine.u", "Engine.Actor", "RemoteRole", uint8(1)},
		{"Deaod+UT99/System/Engine.u", "Engine.Pawn", "GroundSpeed", float32(320)},
		{"Deaod+UT99/System/Engine.u", "Engine.Pawn", "WaterSpeed", float32(200)},
		{"nrempel+ut-server/System/IpDrv.u", "IpDrv.UdpBeacon", "ServerBeaconPort", int32(8777)},
		{"nrempel+ut-server/System/IpDrv.u", "IpDrv.UdpBeacon", "BeaconPort", int32(9777)},
	}
	for _, tt := range tests {
		t.Run(tt.class+"."+tt.prop, func(t *testing.T) {
			f, err := Open(corpus.Path(t, "legacy_ue123", tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for i := range f.Exports {
				if f.ExportPath(i) != tt.class {
					continue
				}
				o, err := f.Object(i)
				if err != nil {
					t.Fatal(err)
				}
				if !o.ClassDefaults {
					t.Fatal("not marked as class defaults")
				}
				p := o.Prop(tt.prop)
				if p == nil || p.Value != tt.want {
					t.Fatalf("%s = %+v, want %v", tt.prop, p, tt.want)
				}
				return
			}
			t.Fatal("class not found")
		})
	}
}

// TestPathIsNone compares pathIsNone with ObjectPath.
func TestPathIsNone(t *testing.T) {
	for _, pkg := range []string{"", "Pkg"} {
		f := &File{PackageName: pkg}
		f.Imports = []Import{{ObjectName: "None"}, {ObjectName: "None", PackageName: "Core"}, {ObjectName: "None", OuterIndex: -1}, {ObjectName: "X"}}
		f.Exports = []Export{{ObjectName: "None"}, {ObjectName: "None", OuterIndex: -4}, {ObjectName: "Y"}}
		for _, ref := range []int32{math.MinInt32, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, math.MaxInt32} {
			if got, want := f.pathIsNone(ref), f.ObjectPath(ref) == "None"; got != want {
				t.Errorf("package %q, ref %d: pathIsNone %v, ObjectPath %q", pkg, ref, got, f.ObjectPath(ref))
			}
		}
	}
}

// TestMassEffectConsoleStrings reads the UTF-16 strings of Mass Effect's
// big-endian console packages, which keep their code units little-endian:
// the summary's FolderName, names, and string property values.
func TestMassEffectConsoleStrings(t *testing.T) {
	const dir = "ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/"
	tests := []struct {
		rel       string
		firstName string
		strs      []string // string property values that must be among the package's
	}{
		{"Xenon/ME1/BIOA_END70_00_ART.xxx", "", nil},
		{"PS3/ME2/SFXTEST.XXX", "", nil},
		{"WiiU/ME3/BioD_CitHub_VolusPlot.xxx", "2PolySquarePlane_BottomAxis", nil},
		{"Xenon/ME3/biod_nor.xxx", "", []string{"GUI_Codex_Images.Fortification_512", "Current_Deck", "GAW_Mission_Count", "Mission_Count"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.rel), func(t *testing.T) {
			f, err := Open(corpus.Path(t, "legacy_ue123", dir+tt.rel))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if !f.BigEndian {
				t.Fatal("not read as big-endian")
			}
			if f.Summary.FolderName != "None" {
				t.Errorf("FolderName = %q, want None", f.Summary.FolderName)
			}
			if tt.firstName != "" && f.Names[0].Name != tt.firstName {
				t.Errorf("name 0 = %q, want %q", f.Names[0].Name, tt.firstName)
			}
			seen := map[string]bool{}
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					seen[v] = true
					for _, c := range v {
						if c >= 0x100 && c <= 0xFFFF && c&0xFF == 0 {
							t.Errorf("string %q looks byte-swapped", v)
							return
						}
					}
				case []any:
					for _, e := range v {
						walk(e)
					}
				case map[string]any:
					for _, e := range v {
						walk(e)
					}
				}
			}
			for i := range f.Exports {
				o, err := f.Object(i)
				if err != nil {
					continue
				}
				b, err := json.Marshal(o.Properties)
				if err != nil {
					t.Fatal(err)
				}
				var v any
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				walk(v)
			}
			for _, s := range tt.strs {
				if !seen[s] {
					t.Errorf("no string property value %q", s)
				}
			}
		})
	}
}

// TestXbox360SmallTexture: an Xbox 360 texture with a side of 16 pixels or
// less sits inside its tile at an offset (a 256×1 gradient 16 rows down):
// read from the tile's corner it came out fully transparent black.
func TestXbox360SmallTexture(t *testing.T) {
	img := exportedPNG(t, "ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME3/biod_nor.xxx", "Mail_G1")
	if img.Bounds().Dx() != 256 || img.Bounds().Dy() != 1 {
		t.Fatalf("PNG %v", img.Bounds())
	}
	for _, want := range []struct{ x, r, a int }{{0, 227, 255}, {128, 82, 140}, {255, 7, 26}} {
		r, _, _, a := img.At(want.x, 0).RGBA()
		if int(r>>8) != want.r || int(a>>8) != want.a {
			t.Errorf("pixel %d: red %d alpha %d, want %d and %d", want.x, r>>8, a>>8, want.r, want.a)
		}
	}
}

// exportedPNG decodes the PNG the export named name of the corpus package
// rel converts to.
func exportedPNG(t *testing.T, rel, name string) image.Image {
	t.Helper()
	f, err := Open(corpus.Path(t, "legacy_ue123", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range f.Exports {
		if f.Exports[i].ObjectName != name {
			continue
		}
		c, err := f.ExportContent(i)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(c.Data))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Fatalf("no export %s", name)
	return nil
}

// TestV8U8NormalZ: a two-channel V8U8 normal map gets the Z that completes
// each unit normal in blue (it was 255 throughout).
func TestV8U8NormalZ(t *testing.T) {
	img := exportedPNG(t, "ME3Tweaks+LegendaryExplorer/Testing/testdata/textures/PC/ME3/TextureReferencer.pcc", "TestTexture")
	r, g, b, _ := img.At(0, 0).RGBA()
	if r>>8 != 122 || g>>8 != 108 || b>>8 != 253 {
		t.Errorf("pixel 0: %d %d %d, want 122 108 253", r>>8, g>>8, b>>8)
	}
}
