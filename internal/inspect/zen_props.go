//go:build !upkg_only || upkg_iostore

package inspect

// This file adds property decoding to zen packages (IoStore and loose zen
// files) without touching the zen opener: an opener of higher priority with
// the same Match runs openZen and then attaches Props and the verify
// statistics, building the decoder's context from the Package model (names,
// import and export paths) and the zen header's versions.

import (
	"fmt"
	"math"
	"strings"

	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
	"github.com/upkg/upkg/zen"
)

func init() {
	RegisterOpener(Opener{Format: "zen", Match: matchZen, Open: openZenProps, Priority: 1})
}

// zenUnversionedUE5 is assumed for zen packages without versioning info:
// their property serialization does not depend on later versions than this
// one (large world coordinates, soft object paths by package and asset).
const zenUnversionedUE5 = 1012

// zenUnversionedUE55 is assumed for zen packages without versioning info
// whose header layout is UE 5.5's or later (ASSETREGISTRY_PACKAGEBUILDDEPENDENCIES).
const zenUnversionedUE55 = 1013

// releaseObjectVersion is FReleaseObjectVersion's key.
var releaseObjectVersion = ue.Guid{0x9C54D522, 0xA8264FBE, 0x94210746, 0x61B482D0}

const (
	pkgUnversionedProperties = 0x00002000
	pkgFilterEditorOnly      = 0x80000000
)

func openZenProps(in *Input, opts *Options) (*Package, error) {
	p, zr, err := openZenResolver(in, opts)
	if err != nil {
		return nil, err
	}
	zp, ok := p.Dump.(*zen.Package)
	if !ok {
		return p, nil
	}
	m, merr := loadMappings(opts)
	var names []string
	if zc, ok := in.R.(*zenChunk); ok && zc.scratch != nil && zc.opens == 1 && opts != nil && opts.resultOnly {
		names = zc.scratch.nameList(len(zp.Names)) // verifying a container's package
	}
	z := &zenDecode{p: p, zp: zp, merr: merr}
	ctx := &z.context
	fillZenContext(ctx, p, zp, names, zr)
	ctx.Mappings = m
	ctx.LocalSchema = zenLocalSchemas(p, zp, ctx)
	z.ctx = ctx
	if opts == nil || !opts.resultOnly {
		p.Props = func(i int) (any, error) {
			o, err := z.decode(i, false)
			if err != nil {
				return nil, err
			}
			return o, nil
		}
	}
	if (opts.Verify || opts.Properties) && ctx.Unversioned && m == nil && merr == nil {
		p.Warnings = append(p.Warnings, propsNotChecked)
		if len(zp.Exports) > 0 {
			p.addNote(noMappingsNote)
		}
	} else if opts.Verify || opts.Properties {
		st := &z.stats
		p.Properties = st
		for i := range zp.Exports {
			st.ExportsWithProperties++
			o, err := z.decode(i, true)
			switch {
			case err != nil:
				st.Failed++
				st.BytesUnaccounted += int64(zp.Exports[i].CookedSerialSize)
				if len(st.Failures) < 20 {
					st.Failures = append(st.Failures, fmt.Sprintf("export %d %s: %v", i, zp.Exports[i].Name, err))
				}
			case o.Complete:
				st.OK++
			default:
				st.Failed++
				st.BytesUnaccounted += o.Unaccounted
				if len(st.Failures) < 20 {
					st.Failures = append(st.Failures, fmt.Sprintf("export %d %s: %v", i, zp.Exports[i].Name, o.Err()))
				}
			}
		}
	}
	return p, nil
}

// zenDecode decodes the exports of a zen package (one allocation for what
// a package's decodes share).
type zenDecode struct {
	p    *Package
	zp   *zen.Package
	ctx  *property.Context // &context
	merr error             // from loading the mappings
	// context is the decoder context (made with the rest).
	context property.Context
	// lite is the Object of every lite decode, used before the next.
	lite  property.Object
	stats Stats
	// budget bounds the export bytes decoded (see sharedDataLimit).
	budget *exportBudget
}

// decode decodes export i; lite decodes only the outcome (see
// property.ReadExportLite), which is all the statistics use.
func (z *zenDecode) decode(i int, lite bool) (*property.Object, error) {
	zp := z.zp
	if i < 0 || i >= len(zp.Exports) {
		return nil, fmt.Errorf("export %d out of range (%d exports)", i, len(zp.Exports))
	}
	if z.merr != nil {
		return nil, z.merr
	}
	if z.ctx.Unversioned && z.ctx.Mappings == nil {
		return nil, errNeedMappings
	}
	data, err := zp.ExportData(i)
	if err != nil {
		return nil, fmt.Errorf("export %d data: %w", i, err)
	}
	if z.budget == nil {
		z.budget = newExportBudget(len(zp.Exports), zp.ExportDataEnd())
	}
	if !z.budget.allow(i, int64(len(data))) {
		return nil, fmt.Errorf("export %d: %w", i, errSharedData)
	}
	e := &zp.Exports[i]
	ex := property.Export{Class: propsLastElem(z.p.Exports[i].Class), Name: e.Name, ObjectFlags: e.ObjectFlags}
	ex.ClassIsBlueprint = strings.HasSuffix(ex.Class, "_C")
	if lite {
		property.ReadExportLiteInto(z.ctx, data, ex, &z.lite)
		return &z.lite, nil
	}
	return property.ReadExport(z.ctx, data, ex), nil
}

// zenLocalSchemas returns the schemas of the classes and structs the zen
// package defines, read from their exports, for unversioned data.
func zenLocalSchemas(p *Package, zp *zen.Package, ctx *property.Context) func(string) *usmap.Struct {
	var byName map[string]int // made for the first struct class
	for i := range zp.Exports {
		if property.IsStructClass(propsLastElem(p.Exports[i].Class)) {
			if byName == nil {
				byName = map[string]int{}
			}
			byName[strings.ToLower(zp.Exports[i].Name)] = i
		}
	}
	if len(byName) == 0 {
		return nil
	}
	cache := map[int]*usmap.Struct{}
	busy := map[int]bool{}
	return func(name string) *usmap.Struct {
		i, ok := byName[strings.ToLower(name)]
		if !ok || busy[i] {
			return nil
		}
		if s, done := cache[i]; done {
			return s
		}
		busy[i] = true
		defer delete(busy, i)
		var s *usmap.Struct
		if data, err := zp.ExportData(i); err == nil {
			ex := property.Export{Class: propsLastElem(p.Exports[i].Class), Name: zp.Exports[i].Name, ObjectFlags: zp.Exports[i].ObjectFlags}
			if h, ok := property.ReadExport(ctx, data, ex).ClassData.(*property.StructHeader); ok {
				s = h.Schema(zp.Exports[i].Name)
			}
		}
		cache[i] = s
		return s
	}
}

// propsNotChecked is the warning of a package whose properties need
// mappings none were given for.
var propsNotChecked = "properties not checked: " + errNeedMappings.Error()

// errNeedMappings is assetprops.ErrNeedMappings without importing the uasset
// side: the message users ask for.
var errNeedMappings = fmt.Errorf("this package stores unversioned properties (cooked with PKG_UnversionedProperties): " +
	"their names and types are not in the file; decoding them needs the game's .usmap mappings file (--mappings FILE)")

func propsLastElem(path string) string {
	// strings.LastIndexAny(path, ".:/") byte by byte: the three are ASCII,
	// and no byte of a multi-byte UTF-8 sequence (or invalid byte) is.
	for i := len(path) - 1; i >= 0; i-- {
		if c := path[i]; c == '.' || c == ':' || c == '/' {
			return path[i+1:]
		}
	}
	return path
}

// zenContext builds the decoder context of a zen package.
func zenContext(p *Package, zp *zen.Package) *property.Context {
	return zenContextNames(p, zp, nil, nil)
}

// zenContextNames is [zenContext] that puts the names in names when it is
// not nil (then of the length of zp.Names), and names imports through zr
// when it is not nil (the imports of a verify line are named when asked
// for: see openZenResolver).
func zenContextNames(p *Package, zp *zen.Package, names []string, zr *zenResolver) *property.Context {
	ctx := &property.Context{}
	fillZenContext(ctx, p, zp, names, zr)
	return ctx
}

// fillZenContext sets *ctx to [zenContextNames]'s context.
func fillZenContext(ctx *property.Context, p *Package, zp *zen.Package, names []string, zr *zenResolver) {
	// The package's names (out.Names holds the same values, but a verify
	// run does not fill it).
	if names == nil {
		names = make([]string, len(zp.Names))
	}
	for i := range zp.Names {
		names[i] = zp.Names[i].Value
	}
	*ctx = property.Context{
		FileVersionUE4:   522,
		FileVersionUE5:   zenUnversionedUE5,
		Names:            names,
		Unversioned:      zp.Summary.PackageFlags&pkgUnversionedProperties != 0,
		FilterEditorOnly: zp.Summary.PackageFlags&pkgFilterEditorOnly != 0 || true, // zen packages are always cooked
	}
	if v := zp.Versioning; v != nil {
		ctx.FileVersionUE4, ctx.FileVersionUE5 = v.FileVersionUE4, v.FileVersionUE5
		cvs := v.CustomVersions
		ue5 := v.FileVersionUE5 >= 1000 // EUnrealEngineObjectUE5Version's first
		ctx.CustomVersion = func(key ue.Guid) (int32, bool) {
			for _, c := range cvs {
				if c.Key == key {
					return c.Version, true
				}
			}
			if ue5 && key == releaseObjectVersion {
				// UE5 cooks record only some custom versions yet write
				// by the current FReleaseObjectVersion (the FField
				// RepCondition byte): CUE4Parse takes the engine's too.
				return math.MaxInt32, true
			}
			return 0, false
		}
	} else {
		// Without versioning info the header layout dates the package.
		// The sub-sequence warp counter (FReleaseObjectVersion 42, from
		// 4.27, dropped in 5.5) is the one layout the decoder then needs.
		ctx.CustomVersion = releaseCurrent
		switch {
		case zp.Layout < zen.HeaderInitial:
			ctx.FileVersionUE5, ctx.CustomVersion = 0, release38 // 4.26
		case zp.Layout == zen.HeaderInitial:
			ctx.FileVersionUE5, ctx.CustomVersion = 0, release43 // 4.27
		case zp.Layout >= zen.HeaderSoftPackageReferences:
			ctx.FileVersionUE5 = zenUnversionedUE55
		}
	}
	imports, exports := p.Imports, p.Exports
	ctx.Object = func(i int32) string {
		switch {
		case i < 0 && int(-i-1) < len(imports):
			if zr != nil && len(zr.imports) == len(imports) {
				return zr.importEntry(int(-i - 1)).Path
			}
			return imports[-i-1].Path
		case i > 0 && int(i-1) < len(exports):
			return exports[i-1].Path
		}
		return ""
	}
}

// releaseOnly returns the custom versions of a zen package without
// versioning info: only FReleaseObjectVersion, at release.
func releaseOnly(release int32) func(ue.Guid) (int32, bool) {
	return func(key ue.Guid) (int32, bool) {
		if key == releaseObjectVersion {
			return release, true
		}
		return 0, false
	}
}

// The custom versions of zen packages without versioning info, made once.
var (
	release38      = releaseOnly(38)
	release43      = releaseOnly(43)
	releaseCurrent = releaseOnly(math.MaxInt32)
)
