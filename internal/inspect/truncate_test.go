package inspect_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// sweepFiles are small real files of each package family. Each is cut at
// every length, and (for cooked packages) the .uexp beside it too.
var sweepFiles = []string{
	"uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Input/Actions/IA_MoveCamera.uasset",
	"uncooked/xiaoheige+VRTemplateUE426/Content/VirtualRealityBP/Blueprints/MotionControllerHaptics.uasset",
	"cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/BatteryMan_GameMode_BP.uasset",
	"cooked/trumank+retoc/retoc/tests/UE4.27/BP_SpicyChoppingDamage.uasset",
	"legacy_ue123/nrempel+ut-server/Textures/BluffFX.utx",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PS3/ME2/SFXTEST.XXX",                        // fully compressed (LZMA)
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/ME2/BioGame/CookedPC/PlotManagerMap.pcc", // compressed chunks (LZO)
}

// TestTruncationSweep opens every prefix of real files through the openers
// (with all verify checks on) and requires a clean failure each time: no
// panic, no outsized allocation, and an error (for the package or one of its
// sections) that says where.
func TestTruncationSweep(t *testing.T) {
	for _, rel := range sweepFiles {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			path := corpus.Path(t, filepath.FromSlash(rel))
			full, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(path)
			files := map[string][]byte{name: full}
			base := strings.TrimSuffix(name, filepath.Ext(name))
			uexp, err := os.ReadFile(strings.TrimSuffix(path, filepath.Ext(path)) + ".uexp")
			if err == nil {
				files[base+".uexp"] = uexp
			}
			opts := &inspect.Options{Verify: true}
			if _, err := inspect.OpenPackage(inspect.BytesInput(name, files), opts); err != nil {
				t.Fatalf("whole file: %v", err)
			}
			sweep := func(label string, key string, data []byte) {
				for n := 0; n < len(data); n++ {
					cut := map[string][]byte{}
					for k, v := range files {
						cut[k] = v
					}
					cut[key] = data[:n]
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					p, err := inspect.OpenPackage(inspect.BytesInput(name, cut), opts)
					if err == nil {
						// A section that cannot be read is an error for that
						// section; the package as a whole then fails verify.
						if r := inspect.ResultFor(p); !r.OK {
							err = errors.New(r.Error)
						}
					}
					runtime.ReadMemStats(&after)
					if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(alloctest.Ratio*len(full)+alloctest.Slack) {
						t.Errorf("%s cut at %d: allocated %d bytes", label, n, grew)
					}
					if err == nil {
						t.Errorf("%s cut at %d of %d: no error", label, n, len(data))
						continue
					}
					if n > 8 && !errors.Is(err, inspect.ErrUnknownFormat) && !strings.Contains(err.Error(), "0x") && !strings.Contains(err.Error(), "offset") {
						t.Errorf("%s cut at %d: error does not say where: %v", label, n, err)
					}
				}
			}
			sweep(name, name, full)
			if uexp != nil {
				sweep(base+".uexp", base+".uexp", uexp)
			}
		})
	}
}
