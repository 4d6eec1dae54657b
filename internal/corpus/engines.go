package corpus

import (
	"path/filepath"
	"strings"
)

// engines is the corpus README's table of engine versions for the folders
// whose packages are unversioned (cooked), plus the retoc and
// unrealmodding samples whose notes name their engine.
var engines = []struct{ prefix, engine string }{
	{"uassetapi/TestManyAssets/Biodigital/", "4.14"},
	{"uassetapi/TestManyAssets/SnakePass/", "4.14"},
	{"uassetapi/TestManyAssets/Tekken/", "4.14"},
	{"uassetapi/TestManyAssets/MidAir/", "4.17"},
	{"uassetapi/TestManyAssets/MutantYearZero/", "4.17"},
	{"uassetapi/TestManyAssets/Bloodstained/", "4.18"},
	{"uassetapi/TestManyAssets/BurningDaylight/", "4.18"},
	{"uassetapi/TestManyAssets/CodeVein/", "4.18"},
	{"uassetapi/TestManyAssets/Liminal/", "4.18"},
	{"uassetapi/TestManyAssets/ToTheCore/", "4.18"},
	{"uassetapi/TestManyAssets/TheBeastInside/", "4.19"},
	{"uassetapi/TestManyAssets/TheOccupation/", "4.19"},
	{"uassetapi/TestManyAssets/Astroneer/", "4.23"},
	{"uassetapi/TestManyAssets/StarlitSeason/", "4.24"},
	{"uassetapi/TestManyAssets/MISC_426/", "4.26"},
	{"uassetapi/TestManyAssets/LiesOfP/", "4.27"},
	{"uassetapi/TestManyAssets/Palia/", "5.1"},
	{"uassetapi/TestManyAssets/F1Manager2023/", "5.1"},
	{"uassetapi/TestManyAssets/Palworld/", "5.1"},
	{"uassetapi/TestManyAssets/Clay/", "5.1"},
	{"uassetapi/TestMaterials/M_COM_DetailMaster_B/", "4.18"},
	{"uassetapi/TestMaterials/as_mt_base/", "4.20"},
	{"uassetapi/TestCustomProperty/", "4.23"},
	{"uassetapi/TestCustomSerializationStructsInMap/", "4.25"},
	{"uassetapi/TestImproperNameMapHashes/", "4.25"},
	{"uassetapi/TestDuplicateNameMapEntries/", "4.25"},
	{"uassetapi/TestUnknownProperties/", "4.25"},
	{"uassetapi/TestACE7/", "4.18"},
	{"uassetapi/TestUE5_1/", "5.1"},
	{"uassetapi/TestUE5_3/", "5.3"},
	{"uassetapi/TestUE5_4/", "5.4"},
	{"uassetapi/TestUE5_5/", "5.5"},
	{"uassetapi/TestUE5_7/", "5.7"},
	{"cooked/trumank+retoc/retoc/tests/UE4.27/", "4.27"},
	{"cooked/trumank+retoc/retoc/tests/UE5.4/", "5.4"},
	{"cooked/trumank+retoc/retoc/tests/UE5.5/", "5.5"},
	// The 4.27 handler's LevelTemplate.umap is the 4.23 cook: its
	// persistent_actors.rs reads it as VER_UE4_23 ("don't update unless
	// LEVEL_TEMPLATE_ASSET has been recooked ... I haven't recooked this
	// for 4.27 yet").
	{"cooked/AstroTechies+unrealmodding/unreal_mod_integrator/src/handlers/ue4_27/", "4.23"},
}

// Engine returns the engine version the corpus README gives for a package
// path relative to the corpus ("uassetapi/TestUE5_3/..."), or "" when the
// package is versioned or the README gives none.
func Engine(rel string) string {
	rel = filepath.ToSlash(rel)
	for _, e := range engines {
		if strings.HasPrefix(rel, e.prefix) {
			return e.engine
		}
	}
	return ""
}
