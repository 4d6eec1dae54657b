// Package property decodes the serialized properties of Unreal Engine 4 and 5
// objects: the tagged property stream (FPropertyTag followed by its value,
// ending at a "None" tag) of editor and versioned cooked packages, and the
// unversioned property serialization of cooked packages (a fragment header
// and zero mask, with the schema taken from a .usmap mappings file).
//
// The decoder works against a [Context] rather than a package reader: the
// package's versions, name map, object resolution and mappings are all it
// needs, so package uasset, zen packages and tests can drive it alike.
//
// Facts about the format come from the engine (PropertyTag.cpp,
// UnversionedPropertySerialization.cpp), CUE4Parse and UAssetAPI.
//
// # Security
//
// Values are read from a bounded cursor: every count is checked against the
// bytes that remain before a slice is made, nesting is limited to
// [MaxDepth], and a tagged value never reads beyond its tag's size. Malformed
// data yields [Issue]s or errors, never a panic.
package property

import (
	"math"

	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
)

// MaxDepth bounds the nesting of structs, arrays and maps. Real data nests
// perhaps ten levels; the bound keeps hostile input from exhausting the stack.
const MaxDepth = 64

// Context is what the decoder needs to know about the package that holds the
// data.
type Context struct {
	// FileVersionUE4 and FileVersionUE5 are the package's object versions
	// (EUnrealEngineObjectUE4Version / UE5); FileVersionUE5 is 0 before UE5.
	FileVersionUE4 int32
	FileVersionUE5 int32
	// CustomVersion returns the package's version for a custom version key.
	// ok is false when the package does not record it (then cooked
	// unversioned packages are assumed to be current and others to predate
	// the version, as the engine does). May be nil.
	CustomVersion func(key ue.Guid) (v int32, ok bool)
	// Names is the package's name map.
	Names []string
	// Object returns the full path of the object an FPackageIndex refers to
	// ("" for the null index). May be nil.
	Object func(index int32) string
	// Unversioned is set for packages saved with unversioned property
	// serialization (PKG_UnversionedProperties).
	Unversioned bool
	// FilterEditorOnly is set for packages without editor-only data
	// (PKG_FilterEditorOnly, i.e. cooked).
	FilterEditorOnly bool
	// SoftObjectPaths is the package's soft object path list (UE5.1+), which
	// editor packages index instead of writing paths inline.
	SoftObjectPaths []SoftObjectPath
	// Mappings holds the schemas for unversioned data; nil when none.
	Mappings *usmap.File
	// LocalSchema returns the schema of a struct or class defined in the
	// package itself (a Blueprint's generated class, a user-defined struct)
	// for unversioned data, when the mappings lack it. May be nil.
	LocalSchema func(name string) *usmap.Struct
	// Trace, when set, records the version questions decoding asks (see
	// [VersionTrace]).
	Trace *VersionTrace

	// textData and textUsed carry the text budget (see textBudgetFor)
	// from decode to decode of one package: the data decoded so far and
	// the bytes of strings its names made.
	textData, textUsed int64
}

// Object versions the decoder branches on (EUnrealEngineObjectUE4Version
// and EUnrealEngineObjectUE5Version).
const (
	verUE4AddedNamespaceAndKeyDataToFText = 226
	verUE4ArrayPropertyInnerTags          = 282
	verUE4FTextHistory                    = 368
	verUE4GameplayTagContainerTagType     = 376
	verUE4AddedCurrencyCodeToFText        = 389
	verUE4FTextHistoryDateTimezone        = 422
	verUE4StructGuidInPropertyTag         = 441
	verUE4AssetImportDataAsJSON           = 464
	verUE4K2NodeVarReferenceGuids         = 488
	verUE4InnerArrayTagInfo               = 500
	verUE4PropertyGuidInPropertyTag       = 503
	verUE4PropertyTagSetMapSupport        = 509
	verUE4AddedSoftObjectPath             = 514

	verUE5LargeWorldCoordinates           = 1004
	verUE5SoftObjectPathRemoveAssetFNames = 1007
	verUE5AddSoftObjectPathList           = 1008
	verUE5ScriptSerializationOffset       = 1010
	verUE5PropertyTagExtension            = 1011
	verUE5PropertyTagCompleteTypeName     = 1012
)

// Custom version keys the decoder consults.
var (
	// FEditorObjectVersion.
	cvEditor = ue.EditorObjectVersion
	// FFortniteMainBranchObjectVersion.
	cvFortniteMain = ue.FortniteMainBranchObjectVersion
	// FUE5ReleaseStreamObjectVersion.
	cvUE5Release = ue.UE5ReleaseStreamObjectVersion
	// FUE5MainStreamObjectVersion.
	cvUE5Main = ue.UE5MainStreamObjectVersion
	// FFrameworkObjectVersion.
	cvFramework = ue.FrameworkObjectVersion
	// FCoreObjectVersion.
	cvCore = ue.CoreObjectVersion
	// FReleaseObjectVersion.
	cvRelease = ue.ReleaseObjectVersion
	// FInstancedStructCustomVersion.
	cvInstancedStruct = ue.InstancedStructCustomVersion
)

// Custom version values.
const (
	editorTextFormatArgumentDataIsVariant         = 5
	editorAddedAlwaysSignNumberFormattingOption   = 21
	editorCultureInvariantTextSerializationKeyStb = 32
	frameworkPinsStoreFName                       = 31
	fortniteSoftObjectPathUtf8SubPaths            = 192
	fortniteAddDevNotesToFText                    = 260
	ue5ReleaseTextFormatArgumentData64bit         = 12
	ue5MainSparseClassDataStructSerialization     = 33
)

// customVersion returns the custom version for key. A version the package
// does not record is taken as current for unversioned (cooked) packages,
// which carry no custom versions at all, and as absent otherwise.
func (c *Context) customVersion(key ue.Guid) int32 {
	if c.CustomVersion != nil {
		if v, ok := c.CustomVersion(key); ok {
			return v
		}
	}
	if c.Unversioned {
		return math.MaxInt32
	}
	return -1
}

// lookupCustom returns the version the package records for key.
func (c *Context) lookupCustom(key ue.Guid) (int32, bool) {
	if c.CustomVersion == nil {
		return 0, false
	}
	return c.CustomVersion(key)
}

// lwc reports whether vectors are doubles (UE5 large world coordinates).
func (c *Context) lwc() bool { return c.ue5(verUE5LargeWorldCoordinates) }
