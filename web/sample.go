package web

import (
	"bytes"
	"image"
	"image/color"
	"image/png"

	"github.com/upkg/upkg/internal/binwrite"
	"github.com/upkg/upkg/ue"
)

// SampleName is the file name of the page's built-in sample package.
const SampleName = "upkgSample.uasset"

// Sample returns a small editor package written by upkg itself (not taken
// from any game or project), so that the page has something to show before
// the user drops a file: a UE5 (object version 1009) package with one data
// asset export carrying tagged properties, a PNG thumbnail, asset registry
// tags, a soft package reference and a depends map.
//
// The layout follows FPackageFileSummary::operator<< for LegacyFileVersion
// -8 with FileVersionUE4 522 and FileVersionUE5 1009 (DATA_RESOURCES) in an
// uncooked package; the browser test checks that upkg reads it back.
func Sample() []byte {
	names := []string{
		"/Game/Samples/upkgSample", "/Script/CoreUObject", "/Script/Engine", "Package", "Class",
		"DataAsset", "Default__DataAsset", "upkgSample", "None", "Answer", "IntProperty",
		"Greeting", "StrProperty", "bIsSample", "BoolProperty", "/Game/Textures/T_Example",
	}
	idx := map[string]int32{}
	for i, n := range names {
		idx[n] = int32(i)
	}
	name := func(w *binwrite.Writer, s string) { w.I32(idx[s]); w.I32(0) }

	type imp struct {
		classPkg, class, obj string
		outer                int32
	}
	imports := []imp{
		{"/Script/CoreUObject", "Package", "/Script/CoreUObject", 0},
		{"/Script/CoreUObject", "Package", "/Script/Engine", 0},
		{"/Script/CoreUObject", "Class", "DataAsset", -2},
		{"/Script/Engine", "DataAsset", "Default__DataAsset", -2},
	}

	// Export data: tagged properties (the pre-1011 FPropertyTag layout),
	// the "None" terminator, then UObject's "has GUID" flag.
	var data binwrite.Writer
	data = *binwrite.New()
	name(&data, "Answer")
	name(&data, "IntProperty")
	data.I32(4)  // Size
	data.I32(0)  // ArrayIndex
	data.U8(0)   // HasPropertyGuid
	data.I32(42) // value
	greeting := "Hello from upkg: this package was written by upkg's own code."
	var str binwrite.Writer
	str = *binwrite.New()
	str.FString(greeting)
	name(&data, "Greeting")
	name(&data, "StrProperty")
	data.I32(int32(str.Len()))
	data.I32(0)
	data.U8(0)
	data.Raw(str.Bytes())
	name(&data, "bIsSample")
	name(&data, "BoolProperty")
	data.I32(0) // Size: a bool's value lives in the tag
	data.I32(0)
	data.U8(1) // BoolVal
	data.U8(0) // HasPropertyGuid
	name(&data, "None")
	data.I32(0) // bHasObjectGuid (FLazyObjectPtr::PossiblySerializeObjectGuid)

	thumb := sampleThumbnail()

	// The summary's size does not depend on the offsets it holds, so write
	// it once to measure, lay the sections out, and write it again.
	type layout struct {
		names, imports, exports, depends, softRefs, thumbImg, thumbTable, registry, regDeps, header, data int32
	}
	var L layout
	var out []byte
	for pass := 0; pass < 2; pass++ {
		w := binwrite.New()
		w.U32(0x9E2A83C1)
		w.I32(-8)   // LegacyFileVersion
		w.I32(864)  // LegacyUE3Version
		w.I32(522)  // FileVersionUE4
		w.I32(1009) // FileVersionUE5
		w.I32(0)    // FileVersionLicenseeUE
		// Custom versions (GUID + version).
		w.I32(2)
		ue.WriteGuid(w, ue.CoreObjectVersion)
		w.I32(3)
		ue.WriteGuid(w, ue.FrameworkObjectVersion)
		w.I32(37)
		w.I32(L.header)
		w.FString("/Game/Samples/upkgSample") // PackageName
		w.U32(0)                              // PackageFlags
		w.I32(int32(len(names)))
		w.I32(L.names)
		w.I32(0)                                      // SoftObjectPathsCount
		w.I32(0)                                      // SoftObjectPathsOffset
		w.FString("5A3E1C9B4F7D4C2A8E6B0D1F2A3B4C5D") // LocalizationId
		w.I32(0)                                      // GatherableTextDataCount
		w.I32(0)                                      // GatherableTextDataOffset
		w.I32(1)                                      // ExportCount
		w.I32(L.exports)
		w.I32(int32(len(imports)))
		w.I32(L.imports)
		w.I32(L.depends)
		w.I32(1) // SoftPackageReferencesCount
		w.I32(L.softRefs)
		w.I32(0) // SearchableNamesOffset
		w.I32(L.thumbTable)
		ue.WriteGuid(w, ue.Guid{0x7570_6B67, 0x5361_6D70, 0x6C65_0001, 0x0000_2026}) // Guid
		ue.WriteGuid(w, ue.Guid{0x7570_6B67, 0x5361_6D70, 0x6C65_0002, 0x0000_2026}) // PersistentGuid
		w.I32(1)                                                                     // Generations
		w.I32(1)
		w.I32(int32(len(names)))
		ue.WriteEngineVersion(w, ue.EngineVersion{Major: 5, Minor: 3, Patch: 0, Changelist: 0, Branch: "upkg+Sample"})
		ue.WriteEngineVersion(w, ue.EngineVersion{Major: 5, Minor: 3, Patch: 0, Changelist: 0, Branch: "upkg+Sample"})
		w.U32(0) // CompressionFlags
		w.I32(0) // CompressedChunks
		w.U32(0) // PackageSource
		w.I32(0) // AdditionalPackagesToCook
		w.I32(L.registry)
		w.I64(int64(L.data) + int64(data.Len())) // BulkDataStartOffset: no bulk data
		w.I32(0)                                 // WorldTileInfoDataOffset
		w.I32(0)                                 // ChunkIDs
		w.I32(0)                                 // PreloadDependencyCount
		w.I32(0)                                 // PreloadDependencyOffset
		w.I32(int32(len(names)))                 // NamesReferencedFromExportDataCount
		w.I64(-1)                                // PayloadTocOffset
		w.I32(-1)                                // DataResourceOffset

		L.names = int32(w.Len())
		for _, n := range names {
			w.FString(n)
			w.U16(0) // hashes: the engine ignores them on load
			w.U16(0)
		}
		L.imports = int32(w.Len())
		for _, im := range imports {
			name(w, im.classPkg)
			name(w, im.class)
			w.I32(im.outer)
			name(w, im.obj)
			name(w, "None") // PackageName
			w.Bool32(false) // bImportOptional
		}
		L.exports = int32(w.Len())
		w.I32(-3) // ClassIndex: DataAsset
		w.I32(0)  // SuperIndex
		w.I32(-4) // TemplateIndex: Default__DataAsset
		w.I32(0)  // OuterIndex: the package
		name(w, "upkgSample")
		w.U32(0x1 | 0x2 | 0x8) // RF_Public | RF_Standalone | RF_Transactional
		w.I64(int64(data.Len()))
		w.I64(int64(L.data))
		w.Bool32(false) // bForcedExport
		w.Bool32(false) // bNotForClient
		w.Bool32(false) // bNotForServer
		w.Bool32(false) // bIsInheritedInstance
		w.U32(0)        // PackageFlags
		w.Bool32(false) // bNotAlwaysLoadedForEditorGame
		w.Bool32(true)  // bIsAsset
		w.Bool32(false) // bGeneratePublicHash
		for range 5 {   // preload dependency counts
			w.I32(-1)
		}
		L.depends = int32(w.Len())
		w.I32(1)  // export 1 depends on
		w.I32(-3) // DataAsset
		L.softRefs = int32(w.Len())
		name(w, "/Game/Textures/T_Example")
		L.thumbImg = int32(w.Len())
		w.I32(64)
		w.I32(64)
		w.I32(int32(len(thumb)))
		w.Raw(thumb)
		L.thumbTable = int32(w.Len())
		w.I32(1)
		w.FString("DataAsset")
		w.FString("upkgSample")
		w.I32(L.thumbImg)
		L.registry = int32(w.Len())
		w.I64(int64(L.regDeps)) // DependencyDataOffset
		w.I32(1)
		w.FString("upkgSample")
		w.FString("DataAsset")
		tags := [][2]string{{"Answer", "42"}, {"Description", "A tiny package written by upkg itself, to look around the page without a file."}, {"Greeting", greeting}}
		w.I32(int32(len(tags)))
		for _, t := range tags {
			w.FString(t[0])
			w.FString(t[1])
		}
		L.regDeps = int32(w.Len())
		w.I32(int32(len(imports))) // ImportUsedInGame bits
		w.U32(0b1111)
		w.I32(1) // SoftPackageUsedInGame bits
		w.U32(1)
		L.header = int32(w.Len())
		L.data = L.header
		w.Raw(data.Bytes())
		w.U32(0x9E2A83C1) // the package tag that ends every package, after the export and bulk data
		out = w.Bytes()
	}
	return out
}

// sampleThumbnail draws the sample's 64×64 PNG thumbnail: a blue-to-teal
// gradient with a white "u".
func sampleThumbnail() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			c := color.NRGBA{R: 30, G: uint8(80 + 2*y), B: uint8(200 - x), A: 255}
			inU := (x >= 20 && x < 27 || x >= 37 && x < 44) && y >= 18 && y < 46 || x >= 20 && x < 44 && y >= 40 && y < 46
			if inU {
				c = color.NRGBA{255, 255, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}
