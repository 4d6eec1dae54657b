package uasset

import (
	"strings"
)

// maxOuterDepth bounds outer chains; real packages nest a few levels, and a
// cycle in a hostile file must not loop forever.
const maxOuterDepth = 128

// ObjectName returns the name of the object p refers to ("" for null).
func (f *File) ObjectName(p PackageIndex) string {
	switch {
	case p.IsImport() && p.ToImport() < len(f.Imports):
		return f.NameString(f.Imports[p.ToImport()].ObjectName)
	case p.IsExport() && p.ToExport() < len(f.Exports):
		return f.NameString(f.Exports[p.ToExport()].ObjectName)
	}
	return ""
}

// Outer returns the outer index of the object p refers to.
func (f *File) Outer(p PackageIndex) PackageIndex {
	switch {
	case p.IsImport() && p.ToImport() < len(f.Imports):
		return f.Imports[p.ToImport()].OuterIndex
	case p.IsExport() && p.ToExport() < len(f.Exports):
		return f.Exports[p.ToExport()].OuterIndex
	}
	return 0
}

// isPackage reports whether p refers to a package object: an import of class
// Package with no outer (exports are never packages; their null outer is this
// package itself).
func (f *File) isPackage(p PackageIndex) bool {
	if !p.IsImport() || p.ToImport() >= len(f.Imports) {
		return false
	}
	im := &f.Imports[p.ToImport()]
	if !im.OuterIndex.IsNull() {
		return false
	}
	c, _ := f.NameBase(im.ClassName)
	return c == "Package"
}

// outerIsPackage reports whether the outer of p is a package: an import
// whose outer is a package import, or an export with a null outer.
func (f *File) outerIsPackage(p PackageIndex) bool {
	o := f.Outer(p)
	if p.IsExport() {
		return o.IsNull()
	}
	return f.isPackage(o)
}

// ObjectPath returns the full path of the object p refers to, as the engine
// prints it: "/Script/Engine.Actor", "/Game/Maps/Level1.Level1:PersistentLevel".
// A subobject of a top-level object is joined with ':', deeper ones with '.'.
func (f *File) ObjectPath(p PackageIndex) string {
	if p.IsNull() {
		return ""
	}
	var chainBuf [16]PackageIndex
	chain := chainBuf[:0]
	cur := p
	for !cur.IsNull() {
		if len(chain) >= maxOuterDepth {
			return "<outer chain too deep or cyclic>/" + f.ObjectName(p)
		}
		if (cur.IsImport() && cur.ToImport() >= len(f.Imports)) || (cur.IsExport() && cur.ToExport() >= len(f.Exports)) {
			return "<bad index>/" + f.ObjectName(p)
		}
		chain = append(chain, cur)
		cur = f.Outer(cur)
	}
	// The names first, so that the path is built in one allocation.
	var namesBuf [16]string
	names := namesBuf[:0]
	size := len(chain)
	last := chain[len(chain)-1]
	if last.IsExport() {
		size += len(f.PackagePath)
	}
	for _, c := range chain {
		n := f.ObjectName(c)
		names = append(names, n)
		size += len(n)
	}
	var b strings.Builder
	b.Grow(size)
	if last.IsExport() {
		// Top-level exports live in this package.
		b.WriteString(f.PackagePath)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		switch {
		case i == len(chain)-1 && c.IsImport():
			// The root of an import chain is its package.
		case i == len(chain)-1:
			if f.PackagePath != "" {
				b.WriteByte('.')
			}
		default:
			outer := chain[i+1]
			if !f.isPackage(outer) && f.outerIsPackage(outer) {
				b.WriteByte(':')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteString(names[i])
	}
	return b.String()
}

// checkPathBytes fails when the paths of the package's imports and exports
// (ObjectPath of each) would take more than 8 times the file's size and 4
// MiB in all (real packages' take a fraction of their size). Long names
// repeated down deep outer chains, or numbered, which formats them anew
// each time, could make a small file's paths take gigabytes; reading the
// tables builds none of them, listing them builds each a few times.
func (f *File) checkPathBytes() error {
	limit := 8*f.size + 4<<20
	total := int64(0)
	ni := len(f.Imports)
	for k := range ni + len(f.Exports) {
		p := ImportIndex(k)
		if k >= ni {
			p = ExportIndex(k - ni)
		}
		total += f.pathLenBound(p)
		if total > limit {
			return formatErrf("imports and exports", "the paths of its %d imports and %d exports take more than %d bytes, 8 times its size and 4 MiB (long names repeated by deep outer chains?)", ni, len(f.Exports), limit)
		}
	}
	return nil
}

// pathLenBound is at least len(f.ObjectPath(p)).
func (f *File) pathLenBound(p PackageIndex) int64 {
	nameLen := func(p PackageIndex) int64 {
		var n Name
		switch {
		case p.IsImport() && p.ToImport() < len(f.Imports):
			n = f.Imports[p.ToImport()].ObjectName
		case p.IsExport() && p.ToExport() < len(f.Exports):
			n = f.Exports[p.ToExport()].ObjectName
		default:
			return 0
		}
		base, ok := f.NameBase(n)
		switch {
		case !ok:
			return 40 // "<bad name index N>"
		case n.Number != 0:
			return int64(len(base)) + 12 // "_" and the number
		}
		return int64(len(base))
	}
	total := int64(len(f.PackagePath)) + 40 // (or "<bad index>/" and the like)
	for cur, depth := p, 0; !cur.IsNull(); cur, depth = f.Outer(cur), depth+1 {
		if depth >= maxOuterDepth {
			break
		}
		total += nameLen(cur) + 1
	}
	return total
}

// ClassPath returns the full path of the class of the object p refers to.
// An export with a null class index is itself a class ("/Script/CoreUObject.Class").
func (f *File) ClassPath(p PackageIndex) string {
	switch {
	case p.IsImport() && p.ToImport() < len(f.Imports):
		im := &f.Imports[p.ToImport()]
		pkg, _ := f.NameBase(im.ClassPackage)
		return pkg + "." + f.NameString(im.ClassName)
	case p.IsExport() && p.ToExport() < len(f.Exports):
		c := f.Exports[p.ToExport()].ClassIndex
		if c.IsNull() {
			return "/Script/CoreUObject.Class"
		}
		return f.ObjectPath(c)
	}
	return ""
}

// ClassName returns the short class name of the object p refers to ("Actor").
func (f *File) ClassName(p PackageIndex) string {
	switch {
	case p.IsImport() && p.ToImport() < len(f.Imports):
		return f.NameString(f.Imports[p.ToImport()].ClassName)
	case p.IsExport() && p.ToExport() < len(f.Exports):
		c := f.Exports[p.ToExport()].ClassIndex
		if c.IsNull() {
			return "Class"
		}
		return f.ObjectName(c)
	}
	return ""
}

// AssetExport returns the index of the export the Content Browser shows
// (bIsAsset), or -1. Packages saved before bIsAsset existed (UE4 485) fall
// back to UObject::IsAsset's rule: a public top-level object that is not a
// class default object, not transient and not the package's MetaData,
// preferring the one named like the package.
func (f *File) AssetExport() int {
	for i := range f.Exports {
		if f.Exports[i].IsAsset {
			return i
		}
	}
	if f.Versions.UE4 >= VerUE4CookedAssetsInEditorSupport {
		return -1
	}
	short := f.PackagePath[strings.LastIndexByte(f.PackagePath, '/')+1:]
	found := -1
	for i := range f.Exports {
		e := &f.Exports[i]
		if !e.OuterIndex.IsNull() || e.ObjectFlags&RF_Public == 0 || e.ObjectFlags&(RF_ClassDefaultObject|RF_Transient) != 0 {
			continue
		}
		if f.ClassName(ExportIndex(i)) == "MetaData" {
			continue
		}
		if n, _ := f.NameBase(e.ObjectName); n == short {
			return i
		}
		if found < 0 {
			found = i
		}
	}
	return found
}

// Children returns the exports whose outer is p (0 for the top level), in
// export order: the outer tree.
func (f *File) Children(p PackageIndex) []int {
	var out []int
	for i := range f.Exports {
		if f.Exports[i].OuterIndex == p {
			out = append(out, i)
		}
	}
	return out
}

// packagePath decides the long package name, preferring what the file
// records: the summary's PackageName (a long name in UE5 and editor
// packages; "None" or empty in older cooked ones), then a name-map entry
// naming a top-level export's package, then the name given with
// WithPackageName, and last "/Game/<file base name>".
func (f *File) packagePath() (path, source string) {
	if p := f.Summary.PackageName.S; strings.HasPrefix(p, "/") {
		return p, "summary"
	}
	if p := f.tables.nameMapPackagePath(f); p != "" {
		return p, "name map"
	}
	if f.pkgNameOpt != "" {
		return f.pkgNameOpt, "option"
	}
	if f.fileBase != "" {
		return "/Game/" + f.fileBase, "file name"
	}
	return "", ""
}

// nameMapPackagePath looks in the name map for a long package name ending in
// the name of a top-level export (cooked packages keep their own name there).
func (f *File) nameMapPackagePath() string {
	top := map[string]bool{}
	for i := range f.Exports {
		if f.Exports[i].OuterIndex.IsNull() {
			if n, ok := f.NameBase(f.Exports[i].ObjectName); ok {
				top[n] = true
			}
		}
	}
	// Names imported as packages are other packages, not this one.
	imported := map[int32]bool{}
	for i := range f.Imports {
		if f.Imports[i].OuterIndex.IsNull() {
			imported[f.Imports[i].ObjectName.Index] = true
		}
	}
	for i, n := range f.Names {
		s := n.Name.S
		if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "/Script/") || imported[int32(i)] {
			continue
		}
		base := s[strings.LastIndexByte(s, '/')+1:]
		if top[base] {
			return s
		}
	}
	return ""
}
