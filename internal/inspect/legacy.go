//go:build !upkg_only || upkg_legacy

package inspect

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/legacy"
)

// This file connects package legacy (UE1, UE2, UE3 packages) to the
// front ends.

func init() {
	wrongKeyErrs = append(wrongKeyErrs, legacy.ErrWrongKey)
	RegisterOpener(Opener{Format: "legacy", Match: matchLegacy, Open: openLegacy, Priority: 10})
}

// matchLegacy accepts the package tag in either byte order followed by a
// non-negative version (UE4 and UE5 packages store a negative
// LegacyFileVersion there), and Lineage II's wrapper.
func matchLegacy(head []byte, name string) bool {
	if legacy.IsLineage2(head) {
		return true
	}
	if len(head) < 8 {
		return false
	}
	switch binary.LittleEndian.Uint32(head) {
	case legacy.PackageTag:
		return int32(binary.LittleEndian.Uint32(head[4:])) >= 0
	case legacy.PackageTagSwapped:
		return int32(binary.BigEndian.Uint32(head[4:])) >= 0
	}
	return false
}

// LegacyFile opens in as a legacy package (for commands that need the
// format's own model, such as export).
func LegacyFile(in *Input, opts *Options) (*legacy.File, error) {
	if opts == nil {
		opts = &Options{}
	}
	f, err := eachKey(opts.AESKey, func(k string) (*legacy.File, error) {
		lopts := []legacy.Option{legacy.WithName(in.Name)}
		if k != "" {
			key, err := aeskey.Parse(k)
			if err != nil {
				return nil, fmt.Errorf("--aes-key: %w", err)
			}
			lopts = append(lopts, legacy.WithAESKey(key))
		}
		return legacy.NewFile(in.R, in.Size, lopts...)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	return f, nil
}

func openLegacy(in *Input, opts *Options) (*Package, error) {
	f, err := LegacyFile(in, opts)
	if err != nil {
		return nil, err
	}
	p := legacyPackage(in.Name, f, opts)
	if opts != nil && opts.resultOnly {
		// Verification is done with the package image and tables
		// (legacyStats read every export), and p refers to neither: the
		// next package may reuse their memory.
		f.Release()
	}
	return p, nil
}

// legacyDump is what `upkg dump --json` prints for a legacy package.
type legacyDump struct {
	Wrapper     string          `json:"wrapper,omitempty"`
	Game        string          `json:"game,omitempty"`
	PackageName string          `json:"package_name"`
	Summary     legacy.Summary  `json:"summary"`
	Heritage    []string        `json:"heritage,omitempty"`
	Names       []legacy.Name   `json:"names"`
	Imports     []legacy.Import `json:"imports"`
	Exports     []legacy.Export `json:"exports"`
}

func legacyPackage(name string, f *legacy.File, opts *Options) *Package {
	s := &f.Summary
	ver, lic := int(s.FileVersion), int(s.LicenseeVersion)
	gen := "UE3"
	switch {
	case ver < 100:
		gen = "UE1"
	case ver < 178:
		gen = "UE2"
	}
	p := &Package{
		Path:            name,
		Format:          "legacy",
		Engine:          fmt.Sprintf("%s (package version %s)", gen, s.Version()),
		EngineSource:    "header",
		BigEndian:       f.BigEndian,
		PackageVersion:  &ver,
		LicenseeVersion: &lic,
	}
	if f.Game != "" {
		p.Engine += ", " + f.Game
	}
	resultOnly := opts != nil && opts.resultOnly
	if resultOnly {
		// A verify line shows the engine, the counts and the property
		// statistics; the header fields, sections, object lists (paths,
		// flag strings) and views below are for display only.
		p.counts = &objectCounts{names: len(f.Names), imports: len(f.Imports), exports: len(f.Exports)}
		if opts.Verify || opts.Properties {
			p.Properties = legacyStats(f)
		}
		if opts.Verify {
			checkLegacyChunks(p, f)
		}
		return p
	}
	add := func(k string, v any) { p.Summary = append(p.Summary, Field{Key: k, Value: v}) }
	if f.Wrapper != "" {
		add("Wrapper", f.Wrapper)
	}
	add("Tag", fmt.Sprintf("0x%08X", s.Tag))
	add("FileVersion", ver)
	add("LicenseeVersion", lic)
	if ver >= 249 {
		add("TotalHeaderSize", s.HeadersSize)
	}
	if ver >= 269 {
		add("FolderName", s.FolderName)
	}
	add("PackageFlags", fmt.Sprintf("0x%08X %s", s.PackageFlags, legacy.PackageFlagString(s.PackageFlags)))
	add("NameCount", s.NameCount)
	add("NameOffset", s.NameOffset)
	add("ExportCount", s.ExportCount)
	add("ExportOffset", s.ExportOffset)
	add("ImportCount", s.ImportCount)
	add("ImportOffset", s.ImportOffset)
	if len(f.Heritage) > 0 || s.HeritageCount != 0 {
		add("HeritageCount", s.HeritageCount)
		add("HeritageOffset", s.HeritageOffset)
	}
	if ver >= 415 {
		add("DependsOffset", s.DependsOffset)
	}
	if ver >= 623 {
		add("ImportExportGuidsOffset", s.ImportExportGuidsOffset)
		add("ImportGuidsCount", s.ImportGuidsCount)
		add("ExportGuidsCount", s.ExportGuidsCount)
	}
	if ver >= 584 {
		add("ThumbnailTableOffset", s.ThumbnailTableOffset)
	}
	add("Guid", s.Guid.String())
	if len(s.Generations) > 0 {
		gens := make([]string, len(s.Generations))
		for i, g := range s.Generations {
			gens[i] = fmt.Sprintf("exports %d, names %d", g.ExportCount, g.NameCount)
			if ver >= 322 {
				gens[i] += fmt.Sprintf(", net objects %d", g.NetObjectCount)
			}
		}
		add("Generations", gens)
	}
	if ver >= 245 {
		add("EngineVersion", s.EngineVersion)
	}
	if ver >= 277 {
		add("CookerVersion", s.CookerVersion)
	}
	if len(s.MassEffectExtra) > 0 {
		add("MassEffectExtra", s.MassEffectExtra)
	}
	if ver >= 334 {
		add("CompressionFlags", fmt.Sprintf("0x%X", s.CompressionFlags))
		add("CompressedChunks", len(s.CompressedChunks))
	}
	if ver >= 482 {
		add("PackageSource", fmt.Sprintf("0x%08X", s.PackageSource))
	}
	if len(s.AdditionalPackagesToCook) > 0 {
		add("AdditionalPackagesToCook", s.AdditionalPackagesToCook)
	}
	if len(s.TextureAllocations) > 0 {
		add("TextureAllocations", len(s.TextureAllocations))
	}
	if s.RocketLeague != nil {
		add("RocketLeague", *s.RocketLeague)
	}

	p.Sections = append(p.Sections,
		Section{Name: "Names", Offset: int64(s.NameOffset), Size: f.NameTableSize, Count: len(f.Names)},
		Section{Name: "Imports", Offset: int64(s.ImportOffset), Size: f.ImportTableSize, Count: len(f.Imports)},
		Section{Name: "Exports", Offset: int64(s.ExportOffset), Size: f.ExportTableSize, Count: len(f.Exports)})
	if len(f.Heritage) > 0 {
		p.Sections = append(p.Sections, Section{Name: "Heritage", Offset: int64(s.HeritageOffset), Size: int64(len(f.Heritage)) * 16, Count: len(f.Heritage)})
	}
	for i, c := range s.CompressedChunks {
		p.Sections = append(p.Sections, Section{Name: fmt.Sprintf("CompressedChunk[%d]", i), Offset: c.CompressedOffset, Size: int64(c.CompressedSize)})
	}

	legacyObjects(p, f)
	if f.Wrapper != "" {
		p.Warnings = append(p.Warnings, "read through "+f.Wrapper)
	}
	thumbs, err := f.Thumbnails()
	if err != nil {
		p.Warnings = append(p.Warnings, err.Error())
	}
	for _, t := range thumbs {
		p.Thumbnails = append(p.Thumbnails, Thumbnail{
			Object: t.ObjectClassName + " " + t.ObjectPath, Format: t.Format,
			Width: int(t.Width), Height: int(t.Height), Offset: t.DataOffset, Size: t.DataSize,
		})
	}
	p.ThumbnailData = func(i int) ([]byte, error) {
		if i < 0 || i >= len(thumbs) {
			return nil, fmt.Errorf("thumbnail %d out of range (package has %d)", i, len(thumbs))
		}
		return f.ThumbnailData(thumbs[i])
	}

	p.ExportData = f.Data
	var budgetMu sync.Mutex
	budget := newExportBudget(len(f.Exports), f.Size())
	p.Props = func(i int) (any, error) {
		if i < 0 || i >= len(f.Exports) {
			return nil, fmt.Errorf("export %d out of range (%d exports)", i, len(f.Exports))
		}
		budgetMu.Lock()
		ok := budget.allow(i, f.Exports[i].SerialSize)
		budgetMu.Unlock()
		if !ok {
			return nil, fmt.Errorf("export %d: %w", i, errSharedData)
		}
		o, err := f.Object(i)
		if errors.Is(err, legacy.ErrNoProperties) {
			hint := ""
			if f.Exports[i].ClassIndex == 0 {
				hint = " (its default properties were not found after the script)"
				if f.Summary.FileVersion >= 178 {
					hint = " (UE3 keeps a class's defaults in the export Default__" + f.Exports[i].ObjectName + ")"
				}
			}
			return o, fmt.Errorf("%s (%s): %w%s", f.ExportPath(i), f.ClassName(i), err, hint)
		}
		return o, err
	}
	p.Raw = func(section string) ([]byte, error) {
		for _, sec := range p.Sections {
			if strings.EqualFold(sec.Name, section) {
				if sec.Size <= 0 || sec.Offset < 0 || sec.Offset+sec.Size > f.Size() {
					return nil, fmt.Errorf("section %s has no byte range", sec.Name)
				}
				b := make([]byte, sec.Size)
				_, err := f.ReadAt(b, sec.Offset)
				return b, err
			}
		}
		return nil, fmt.Errorf("no section %q", section)
	}
	d := &legacyDump{Wrapper: f.Wrapper, Game: f.Game, PackageName: f.PackageName, Summary: *s, Names: f.Names, Imports: f.Imports, Exports: f.Exports}
	for _, g := range f.Heritage {
		d.Heritage = append(d.Heritage, g.String())
	}
	p.Dump = d
	if opts != nil && (opts.Verify || opts.Properties) {
		p.Properties = legacyStats(f)
	}
	if opts != nil && opts.Verify {
		checkLegacyChunks(p, f)
	}
	return p
}

// checkLegacyChunks expands the compressed chunks of f that reading its
// tables and exports did not reach, and reports the first that fails as
// a section error (a package stored in several chunks is expanded as it is
// read: see legacy.File.CheckChunks).
func checkLegacyChunks(p *Package, f *legacy.File) {
	if err := f.CheckChunks(); err != nil {
		p.Sections = append(p.Sections, Section{Name: "CompressedChunks", Error: err.Error()})
	}
}

// legacyObjects fills the name, import and export lists of p, objects with
// their paths. Each path is built once: objects name their outers, supers and
// templates, and many share the same few.
func legacyObjects(p *Package, f *legacy.File) {
	// Sized up front (the tables are already read); empty ones stay nil.
	p.Names = sized[Name](len(f.Names))
	p.Imports = sized[Object](len(f.Imports))
	p.Exports = sized[Object](len(f.Exports))
	for _, n := range f.Names {
		p.Names = append(p.Names, Name{Name: n.Name, Flags: n.Flags})
	}
	paths := newLegacyPaths(f)
	flags := map[uint64]string{}
	for i, im := range f.Imports {
		ref := -int32(i) - 1
		path := paths.get(ref)
		o := Object{
			Index:        ref,
			Name:         im.ObjectName,
			Class:        im.ClassPackage + "." + im.ClassName,
			ClassPackage: im.ClassPackage,
			OuterIndex:   im.OuterIndex,
			Path:         path,
			PackageName:  outermostOf(path),
		}
		if im.OuterIndex != 0 {
			o.Outer = paths.get(im.OuterIndex)
		} else if im.PackageName != "" {
			o.Outer = im.PackageName
		}
		p.Imports = append(p.Imports, o)
	}
	for i, e := range f.Exports {
		ref := int32(i) + 1
		classPath := "Core.Class" // legacy.File.ClassPath
		if e.ClassIndex != 0 {
			classPath = paths.get(e.ClassIndex)
		}
		fs, ok := flags[e.ObjectFlags]
		if !ok {
			fs = f.FlagString(e.ObjectFlags)
			flags[e.ObjectFlags] = fs
		}
		o := Object{
			Index:        ref,
			Name:         e.ObjectName,
			Class:        classPath,
			ClassIndex:   e.ClassIndex,
			OuterIndex:   e.OuterIndex,
			Path:         paths.get(ref),
			ObjectFlags:  uint32(e.ObjectFlags),
			Flags:        fs,
			SerialOffset: e.SerialOffset,
			SerialSize:   e.SerialSize,
		}
		if e.OuterIndex != 0 {
			o.Outer = paths.get(e.OuterIndex)
		} else if f.PackageName != "" {
			o.Outer = f.PackageName
		}
		if e.SuperIndex != 0 {
			o.Super = paths.get(e.SuperIndex)
		}
		if e.ArchetypeIndex != 0 {
			o.Template = paths.get(e.ArchetypeIndex)
		}
		p.Exports = append(p.Exports, o)
	}
}

// maxFailures is how many failing exports a Stats lists by name.
const maxFailures = 5

// legacyStats decodes the properties of every export that has a leading
// property list (all but UClass objects) and counts the results.
// BytesUnaccounted sums the native data after the properties of exports
// whose class has no reader in package legacy.
func legacyStats(f *legacy.File) *Stats {
	st := &Stats{}
	budget := newExportBudget(len(f.Exports), f.Size())
	for i := range f.Exports {
		if !budget.allow(i, f.Exports[i].SerialSize) {
			st.ExportsWithProperties++
			st.Failed++
			if len(st.Failures) < maxFailures {
				st.Failures = append(st.Failures, fmt.Sprintf("export %d: %v", i, errSharedData))
			}
			continue
		}
		native, err := f.CheckObject(i)
		if errors.Is(err, legacy.ErrNoProperties) {
			continue
		}
		st.ExportsWithProperties++
		if err != nil {
			st.Failed++
			if len(st.Failures) < maxFailures {
				st.Failures = append(st.Failures, err.Error())
			}
			continue
		}
		st.OK++
		if f.ContentKind(i) == "" {
			st.BytesUnaccounted += native
		}
	}
	return st
}

// outermostOf returns the name of the outermost object in an object path
// (for an import, the package it lives in).
func outermostOf(p string) string {
	if i := strings.IndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return p
}

// legacyPaths remembers the object paths of a package's imports and
// exports (legacy.File.ObjectPath), each built on first use from its
// outer's path.
type legacyPaths struct {
	f        *legacy.File
	imp, exp []string
	done     []bool // imports first, then exports
}

func newLegacyPaths(f *legacy.File) *legacyPaths {
	return &legacyPaths{f: f, imp: make([]string, len(f.Imports)), exp: make([]string, len(f.Exports)), done: make([]bool, len(f.Imports)+len(f.Exports))}
}

// slot returns where the path of ref is kept and its index in done, or
// nil for references outside the tables.
func (c *legacyPaths) slot(ref int32) (*string, int) {
	switch {
	case ref < 0 && int(-int64(ref)-1) < len(c.imp):
		i := int(-int64(ref) - 1)
		return &c.imp[i], i
	case ref > 0 && int(ref-1) < len(c.exp):
		return &c.exp[ref-1], len(c.imp) + int(ref-1)
	}
	return nil, 0
}

// legacyMaxDepth is the outer chain length at which legacy.File.ObjectPath
// cuts a path (its maxDepth); longer chains and cycles are left to it.
const legacyMaxDepth = 64

func (c *legacyPaths) get(ref int32) string {
	slot, i := c.slot(ref)
	if slot == nil {
		return c.f.ObjectPath(ref)
	}
	if c.done[i] {
		return *slot
	}
	// A chain that ends within ObjectPath's limit gives the same path
	// joined from the outer's path; the outers' chains end too.
	cur := ref
	for depth := 0; cur != 0 && depth < legacyMaxDepth; depth++ {
		cur = c.outer(cur)
	}
	if cur != 0 {
		*slot, c.done[i] = c.f.ObjectPath(ref), true
		return *slot
	}
	return c.join(ref)
}

// outer returns the outer reference of ref (0 outside the tables).
func (c *legacyPaths) outer(ref int32) int32 {
	switch {
	case ref < 0 && int(-int64(ref)-1) < len(c.imp):
		return c.f.Imports[-ref-1].OuterIndex
	case ref > 0 && int(ref-1) < len(c.exp):
		return c.f.Exports[ref-1].OuterIndex
	}
	return 0
}

// join builds the path of ref, whose outer chain ends, as ObjectPath
// does: outermost first the outer's path, an import's package name, the
// package's own name before a top-level export, and the object's name.
func (c *legacyPaths) join(ref int32) string {
	slot, i := c.slot(ref)
	if slot == nil {
		return c.f.ObjectPath(ref)
	}
	if c.done[i] {
		return *slot
	}
	var name, pkg string
	var outer int32
	if ref < 0 {
		im := &c.f.Imports[-ref-1]
		name, pkg, outer = im.ObjectName, im.PackageName, im.OuterIndex
	} else {
		e := &c.f.Exports[ref-1]
		name, outer = e.ObjectName, e.OuterIndex
		if outer == 0 {
			pkg = c.f.PackageName
		}
	}
	p := name
	if pkg != "" {
		p = pkg + "." + name
	}
	if outer != 0 {
		p = c.join(outer) + "." + p
	}
	*slot, c.done[i] = p, true
	return p
}

func init() { RegisterExporter("legacy", exportLegacy) }

// exportLegacy converts textures, sounds, music and script text. An export
// selected by name whose class has no converter is written as its raw
// serialized bytes.
func exportLegacy(in *Input, opts *Options, filter ExportFilter, emit func(ContentFile, error) error) error {
	f, err := LegacyFile(in, opts)
	if err != nil {
		return err
	}
	for i := range f.Exports {
		path, class := f.ExportPath(i), f.ClassName(i)
		if !filter.Matches(i, path, f.Exports[i].ObjectName, class) {
			continue
		}
		cf := ContentFile{Export: i, Object: path, Class: class}
		if f.ContentKind(i) == "palette" && filter.Class == "" && filter.Export == "" {
			// Palettes are already applied to their textures; written only
			// when asked for.
			continue
		}
		if f.ContentKind(i) == "" {
			if filter.Export == "" {
				continue
			}
			data, err := f.Data(i)
			if err == nil {
				cf.Kind, cf.Data = "raw", data
				cf.Name = strings.ReplaceAll(strings.TrimPrefix(path, f.PackageName+"."), ".", "/") + "." + class + ".bin"
			}
			if err := emit(cf, err); err != nil {
				return err
			}
			continue
		}
		c, err := f.ExportContent(i)
		if err == nil {
			cf.Kind, cf.Name, cf.Data, cf.Note = c.Kind, c.Name, c.Data, c.Note
			if len(c.Data) == 0 {
				err = fmt.Errorf("%s: the %s stores no data (stripped package?)", path, c.Kind)
			}
		}
		if err := emit(cf, err); err != nil {
			return err
		}
	}
	return nil
}
