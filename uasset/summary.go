package uasset

import (
	"github.com/upkg/upkg/ue"
)

// PackageFileSummary is FPackageFileSummary from PackageFileSummary.h: the
// header at offset 0 of every UE4/UE5 package. Fields absent from a given
// version keep their zero value; the comments give the version that added or
// removed each one (the branch points are in serialize).
type PackageFileSummary struct {
	Tag                   uint32 `json:"tag"`
	LegacyFileVersion     int32  `json:"legacy_file_version"`
	LegacyUE3Version      int32  `json:"legacy_ue3_version"` // absent when LegacyFileVersion == -4
	FileVersionUE4        int32  `json:"file_version_ue4"`
	FileVersionUE5        int32  `json:"file_version_ue5"` // LegacyFileVersion <= -8
	FileVersionLicenseeUE int32  `json:"file_version_licensee_ue"`
	// SavedHash replaced Guid in UE5 PACKAGE_SAVED_HASH (1016); it is
	// stored before the custom versions, together with TotalHeaderSize.
	SavedHash       ue.IoHash       `json:"saved_hash,omitzero"`
	CustomVersions  []CustomVersion `json:"custom_versions"` // LegacyFileVersion <= -2
	TotalHeaderSize int32           `json:"total_header_size"`
	// PackageName is the deprecated FolderName ("None" in most packages).
	PackageName  String `json:"package_name"`
	PackageFlags uint32 `json:"package_flags"`
	NameCount    int32  `json:"name_count"`
	NameOffset   int32  `json:"name_offset"`
	// Soft object paths: UE5 ADD_SOFTOBJECTPATH_LIST (1008).
	SoftObjectPathsCount  int32 `json:"soft_object_paths_count"`
	SoftObjectPathsOffset int32 `json:"soft_object_paths_offset"`
	// LocalizationId: VER_UE4_ADDED_PACKAGE_SUMMARY_LOCALIZATION_ID (516), editor packages only.
	LocalizationID String `json:"localization_id"`
	// Gatherable text: VER_UE4_SERIALIZE_TEXT_IN_PACKAGES (459).
	GatherableTextDataCount  int32 `json:"gatherable_text_data_count"`
	GatherableTextDataOffset int32 `json:"gatherable_text_data_offset"`
	ExportCount              int32 `json:"export_count"`
	ExportOffset             int32 `json:"export_offset"`
	ImportCount              int32 `json:"import_count"`
	ImportOffset             int32 `json:"import_offset"`
	// Verse cells: UE5 VERSE_CELLS (1015).
	CellExportCount  int32 `json:"cell_export_count"`
	CellExportOffset int32 `json:"cell_export_offset"`
	CellImportCount  int32 `json:"cell_import_count"`
	CellImportOffset int32 `json:"cell_import_offset"`
	// MetaDataOffset: UE5 METADATA_SERIALIZATION_OFFSET (1014).
	MetaDataOffset int32 `json:"metadata_offset"`
	DependsOffset  int32 `json:"depends_offset"`
	// Soft package references: VER_UE4_ADD_STRING_ASSET_REFERENCES_MAP (384).
	SoftPackageReferencesCount  int32 `json:"soft_package_references_count"`
	SoftPackageReferencesOffset int32 `json:"soft_package_references_offset"`
	// SearchableNamesOffset: VER_UE4_ADDED_SEARCHABLE_NAMES (510).
	SearchableNamesOffset int32 `json:"searchable_names_offset"`
	ThumbnailTableOffset  int32 `json:"thumbnail_table_offset"`
	// Import type hierarchies: UE5 IMPORT_TYPE_HIERARCHIES (1018).
	ImportTypeHierarchiesCount  int32 `json:"import_type_hierarchies_count"`
	ImportTypeHierarchiesOffset int32 `json:"import_type_hierarchies_offset"`
	// Guid: removed by UE5 PACKAGE_SAVED_HASH (1016).
	Guid ue.Guid `json:"guid"`
	// PersistentGuid: VER_UE4_ADDED_PACKAGE_OWNER (518), editor packages only.
	PersistentGuid ue.Guid `json:"persistent_guid"`
	// OwnerPersistentGuid existed only from VER_UE4_ADDED_PACKAGE_OWNER (518)
	// to before VER_UE4_NON_OUTER_PACKAGE_IMPORT (520).
	OwnerPersistentGuid ue.Guid          `json:"owner_persistent_guid"`
	Generations         []GenerationInfo `json:"generations"`
	// SavedByEngineVersion: VER_UE4_ENGINE_VERSION_OBJECT (336); before it,
	// only EngineChangelist was stored.
	SavedByEngineVersion ue.EngineVersion `json:"saved_by_engine_version"`
	EngineChangelist     uint32           `json:"engine_changelist"`
	// CompatibleWithEngineVersion: VER_UE4_PACKAGE_SUMMARY_HAS_COMPATIBLE_ENGINE_VERSION (444).
	CompatibleWithEngineVersion ue.EngineVersion  `json:"compatible_with_engine_version"`
	CompressionFlags            uint32            `json:"compression_flags"`
	CompressedChunks            []CompressedChunk `json:"compressed_chunks"`
	PackageSource               uint32            `json:"package_source"`
	AdditionalPackagesToCook    []String          `json:"additional_packages_to_cook"`
	// NumTextureAllocations: removed by LegacyFileVersion -7.
	NumTextureAllocations   int32 `json:"num_texture_allocations"`
	AssetRegistryDataOffset int32 `json:"asset_registry_data_offset"`
	BulkDataStartOffset     int64 `json:"bulk_data_start_offset"`
	// WorldTileInfoDataOffset: VER_UE4_WORLD_LEVEL_INFO (224).
	WorldTileInfoDataOffset int32 `json:"world_tile_info_data_offset"`
	// ChunkIDs: an array since VER_UE4_CHANGED_CHUNKID_TO_BE_AN_ARRAY_OF_CHUNKIDS
	// (326), a single int32 from VER_UE4_ADDED_CHUNKID_TO_ASSETDATA_AND_UPACKAGE (278).
	ChunkIDs []int32 `json:"chunk_ids"`
	// Preload dependencies: VER_UE4_PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS (507).
	PreloadDependencyCount  int32 `json:"preload_dependency_count"`
	PreloadDependencyOffset int32 `json:"preload_dependency_offset"`
	// NamesReferencedFromExportDataCount: UE5 NAMES_REFERENCED_FROM_EXPORT_DATA (1001).
	NamesReferencedFromExportDataCount int32 `json:"names_referenced_from_export_data_count"`
	// PayloadTocOffset: UE5 PAYLOAD_TOC (1002).
	PayloadTocOffset int64 `json:"payload_toc_offset"`
	// DataResourceOffset: UE5 DATA_RESOURCES (1009).
	DataResourceOffset int32 `json:"data_resource_offset"`
}

// GenerationInfo is FGenerationInfo: the export and name counts of an earlier save.
type GenerationInfo struct {
	ExportCount int32 `json:"export_count"`
	NameCount   int32 `json:"name_count"`
}

// CompressedChunk is FCompressedChunk, a leftover of UE3 package compression;
// UE4 packages store an empty array.
type CompressedChunk struct {
	UncompressedOffset int32 `json:"uncompressed_offset"`
	UncompressedSize   int32 `json:"uncompressed_size"`
	CompressedOffset   int32 `json:"compressed_offset"`
	CompressedSize     int32 `json:"compressed_size"`
}

// FilterEditorOnly reports PKG_FilterEditorOnly: editor-only data was
// stripped (cooked packages), which removes several fields.
func (s *PackageFileSummary) FilterEditorOnly() bool { return s.PackageFlags&PKG_FilterEditorOnly != 0 }

// UnversionedProperties reports PKG_UnversionedProperties: exports use
// unversioned property serialization (needs mappings or the engine's schema).
func (s *PackageFileSummary) UnversionedProperties() bool {
	return s.PackageFlags&PKG_UnversionedProperties != 0
}

// Unversioned reports whether the summary records no engine version (all of
// FileVersionUE4, FileVersionUE5 and the licensee version zero), as cooked
// packages do; they must be read with an assumed engine version.
func (s *PackageFileSummary) Unversioned() bool {
	return s.FileVersionUE4 == 0 && s.FileVersionUE5 == 0
}

// serializeVersions handles the fields up to the licensee version, which
// decide how the rest is read.
func (s *PackageFileSummary) serializeVersions(a archive) {
	a.u32("PackageFileSummary.Tag", &s.Tag)
	a.i32("PackageFileSummary.LegacyFileVersion", &s.LegacyFileVersion)
	if a.failed() {
		return
	}
	if a.loading() && (s.LegacyFileVersion >= 0 || s.LegacyFileVersion < LegacyFileVersionCurrent) {
		return // the caller reports it
	}
	if s.LegacyFileVersion != LegacyFileVersionNoUE3Version {
		a.i32("PackageFileSummary.LegacyUE3Version", &s.LegacyUE3Version)
	}
	a.i32("PackageFileSummary.FileVersionUE4", &s.FileVersionUE4)
	if s.LegacyFileVersion <= LegacyFileVersionUE5 {
		a.i32("PackageFileSummary.FileVersionUE5", &s.FileVersionUE5)
	}
	a.i32("PackageFileSummary.FileVersionLicenseeUE", &s.FileVersionLicenseeUE)
}

// serialize reads or writes the whole summary. v are the versions the
// package is read with (the recorded ones, or the assumed engine's for an
// unversioned package).
func (s *PackageFileSummary) serialize(a archive, v *Versions) {
	s.serializeVersions(a)
	if a.failed() {
		return
	}
	ue4, ue5 := v.UE4, v.UE5
	if ue5 >= VerUE5PackageSavedHash {
		a.fixed("PackageFileSummary.SavedHash", s.SavedHash[:])
		a.i32("PackageFileSummary.TotalHeaderSize", &s.TotalHeaderSize)
	}
	if f := customVersionFormatFor(s.LegacyFileVersion); f != cvfNone {
		minElem := int64(20)
		if f == cvfEnums {
			minElem = 8
		}
		serializeSlice(a, "PackageFileSummary.CustomVersions", &s.CustomVersions, minElem, func(a archive, c *CustomVersion) {
			c.serialize(a, f)
		})
	}
	if ue5 < VerUE5PackageSavedHash {
		a.i32("PackageFileSummary.TotalHeaderSize", &s.TotalHeaderSize)
	}
	a.str("PackageFileSummary.PackageName", &s.PackageName)
	a.u32("PackageFileSummary.PackageFlags", &s.PackageFlags)
	editor := !s.FilterEditorOnly()
	a.i32("PackageFileSummary.NameCount", &s.NameCount)
	a.i32("PackageFileSummary.NameOffset", &s.NameOffset)
	if ue5 >= VerUE5AddSoftObjectPathList {
		a.i32("PackageFileSummary.SoftObjectPathsCount", &s.SoftObjectPathsCount)
		a.i32("PackageFileSummary.SoftObjectPathsOffset", &s.SoftObjectPathsOffset)
	}
	if editor && ue4 >= VerUE4AddedPackageSummaryLocalizationID {
		a.str("PackageFileSummary.LocalizationId", &s.LocalizationID)
	}
	if ue4 >= VerUE4SerializeTextInPackages {
		a.i32("PackageFileSummary.GatherableTextDataCount", &s.GatherableTextDataCount)
		a.i32("PackageFileSummary.GatherableTextDataOffset", &s.GatherableTextDataOffset)
	}
	a.i32("PackageFileSummary.ExportCount", &s.ExportCount)
	a.i32("PackageFileSummary.ExportOffset", &s.ExportOffset)
	a.i32("PackageFileSummary.ImportCount", &s.ImportCount)
	a.i32("PackageFileSummary.ImportOffset", &s.ImportOffset)
	if ue5 >= VerUE5VerseCells {
		a.i32("PackageFileSummary.CellExportCount", &s.CellExportCount)
		a.i32("PackageFileSummary.CellExportOffset", &s.CellExportOffset)
		a.i32("PackageFileSummary.CellImportCount", &s.CellImportCount)
		a.i32("PackageFileSummary.CellImportOffset", &s.CellImportOffset)
	}
	if ue5 >= VerUE5MetadataSerializationOffset {
		a.i32("PackageFileSummary.MetaDataOffset", &s.MetaDataOffset)
	}
	a.i32("PackageFileSummary.DependsOffset", &s.DependsOffset)
	if ue4 >= VerUE4AddStringAssetReferencesMap {
		a.i32("PackageFileSummary.SoftPackageReferencesCount", &s.SoftPackageReferencesCount)
		a.i32("PackageFileSummary.SoftPackageReferencesOffset", &s.SoftPackageReferencesOffset)
	}
	if ue4 >= VerUE4AddedSearchableNames {
		a.i32("PackageFileSummary.SearchableNamesOffset", &s.SearchableNamesOffset)
	}
	a.i32("PackageFileSummary.ThumbnailTableOffset", &s.ThumbnailTableOffset)
	if ue5 >= VerUE5ImportTypeHierarchies {
		a.i32("PackageFileSummary.ImportTypeHierarchiesCount", &s.ImportTypeHierarchiesCount)
		a.i32("PackageFileSummary.ImportTypeHierarchiesOffset", &s.ImportTypeHierarchiesOffset)
	}
	if ue5 < VerUE5PackageSavedHash {
		a.guid("PackageFileSummary.Guid", &s.Guid)
	}
	if editor && ue4 >= VerUE4AddedPackageOwner {
		a.guid("PackageFileSummary.PersistentGuid", &s.PersistentGuid)
		if ue4 < VerUE4NonOuterPackageImport {
			a.guid("PackageFileSummary.OwnerPersistentGuid", &s.OwnerPersistentGuid)
		}
	}
	serializeSlice(a, "PackageFileSummary.Generations", &s.Generations, 8, func(a archive, g *GenerationInfo) {
		a.i32("GenerationInfo.ExportCount", &g.ExportCount)
		a.i32("GenerationInfo.NameCount", &g.NameCount)
	})
	if ue4 >= VerUE4EngineVersionObject {
		a.engineVersion("PackageFileSummary.SavedByEngineVersion", &s.SavedByEngineVersion)
	} else {
		a.u32("PackageFileSummary.EngineChangelist", &s.EngineChangelist)
	}
	if ue4 >= VerUE4PackageSummaryHasCompatibleEngineVersion {
		a.engineVersion("PackageFileSummary.CompatibleWithEngineVersion", &s.CompatibleWithEngineVersion)
	}
	a.u32("PackageFileSummary.CompressionFlags", &s.CompressionFlags)
	serializeSlice(a, "PackageFileSummary.CompressedChunks", &s.CompressedChunks, 16, func(a archive, c *CompressedChunk) {
		a.i32("CompressedChunk.UncompressedOffset", &c.UncompressedOffset)
		a.i32("CompressedChunk.UncompressedSize", &c.UncompressedSize)
		a.i32("CompressedChunk.CompressedOffset", &c.CompressedOffset)
		a.i32("CompressedChunk.CompressedSize", &c.CompressedSize)
	})
	a.u32("PackageFileSummary.PackageSource", &s.PackageSource)
	serializeSlice(a, "PackageFileSummary.AdditionalPackagesToCook", &s.AdditionalPackagesToCook, 4, func(a archive, p *String) {
		a.str("PackageFileSummary.AdditionalPackageToCook", p)
	})
	if s.LegacyFileVersion > LegacyFileVersionNoTextureAllocs {
		a.i32("PackageFileSummary.NumTextureAllocations", &s.NumTextureAllocations)
	}
	a.i32("PackageFileSummary.AssetRegistryDataOffset", &s.AssetRegistryDataOffset)
	a.i64("PackageFileSummary.BulkDataStartOffset", &s.BulkDataStartOffset)
	if ue4 >= VerUE4WorldLevelInfo {
		a.i32("PackageFileSummary.WorldTileInfoDataOffset", &s.WorldTileInfoDataOffset)
	}
	if ue4 >= VerUE4ChangedChunkIDToBeAnArrayOfChunkIDs {
		serializeSlice(a, "PackageFileSummary.ChunkIDs", &s.ChunkIDs, 4, func(a archive, c *int32) {
			a.i32("PackageFileSummary.ChunkID", c)
		})
	} else if ue4 >= VerUE4AddedChunkIDToAssetDataAndUPackage {
		if a.loading() {
			s.ChunkIDs = make([]int32, 1)
		}
		if len(s.ChunkIDs) == 1 {
			a.i32("PackageFileSummary.ChunkID", &s.ChunkIDs[0])
		}
	}
	if ue4 >= VerUE4PreloadDependenciesInCookedExports {
		a.i32("PackageFileSummary.PreloadDependencyCount", &s.PreloadDependencyCount)
		a.i32("PackageFileSummary.PreloadDependencyOffset", &s.PreloadDependencyOffset)
	}
	if ue5 >= VerUE5NamesReferencedFromExportData {
		a.i32("PackageFileSummary.NamesReferencedFromExportDataCount", &s.NamesReferencedFromExportDataCount)
	}
	if ue5 >= VerUE5PayloadTOC {
		a.i64("PackageFileSummary.PayloadTocOffset", &s.PayloadTocOffset)
	}
	if ue5 >= VerUE5DataResources {
		a.i32("PackageFileSummary.DataResourceOffset", &s.DataResourceOffset)
	}
}

// Fields lists the summary's fields in file order, as read with versions v.
func (s *PackageFileSummary) Fields(v *Versions) []Field {
	// A summary has some 50 fields (more with custom versions).
	l := &lister{prefix: "PackageFileSummary.", out: make([]Field, 0, 64+len(s.CustomVersions)*3)}
	c := *s
	c.serialize(l, v)
	return l.out
}
