package uasset

import (
	"fmt"
	"io"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// ObjectExport is FObjectExport from ObjectResource.h: an object this package
// defines, and where its serialized data lies.
type ObjectExport struct {
	ClassIndex PackageIndex `json:"class_index"`
	SuperIndex PackageIndex `json:"super_index"`
	// TemplateIndex: VER_UE4_TemplateIndex_IN_COOKED_EXPORTS (508).
	TemplateIndex PackageIndex `json:"template_index"`
	OuterIndex    PackageIndex `json:"outer_index"`
	ObjectName    Name         `json:"object_name"`
	ObjectFlags   uint32       `json:"object_flags"`
	// SerialSize and SerialOffset are int32 before
	// VER_UE4_64BIT_EXPORTMAP_SERIALSIZES (511), int64 after. SerialOffset
	// counts from the start of the .uasset, continuing into the .uexp for
	// split cooked packages.
	SerialSize   int64 `json:"serial_size"`
	SerialOffset int64 `json:"serial_offset"`
	ForcedExport bool  `json:"forced_export"`
	NotForClient bool  `json:"not_for_client"`
	NotForServer bool  `json:"not_for_server"`
	// PackageGuid: removed by UE5 REMOVE_OBJECT_EXPORT_PACKAGE_GUID (1005).
	PackageGuid ue.Guid `json:"package_guid"`
	// IsInheritedInstance: UE5 TRACK_OBJECT_EXPORT_IS_INHERITED (1006).
	IsInheritedInstance bool   `json:"is_inherited_instance"`
	PackageFlags        uint32 `json:"package_flags"`
	// NotAlwaysLoadedForEditorGame: VER_UE4_LOAD_FOR_EDITOR_GAME (365).
	NotAlwaysLoadedForEditorGame bool `json:"not_always_loaded_for_editor_game"`
	// IsAsset: VER_UE4_COOKED_ASSETS_IN_EDITOR_SUPPORT (485).
	IsAsset bool `json:"is_asset"`
	// GeneratePublicHash: UE5 OPTIONAL_RESOURCES (1003).
	GeneratePublicHash bool `json:"generate_public_hash"`
	// Dependency counts into the preload dependency array:
	// VER_UE4_PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS (507).
	FirstExportDependency                        int32 `json:"first_export_dependency"`
	SerializationBeforeSerializationDependencies int32 `json:"serialization_before_serialization_dependencies"`
	CreateBeforeSerializationDependencies        int32 `json:"create_before_serialization_dependencies"`
	SerializationBeforeCreateDependencies        int32 `json:"serialization_before_create_dependencies"`
	CreateBeforeCreateDependencies               int32 `json:"create_before_create_dependencies"`
	// Script serialization offsets (relative to SerialOffset): UE5
	// SCRIPT_SERIALIZATION_OFFSET (1010), only without unversioned properties.
	ScriptSerializationStartOffset int64 `json:"script_serialization_start_offset"`
	ScriptSerializationEndOffset   int64 `json:"script_serialization_end_offset"`

	f *File
}

// exportMinSize is the smallest export entry (UE4 214: four indices, an
// FName, flags, 32-bit size and offset, three bools, a GUID and package flags).
const exportMinSize = 64

// exportLayout is all that the layout of an export map entry takes from
// the package's versions and flags. serialize consults nothing else, so
// two readings whose exportLayouts are equal read an export map alike.
type exportLayout struct {
	templateIndex     bool // VER_UE4_TemplateIndex_IN_COOKED_EXPORTS
	serial64          bool // VER_UE4_64BIT_EXPORTMAP_SERIALSIZES
	packageGuid       bool // before UE5 REMOVE_OBJECT_EXPORT_PACKAGE_GUID
	inherited         bool // UE5 TRACK_OBJECT_EXPORT_IS_INHERITED
	loadForEditorGame bool // VER_UE4_LOAD_FOR_EDITOR_GAME
	isAsset           bool // VER_UE4_COOKED_ASSETS_IN_EDITOR_SUPPORT
	publicHash        bool // UE5 OPTIONAL_RESOURCES
	preloadDeps       bool // VER_UE4_PRELOAD_DEPENDENCIES_IN_COOKED_EXPORTS
	scriptOffsets     bool // UE5 SCRIPT_SERIALIZATION_OFFSET, versioned properties only
}

func exportLayoutOf(v *Versions, unversionedProps bool) exportLayout {
	return exportLayout{
		templateIndex:     v.UE4 >= VerUE4TemplateIndexInCookedExports,
		serial64:          v.UE4 >= VerUE464BitExportMapSerialSizes,
		packageGuid:       v.UE5 < VerUE5RemoveObjectExportPackageGUID,
		inherited:         v.UE5 >= VerUE5TrackObjectExportIsInherited,
		loadForEditorGame: v.UE4 >= VerUE4LoadForEditorGame,
		isAsset:           v.UE4 >= VerUE4CookedAssetsInEditorSupport,
		publicHash:        v.UE5 >= VerUE5OptionalResources,
		preloadDeps:       v.UE4 >= VerUE4PreloadDependenciesInCookedExports,
		scriptOffsets:     !unversionedProps && v.UE5 >= VerUE5ScriptSerializationOffset,
	}
}

func (e *ObjectExport) serialize(a archive, l exportLayout) {
	e.ClassIndex.serialize(a, "ObjectExport.ClassIndex")
	e.SuperIndex.serialize(a, "ObjectExport.SuperIndex")
	if l.templateIndex {
		e.TemplateIndex.serialize(a, "ObjectExport.TemplateIndex")
	}
	e.OuterIndex.serialize(a, "ObjectExport.OuterIndex")
	e.ObjectName.serialize(a, "ObjectExport.ObjectName")
	a.u32("ObjectExport.ObjectFlags", &e.ObjectFlags)
	if !l.serial64 {
		// 32-bit on disk. The reader and the rewrite convert in place;
		// other archives get int32 variables (which then live on the heap).
		switch a := a.(type) {
		case loader:
			e.SerialSize = int64(a.r.I32("ObjectExport.SerialSize"))
			e.SerialOffset = int64(a.r.I32("ObjectExport.SerialOffset"))
		case *saver:
			a.w.I32(int32(e.SerialSize))
			a.w.I32(int32(e.SerialOffset))
		default:
			size, off := int32(e.SerialSize), int32(e.SerialOffset)
			a.i32("ObjectExport.SerialSize", &size)
			a.i32("ObjectExport.SerialOffset", &off)
			e.SerialSize, e.SerialOffset = int64(size), int64(off)
		}
	} else {
		a.i64("ObjectExport.SerialSize", &e.SerialSize)
		a.i64("ObjectExport.SerialOffset", &e.SerialOffset)
	}
	a.bool32("ObjectExport.bForcedExport", &e.ForcedExport)
	a.bool32("ObjectExport.bNotForClient", &e.NotForClient)
	a.bool32("ObjectExport.bNotForServer", &e.NotForServer)
	if l.packageGuid {
		a.guid("ObjectExport.PackageGuid", &e.PackageGuid)
	}
	if l.inherited {
		a.bool32("ObjectExport.bIsInheritedInstance", &e.IsInheritedInstance)
	}
	a.u32("ObjectExport.PackageFlags", &e.PackageFlags)
	if l.loadForEditorGame {
		a.bool32("ObjectExport.bNotAlwaysLoadedForEditorGame", &e.NotAlwaysLoadedForEditorGame)
	}
	if l.isAsset {
		a.bool32("ObjectExport.bIsAsset", &e.IsAsset)
	}
	if l.publicHash {
		a.bool32("ObjectExport.bGeneratePublicHash", &e.GeneratePublicHash)
	}
	if l.preloadDeps {
		a.i32("ObjectExport.FirstExportDependency", &e.FirstExportDependency)
		a.i32("ObjectExport.SerializationBeforeSerializationDependencies", &e.SerializationBeforeSerializationDependencies)
		a.i32("ObjectExport.CreateBeforeSerializationDependencies", &e.CreateBeforeSerializationDependencies)
		a.i32("ObjectExport.SerializationBeforeCreateDependencies", &e.SerializationBeforeCreateDependencies)
		a.i32("ObjectExport.CreateBeforeCreateDependencies", &e.CreateBeforeCreateDependencies)
	} else if a.loading() {
		e.FirstExportDependency = -1
	}
	if l.scriptOffsets {
		a.i64("ObjectExport.ScriptSerializationStartOffset", &e.ScriptSerializationStartOffset)
		a.i64("ObjectExport.ScriptSerializationEndOffset", &e.ScriptSerializationEndOffset)
	}
}

// Open returns a reader over the export's serialized bytes, wherever they
// lie (.uasset, or .uexp for split cooked packages). Each call returns a
// fresh reader.
func (e *ObjectExport) Open() (*io.SectionReader, error) {
	if e.f == nil {
		return nil, fmt.Errorf("uasset: export not attached to a file")
	}
	return e.f.serialRange(e.SerialOffset, e.SerialSize)
}

// Data reads the export's serialized bytes. When the file is held in
// memory (a [binread.Mem], as the CLI opens packages of a few MiB), or
// its reader hands out slices of itself (a [binread.Slicer]: the CLI maps
// a big .uexp that way), they are a slice of it, not a copy, like zen's
// Package.ExportData: callers must not modify them.
func (e *ObjectExport) Data() ([]byte, error) {
	if e.f == nil {
		return nil, fmt.Errorf("uasset: export not attached to a file")
	}
	n := e.SerialSize
	r, off, err := e.f.serialSpan(e.SerialOffset, n)
	if err != nil {
		return nil, err
	}
	if m, ok := r.(binread.Mem); ok && off >= 0 && off <= int64(len(m)) && n <= int64(len(m))-off {
		return m[off : off+n : off+n], nil
	}
	if binread.CanSlice {
		if b, ok := binread.SliceOf(r, off, n); ok {
			return b, nil
		}
	}
	return readAllSection(io.NewSectionReader(r, off, n))
}

// InUexp reports whether the export's data lies in the .uexp companion.
func (e *ObjectExport) InUexp() bool {
	return e.f != nil && e.f.uexp != nil && e.SerialOffset >= int64(e.f.Summary.TotalHeaderSize)
}
