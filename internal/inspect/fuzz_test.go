package inspect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// fuzzNames are the names FuzzVerifyBytes gives its input, by its kind
// byte: a UE4/UE5 package (loose, or cooked with a .uexp), a zen package
// and UE1–UE3 packages, so that each family's verify path is reached.
var fuzzNames = []string{"Fuzz.uasset", "Fuzz.umap", "Fuzz.upk", "Fuzz.u", "Fuzz.xxx", "Fuzz.pcc"}

// fuzzSeeds are small real packages of every family verify reads from a
// single file: uncooked and cooked UE4/UE5 (the cooked one split from its
// .uexp where the .uasset ends), zen packages of 4.27 and 5.x, and
// UE1–UE3 packages, plain and compressed.
var fuzzSeeds = []string{
	"uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Input/Actions/IA_MoveCamera.uasset",
	"cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/BatteryMan_GameMode_BP.uasset",
	"cooked/trumank+retoc/retoc/tests/UE4.27/BP_SpicyChoppingDamage.uasset",
	"cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uasset",
	"legacy_ue123/nrempel+ut-server/Textures/BluffFX.utx",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE1/BioGame/CookedPCConsole/Core.pcc",
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
			path := filepath.Join(dir, filepath.FromSlash(rel))
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatalf("seed %s: %v", rel, err)
			}
			split := uint32(len(data))
			if uexp, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".uexp"); err == nil {
				data = append(data, uexp...)
			}
			kind := uint8(0)
			switch filepath.Ext(path) {
			case ".utx":
				kind = 3
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
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p, err := inspect.OpenPackage(inspect.BytesInput(name, files), &inspect.Options{Verify: true})
		if err == nil {
			r := inspect.ResultFor(p)
			if _, err := json.Marshal(r); err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(16*len(data)+allocSlack) {
			t.Fatalf("%d input bytes allocated %d bytes", len(data), grew)
		}
	})
}
