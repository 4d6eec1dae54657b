package inspect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// fuzzNames are the names FuzzVerifyBytes gives its input, by its kind
// byte: a UE4/UE5 package (loose, or cooked with a .uexp), a zen package
// and UE1–UE3 packages, so that each family's verify path is reached.
var fuzzNames = []string{"Fuzz.uasset", "Fuzz.umap", "Fuzz.upk", "Fuzz.u", "Fuzz.xxx", "Fuzz.pcc"}

// fuzzSeeds are small real packages of every family verify reads from a
// single file: uncooked and cooked UE4/UE5 (the cooked one split from its
// .uexp where the .uasset ends), a zen package, and UE1–UE3 packages,
// plain, fully compressed and in compressed chunks.
var fuzzSeeds = []string{
	"uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Input/Actions/IA_MoveCamera.uasset",
	"cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/BatteryMan_GameMode_BP.uasset",
	"cooked/trumank+retoc/retoc/tests/UE4.27/BP_SpicyChoppingDamage.uasset",
	"cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uasset",
	"legacy_ue123/nrempel+ut-server/Textures/BluffFX.utx",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE1/BioGame/CookedPCConsole/Core.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PS3/ME2/SFXTEST.XXX",                               // fully compressed, LZMA
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME2/BioGame/CookedPC/PlotManagerMap.pcc",        // chunks, LZO
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE1/BioGame/CookedPCConsole/PlotManagerMap.pcc", // chunks, Oodle
}

// FuzzVerifyBytes opens fuzzed bytes as a package with every check verify
// makes (header rewrite, engine inference with its export-data checks,
// properties of every export, UE1–UE3 object checks) and builds its result
// line. The input is the package file; split, when inside it, cuts a
// .uexp off its end. Whatever the bytes: no panic, a result that encodes
// as JSON, and no allocation beyond a multiple of the input.
func FuzzVerifyBytes(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, rel := range fuzzSeeds {
			path, data := seedFile(f, dir, rel)
			split := uint32(len(data))
			if uexp, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".uexp"); err == nil {
				data = append(data, uexp...)
			}
			kind := uint8(0)
			switch strings.ToLower(filepath.Ext(path)) {
			case ".utx":
				kind = 3
			case ".xxx":
				kind = 4
			case ".pcc":
				kind = 5
			}
			f.Add(kind, split, data)
		}
	}
	f.Add(uint8(2), uint32(0), []byte{0xC1, 0x83, 0x2A, 0x9E, 0x6C, 0x02, 0x00, 0x00})
	f.Add(uint8(0), uint32(0), []byte{0xC1, 0x83, 0x2A, 0x9E, 0xF9, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, kind uint8, split uint32, data []byte) {
		name := fuzzNames[int(kind)%len(fuzzNames)]
		files := map[string][]byte{name: data}
		if ext := filepath.Ext(name); int64(split) < int64(len(data)) && (ext == ".uasset" || ext == ".umap") {
			files[name] = data[:split]
			files[strings.TrimSuffix(name, filepath.Ext(name))+".uexp"] = data[split:]
		}
		alloctest.Check(t, len(data), func() {
			p, err := inspect.OpenPackage(inspect.BytesInput(name, files), &inspect.Options{Verify: true})
			if err == nil {
				r := inspect.ResultFor(p)
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("result does not encode: %v", err)
				}
			}
		})
	})
}

// containerSeeds are small real containers: a pak with packages inside, a
// pak with compressed entries and an encrypted index, and two IoStore
// containers with packages inside (the .ucas follows the .utoc in the
// input).
var containerSeeds = []string{
	"pak/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/Pak/CUE4ParseFixtures-PatchBase.pak",
	"pak/trumank+repak/repak/tests/packs/pack_v7_compress_encryptindex.pak",
	"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/IoStore/CUE4ParseFixtures-PatchBase.utoc",
	"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Patch/IoStore/CUE4ParseFixtures-PatchBase_0_P.utoc",
}

// FuzzVerifyContainer writes fuzzed bytes as a container, a .pak (kind
// even) or a .utoc and its .ucas cut at split (kind odd), into a folder
// and verifies the folder as `upkg verify --aes-key` does, every package
// inside checked: with one worker, or (kind&2) with two, the idle one
// sharing the container's checks. Whatever the bytes: no panic (a
// recovered one would show as an "internal error" line), lines that encode
// as JSON, and no allocation beyond a multiple of the input.
func FuzzVerifyContainer(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, rel := range containerSeeds {
			path, data := seedFile(f, dir, rel)
			kind, split := uint8(0), uint32(len(data))
			if filepath.Ext(path) == ".utoc" {
				cas, err := os.ReadFile(strings.TrimSuffix(path, ".utoc") + ".ucas")
				if err != nil {
					f.Fatalf("seed %s: %v", rel, err)
				}
				kind, data = 1, append(data, cas...)
			}
			f.Add(kind, split, data)
			f.Add(kind|2, split, data)
		}
	}
	f.Add(uint8(0), uint32(0), []byte{0xE1, 0x12, 0x6F, 0x5A})
	f.Add(uint8(1), uint32(16), []byte("-==--==--==--==-"))
	f.Fuzz(func(t *testing.T, kind uint8, split uint32, data []byte) {
		dir := t.TempDir()
		files := map[string][]byte{"c.pak": data}
		if kind%2 == 1 {
			cut := min(int(split), len(data))
			files = map[string][]byte{"c.utoc": data[:cut], "c.ucas": data[cut:]}
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		alloctest.Check(t, len(data), func() {
			// Lines may come from another goroutine: Errorf, not Fatalf.
			workers := 1 + int(kind>>1&1)
			err := inspect.VerifyPaths([]string{dir}, &inspect.Options{AESKey: inspect.CorpusKeys}, workers, func(r inspect.VerifyResult) {
				if strings.Contains(r.Error, "internal error") {
					t.Errorf("%s: %s", r.Path, r.Error)
				}
				if _, err := json.Marshal(r); err != nil {
					t.Errorf("%s: result does not encode: %v", r.Path, err)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	})
}

// seedFile reads the corpus file rel (under dir) for a fuzz seed.
func seedFile(f *testing.F, dir, rel string) (path string, data []byte) {
	path = filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatalf("seed %s: %v", rel, err)
	}
	return path, data
}
