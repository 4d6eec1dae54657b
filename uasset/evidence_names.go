package uasset

// Ground rules for this file: evidence from names. A name the engine gave a
// module or a property in a known release, found where that engine puts it
// (an import's package, a property tag of the class that declares it),
// bounds the release from below. The stored hashes of wide names with
// characters 128–255 tell 4.20 from its neighbours. Each rule cites where
// the fact comes from.

import (
	"hash/crc32"
	"strings"
	"unicode/utf16"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

const (
	// navigationSystemSince is the first release with the NavigationSystem
	// module (/Script/NavigationSystem): 4.20 moved navigation out of the
	// Engine module (UNavigationSystemV1, UNavigationSystemModuleConfig;
	// projects moving to 4.20 had to add the module, see
	// github.com/tomlooman/coopshooterudemy/issues/1, "Rolling back to
	// 4.19.2" fixed the missing headers). Corpus: the 4.18 maps import
	// none of it, the 4.20 map (BuildingEscape, versioned 516) does.
	navigationSystemSince = "4.20"
	// bookmarkArraySince is the first release whose AWorldSettings has the
	// BookmarkArray property: WorldSettings.h (4.22,
	// folgerwang/UnrealEngine) declares TArray<UBookmarkBase*>
	// BookmarkArray and marks the old BookMarks[10]
	// DEPRECATED(4.21, ...). Corpus: the 4.20 map saves BookMarks only.
	bookmarkArraySince = "4.21"
	// wideHashBugRelease is the release whose name map hashes sign-extend
	// UTF-16 units 128–255 before hashing: UAssetAPI's CRCGenerator applies
	// ToUpperVersion420 for VER_UE4_20, and VER_UE4_FIX_WIDE_STRING_CRC
	// (517, first written by 4.21: "Fixed case insensitive hashes of wide
	// strings containing character values from 128-255") ends it. Corpus:
	// 4.18 (Bloodstained) and 4.19 (TheBeastInside) hash such names
	// without the sign extension.
	wideHashBugRelease = "4.20"
	// clothingModuleUntil is the last release with the module
	// ClothingSystemRuntime (UClothingAsset, /Script/ClothingSystemRuntime):
	// 4.24 renamed it ClothingSystemRuntimeNv (UClothingAssetNv, its base
	// UClothingAssetCommon in the new ClothingSystemRuntimeCommon), and
	// BaseEngine.ini redirects the old package and class names there
	// (4.24.0 and 4.25.0 in Mu-L/TracerInteractiveUE4Plugins; the 4.16,
	// 4.18.3 and 4.19.0-4.23.0 headers declare UClothingAsset in
	// Engine/Source/Runtime/ClothingSystemRuntime). Corpus: 4.18
	// (Bloodstained, CodeVein) and 4.23 (Astroneer) packages import
	// /Script/ClothingSystemRuntime; 4.25, 4.26 and 5.5-5.7 ones import
	// /Script/ClothingSystemRuntimeNv (a rule for 4.24+ on that name
	// would hold, but the uasset WebAssembly module had no room for it).
	clothingModuleUntil = "4.23"
	// skelRemoveTriangleSorting is FSkeletalMeshCustomVersion's
	// RemoveTriangleSorting: FSkeletalMeshLODInfo loses its
	// TriangleSortSettings property (SkeletalMesh.h has it, outside
	// WITH_EDITORONLY_DATA, in the 4.16 and 4.18.3 sources, not in 4.19.0,
	// whose loader drops old sort data), so a cooked LOD info that saves
	// it comes from 4.18 or earlier (the custom version table: 4.18
	// writes 10, 4.19 15). Corpus: CodeVein's SK_Inner_Female1 (4.18).
	skelRemoveTriangleSorting = 13
)

// until returns a predicate: the release is last or earlier.
func until(last string) func(Engine) bool {
	max := engineIndex(last)
	return func(e Engine) bool { return engineIndex(e.Name) <= max }
}

// since returns a predicate: the release is first or later.
func since(first string) func(Engine) bool {
	min := engineIndex(first)
	return func(e Engine) bool { return engineIndex(e.Name) >= min }
}

// probeImportNames applies the rules on imported package names.
func (p *prober) probeImportNames(ev *evidence) {
	f := p.f
	navigation := false
	for i := range f.Imports {
		im := &f.Imports[i]
		class, _ := f.NameBase(im.ClassName)
		if class != "Package" || !im.OuterIndex.IsNull() {
			continue
		}
		switch name, _ := f.NameBase(im.ObjectName); name {
		case "/Script/NavigationSystem":
			if !navigation {
				navigation = true
				ev.require(since(navigationSystemSince), nil,
					"import "+itoa(int64(i+1))+" is the package /Script/NavigationSystem (module split out of Engine in 4.20)")
			}
		case "/Script/ClothingSystemRuntime":
			if ev.first(ruleClothingModule) {
				ev.require(until(clothingModuleUntil), nil,
					"import "+itoa(int64(i+1))+" is the package /Script/ClothingSystemRuntime (renamed ClothingSystemRuntimeNv in 4.24)")
			}
		}
	}
}

// tagName applies the rules on property names (ev is not nil): class is the
// class of the export whose top-level tags these are ("" when nested).
func (p *prober) tagName(ev *evidence, where *place, class, name, typ string) {
	if name == "BookmarkArray" && typ == "ArrayProperty" && strings.HasSuffix(class, "WorldSettings") && ev.first(ruleBookmarkArray) {
		ev.require(since(bookmarkArraySince),
			where, " is a WorldSettings BookmarkArray (replaced BookMarks in 4.21)")
	}
}

// structTagName applies the rules on the names of properties inside a
// struct value (ev is not nil): structName is the struct's type.
func (p *prober) structTagName(ev *evidence, where *place, structName, name, typ string) {
	if name == "TriangleSortSettings" && typ == "ArrayProperty" && structName == "SkeletalMeshLODInfo" && ev.first(ruleTriangleSortSettings) {
		ev.require(func(e Engine) bool { return e.customVersion(ue.SkeletalMeshCustomVersion) < skelRemoveTriangleSorting },
			where, " is a SkeletalMeshLODInfo TriangleSortSettings (removed by FSkeletalMeshCustomVersion RemoveTriangleSorting, 4.19)")
	}
}

// probeNameHashes reads the stored hashes of UTF-16 names holding units in
// 128–255: their case-insensitive hash either sign-extends those units (the
// 4.20 hash) or not (the others). Only names whose case-preserving hash
// matches too count, so that hashes a tool wrote say nothing.
func (p *prober) probeNameHashes(ev *evidence) {
	plain, signed := 0, 0
	for i := range p.f.Names {
		n := &p.f.Names[i]
		if n.Name.Enc != binread.StrUTF16 {
			continue
		}
		units := utf16.Encode([]rune(n.Name.S))
		latin := false
		for _, c := range units {
			if c >= 0x80 && c < 0x100 {
				latin = true
			}
		}
		if !latin || uint16(wideStrCrc32(units)) != n.CasePreservingHash {
			continue
		}
		a := uint16(wideStrihash(units, false)) == n.NonCasePreservingHash
		b := uint16(wideStrihash(units, true)) == n.NonCasePreservingHash
		switch {
		case a && !b:
			plain++
		case b && !a:
			signed++
		}
	}
	bug := func(e Engine) bool { return e.Name == wideHashBugRelease }
	switch {
	case plain > 0 && signed == 0:
		ev.require(func(e Engine) bool { return !bug(e) }, nil,
			"the name map hashes wide names with characters 128–255 unextended (4.20 sign-extended them until VER_UE4_FIX_WIDE_STRING_CRC)")
	case signed > 0 && plain == 0:
		ev.require(bug, nil,
			"the name map hashes wide names with characters 128–255 sign-extended (4.20 only: VER_UE4_FIX_WIDE_STRING_CRC fixed it in 4.21)")
	}
}

// strihashTable is CRCTable_DEPRECATED: the MSB-first CRC-32 table of the
// polynomial 0x04C11DB7 that FCrc::Strihash_DEPRECATED indexes.
var strihashTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return
}()

// wideStrihash is FCrc::Strihash_DEPRECATED over UTF-16 units: each unit
// upper-cased (ASCII letters only), then its low and its high byte folded
// in. With signExtend a unit in 128–255 is first widened as a signed byte
// (0xFF80–0xFFFF), as the 4.20 hash did.
func wideStrihash(units []uint16, signExtend bool) uint32 {
	var h uint32
	step := func(b byte) { h = (h >> 8 & 0x00FFFFFF) ^ strihashTable[(h^uint32(b))&0xFF] }
	for _, c := range units {
		if signExtend && c >= 0x80 && c < 0x100 {
			c |= 0xFF00
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		step(byte(c))
		step(byte(c >> 8))
	}
	return h
}

// wideStrCrc32 is FCrc::StrCrc32 over UTF-16 units: every unit as four
// little-endian bytes through the standard CRC-32.
func wideStrCrc32(units []uint16) uint32 {
	b := make([]byte, 0, 4*len(units))
	for _, c := range units {
		b = append(b, byte(c), byte(c>>8), 0, 0)
	}
	return crc32.ChecksumIEEE(b)
}
