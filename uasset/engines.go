package uasset

import (
	"strings"

	"github.com/upkg/upkg/ue"
)

// Engine is an engine release and the object versions its packages carry.
type Engine struct {
	Name string // "4.27", "5.3"
	UE4  int32
	UE5  int32
	// Legacy is the LegacyFileVersion the release writes.
	Legacy int32
}

// engines lists the releases from the oldest to the newest, with the object
// versions each one shipped with (the last EUnrealEngineObjectUE4Version /
// UE5Version value in that release's ObjectVersion.h) and the legacy file
// version its summaries carry.
var engines = []Engine{
	{"4.0", 342, 0, -3}, {"4.1", 352, 0, -3}, {"4.2", 363, 0, -3}, {"4.3", 382, 0, -3},
	{"4.4", 385, 0, -3}, {"4.5", 401, 0, -3}, {"4.6", 413, 0, -5}, {"4.7", 434, 0, -5},
	{"4.8", 451, 0, -5}, {"4.9", 482, 0, -5}, {"4.10", 482, 0, -5}, {"4.11", 498, 0, -6},
	{"4.12", 504, 0, -6}, {"4.13", 505, 0, -6}, {"4.14", 508, 0, -7}, {"4.15", 510, 0, -7},
	{"4.16", 513, 0, -7}, {"4.17", 513, 0, -7}, {"4.18", 514, 0, -7}, {"4.19", 516, 0, -7},
	{"4.20", 516, 0, -7}, {"4.21", 517, 0, -7}, {"4.22", 517, 0, -7}, {"4.23", 517, 0, -7},
	{"4.24", 518, 0, -7}, {"4.25", 518, 0, -7}, {"4.26", 519, 0, -7}, {"4.27", 522, 0, -7},
	{"5.0EA", 522, 0, -7}, // EA packages carry no UE5 summary fields (corpus: cooked UE5 EA projects)
	{"5.0", 522, 1004, -8}, {"5.1", 522, 1008, -8}, {"5.2", 522, 1009, -8}, {"5.3", 522, 1009, -8},
	{"5.4", 522, 1012, -8}, {"5.5", 522, 1013, -8}, {"5.6", 522, 1017, -9}, {"5.7", 522, 1018, -9},
	// 5.8 and 6.0 added no object version: they write UE5 1018 like 5.7,
	// but their cooked import maps hold ObjectImport.PackageName (see
	// cookedImportPackageNameSince). Corpus: the CUE4Parse test fixtures
	// cooked with 5.8 and 6.0 (pak/FabianFG+CUE4Parse).
	{"5.8", 522, 1018, -9}, {"6.0", 522, 1018, -9},
}

// cookedImportPackageNameSince is the first release whose cooked packages
// store ObjectImport.PackageName (CUE4Parse reads it for GAME_UE5_8 and
// later; the 5.8 and 6.0 fixture packages have 40-byte import entries where
// 5.7 writes 32).
const cookedImportPackageNameSince = "5.8"

// cookedImportPackageName reports whether the release's cooked import maps
// store PackageName.
func (e Engine) cookedImportPackageName() bool {
	return engineIndex(e.Name) >= engineIndex(cookedImportPackageNameSince)
}

// versions returns the object versions of the release, with its custom versions.
func (e Engine) versions() Versions {
	return Versions{UE4: e.UE4, UE5: e.UE5, CookedImportPackageName: e.cookedImportPackageName(), Custom: engineCustomVersions(e.Name)}
}

// customVersion returns the release's version of a custom version key (0
// when it has none).
func (e Engine) customVersion(key ue.Guid) int32 {
	v, _ := engineCustomVersion(e.Name, key)
	return v
}

// Versions returns the object and custom versions packages of the release carry.
func (e Engine) Versions() Versions { return e.versions() }

// LookupEngine finds a release by name: "4.27", "UE4.27", "5.3", "5.3.2",
// "UE5_3", "5.0EA", "UE6_0".
func LookupEngine(name string) (Engine, bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "UE")
	n = strings.TrimPrefix(n, "_")
	n = strings.ReplaceAll(n, "_", ".")
	n = strings.ReplaceAll(n, " ", "")
	if strings.Count(n, ".") == 2 && !strings.HasSuffix(n, "EA") {
		n = n[:strings.LastIndexByte(n, '.')]
	}
	if n == "5" {
		n = "5.0"
	}
	if n == "4" {
		n = "4.0"
	}
	if n == "6" {
		n = "6.0"
	}
	for _, e := range engines {
		if strings.ToUpper(e.Name) == n {
			return e, true
		}
	}
	return Engine{}, false
}

// EngineNames lists the release names LookupEngine knows.
func EngineNames() []string {
	out := make([]string, len(engines))
	for i, e := range engines {
		out[i] = e.Name
	}
	return out
}

// Engines returns the known releases, oldest first.
func Engines() []Engine { return append([]Engine(nil), engines...) }

// engineForVersions names the release of a versioned package that records
// no saved-by version: the newest whose object versions are at most
// ue4/ue5 and that writes the cooked import layout the package was read
// with. alike lists the releases that write the same versions and layout,
// which the header cannot tell apart (5.8 and 6.0, or 4.9 and 4.10).
func engineForVersions(v *Versions) (name string, alike []string) {
	var best Engine
	for _, e := range engines {
		if e.Name == "5.0EA" || e.UE4 > v.UE4 || e.UE5 > v.UE5 {
			continue
		}
		if e.UE5 >= VerUE5ImportTypeHierarchies && e.cookedImportPackageName() != v.CookedImportPackageName {
			continue
		}
		if name == "" || e.UE4 != best.UE4 || e.UE5 != best.UE5 {
			best, name, alike = e, e.Name, []string{e.Name}
			continue
		}
		name = e.Name
		alike = append(alike, e.Name)
	}
	if len(alike) < 2 {
		return name, nil
	}
	// The custom versions a package records are the saving engine's
	// current ones: a release whose table matches every recorded key it
	// knows is the one (FortniteMainBranchObjectVersion 268 is 5.8, 271 is
	// 6.0).
	var exact []string
	for _, n := range alike {
		if customVersionsMatch(n, v.Custom) {
			exact = append(exact, n)
		}
	}
	if len(exact) > 0 {
		name = exact[len(exact)-1]
		if len(exact) == 1 {
			return name, nil
		}
		return name, exact
	}
	return name, alike
}

// customVersionsMatch reports whether the release writes the values
// recorded in cv for every key its table knows, and at least one such key
// is recorded.
func customVersionsMatch(name string, cv []CustomVersion) bool {
	table := engineCustomVersions(name)
	if len(table) == 0 {
		return false
	}
	known := 0
	for _, c := range cv {
		for _, t := range table {
			if t.Key != c.Key {
				continue
			}
			if t.Version != c.Version {
				return false
			}
			known++
		}
	}
	return known > 0
}
