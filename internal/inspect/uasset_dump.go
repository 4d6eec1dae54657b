//go:build !upkg_only || upkg_uasset

package inspect

import (
	"github.com/upkg/upkg/uasset"
)

// uassetDump is the complete model of a UE4/UE5 package as `upkg dump
// --json` prints it. Field names are stable.
type uassetDump struct {
	Format      string `json:"format"`
	PackagePath string `json:"package_path"`
	// PackagePathSource says where PackagePath came from ("summary",
	// "name map", "option": the file's folders, "file name").
	PackagePathSource string                     `json:"package_path_source,omitempty"`
	BigEndian         bool                       `json:"big_endian"`
	Engine            uasset.EngineInfo          `json:"engine"`
	Versions          uasset.Versions            `json:"versions"`
	Summary           *uasset.PackageFileSummary `json:"summary"`
	Sections          []Section                  `json:"sections"`
	Names             []uasset.NameEntry         `json:"names"`
	Imports           []dumpImport               `json:"imports"`
	Exports           []dumpExport               `json:"exports"`

	DependsMap            [][]uasset.PackageIndex      `json:"depends_map,omitempty"`
	SoftPackageReferences []string                     `json:"soft_package_references,omitempty"`
	SearchableNames       []dumpSearchable             `json:"searchable_names,omitempty"`
	SoftObjectPaths       []string                     `json:"soft_object_paths,omitempty"`
	GatherableTextData    []uasset.GatherableTextData  `json:"gatherable_text_data,omitempty"`
	Thumbnails            []uasset.Thumbnail           `json:"thumbnails,omitempty"`
	AssetRegistry         *uasset.AssetRegistryData    `json:"asset_registry,omitempty"`
	WorldTileInfo         *uasset.RawSection           `json:"world_tile_info,omitempty"`
	WorldTile             *uasset.WorldTileInfo        `json:"world_tile,omitempty"`
	PreloadDependencies   []uasset.PackageIndex        `json:"preload_dependencies,omitempty"`
	DataResources         *uasset.DataResources        `json:"data_resources,omitempty"`
	ImportTypeHierarchies []uasset.ImportTypeHierarchy `json:"import_type_hierarchies,omitempty"`
	CellImports           []uasset.CellImport          `json:"cell_imports,omitempty"`
	CellExports           []uasset.CellExport          `json:"cell_exports,omitempty"`
	MetaData              *uasset.MetaData             `json:"metadata,omitempty"`
	Trailer               *uasset.PackageTrailer       `json:"package_trailer,omitempty"`
}

type dumpImport struct {
	Index int32 `json:"index"`
	uasset.ObjectImport
	Name  string `json:"name"`
	Class string `json:"class"`
	Outer string `json:"outer,omitempty"`
	Path  string `json:"path"`
}

type dumpExport struct {
	Index int32 `json:"index"`
	uasset.ObjectExport
	Name     string `json:"name"`
	Class    string `json:"class"`
	Outer    string `json:"outer,omitempty"`
	Path     string `json:"path"`
	Super    string `json:"super,omitempty"`
	Template string `json:"template,omitempty"`
	Flags    string `json:"flags,omitempty"`
	InUexp   bool   `json:"in_uexp,omitempty"`
}

type dumpSearchable struct {
	Object string   `json:"object"`
	Names  []string `json:"names"`
}

func newUassetDump(f *uasset.File) *uassetDump {
	d := &uassetDump{
		Format: "uasset", PackagePath: f.PackagePath, PackagePathSource: f.PackagePathSource, BigEndian: f.BigEndian,
		Engine: f.Engine, Versions: f.Versions, Summary: &f.Summary,
		Names:                 f.Names,
		DependsMap:            f.DependsMap,
		GatherableTextData:    f.GatherableTextData,
		Thumbnails:            f.Thumbnails,
		AssetRegistry:         f.AssetRegistry,
		WorldTileInfo:         f.WorldTileInfo,
		WorldTile:             f.WorldTile,
		PreloadDependencies:   f.PreloadDependencies,
		DataResources:         f.DataResources,
		ImportTypeHierarchies: f.ImportTypeHierarchies,
		CellExports:           f.CellExports,
		CellImports:           f.CellImports,
		MetaData:              f.MetaData,
		Trailer:               f.Trailer,
	}
	d.Sections = uassetSections(f)
	for i, im := range f.Imports {
		idx := uasset.ImportIndex(i)
		d.Imports = append(d.Imports, dumpImport{Index: int32(idx), ObjectImport: im,
			Name: f.NameString(im.ObjectName), Class: f.ClassPath(idx), Outer: f.ObjectPath(im.OuterIndex), Path: f.ObjectPath(idx)})
	}
	for i, e := range f.Exports {
		idx := uasset.ExportIndex(i)
		d.Exports = append(d.Exports, dumpExport{Index: int32(idx), ObjectExport: e,
			Name: f.NameString(e.ObjectName), Class: f.ClassPath(idx), Outer: f.ObjectPath(e.OuterIndex), Path: f.ObjectPath(idx),
			Super: f.ObjectPath(e.SuperIndex), Template: f.ObjectPath(e.TemplateIndex),
			Flags: uasset.ObjectFlagsString(e.ObjectFlags), InUexp: e.InUexp()})
	}
	for _, r := range f.SoftPackageReferences {
		if r.Path.S != "" {
			d.SoftPackageReferences = append(d.SoftPackageReferences, r.Path.S)
		} else {
			d.SoftPackageReferences = append(d.SoftPackageReferences, f.NameString(r.Name))
		}
	}
	for _, sp := range f.SoftObjectPaths {
		d.SoftObjectPaths = append(d.SoftObjectPaths, f.SoftObjectPathString(sp))
	}
	for _, sn := range f.SearchableNames {
		ds := dumpSearchable{Object: f.ObjectPath(sn.Object)}
		for _, n := range sn.Names {
			ds.Names = append(ds.Names, f.NameString(n))
		}
		d.SearchableNames = append(d.SearchableNames, ds)
	}
	return d
}
