package uasset

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/upkg/upkg/internal/binread"
)

// Ground rules for this file: each optional section is read by its own
// function through readSection, which seeks to the section's offset, runs
// the section's serializer and records the byte range it covered. A section
// that fails keeps its error in File.Sections and leaves the rest of the
// package readable.

// sectionSer is a section's serializer, kept for the header rewrite.
type sectionSer func(a archive)

// readSection reads the section name at off with ser and records it.
func (f *File) readSection(name string, off int64, ser sectionSer, count func() int) error {
	if off <= 0 || off >= f.size {
		at := fmt.Sprintf("0x%x", off)
		if off < 0 {
			at = strconv.FormatInt(off, 10) // not "0x-fffce0"
		}
		err := formatErrf(name, "offset %s from the summary lies outside the file (size 0x%x)", at, f.size)
		f.Sections = append(f.Sections, Section{Name: name, Offset: off, Err: err})
		return err
	}
	// off lies inside the file (checked above), so the seek to it cannot
	// fail: no field name is joined for its error.
	br := f.tryRead(off, "", func(br *binread.Reader) { ser(loader{br}) })
	err := br.Err()
	n := 0
	if err == nil && count != nil {
		n = count()
	}
	size := br.Offset() - off
	if size < 0 {
		size = 0
	}
	err = formatErr(name, err)
	f.Sections = append(f.Sections, Section{Name: name, Offset: off, Size: size, Count: n, Err: err})
	if err == nil {
		// A section that failed is copied from the file by the rewrite.
		f.sers = append(f.sers, sectionRec{name: name, off: off, ser: ser})
	}
	return err
}

// sectionRec remembers how to rewrite a section that lies in the header.
type sectionRec struct {
	name string
	off  int64
	ser  sectionSer
}

// RawSection is a section kept as bytes: one whose layout depends on data
// this reader does not model (world tile info, Verse cells).
type RawSection struct {
	Offset int64  `json:"offset"`
	Data   []byte `json:"-"`
	Size   int64  `json:"size"`
}

// readOptionalSections reads every section the summary points at besides
// the name, import and export maps.
func (f *File) readOptionalSections() {
	s := &f.Summary
	v := &f.Versions
	inHeader := func(off int64) bool { return off > 0 && off < f.size }

	if s.SoftObjectPathsCount > 0 || (v.UE5 >= VerUE5AddSoftObjectPathList && s.SoftObjectPathsOffset > 0 && s.SoftObjectPathsCount > 0) {
		f.readSection("soft object paths", int64(s.SoftObjectPathsOffset), func(a archive) {
			serializeN(a, "SoftObjectPaths", &f.SoftObjectPaths, int(s.SoftObjectPathsCount), 20, func(a archive, p *SoftObjectPath) {
				p.serialize(a)
			})
			if l, ok := a.(loader); ok && l.r.Err() == nil {
				// Property decoding names each "package.asset": bounded as
				// the objects' paths are (checkPathBytes).
				total, limit := int64(0), 8*f.size+4<<20
				for i := range f.SoftObjectPaths {
					p := &f.SoftObjectPaths[i]
					for _, n := range []Name{p.PackageName, p.AssetName} {
						if b, ok := f.NameBase(n); ok {
							total += int64(len(b)) + 12
						}
					}
					if total > limit {
						l.r.Failf("SoftObjectPaths", "%d paths take more than %d bytes, 8 times the file's size and 4 MiB (long names referenced many times?)", len(f.SoftObjectPaths), limit)
						f.SoftObjectPaths = nil
						break
					}
				}
			}
		}, func() int { return len(f.SoftObjectPaths) })
	}
	if s.GatherableTextDataCount > 0 {
		off := int64(s.GatherableTextDataOffset)
		f.readSection("gatherable text data", off, func(a archive) {
			shareTextUpTo(a, f.nextBoundary(off)-off)
			serializeN(a, "GatherableTextData", &f.GatherableTextData, int(s.GatherableTextDataCount), 16, func(a archive, g *GatherableTextData) {
				g.serialize(a, 0)
			})
		}, func() int { return len(f.GatherableTextData) })
	}
	if s.MetaDataOffset > 0 {
		f.MetaData = &MetaData{}
		off := int64(s.MetaDataOffset)
		f.readSection("metadata", off, func(a archive) {
			shareTextUpTo(a, f.nextBoundary(off)-off)
			f.MetaData.serialize(a)
		},
			func() int { return len(f.MetaData.ObjectMetaData) + len(f.MetaData.RootMetaData) })
	}
	if s.CellImportCount > 0 {
		f.readSection("cell imports", int64(s.CellImportOffset), func(a archive) {
			serializeN(a, "CellImports", &f.CellImports, int(s.CellImportCount), cellImportMinSize, func(a archive, c *CellImport) { c.serialize(a) })
		}, func() int { return len(f.CellImports) })
	}
	if s.CellExportCount > 0 {
		f.readSection("cell exports", int64(s.CellExportOffset), func(a archive) {
			serializeN(a, "CellExports", &f.CellExports, int(s.CellExportCount), cellExportMinSize, func(a archive, c *CellExport) { c.serialize(a) })
		}, func() int { return len(f.CellExports) })
	}
	f.readDepends()
	if s.SoftPackageReferencesCount > 0 {
		f.readSection("soft package references", int64(s.SoftPackageReferencesOffset), func(a archive) {
			serializeN(a, "SoftPackageReferences", &f.SoftPackageReferences, int(s.SoftPackageReferencesCount), 4, func(a archive, r *SoftPackageReference) {
				r.serialize(a, v)
			})
		}, func() int { return len(f.SoftPackageReferences) })
	}
	if s.SearchableNamesOffset > 0 {
		f.readSection("searchable names", int64(s.SearchableNamesOffset), func(a archive) {
			serializeSlice(a, "SearchableNames", &f.SearchableNames, 8, func(a archive, e *SearchableNames) { e.serialize(a) })
		}, func() int { return len(f.SearchableNames) })
	}
	if s.ThumbnailTableOffset > 0 {
		f.readThumbnails()
	}
	if s.ImportTypeHierarchiesOffset > 0 {
		// A TMap with its own count; packages with no hierarchies still
		// write the empty map (corpus: UE 5.7 editor packages).
		f.readSection("import type hierarchies", int64(s.ImportTypeHierarchiesOffset), func(a archive) {
			serializeSlice(a, "ImportTypeHierarchies", &f.ImportTypeHierarchies, 8, func(a archive, h *ImportTypeHierarchy) {
				h.serialize(a)
			})
			if a.loading() && !a.failed() && len(f.ImportTypeHierarchies) != int(s.ImportTypeHierarchiesCount) {
				a.fail("ImportTypeHierarchies", fmt.Errorf("map holds %d entries, summary says %d", len(f.ImportTypeHierarchies), s.ImportTypeHierarchiesCount))
			}
		}, func() int { return len(f.ImportTypeHierarchies) })
	}
	if s.AssetRegistryDataOffset > 0 {
		f.readAssetRegistry()
	}
	if s.WorldTileInfoDataOffset > 0 {
		f.WorldTileInfo = f.readRaw("world tile info", int64(s.WorldTileInfoDataOffset), 1)
		if f.WorldTileInfo != nil {
			t, err := f.decodeWorldTile(f.WorldTileInfo)
			f.WorldTile = t
			if err != nil {
				f.Sections[len(f.Sections)-1].Err = err
			}
		}
	}
	if s.PreloadDependencyCount > 0 && inHeader(int64(s.PreloadDependencyOffset)) {
		f.readSectionShared("preload dependencies", int64(s.PreloadDependencyOffset), s.PreloadDependencyCount, func(a archive) {
			serializeN(a, "PreloadDependencies", &f.PreloadDependencies, int(s.PreloadDependencyCount), 4, func(a archive, p *PackageIndex) {
				p.serialize(a, "PreloadDependency")
			})
		}, func() int { return len(f.PreloadDependencies) },
			func() any { return f.PreloadDependencies }, func(v any) { f.PreloadDependencies = v.([]PackageIndex) })
	}
	if s.DataResourceOffset > 0 {
		f.DataResources = &DataResources{}
		f.readSection("data resources", int64(s.DataResourceOffset), func(a archive) { f.DataResources.serialize(a) },
			func() int { return len(f.DataResources.Resources) })
	}
	f.noteDataRanges()
	f.checkEndTag()
	if s.PayloadTocOffset > 0 {
		f.readTrailer()
	}
}

// serializeN handles an array whose count is stored in the summary rather
// than before the elements.
func serializeN[T any](a archive, field string, s *[]T, n int, minElem int64, elem func(a archive, v *T)) {
	if a.loading() {
		// n comes from the summary: preallocate only what the bytes left
		// could hold.
		if minElem < 1 {
			minElem = 1
		}
		out := make([]T, 0, binread.SliceCap(int(min(int64(n), a.remaining()/minElem))))
		for i := 0; i < n && !a.failed(); i++ {
			var zero T // read in place (see serializeSlice)
			out = append(out, zero)
			elem(a, &out[len(out)-1])
		}
		*s = out
		return
	}
	for i := range *s {
		elem(a, &(*s)[i])
	}
}

// readRaw keeps the bytes of a section this reader does not model, from off
// to the next section the summary points at (or the end of the header).
func (f *File) readRaw(name string, off int64, count int) *RawSection {
	end := f.nextBoundary(off)
	if off <= 0 || off > f.size || end < off {
		f.Sections = append(f.Sections, Section{Name: name, Offset: off, Count: count,
			Err: formatErrf(name, "offset 0x%x outside the file (size 0x%x)", off, f.size)})
		return nil
	}
	br := f.reader()
	br.SeekTo(off, name)
	b := br.Bytes(end-off, name)
	rs := &RawSection{Offset: off, Data: b, Size: end - off}
	err := formatErr(name, br.Err())
	f.Sections = append(f.Sections, Section{Name: name, Offset: off, Size: end - off, Count: count, Err: err})
	if err != nil {
		return nil
	}
	f.sers = append(f.sers, sectionRec{name: name, off: off, ser: func(a archive) { a.fixed(name, rs.Data) }})
	return rs
}

// nextBoundary returns the smallest section offset the summary records that
// lies after off, or the header end.
func (f *File) nextBoundary(off int64) int64 {
	s := &f.Summary
	end := int64(s.TotalHeaderSize)
	if end <= off {
		end = f.size
	}
	for _, o := range []int64{int64(s.NameOffset), int64(s.SoftObjectPathsOffset), int64(s.GatherableTextDataOffset),
		int64(s.ExportOffset), int64(s.ImportOffset), int64(s.CellExportOffset), int64(s.CellImportOffset),
		int64(s.MetaDataOffset), int64(s.DependsOffset), int64(s.SoftPackageReferencesOffset),
		int64(s.SearchableNamesOffset), int64(s.ThumbnailTableOffset), int64(s.ImportTypeHierarchiesOffset),
		int64(s.AssetRegistryDataOffset), int64(s.WorldTileInfoDataOffset), int64(s.PreloadDependencyOffset),
		int64(s.DataResourceOffset), s.BulkDataStartOffset, s.PayloadTocOffset} {
		if o > off && o < end {
			end = o
		}
	}
	for i := range f.Thumbnails {
		if o := int64(f.Thumbnails[i].FileOffset); o > off && o < end {
			end = o
		}
	}
	for i := range f.Exports {
		if o := f.Exports[i].SerialOffset; o > off && o < end {
			end = o
		}
	}
	return end
}

// readDepends reads the depends map: one array of package indices per export.
func (f *File) readDepends() {
	s := &f.Summary
	off := int64(s.DependsOffset)
	if off == 0 && f.Versions.UE4 > VerUE4PreloadDependenciesInCookedExports && f.Versions.UE4 < VerUE464BitExportMapSerialSizes && s.ExportCount > 0 {
		// Engines 4.14 and 4.15 wrote the depends map right after the
		// export map but left DependsOffset 0.
		for _, sec := range f.Sections {
			if sec.Name == "exports" {
				off = sec.Offset + sec.Size
			}
		}
	}
	if off == 0 {
		return
	}
	if s.ExportCount == 0 {
		// Some writers store an offset without entries; nothing to read.
		return
	}
	f.readSectionShared("depends map", off, s.ExportCount, func(a archive) {
		if l, ok := a.(loader); ok {
			f.DependsMap = readDependsMap(l.r, int(s.ExportCount))
			return
		}
		serializeN(a, "DependsMap", &f.DependsMap, int(s.ExportCount), 4, func(a archive, d *[]PackageIndex) {
			serializeSlice(a, "DependsMap.Entry", d, 4, func(a archive, p *PackageIndex) { p.serialize(a, "DependsMap.Index") })
		})
	}, func() int { return len(f.DependsMap) },
		func() any { return f.DependsMap }, func(v any) { f.DependsMap = v.([][]PackageIndex) })
}

// readDependsMap loads what the serializer above reads (n counted lists
// of package indexes), with the same fields, errors and results (an empty
// list is empty, not nil), but keeps every list in one backing array
// instead of one allocation per export. Each list
// is capped at its length, so appending to one cannot change another.
func readDependsMap(r *binread.Reader, n int) [][]PackageIndex {
	// Count first (each count is checked against the bytes left), then
	// read into an array of exactly that size.
	total := 0
	sc := *r
	for i := 0; i < n && sc.Err() == nil; i++ {
		c := sc.Count("DependsMap.Entry", 4)
		sc.Skip(int64(c)*4, "DependsMap.Entry")
		total += c
	}
	out := make([][]PackageIndex, 0, binread.SliceCap(int(min(int64(n), r.Remaining()/4))))
	flat := make([]PackageIndex, 0, total)
	ends := make([]int, 0, cap(out))
	for i := 0; i < n && r.Err() == nil; i++ {
		c := r.Count("DependsMap.Entry", 4)
		if r.Err() != nil {
			ends = append(ends, -1) // the list was not read: nil, as serializeSlice leaves it
			break
		}
		for j := 0; j < c && r.Err() == nil; j++ {
			flat = append(flat, PackageIndex(r.I32("DependsMap.Index")))
		}
		ends = append(ends, len(flat))
	}
	start := 0
	for _, e := range ends {
		if e < 0 {
			out = append(out, nil)
			continue
		}
		out = append(out, flat[start:e:e])
		start = e
	}
	return out
}

// SoftPackageReference is one entry of the soft package reference list: an
// FName since VER_UE4_ADDED_SOFT_OBJECT_PATH (514), an FString before.
type SoftPackageReference struct {
	Name Name   `json:"name"`
	Path String `json:"path,omitzero"`
}

func (r *SoftPackageReference) serialize(a archive, v *Versions) {
	if v.UE4 >= VerUE4AddedSoftObjectPath {
		r.Name.serialize(a, "SoftPackageReference")
	} else {
		a.str("SoftPackageReference", &r.Path)
	}
}

// SearchableNames is one entry of the searchable names map
// (TMap<FPackageIndex, TArray<FName>>).
type SearchableNames struct {
	Object PackageIndex `json:"object"`
	Names  []Name       `json:"names"`
}

func (e *SearchableNames) serialize(a archive) {
	e.Object.serialize(a, "SearchableNames.Object")
	serializeSlice(a, "SearchableNames.Names", &e.Names, 8, func(a archive, n *Name) { n.serialize(a, "SearchableNames.Name") })
}

// SoftObjectPath is FSoftObjectPath as the summary's list stores it (UE5
// ADD_SOFTOBJECTPATH_LIST, 1008): an FTopLevelAssetPath (package and asset
// FNames) and a sub-path string.
type SoftObjectPath struct {
	PackageName Name   `json:"package_name"`
	AssetName   Name   `json:"asset_name"`
	SubPath     String `json:"sub_path"`
}

func (p *SoftObjectPath) serialize(a archive) {
	p.PackageName.serialize(a, "SoftObjectPath.PackageName")
	p.AssetName.serialize(a, "SoftObjectPath.AssetName")
	a.str("SoftObjectPath.SubPathString", &p.SubPath)
}

// ImportTypeHierarchy is the UE5.7 (IMPORT_TYPE_HIERARCHIES, 1018) record of
// an imported type's super types.
type ImportTypeHierarchy struct {
	Import     PackageIndex   `json:"import"`
	SuperTypes []TypeResource `json:"super_types"`
}

// TypeResource is FTypeResource: a type and the class of that type, each
// with its package.
type TypeResource struct {
	TypeName         Name `json:"type_name"`
	PackageName      Name `json:"package_name"`
	ClassName        Name `json:"class_name"`
	ClassPackageName Name `json:"class_package_name"`
}

func (h *ImportTypeHierarchy) serialize(a archive) {
	h.Import.serialize(a, "ImportTypeHierarchy.Import")
	serializeSlice(a, "ImportTypeHierarchy.SuperTypes", &h.SuperTypes, 32, func(a archive, t *TypeResource) {
		t.TypeName.serialize(a, "TypeResource.TypeName")
		t.PackageName.serialize(a, "TypeResource.PackageName")
		t.ClassName.serialize(a, "TypeResource.ClassName")
		t.ClassPackageName.serialize(a, "TypeResource.ClassPackageName")
	})
}

// noteDataRanges records the export data and bulk data ranges as sections
// (for display; they are not part of the header rewrite).
func (f *File) noteDataRanges() {
	s := &f.Summary
	if len(f.Exports) > 0 {
		lo, hi := int64(-1), int64(0)
		for i := range f.Exports {
			e := &f.Exports[i]
			if e.SerialSize == 0 {
				continue
			}
			if lo < 0 || e.SerialOffset < lo {
				lo = e.SerialOffset
			}
			hi = max(hi, e.SerialOffset+e.SerialSize)
		}
		if lo >= 0 {
			sec := Section{Name: "export data", Offset: lo, Size: hi - lo, Count: len(f.Exports)}
			if f.uexp != nil && lo >= int64(s.TotalHeaderSize) {
				sec.InUexp = true
			}
			f.Sections = append(f.Sections, sec)
		}
	}
	if s.BulkDataStartOffset > 0 {
		end := f.serialLimit()
		if s.PayloadTocOffset > 0 && s.PayloadTocOffset >= s.BulkDataStartOffset {
			end = s.PayloadTocOffset
		}
		sec := Section{Name: "bulk data", Offset: s.BulkDataStartOffset, Size: max(0, end-s.BulkDataStartOffset)}
		if s.BulkDataStartOffset > f.serialLimit() && !f.missingUexp {
			sec.Size = 0
			sec.Err = formatErrf("bulk data", "BulkDataStartOffset 0x%x beyond the package data (size 0x%x)", s.BulkDataStartOffset, f.serialLimit())
		}
		if f.uexp != nil && s.BulkDataStartOffset >= int64(s.TotalHeaderSize) {
			sec.InUexp = true
		}
		f.Sections = append(f.Sections, sec)
	}
}

// checkEndTag checks the package tag the engine writes after the export and
// bulk data: the last 4 bytes of the .uexp of a split cooked package, else
// of the package file (for UE5 packages with a payload TOC it is the last
// field of the trailer footer). A missing or wrong tag means the file was
// cut or damaged, and is an error of the "package tag" section.
//
// Converters that rebuild split packages from IoStore containers (the
// UE 5.7 FarFarWest test assets of UAssetAPI) write no tag in the .uexp;
// they are told apart by a summary whose BulkDataStartOffset is the very
// end of the data and whose PackageSource is 0, which the engine's cooker
// does not leave together (it puts BulkDataStartOffset before the tag).
func (f *File) checkEndTag() {
	if f.missingUexp {
		return // the data and its tag lie in a .uexp that is not there
	}
	s := &f.Summary
	r, size, base := f.r, f.size, int64(0)
	if f.uexp != nil {
		r, size, base = f.uexp, f.uexpSize, int64(s.TotalHeaderSize)
	}
	end := base + size
	if f.uexp != nil && s.BulkDataStartOffset == end && s.PackageSource == 0 {
		return
	}
	sec := Section{Name: "package tag", Offset: end - 4, Size: 4, Count: 1, InUexp: f.uexp != nil}
	where := "package"
	if f.uexp != nil {
		where = ".uexp"
	}
	switch {
	case size < 4:
		sec.Offset, sec.Size = base, 0
		sec.Err = formatErr("package tag", &binread.Error{Offset: base, Field: "PackageFileTag",
			Err: fmt.Errorf("the %s is %d bytes, too short to end with the package tag: %w", where, size, io.ErrUnexpectedEOF)})
	default:
		br := binread.New(r, size)
		if f.BigEndian {
			br.SetOrder(binary.BigEndian)
		}
		br.SeekTo(size-4, "PackageFileTag")
		tag := br.U32("PackageFileTag")
		switch {
		case br.Err() != nil:
			sec.Err = formatErr("package tag", br.Err())
		case tag != PackageFileTag:
			sec.Err = formatErr("package tag", &binread.Error{Offset: end - 4, Field: "PackageFileTag",
				Err: fmt.Errorf("the %s ends with 0x%08X, not the package tag 0x%08X (cut short or damaged)", where, tag, PackageFileTag)})
		default:
			// The bulk data ends where the tag starts.
			for i := range f.Sections {
				if b := &f.Sections[i]; b.Name == "bulk data" && b.Err == nil && b.Offset+b.Size == end && b.Size >= 4 {
					b.Size -= 4
				}
			}
		}
	}
	f.Sections = append(f.Sections, sec)
}
