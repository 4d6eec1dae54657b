package uasset

import "github.com/upkg/upkg/ue"

// Package tags (PACKAGE_FILE_TAG and PACKAGE_FILE_TAG_SWAPPED in
// ObjectVersion.h). A package written on a big-endian platform starts with the
// swapped tag when read little-endian.
const (
	PackageFileTag        uint32 = 0x9E2A83C1
	PackageFileTagSwapped uint32 = 0xC1832A9E
)

// Legacy file versions (the second int32 of the summary). Each step changed
// the summary layout; see the comments in PackageFileSummary.cpp.
const (
	LegacyFileVersionEnumCustomVersions  = -2 // enum-based custom versions
	LegacyFileVersionGuidCustomVersions  = -3 // GUID custom versions with friendly names
	LegacyFileVersionNoUE3Version        = -4 // LegacyUE3Version dropped (restored in -5)
	LegacyFileVersionOptimizedCustomVers = -6 // custom versions without friendly names
	LegacyFileVersionNoTextureAllocs     = -7 // NumTextureAllocations removed
	LegacyFileVersionUE5                 = -8 // FileVersionUE5 added
	LegacyFileVersionCurrent             = -9 // summary after the licensee version may change per version
)

// UE4 object versions the header layout depends on (EUnrealEngineObjectUE4Version
// in ObjectVersion.h; the names keep the engine's VER_UE4_ suffix).
const (
	VerUE4OldestLoadablePackage                    = 214 // VER_UE4_OLDEST_LOADABLE_PACKAGE
	VerUE4WorldLevelInfo                           = 224 // VER_UE4_WORLD_LEVEL_INFO
	VerUE4WorldLevelInfoUpdated                    = 268 // VER_UE4_WORLD_LEVEL_INFO_UPDATED
	VerUE4WorldLevelInfoLODList                    = 316 // VER_UE4_WORLD_LEVEL_INFO_LOD_LIST
	VerUE4WorldLevelInfoZOrder                     = 319 // VER_UE4_WORLD_LEVEL_INFO_ZORDER
	VerUE4WorldLayerEnableDistanceStreaming        = 329 // VER_UE4_WORLD_LAYER_ENABLE_DISTANCE_STREAMING
	VerUE4AddedChunkIDToAssetDataAndUPackage       = 278 // VER_UE4_ADDED_CHUNKID_TO_ASSETDATA_AND_UPACKAGE
	VerUE4ChangedChunkIDToBeAnArrayOfChunkIDs      = 326 // VER_UE4_CHANGED_CHUNKID_TO_BE_AN_ARRAY_OF_CHUNKIDS
	VerUE4EngineVersionObject                      = 336 // VER_UE4_ENGINE_VERSION_OBJECT
	VerUE4LoadForEditorGame                        = 365 // VER_UE4_LOAD_FOR_EDITOR_GAME
	VerUE4AddStringAssetReferencesMap              = 384 // VER_UE4_ADD_STRING_ASSET_REFERENCES_MAP
	VerUE4PackageSummaryHasCompatibleEngineVersion = 444 // VER_UE4_PACKAGE_SUMMARY_HAS_COMPATIBLE_ENGINE_VERSION
	VerUE4SerializeTextInPackages                  = 459 // VER_UE4_SERIALIZE_TEXT_IN_PACKAGES
	VerUE4CookedAssetsInEditorSupport              = 485 // VER_UE4_COOKED_ASSETS_IN_EDITOR_SUPPORT
	VerUE4NameHashesSerialized                     = 504 // VER_UE4_NAME_HASHES_SERIALIZED
	VerUE4PreloadDependenciesInCookedExports       = 507 // VER_UE4_PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS
	VerUE4TemplateIndexInCookedExports             = 508 // VER_UE4_TemplateIndex_IN_COOKED_EXPORTS
	VerUE4AddedSearchableNames                     = 510 // VER_UE4_ADDED_SEARCHABLE_NAMES
	VerUE464BitExportMapSerialSizes                = 511 // VER_UE4_64BIT_EXPORTMAP_SERIALSIZES
	VerUE4AddedSoftObjectPath                      = 514 // VER_UE4_ADDED_SOFT_OBJECT_PATH
	VerUE4AddedPackageSummaryLocalizationID        = 516 // VER_UE4_ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID
	VerUE4AddedPackageOwner                        = 518 // VER_UE4_ADDED_PACKAGE_OWNER
	VerUE4NonOuterPackageImport                    = 520 // VER_UE4_NON_OUTER_PACKAGE_IMPORT
	VerUE4AssetRegistryDependencyFlags             = 521 // VER_UE4_ASSETREGISTRY_DEPENDENCYFLAGS
	VerUE4CorrectLicenseeFlag                      = 522 // VER_UE4_CORRECT_LICENSEE_FLAG
	VerUE4Latest                                   = 522 // VER_UE4_AUTOMATIC_VERSION
)

// UE5 object versions (EUnrealEngineObjectUE5Version in ObjectVersion.h).
const (
	VerUE5InitialVersion                                = 1000 // INITIAL_VERSION
	VerUE5NamesReferencedFromExportData                 = 1001 // NAMES_REFERENCED_FROM_EXPORT_DATA
	VerUE5PayloadTOC                                    = 1002 // PAYLOAD_TOC
	VerUE5OptionalResources                             = 1003 // OPTIONAL_RESOURCES
	VerUE5LargeWorldCoordinates                         = 1004 // LARGE_WORLD_COORDINATES
	VerUE5RemoveObjectExportPackageGUID                 = 1005 // REMOVE_OBJECT_EXPORT_PACKAGE_GUID
	VerUE5TrackObjectExportIsInherited                  = 1006 // TRACK_OBJECT_EXPORT_IS_INHERITED
	VerUE5FSoftObjectPathRemoveAssetPathFNames          = 1007 // FSOFTOBJECTPATH_REMOVE_ASSET_PATH_FNAMES
	VerUE5AddSoftObjectPathList                         = 1008 // ADD_SOFTOBJECTPATH_LIST
	VerUE5DataResources                                 = 1009 // DATA_RESOURCES
	VerUE5ScriptSerializationOffset                     = 1010 // SCRIPT_SERIALIZATION_OFFSET
	VerUE5PropertyTagExtensionAndOverridableSerializion = 1011 // PROPERTY_TAG_EXTENSION_AND_OVERRIDABLE_SERIALIZATION
	VerUE5PropertyTagCompleteTypeName                   = 1012 // PROPERTY_TAG_COMPLETE_TYPE_NAME
	VerUE5AssetRegistryPackageBuildDependencies         = 1013 // ASSETREGISTRY_PACKAGEBUILDDEPENDENCIES
	VerUE5MetadataSerializationOffset                   = 1014 // METADATA_SERIALIZATION_OFFSET
	VerUE5VerseCells                                    = 1015 // VERSE_CELLS
	VerUE5PackageSavedHash                              = 1016 // PACKAGE_SAVED_HASH
	VerUE5OSSubObjectShadowSerialization                = 1017 // OS_SUB_OBJECT_SHADOW_SERIALIZATION
	VerUE5ImportTypeHierarchies                         = 1018 // IMPORT_TYPE_HIERARCHIES
	VerUE5Latest                                        = 1018
)

// Package flags (EPackageFlags in ObjectMacros.h).
const (
	PKG_NewlyCreated                uint32 = 0x00000001
	PKG_ClientOptional              uint32 = 0x00000002
	PKG_ServerSideOnly              uint32 = 0x00000004
	PKG_CompiledIn                  uint32 = 0x00000010
	PKG_ForDiffing                  uint32 = 0x00000020
	PKG_EditorOnly                  uint32 = 0x00000040
	PKG_Developer                   uint32 = 0x00000080
	PKG_UncookedOnly                uint32 = 0x00000100
	PKG_Cooked                      uint32 = 0x00000200
	PKG_ContainsNoAsset             uint32 = 0x00000400
	PKG_NotExternallyReferenceable  uint32 = 0x00000800
	PKG_AccessSpecifierEpicInternal uint32 = 0x00001000
	PKG_UnversionedProperties       uint32 = 0x00002000
	PKG_ContainsMapData             uint32 = 0x00004000
	PKG_IsSaving                    uint32 = 0x00008000
	PKG_Compiling                   uint32 = 0x00010000
	PKG_ContainsMap                 uint32 = 0x00020000
	PKG_RequiresLocalizationGather  uint32 = 0x00040000
	PKG_LoadUncooked                uint32 = 0x00080000 // cooked: to be loaded uncooked from IoStore/ZenStore
	PKG_PlayInEditor                uint32 = 0x00100000
	PKG_ContainsScript              uint32 = 0x00200000
	PKG_DisallowExport              uint32 = 0x00400000
	PKG_CookGenerated               uint32 = 0x08000000
	PKG_DynamicImports              uint32 = 0x10000000
	PKG_RuntimeGenerated            uint32 = 0x20000000
	PKG_ReloadingForCooker          uint32 = 0x40000000
	PKG_FilterEditorOnly            uint32 = 0x80000000
)

var packageFlagNames = []struct {
	bit  uint32
	name string
}{
	{PKG_NewlyCreated, "NewlyCreated"}, {PKG_ClientOptional, "ClientOptional"},
	{PKG_ServerSideOnly, "ServerSideOnly"}, {PKG_CompiledIn, "CompiledIn"},
	{PKG_ForDiffing, "ForDiffing"}, {PKG_EditorOnly, "EditorOnly"},
	{PKG_Developer, "Developer"}, {PKG_UncookedOnly, "UncookedOnly"},
	{PKG_Cooked, "Cooked"}, {PKG_ContainsNoAsset, "ContainsNoAsset"},
	{PKG_NotExternallyReferenceable, "NotExternallyReferenceable"},
	{PKG_AccessSpecifierEpicInternal, "AccessSpecifierEpicInternal"},
	{PKG_UnversionedProperties, "UnversionedProperties"},
	{PKG_ContainsMapData, "ContainsMapData"}, {PKG_IsSaving, "IsSaving"},
	{PKG_Compiling, "Compiling"}, {PKG_ContainsMap, "ContainsMap"},
	{PKG_RequiresLocalizationGather, "RequiresLocalizationGather"},
	{PKG_LoadUncooked, "LoadUncooked"},
	{PKG_PlayInEditor, "PlayInEditor"}, {PKG_ContainsScript, "ContainsScript"},
	{PKG_DisallowExport, "DisallowExport"}, {PKG_CookGenerated, "CookGenerated"},
	{PKG_DynamicImports, "DynamicImports"}, {PKG_RuntimeGenerated, "RuntimeGenerated"},
	{PKG_ReloadingForCooker, "ReloadingForCooker"}, {PKG_FilterEditorOnly, "FilterEditorOnly"},
}

// PackageFlagsString renders package flags as "Cooked|FilterEditorOnly|0x1000".
func PackageFlagsString(f uint32) string { return flagString(f, packageFlagNames) }

// Object flags (EObjectFlags in ObjectMacros.h) as stored in the export map.
const (
	RF_Public                       uint32 = 0x00000001
	RF_Standalone                   uint32 = 0x00000002
	RF_MarkAsNative                 uint32 = 0x00000004
	RF_Transactional                uint32 = 0x00000008
	RF_ClassDefaultObject           uint32 = 0x00000010
	RF_ArchetypeObject              uint32 = 0x00000020
	RF_Transient                    uint32 = 0x00000040
	RF_MarkAsRootSet                uint32 = 0x00000080
	RF_TagGarbageTemp               uint32 = 0x00000100
	RF_NeedInitialization           uint32 = 0x00000200
	RF_NeedLoad                     uint32 = 0x00000400
	RF_KeepForCooker                uint32 = 0x00000800
	RF_NeedPostLoad                 uint32 = 0x00001000
	RF_NeedPostLoadSubobjects       uint32 = 0x00002000
	RF_NewerVersionExists           uint32 = 0x00004000
	RF_BeginDestroyed               uint32 = 0x00008000
	RF_FinishDestroyed              uint32 = 0x00010000
	RF_BeingRegenerated             uint32 = 0x00020000
	RF_DefaultSubObject             uint32 = 0x00040000
	RF_WasLoaded                    uint32 = 0x00080000
	RF_TextExportTransient          uint32 = 0x00100000
	RF_LoadCompleted                uint32 = 0x00200000
	RF_InheritableComponentTemplate uint32 = 0x00400000
	RF_DuplicateTransient           uint32 = 0x00800000
	RF_StrongRefOnFrame             uint32 = 0x01000000
	RF_NonPIEDuplicateTransient     uint32 = 0x02000000
	RF_WillBeLoaded                 uint32 = 0x08000000
	RF_HasExternalPackage           uint32 = 0x10000000
	RF_AllocatedInSharedPage        uint32 = 0x80000000
)

// ObjectFlagsString renders object flags as "Public|Standalone" (see
// ue.ObjectFlagsString, which zen packages share).
func ObjectFlagsString(f uint32) string { return ue.ObjectFlagsString(f) }

func flagString(f uint32, names []struct {
	bit  uint32
	name string
}) string {
	if f == 0 {
		return ""
	}
	s := ""
	for _, n := range names {
		if f&n.bit != 0 {
			if s != "" {
				s += "|"
			}
			s += n.name
			f &^= n.bit
		}
	}
	if f != 0 {
		if s != "" {
			s += "|"
		}
		s += "0x" + ue.HexU32(f)
	}
	return s
}
