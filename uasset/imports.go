package uasset

// PackageIndex is FPackageIndex: 0 is null, -(i+1) is import i, i+1 is export i.
type PackageIndex int32

// IsNull reports whether the index refers to nothing.
func (p PackageIndex) IsNull() bool { return p == 0 }

// IsImport reports whether the index refers to an import.
func (p PackageIndex) IsImport() bool { return p < 0 }

// IsExport reports whether the index refers to an export.
func (p PackageIndex) IsExport() bool { return p > 0 }

// ToImport returns the 0-based import index (valid when IsImport).
func (p PackageIndex) ToImport() int { return int(-p - 1) }

// ToExport returns the 0-based export index (valid when IsExport).
func (p PackageIndex) ToExport() int { return int(p - 1) }

// ImportIndex returns the PackageIndex of import i.
func ImportIndex(i int) PackageIndex { return PackageIndex(-i - 1) }

// ExportIndex returns the PackageIndex of export i.
func ExportIndex(i int) PackageIndex { return PackageIndex(i + 1) }

func (p *PackageIndex) serialize(a archive, field string) {
	a.i32(field, (*int32)(p))
}

// ObjectImport is FObjectImport from ObjectResource.h: an object this package
// references in another package.
type ObjectImport struct {
	ClassPackage Name         `json:"class_package"`
	ClassName    Name         `json:"class_name"`
	OuterIndex   PackageIndex `json:"outer_index"`
	ObjectName   Name         `json:"object_name"`
	// PackageName: VER_UE4_NON_OUTER_PACKAGE_IMPORT (520), editor packages
	// only before UE 5.8, every package from 5.8 on (no object version marks
	// that; see Versions.CookedImportPackageName).
	PackageName Name `json:"package_name"`
	// ImportOptional: UE5 OPTIONAL_RESOURCES (1003).
	ImportOptional bool `json:"import_optional"`
}

// importMinSize is the smallest import entry (UE4 before 520): three FNames
// and an index.
const importMinSize = 28

// importLayout is all that the layout of an import map entry takes from
// the package's versions and flags. serialize consults nothing else, so
// two readings whose importLayouts are equal read an import map alike.
type importLayout struct {
	// packageName: VER_UE4_NON_OUTER_PACKAGE_IMPORT, in editor packages
	// or cooked ones from 5.8 on.
	packageName bool
	optional    bool // UE5 OPTIONAL_RESOURCES
}

func importLayoutOf(v *Versions, editor bool) importLayout {
	return importLayout{
		packageName: (editor || v.CookedImportPackageName) && v.UE4 >= VerUE4NonOuterPackageImport,
		optional:    v.UE5 >= VerUE5OptionalResources,
	}
}

// importSize is the size of one import entry written with versions v.
func importSize(v *Versions, editor bool) int64 {
	l := importLayoutOf(v, editor)
	n := int64(3*8 + 4)
	if l.packageName {
		n += 8
	}
	if l.optional {
		n += 4
	}
	return n
}

func (im *ObjectImport) serialize(a archive, l importLayout) {
	im.ClassPackage.serialize(a, "ObjectImport.ClassPackage")
	im.ClassName.serialize(a, "ObjectImport.ClassName")
	im.OuterIndex.serialize(a, "ObjectImport.OuterIndex")
	im.ObjectName.serialize(a, "ObjectImport.ObjectName")
	if l.packageName {
		im.PackageName.serialize(a, "ObjectImport.PackageName")
	}
	if l.optional {
		a.bool32("ObjectImport.bImportOptional", &im.ImportOptional)
	}
}
