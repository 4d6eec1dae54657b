//go:build !upkg_only || upkg_uasset

package inspect

// This file connects the UE4/UE5 package reader (package uasset) to the
// front ends: it recognises .uasset/.umap files and turns a *uasset.File into
// the shared Package model. Other helpers extend it from their own files
// through uassetHooks and uassetOptions, without editing this one.

import (
	"encoding/binary"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/uasset"
)

// uassetHooks run after the Package of a UE4/UE5 package is built (the
// property decoder adds Props and Properties from its own file).
var uassetHooks []func(f *uasset.File, p *Package, opts *Options) error

// uassetOptions add reader options when a UE4/UE5 package is opened (the
// property decoder adds a uasset.WithCandidateCheck for engine inference).
var uassetOptions []func(in *Input, opts *Options) []uasset.Option

func init() {
	RegisterOpener(Opener{
		Format:   "uasset",
		Match:    matchUasset,
		Open:     openUasset,
		Priority: 10,
	})
}

// matchUasset accepts the package tag in either byte order followed by a
// negative legacy file version (UE1–UE3 packages carry the same tag with a
// positive version; zen packages have no tag), and Ace Combat 7's encrypted
// packages, so that they get a clear error.
func matchUasset(head []byte, name string) bool {
	if len(head) >= 4 && string(head[:4]) == "ACE7" {
		return true
	}
	if len(head) < 8 {
		return false
	}
	switch binary.LittleEndian.Uint32(head) {
	case uasset.PackageFileTag:
		return int32(binary.LittleEndian.Uint32(head[4:])) < 0
	case uasset.PackageFileTagSwapped:
		return int32(binary.BigEndian.Uint32(head[4:])) < 0
	}
	return false
}

// guessPackagePath derives a long package name from a file path in a
// project's Content folder:
// ".../Content/Maps/Level1.umap" becomes "/Game/Maps/Level1", a plugin's
// ".../Plugins/X/Content/A.uasset" becomes "/X/A".
func guessPackagePath(name string) string {
	if _, inner, ok := SplitContainerPath(name); ok {
		name = inner
	}
	p := filepath.ToSlash(name)
	p = strings.TrimSuffix(p, path.Ext(p))
	if i := strings.LastIndex(p, "/Content/"); i >= 0 {
		root := "Game"
		before := p[:i]
		if j := strings.LastIndex(before, "/Plugins/"); j >= 0 {
			rest := before[j+len("/Plugins/"):]
			root = rest[strings.LastIndexByte(rest, '/')+1:]
		} else if strings.HasSuffix(before, "/Engine") {
			root = "Engine"
		}
		return "/" + root + "/" + p[i+len("/Content/"):]
	}
	if strings.HasPrefix(p, "/Game/") || strings.HasPrefix(p, "/Engine/") {
		return p
	}
	// Outside a Content folder the file path says nothing; the reader
	// takes the package name from the name map.
	return ""
}

func openUasset(in *Input, opts *Options) (*Package, error) {
	// The path guess is only a fallback: the reader prefers the name the
	// package records (uasset.File.PackagePathSource).
	uopts := []uasset.Option{uasset.WithPackageName(guessPackagePath(in.Name)), uasset.WithFileName(in.Name)}
	if in.Sibling != nil {
		uopts = append(uopts, uasset.WithSibling(in.Sibling))
	}
	if opts.Engine != "" {
		uopts = append(uopts, uasset.WithEngine(opts.Engine))
	}
	if opts.resultOnly {
		// The bulk data companions are only listed (Package.Companions),
		// which a verify line does not show; the File is released below.
		uopts = append(uopts, uasset.WithoutBulkNotes(), uasset.WithRelease())
	}
	for _, fn := range uassetOptions {
		uopts = append(uopts, fn(in, opts)...)
	}
	f, err := uasset.NewFile(in.R, in.Size, uopts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	var p *Package
	if opts.resultOnly {
		p = resultPackageFromUasset(f, in.Name)
	} else {
		p = packageFromUasset(f, in.Name)
	}
	if opts.Verify {
		rt := headerRoundtrip(f)
		p.HeaderRoundtrip = &rt
	}
	for _, h := range uassetHooks {
		if err := h(f, p, opts); err != nil {
			p.Warnings = append(p.Warnings, err.Error())
		}
	}
	if bulkCheckBuilt && opts.Verify && in.Sibling != nil {
		note, err := checkBulkFiles(f, in.Sibling)
		if err != nil {
			p.Sections = append(p.Sections, Section{Name: "bulk data", Error: err.Error()})
		}
		p.addNote(note)
	}
	if opts.resultOnly {
		// The line is built from p alone (its counts, engine, sections
		// and property statistics): the tables serve the next package.
		f.Release()
	}
	return p, nil
}

// headerRoundtrip rewrites the header from the model and compares it with
// the file's first bytes.
func headerRoundtrip(f *uasset.File) bool {
	ok, _, err := f.HeaderRoundTrip()
	return ok && err == nil
}

func packageFromUasset(f *uasset.File, name string) *Package {
	s := &f.Summary
	p := &Package{
		Path:             name,
		Format:           "uasset",
		Engine:           f.Engine.Version,
		EngineSource:     f.Engine.Source,
		EngineCandidates: f.Engine.Candidates,
		EngineNote:       f.Engine.Note,
		BigEndian:        f.BigEndian,
		Companions:       f.Companions,
	}
	switch f.PackagePathSource {
	case "option":
		p.Warnings = append(p.Warnings, "package path "+f.PackagePath+" guessed from the file's folders: the package does not record its name")
	case "file name":
		p.Warnings = append(p.Warnings, "package path "+f.PackagePath+" guessed from the file name: the package does not record its name")
	}
	if p.Engine == "" {
		p.Engine = uassetVersionsEngine(f)
	}
	fields := s.Fields(&f.Versions)
	p.Summary = make([]Field, 0, len(fields)+3)
	for _, fl := range fields {
		if strings.HasPrefix(fl.Name, "CustomVersion.") {
			continue
		}
		if fl.Name == "Tag" {
			fl.Value = fmt.Sprintf("0x%08X", s.Tag)
		}
		p.Summary = append(p.Summary, Field{Key: fl.Name, Value: fl.Value})
		if fl.Name == "PackageFlags" {
			p.Summary = append(p.Summary, Field{Key: "PackageFlags (names)", Value: uasset.PackageFlagsString(s.PackageFlags)})
		}
	}
	if s.Unversioned() {
		p.Summary = append(p.Summary,
			Field{Key: "ReadAs.FileVersionUE4", Value: f.Versions.UE4},
			Field{Key: "ReadAs.FileVersionUE5", Value: f.Versions.UE5})
	}
	for _, c := range s.CustomVersions {
		p.CustomVersions = append(p.CustomVersions, CustomVersion{Guid: c.Key.String(), Name: c.Name(), Version: c.Version})
	}
	p.Sections = uassetSections(f)
	for _, g := range f.HeaderGaps() {
		name := "unaccounted"
		if g.Zero {
			name = "padding"
		}
		p.Sections = append(p.Sections, Section{Name: name, Offset: g.Offset, Size: g.Size})
		if !g.Zero {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%d header bytes at 0x%x belong to no known section", g.Size, g.Offset))
		}
	}
	sortSections(p.Sections)
	if f.MissingUexp() {
		p.Warnings = append(p.Warnings, "export data lies in a .uexp companion that was not found")
		p.addNote(missingUexpNote)
	}

	p.Names = make([]Name, len(f.Names))
	hashes := f.Versions.UE4 >= uasset.VerUE4NameHashesSerialized
	var hashText string
	if hashes {
		// Every hash as nameHashes16 renders it, in one string: each
		// name's is an 8-byte substring of it, not an allocation each.
		b := make([]byte, 0, 8*len(f.Names))
		for _, n := range f.Names {
			b = hexDigits(hexDigits(b, uint64(n.NonCasePreservingHash), 4), uint64(n.CasePreservingHash), 4)
		}
		hashText = string(b)
	}
	for i, n := range f.Names {
		p.Names[i] = Name{Name: n.Name.S}
		if hashes {
			p.Names[i].Hash = hashText[8*i : 8*i+8]
		}
	}
	paths := newPathCache(f)
	p.Imports = make([]Object, len(f.Imports))
	for i := range f.Imports {
		im := &f.Imports[i]
		idx := uasset.ImportIndex(i)
		o := Object{
			Index:        int32(idx),
			Name:         f.NameString(im.ObjectName),
			Class:        f.ClassPath(idx),
			Outer:        paths.get(im.OuterIndex),
			OuterIndex:   int32(im.OuterIndex),
			Path:         paths.get(idx),
			ClassPackage: f.NameString(im.ClassPackage),
			Optional:     im.ImportOptional,
		}
		// Cooked 5.8+ packages store an import's own ObjectName where its
		// PackageName is None, and the engine's loader turns it back
		// (FObjectImport's "avoid collecting the None name" hack).
		placeholder := f.Summary.PackageFlags&uasset.PKG_FilterEditorOnly != 0 && im.PackageName == im.ObjectName
		if (im.PackageName.Index != 0 || im.PackageName.Number != 0) && !placeholder {
			o.PackageName = f.NameString(im.PackageName)
		}
		p.Imports[i] = o
	}
	asset := f.AssetExport()
	p.Exports = make([]Object, len(f.Exports))
	// Exports mostly share a few flag sets: render each run once.
	var lastFlags uint32
	lastFlagsText := uasset.ObjectFlagsString(0)
	for i := range f.Exports {
		e := &f.Exports[i]
		idx := uasset.ExportIndex(i)
		if e.ObjectFlags != lastFlags {
			lastFlags, lastFlagsText = e.ObjectFlags, uasset.ObjectFlagsString(e.ObjectFlags)
		}
		o := Object{
			Index:        int32(idx),
			Name:         f.NameString(e.ObjectName),
			Class:        paths.class(idx),
			ClassIndex:   int32(e.ClassIndex),
			Outer:        paths.get(e.OuterIndex),
			OuterIndex:   int32(e.OuterIndex),
			Path:         paths.get(idx),
			Super:        paths.get(e.SuperIndex),
			Template:     paths.get(e.TemplateIndex),
			ObjectFlags:  e.ObjectFlags,
			Flags:        lastFlagsText,
			SerialOffset: e.SerialOffset,
			SerialSize:   e.SerialSize,
			IsAsset:      e.IsAsset || i == asset,
		}
		if e.InUexp() {
			o.File = ".uexp"
		}
		p.Exports[i] = o
	}
	for _, t := range f.Thumbnails {
		h := int(t.Height)
		if h < 0 {
			h = -h
		}
		p.Thumbnails = append(p.Thumbnails, Thumbnail{
			Object: t.ObjectClassName.S + " " + t.ObjectPath.S,
			Format: t.Format, Width: int(t.Width), Height: h,
			Offset: t.DataOffset, Size: t.DataSize,
		})
	}
	p.ThumbnailData = func(i int) ([]byte, error) {
		if i < 0 || i >= len(f.Thumbnails) {
			return nil, fmt.Errorf("thumbnail %d out of range (package has %d)", i, len(f.Thumbnails))
		}
		return f.Thumbnails[i].Data()
	}
	p.ExportData = func(i int) ([]byte, error) {
		if i < 0 || i >= len(f.Exports) {
			return nil, fmt.Errorf("export %d out of range (package has %d)", i, len(f.Exports))
		}
		return f.Exports[i].Data()
	}
	p.Raw = func(name string) ([]byte, error) { return f.SectionBytes(name) }
	p.Dependencies = uassetDependencies(f, paths)
	if ar := f.AssetRegistry; ar != nil {
		for _, o := range ar.Objects {
			tags := make(map[string]string, len(o.Tags))
			for _, t := range o.Tags {
				tags[t.Key.S] = t.Value.S
			}
			p.AssetRegistry = append(p.AssetRegistry, AssetRegistryObject{ObjectPath: o.ObjectPath.S, Class: o.ObjectClassName.S, Tags: tags})
		}
	}
	p.Dump = lazyDump{f}
	return p
}

// uassetVersionsEngine names the engine of a package whose version is
// neither recorded nor inferred by its file versions.
func uassetVersionsEngine(f *uasset.File) string {
	e := fmt.Sprintf("UE4 %d", f.Versions.UE4)
	if f.Versions.UE5 != 0 {
		e += fmt.Sprintf(" / UE5 %d", f.Versions.UE5)
	}
	return e
}

// uassetSections lists the file's sections in the model's form.
func uassetSections(f *uasset.File) []Section {
	var out []Section
	for _, sec := range f.Sections {
		ps := Section{Name: sec.Name, Offset: sec.Offset, Size: sec.Size, Count: sec.Count}
		if sec.InUexp {
			ps.File = ".uexp"
		}
		if sec.Err != nil {
			ps.Error = sec.Err.Error()
		}
		out = append(out, ps)
	}
	return out
}

// resultPackageFromUasset builds what [ResultFor] reads of a package, for
// verify (Options.resultOnly): the engine, the counts of names, imports and
// exports, and the sections when one failed to read. The renderings only
// info, dump and the page show (summary fields, object paths, flag texts,
// dependency lists, header gaps, thumbnails, asset registry tags) are not
// built: nothing in them can fail a check. The checks themselves (reading
// every section, the header rewrite, property decoding) run as for
// packageFromUasset.
// checkBulkFiles checks, for verify, that the payloads a package's data
// resources place in its bulk data files lie in them, or notes that a
// file is not there (bulk_native.go; not built into the page, whose
// packages come without them: bulkCheckBuilt).
var checkBulkFiles func(f *uasset.File, sibling func(ext string) (io.ReaderAt, int64, error)) (note string, err error)

// missingUexpNote is verify's note on a split package whose .uexp is
// missing: the header reads, nothing of the export data was checked.
const missingUexpNote = "export data not checked: its .uexp was not found"

func resultPackageFromUasset(f *uasset.File, name string) *Package {
	p := &Package{
		Path:         name,
		Format:       "uasset",
		Engine:       f.Engine.Version,
		EngineSource: f.Engine.Source,
		counts:       &objectCounts{len(f.Names), len(f.Imports), len(f.Exports)},
	}
	if p.Engine == "" {
		p.Engine = uassetVersionsEngine(f)
	}
	if f.MissingUexp() {
		p.addNote(missingUexpNote)
	}
	for i := range f.Sections {
		if f.Sections[i].Err != nil {
			// Sorted as packageFromUasset sorts them (gaps included),
			// so that the errors are listed in the same order.
			full := packageFromUasset(f, name)
			p.Sections = full.Sections
			break
		}
	}
	return p
}

// pathCache computes each object path once.
type pathCache struct {
	f        *uasset.File
	imp, exp []string
}

func newPathCache(f *uasset.File) *pathCache {
	return &pathCache{f: f, imp: make([]string, len(f.Imports)), exp: make([]string, len(f.Exports))}
}

func (c *pathCache) get(p uasset.PackageIndex) string {
	var slot *string
	switch {
	case p.IsImport() && p.ToImport() < len(c.imp):
		slot = &c.imp[p.ToImport()]
	case p.IsExport() && p.ToExport() < len(c.exp):
		slot = &c.exp[p.ToExport()]
	default:
		return c.f.ObjectPath(p)
	}
	if *slot == "" {
		*slot = c.f.ObjectPath(p)
	}
	return *slot
}

// class returns the class path of export or import p.
func (c *pathCache) class(p uasset.PackageIndex) string {
	if p.IsExport() && p.ToExport() < len(c.f.Exports) {
		if ci := c.f.Exports[p.ToExport()].ClassIndex; !ci.IsNull() {
			return c.get(ci)
		}
	}
	return c.f.ClassPath(p)
}

// lazyDump builds the complete model only when it is printed.
type lazyDump struct{ f *uasset.File }

func (d lazyDump) MarshalJSON() ([]byte, error) { return jsonenc.Marshal(newUassetDump(d.f)) }

func sortSections(s []Section) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].File == s[j-1].File && s[j].Offset < s[j-1].Offset; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// uassetDependencies renders the reference sections as strings.
func uassetDependencies(f *uasset.File, paths *pathCache) map[string][]string {
	d := map[string][]string{}
	for _, r := range f.SoftPackageReferences {
		if r.Path.S != "" {
			d["soft_package_references"] = append(d["soft_package_references"], r.Path.S)
		} else {
			d["soft_package_references"] = append(d["soft_package_references"], f.NameString(r.Name))
		}
	}
	for _, sp := range f.SoftObjectPaths {
		d["soft_object_paths"] = append(d["soft_object_paths"], f.SoftObjectPathString(sp))
	}
	for _, sn := range f.SearchableNames {
		for _, n := range sn.Names {
			d["searchable_names"] = append(d["searchable_names"], paths.get(sn.Object)+": "+f.NameString(n))
		}
	}
	for i, deps := range f.DependsMap {
		for _, dep := range deps {
			d["depends_map"] = append(d["depends_map"], paths.get(uasset.ExportIndex(i))+" -> "+paths.get(dep))
		}
	}
	for _, p := range f.PreloadDependencies {
		d["preload_dependencies"] = append(d["preload_dependencies"], paths.get(p))
	}
	for _, g := range f.GatherableTextData {
		d["gatherable_text"] = append(d["gatherable_text"], g.NamespaceName.S+": "+g.SourceString.S)
	}
	if ar := f.AssetRegistry; ar != nil {
		for _, e := range ar.ExtraPackageDependencies {
			d["package_build_dependencies"] = append(d["package_build_dependencies"], f.NameString(e.PackageName))
		}
	}
	for _, h := range f.ImportTypeHierarchies {
		for _, t := range h.SuperTypes {
			d["import_type_hierarchies"] = append(d["import_type_hierarchies"], paths.get(h.Import)+" : "+f.NameString(t.PackageName)+"."+f.NameString(t.TypeName))
		}
	}
	if len(d) == 0 {
		return nil
	}
	return d
}
