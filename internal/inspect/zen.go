//go:build !upkg_only || upkg_iostore

package inspect

// This file turns zen packages (cooked packages inside IoStore, .uzenasset
// files, and tagless zen .uasset files) into a Package. Names are resolved
// through the container and its global container when the package comes from
// a .utoc; loose files look for a global.utoc in their folder and otherwise
// match script imports against the hashes of names in their own name map.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/zen"
)

func init() {
	RegisterOpener(Opener{Format: "zen", Match: matchZen, Open: openZen})
}

// maxZenSize bounds a loose zen package read into memory.
const maxZenSize int64 = 1 << 31

// matchZen recognises a zen summary by its shape: never the package tag
// (the uasset and legacy openers own that).
func matchZen(head []byte, name string) bool {
	if len(head) < 48 {
		return false
	}
	le := binary.LittleEndian
	if le.Uint32(head) == 0x9E2A83C1 || binary.BigEndian.Uint32(head) == 0x9E2A83C1 {
		return false
	}
	// UE5 FZenPackageSummary: bHasVersioningInfo, HeaderSize, Name, flags,
	// cooked header size, then ascending offsets.
	if v := le.Uint32(head); v <= 1 {
		hs := le.Uint32(head[4:])
		a, b, c, d := le.Uint32(head[24:]), le.Uint32(head[28:]), le.Uint32(head[32:]), le.Uint32(head[36:])
		if hs >= 44 && a >= 44 && a <= b && b <= c && c <= d && d <= hs && le.Uint32(head[8:])>>30 == 0 {
			return true
		}
	}
	// UE4 FPackageSummary: the name map starts right after the 64 bytes.
	if len(head) >= 64 && le.Uint32(head[24:]) == 64 {
		a, b, c, d := le.Uint32(head[32:]), le.Uint32(head[40:]), le.Uint32(head[44:]), le.Uint32(head[48:])
		return 64 <= a && a <= b && b <= c && c <= d
	}
	return false
}

// GlobalEnv names the environment variable that points loose zen files at
// their global data: a global.utoc, a raw ScriptObjects chunk as retoc
// extracts it, or a folder of extracted global chunks (ScriptObjects*.bin,
// or UE4's LoaderGlobalNames*.bin, LoaderGlobalNameHashes*.bin and
// LoaderInitialLoadMeta*.bin).
const GlobalEnv = "UPKG_GLOBAL"

// globalChunksDir reads the global script objects from a folder of
// extracted global chunks.
func globalChunksDir(dir string) (*zen.ScriptObjects, error) {
	// The first file, in name order, named prefix*.bin. (os.ReadDir rather
	// than filepath.Glob, which costs the WebAssembly about 40 KB.)
	entries, _ := os.ReadDir(dir)
	find := func(prefix string) []byte {
		for _, e := range entries {
			if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".bin") && len(n) >= len(prefix)+len(".bin") {
				b, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					return nil
				}
				return b
			}
		}
		return nil
	}
	if b := find("ScriptObjects"); b != nil {
		return zen.ParseScriptObjects(b)
	}
	names, meta := find("LoaderGlobalNames_"), find("LoaderInitialLoadMeta")
	if names == nil {
		names = find("LoaderGlobalNames")
	}
	if names == nil || meta == nil {
		return nil, fmt.Errorf("%s: no ScriptObjects*.bin, or LoaderGlobalNames*.bin and LoaderInitialLoadMeta*.bin", dir)
	}
	return zen.ParseScriptObjectsUE4(names, find("LoaderGlobalNameHashes"), meta)
}

// looseScriptObjects finds the script objects for a loose zen file (see
// findGlobal); like it, it may return them with an error to warn of.
func looseScriptObjects(name string) (*zen.ScriptObjects, error) {
	if !nativeGlobal || os.Getenv(GlobalEnv) == "" {
		if st, err := os.Stat(name); err != nil || st.IsDir() {
			return nil, zen.ErrNoGlobal
		}
	}
	s, _, err := findGlobal(name, nil, nil)
	return s, err
}

// envScriptObjects loads the script objects of g, what $UPKG_GLOBAL names
// (see GlobalEnv).
func envScriptObjects(g string) (*zen.ScriptObjects, error) {
	if st, err := os.Stat(g); err == nil && st.IsDir() {
		// Cached like global containers: every loose package of a
		// session reads the same table.
		return globalCache(filepath.Clean(g), st, func() (*zen.ScriptObjects, error) { return globalChunksDir(g) })
	}
	if strings.EqualFold(filepath.Ext(g), ".utoc") {
		s, _, err := globalNear(g, nil)
		if errors.Is(err, zen.ErrNoGlobal) {
			f, err := iostore.Open(g)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return f.ScriptObjects()
		}
		return s, err
	}
	st, err := os.Stat(g)
	if err != nil {
		return nil, err
	}
	return globalCache(filepath.Clean(g), st, func() (*zen.ScriptObjects, error) {
		data, err := os.ReadFile(g)
		if err != nil {
			return nil, err
		}
		return zen.ParseScriptObjects(data)
	})
}

// scriptNote is the verify note of a zen package read without the global
// container, when it has script imports ("" when it has none); why is why
// there is none (zen.ErrNoGlobal: none found).
func scriptNote(p *zen.Package, why error) string {
	script := 0
	for _, x := range p.ImportMap {
		if x.Kind() == zen.KindScriptImport {
			script++
		}
	}
	if script == 0 {
		return ""
	}
	if why != nil && !errors.Is(why, zen.ErrNoGlobal) {
		return fmt.Sprintf("the global container could not be read (%v): its %d script imports were not checked against the engine's objects", why, script)
	}
	return fmt.Sprintf("no global container (global.utoc) found: its %d script imports were not checked against the engine's objects", script)
}

// zenResolver names imports and exports of one package.
type zenResolver struct {
	p      *zen.Package
	ctx    *utocContext // nil for a loose file
	script *zen.ScriptObjects
	// byHash names script imports from hashes of the package's own names.
	byHash *scriptGuess
	// ue4Guess names 4.26/4.27 package imports from the package's own
	// names, made for the first one not named otherwise (ue4Import).
	ue4Guess *scriptGuess
	// exportHashes maps public export hashes of the package's own names
	// (for imports from packages outside the container).
	exportHashes map[uint64]string
	// hashedFrom is how many names, from the end of the name map, have
	// their hash in exportHashes (see ownExportName).
	hashedFrom int
	// pkgID is the package's ID: its chunk's ID inside a container.
	pkgID uint64
	// paths memoizes exportPath of the package's exports.
	paths []string
	// imports holds the import map's entries, resolved once (the export
	// map refers to them again and again); importAt finds an entry's last
	// position when the map is long (see importPath).
	imports  []Object
	importAt map[zen.ObjectIndex]int
	// importedIDs memoizes the package IDs of ImportedPackageNames (0:
	// not yet hashed).
	importedIDs []uint64
	// sc holds the arrays of a container's package being verified (nil:
	// they are allocated).
	sc *zenScratch
}

// maxImportScan is the longest import map importPath searches entry by
// entry rather than through importAt.
const maxImportScan = 16

// importPath returns the path resolved for import map entry x (its last
// occurrence), once zr.imports is set.
func (zr *zenResolver) importPath(x zen.ObjectIndex) (string, bool) {
	if zr.importAt != nil {
		i, ok := zr.importAt[x]
		if !ok {
			return "", false
		}
		return zr.importEntry(i).Path, true
	}
	for i := len(zr.imports) - 1; i >= 0; i-- {
		if zr.p.ImportMap[i] == x {
			return zr.importEntry(i).Path, true
		}
	}
	return "", false
}

// importEntry returns import map entry i resolved, resolving it first when
// it is not yet (a verify line resolves only the entries decoding asks
// for: see openZenResolver). A resolved entry's Index is never 0.
func (zr *zenResolver) importEntry(i int) *Object {
	o := &zr.imports[i]
	if o.Index == 0 {
		*o = zr.importObject(zr.p.ImportMap[i])
		o.Index = -int32(i) - 1
	}
	return o
}

// exportPath is exportPath(zr.p, i, 0), built for every export at the
// first call (see fillPaths).
func (zr *zenResolver) exportPath(i int) string {
	if zr.paths == nil {
		zr.fillPaths()
	}
	return zr.paths[i]
}

// fillPaths sets zr.paths[i] to exportPath(zr.p, i, 0) for every export i:
// slices of one string rather than a string each. An export whose outer
// chain ends within the depth bound gets its outer's path with its own name
// appended (what exportPath builds, without joining the chain again); a
// longer chain or a cycle takes exportPath itself.
func (zr *zenResolver) fillPaths() {
	n := len(zr.p.Exports)
	zr.paths = zr.sc.pathList(n)
	spans := zr.sc.spanList(n)
	buf := zr.sc.pathBytes()
	for i := range n {
		buf = zr.pathSpan(i, spans, buf)
	}
	all := string(buf)
	for i, sp := range spans {
		zr.paths[i] = all[sp[0]:sp[1]]
	}
	zr.sc.keepPathBytes(buf)
}

// pathSpan appends export i's path to buf unless spans[i] (its place in
// buf; end 0 before) says it is there.
func (zr *zenResolver) pathSpan(i int, spans [][2]int, buf []byte) []byte {
	if spans[i][1] != 0 {
		return buf
	}
	p := zr.p
	o, ok := exportOuter(p, i)
	start := len(buf)
	switch {
	case !ok:
		buf = append(buf, p.Name...)
		buf = append(buf, '.')
	case exportDepth(p, o) <= maxExportDepth:
		// exportPath(p, o, 1) is exportPath(p, o, 0) when o's chain
		// ends within the bound less one.
		buf = zr.pathSpan(o, spans, buf)
		start = len(buf)
		buf = append(buf, buf[spans[o][0]:spans[o][1]]...)
		if p.Exports[o].OuterIndex.IsNull() {
			buf = append(buf, ':')
		} else {
			buf = append(buf, '.')
		}
	default:
		buf = append(buf, exportPath(p, i, 0)...)
		spans[i] = [2]int{start, len(buf)}
		return buf
	}
	buf = append(buf, p.Exports[i].Name...)
	spans[i] = [2]int{start, len(buf)}
	return buf
}

// maxExportDepth is the depth bound of exportPath: outers followed past it
// are cut.
const maxExportDepth = 64

// exportOuter returns the export that is export i's outer, as exportPath
// follows it; ok is false when exportPath ends the path at i.
func exportOuter(p *zen.Package, i int) (int, bool) {
	outer := p.Exports[i].OuterIndex
	if outer.IsNull() || outer.Kind() != zen.KindExport || int(outer.Value()) >= len(p.Exports) {
		return 0, false
	}
	return int(outer.Value()), true
}

// exportDepth counts the outers exportPath follows from export i before
// the path ends, up to maxExportDepth+1 (a longer chain or a cycle).
func exportDepth(p *zen.Package, i int) int {
	n := 0
	for n <= maxExportDepth {
		o, ok := exportOuter(p, i)
		if !ok {
			break
		}
		i = o
		n++
	}
	return n
}

func openZen(in *Input, opts *Options) (*Package, error) {
	p, _, err := openZenResolver(in, opts)
	return p, err
}

// openZenResolver is [openZen] that also returns the package's resolver.
//
// For a verify line (Options.resultOnly) the imports are named only as
// decoding asks for them: the classes of the exports and the objects
// property values refer to (through the resolver's importEntry). Every
// other import stays an empty Object: the line shows only their number,
// and naming them feeds nothing but warnings, which it does not show.
// The exports keep their names, paths and classes; their super, template
// and outer references are left out.
func openZenResolver(in *Input, opts *Options) (*Package, *zenResolver, error) {
	if in.Size > maxZenSize {
		return nil, nil, fmt.Errorf("%s: zen package of %d bytes is larger than %d", in.Name, in.Size, maxZenSize)
	}
	zc, inContainer := in.R.(*zenChunk)
	var data []byte
	lazy := false // data is the first bytes; the rest is read from in.R
	if inContainer && int64(len(zc.data)) == in.Size {
		data = zc.data // already in memory: no copy
	} else if m, ok := in.R.(binread.Mem); ok && int64(len(m)) >= in.Size {
		data = m[:in.Size] // a file read or mapped whole: no copy
	} else {
		if in.Size > zenWholeMax {
			// Too big to hold: zen.Parse reads the rest of the header
			// and the export data from in.R as they are needed.
			data, lazy = make([]byte, min(zenPrefix, in.Size)), true
		} else {
			data = make([]byte, in.Size)
		}
		if n, err := in.R.ReadAt(data, 0); n != len(data) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
		}
	}
	zr := &zenResolver{}
	zopts := zen.Options{Auto: true}
	var warnings []string
	var scriptErr error // why no script objects, or why others than asked for
	if inContainer {
		zr.ctx = zc.c.context()
		zr.pkgID = zc.c.f.ChunkIDs[zc.chunk].ID()
		zopts = zr.ctx.zenOptions(zr.pkgID)
		zr.script, scriptErr = zr.ctx.script, zr.ctx.scriptErr
	} else {
		zr.script, scriptErr = looseScriptObjects(in.Name)
	}
	if scriptErr != nil && !errors.Is(scriptErr, zen.ErrNoGlobal) {
		warnings = append(warnings, "script imports: "+scriptErr.Error())
	}
	// A container's package being verified takes its arrays from a pool
	// (see zenChunk); nil: allocated.
	var sc *zenScratch
	if inContainer && opts != nil && opts.resultOnly {
		sc = zc.getScratch()
	}
	if sc != nil {
		zopts.Reuse, sc.pkg = sc.pkg, nil
	}
	if lazy {
		zopts.Body, zopts.Size = in.R, in.Size
	}
	p, err := zen.Parse(data, zopts)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	if sc != nil {
		sc.pkg = p
	}
	if err := checkZenPaths(p, in.Size); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	zr.p = p
	if zr.pkgID == 0 {
		zr.pkgID = zen.PackageID(p.Name)
	}
	var note string
	if zr.script == nil {
		zr.byHash = newScriptGuess(p)
		warnings = append(warnings, "no global container (global.utoc) found ("+globalHint+"): script imports are named by matching the hashes of names in the package")
		if nativeGlobal {
			note = scriptNote(p, scriptErr)
		}
	}
	// The package and its counts, made together.
	pc := &struct {
		Package
		counts objectCounts
	}{}
	out := &pc.Package
	*out = Package{
		Path:         in.Name,
		Format:       "zen",
		Engine:       zenEngine(p),
		EngineSource: "detected",
		Dump:         p,
		Warnings:     warnings,
		verifyNote:   note,
	}
	// A verify line uses none of the renderings (summary, name hashes as
	// hex, object flag names): only counts, sections and the checks.
	render := opts == nil || !opts.resultOnly
	if render {
		out.Summary = zenSummary(p)
	}
	zr.sc = sc
	out.Sections = zenSectionsInto(sc.sections(zenSectionRoom), p, in.Size)
	// Sized up front (the tables are already read); empty ones stay nil.
	// A verify line needs only the number of names.
	if render {
		out.Names = sized[Name](len(p.Names))
	} else {
		pc.counts = objectCounts{names: len(p.Names), imports: len(p.ImportMap), exports: len(p.Exports)}
		out.counts = &pc.counts
	}
	// One array holds both (capped so neither grows into the other).
	if objs := sc.objects(len(p.ImportMap) + len(p.Exports)); objs != nil {
		ni := len(p.ImportMap)
		if ni > 0 {
			out.Imports = objs[:0:ni]
		}
		if len(p.Exports) > 0 {
			out.Exports = objs[ni:ni:cap(objs)]
		}
	}
	if render {
		// The hashes as hex, sliced from one string rather than a string each.
		hex := make([]byte, 0, 16*len(p.Names))
		for _, n := range p.Names {
			hex = hexDigits(hex, uint64(n.Hash), 16)
		}
		hexs := string(hex)
		for i, n := range p.Names {
			out.Names = append(out.Names, Name{Name: n.Value, Hash: hexs[16*i : 16*i+16]})
		}
	}
	if ok, bad := p.NameHashes(); bad > 0 {
		out.Sections = append(out.Sections, Section{Name: "NameMap hashes", Count: ok + bad, Error: fmt.Sprintf("%d of %d name hashes do not match CityHash64 of the lower-case name", bad, ok+bad)})
	}
	var at map[zen.ObjectIndex]int
	if len(p.ImportMap) > maxImportScan {
		at = make(map[zen.ObjectIndex]int, len(p.ImportMap))
		for i, x := range p.ImportMap {
			at[x] = i
		}
	}
	if render {
		unresolved := 0
		for i, x := range p.ImportMap {
			o := zr.importObject(x)
			o.Index = -int32(i) - 1
			if strings.HasPrefix(o.Name, "<") {
				unresolved++
			} else if k := strings.LastIndexAny(o.Path, ".:"); o.Outer == "" && k > 0 {
				// Zen imports store no outer; a resolved path has it.
				o.Outer = o.Path[:k]
			}
			out.Imports = append(out.Imports, o)
		}
		if unresolved > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d imports could not be named", unresolved, len(p.ImportMap)))
		}
	} else if n := len(p.ImportMap); n > 0 {
		// Empty entries, named when asked for (importEntry).
		out.Imports = append(out.Imports, make([]Object, n)...)
	}
	zr.imports, zr.importAt = out.Imports, at
	for i, e := range p.Exports {
		o := Object{
			Index:        int32(i) + 1,
			Name:         e.Name,
			Path:         zr.exportPath(i),
			ObjectFlags:  e.ObjectFlags,
			SerialOffset: p.ExportOffset(i),
			SerialSize:   int64(e.CookedSerialSize),
		}
		if render {
			o.Flags = ue.ObjectFlagsString(e.ObjectFlags)
		}
		o.Class = zr.ref(e.ClassIndex)
		if render {
			o.Super = zr.ref(e.SuperIndex)
			o.Template = zr.ref(e.TemplateIndex)
			if !e.OuterIndex.IsNull() {
				o.Outer = zr.ref(e.OuterIndex)
			}
		}
		o.IsAsset = e.OuterIndex.IsNull() && e.ObjectFlags&0x1 != 0
		out.Exports = append(out.Exports, o)
	}
	if inContainer && zr.byHash == nil && p.Layout > zen.HeaderInitial {
		zr.ctx.rememberExports(zr.pkgID, zc.chunk, p, out.Exports)
	}
	if p.Layout > zen.HeaderInitial {
		bad := 0
		for i, e := range p.Exports {
			if e.PublicExportHash == 0 {
				continue
			}
			rel := zr.exportPath(i)
			if len(rel) > len(p.Name) && rel[len(p.Name)] == '.' && rel[:len(p.Name)] == p.Name {
				rel = rel[len(p.Name)+1:]
			}
			if zen.PublicExportHash(rel) != uint64(e.PublicExportHash) {
				bad++
			}
		}
		if bad > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%d public export hashes do not match the hash of the export path", bad))
		}
	}
	if render {
		out.Dependencies = zr.dependencies(out)
	}
	if render {
		// A verify line reads no data through the package.
		out.ExportData = p.ExportData
		out.Raw = func(section string) ([]byte, error) {
			for _, s := range out.Sections {
				if s.Name == section && s.Offset >= 0 && s.Offset+s.Size <= in.Size {
					return p.Bytes(s.Offset, s.Size) // read from in.R past data
				}
			}
			return nil, fmt.Errorf("no section %q", section)
		}
	}
	return out, zr, nil
}

// dependencies renders the package's dependency data: imported packages,
// the dependency bundles of each export (5.3+), the arcs of older layouts,
// and the bulk data map.
func (zr *zenResolver) dependencies(out *Package) map[string][]string {
	p := zr.p
	d := map[string][]string{}
	for i := range p.ImportedPackageNames {
		d["imported_packages"] = append(d["imported_packages"], p.ImportedPackageNames[i])
	}
	if len(d["imported_packages"]) == 0 && zr.ctx != nil && zr.ctx.header != nil {
		if e, ok := zr.ctx.storeEntry(zr.pkgID); ok {
			for i := range e.ImportedPackages {
				n, _ := zr.importedPackage(i)
				d["imported_packages"] = append(d["imported_packages"], n)
			}
		}
	}
	ref := func(x int32) string {
		switch {
		case x < 0 && int(-x-1) < len(out.Imports):
			return out.Imports[-x-1].Path
		case x > 0 && int(x-1) < len(out.Exports):
			return out.Exports[x-1].Path
		}
		return fmt.Sprintf("<index %d>", x)
	}
	kinds := [4]string{"create before create", "serialize before create", "create before serialize", "serialize before serialize"}
	for i, h := range p.DependencyHeaders {
		at := int(h.FirstEntryIndex)
		for k, n := range h.EntryCount {
			for j := 0; j < int(n) && at >= 0 && at < len(p.DependencyEntries); j++ {
				d["dependency_bundles"] = append(d["dependency_bundles"], out.Exports[i].Path+" -> "+ref(p.DependencyEntries[at])+" ("+kinds[k]+")")
				at++
			}
		}
	}
	for _, pa := range p.PackageArcs {
		for _, a := range pa.Arcs {
			d["package_arcs"] = append(d["package_arcs"], fmt.Sprintf("package 0x%016x bundle %d -> bundle %d", pa.PackageID, a.From, a.To))
		}
		for _, a := range pa.External {
			d["package_arcs"] = append(d["package_arcs"], fmt.Sprintf("package 0x%016x import %d (command %d) -> bundle %d", pa.PackageID, a.FromImportIndex, a.FromCommandType, a.ToExportBundle))
		}
	}
	for _, a := range p.InternalArcs {
		d["internal_arcs"] = append(d["internal_arcs"], fmt.Sprintf("bundle %d -> bundle %d", a.From, a.To))
	}
	for _, b := range p.BulkData {
		d["bulk_data"] = append(d["bulk_data"], fmt.Sprintf("offset %d size %d flags 0x%x cooked index %d", b.SerialOffset, b.SerialSize, b.Flags, b.CookedIndex))
	}
	if len(d) == 0 {
		return nil
	}
	return d
}

// zenEngineMemo holds the last versioned engine string zenEngine made:
// the packages of a container share their versions.
var zenEngineMemo atomic.Pointer[zenEngineVersions]

type zenEngineVersions struct {
	ue4, ue5 int32
	s        string
}

// zenEngine names the engine versions of a layout.
func zenEngine(p *zen.Package) string {
	if v := p.Versioning; v != nil && v.FileVersionUE5 > 0 {
		if m := zenEngineMemo.Load(); m != nil && m.ue4 == v.FileVersionUE4 && m.ue5 == v.FileVersionUE5 {
			return m.s
		}
		s := ue5Release(v.FileVersionUE5) + " (package version " + strconv.FormatInt(int64(v.FileVersionUE4), 10) + "/" + strconv.FormatInt(int64(v.FileVersionUE5), 10) + ")"
		zenEngineMemo.Store(&zenEngineVersions{v.FileVersionUE4, v.FileVersionUE5, s})
		return s
	}
	switch p.Layout {
	case zen.HeaderPreInitial:
		return "4.26"
	case zen.HeaderInitial:
		return "4.26-4.27"
	case zen.HeaderLocalizedPackages:
		return "5.0"
	case zen.HeaderOptionalSegmentPackages:
		if p.HasBulkDataMap {
			return "5.2"
		}
		return "5.1"
	case zen.HeaderNoExportInfo, zen.HeaderSoftPackageReferences:
		if p.BulkDataPadding > 0 || (p.HasBulkDataMap && p.Layout == zen.HeaderSoftPackageReferences) {
			return "5.4-5.5"
		}
		return "5.3-5.5"
	}
	return "5.6+"
}

// ue5Release names the first engine release whose newest
// EUnrealEngineObjectUE5Version is at least v (5.0 ends at
// LargeWorldCoordinates 1004, 5.1 at AddSoftObjectPathList 1008, 5.2 at
// DataResources 1009, 5.3 at 1011, 5.4 at PropertyTagCompleteTypeName 1012,
// 5.5 at AssetRegistryPackageBuildDependencies 1013, 5.6 at
// OsSubObjectShadowSerialization 1017; 1018 ImportTypeHierarchies is 5.7+).
func ue5Release(v int32) string {
	for _, r := range []struct {
		last int32
		name string
	}{{1004, "5.0"}, {1008, "5.1"}, {1009, "5.2"}, {1011, "5.3"}, {1012, "5.4"}, {1013, "5.5"}, {1017, "5.6"}} {
		if v <= r.last {
			return r.name
		}
	}
	return "5.7+"
}

func zenSummary(p *zen.Package) []Field {
	s := &p.Summary
	f := []Field{
		{"format", "zen package"},
		{"layout", p.Layout.String()},
		{"package_name", p.Name},
	}
	if p.Layout <= zen.HeaderInitial {
		f = append(f, Field{"source_name", p.SourceName})
	} else {
		f = append(f, Field{"has_versioning_info", s.HasVersioningInfo})
	}
	f = append(f,
		Field{"header_size", s.HeaderSize},
		Field{"package_flags", fmt.Sprintf("0x%08x", s.PackageFlags)},
		Field{"cooked_header_size", s.CookedHeaderSize},
		Field{"names", len(p.Names)},
		Field{"imports", len(p.ImportMap)},
		Field{"exports", len(p.Exports)},
		Field{"export_bundle_entries", len(p.BundleEntries)},
	)
	if v := p.Versioning; v != nil {
		f = append(f, Field{"zen_version", v.ZenVersion}, Field{"file_version_ue4", v.FileVersionUE4}, Field{"file_version_ue5", v.FileVersionUE5}, Field{"licensee_version", v.LicenseeVersion}, Field{"custom_versions", len(v.CustomVersions)})
	}
	if p.HasBulkDataMap {
		f = append(f, Field{"bulk_data_entries", len(p.BulkData)})
	}
	if len(p.ImportedPackageNames) > 0 {
		f = append(f, Field{"imported_packages", strings.Join(p.ImportedPackageNames, ", ")})
	}
	if len(p.CellExports)+len(p.CellImports) > 0 {
		f = append(f, Field{"cell_imports", len(p.CellImports)}, Field{"cell_exports", len(p.CellExports)})
	}
	return f
}

func zenSections(p *zen.Package, size int64) []Section {
	return zenSectionsInto(make([]Section, 0, zenSectionRoom), p, size)
}

// zenSectionRoom is room for every section and the name-hash note openZen
// may add.
const zenSectionRoom = 16

// zenSectionsInto is [zenSections] appending to out.
func zenSectionsInto(out []Section, p *zen.Package, size int64) []Section {
	s := &p.Summary
	add := func(name string, from, to int32, count int) {
		if from >= 0 && to >= from {
			out = append(out, Section{Name: name, Offset: int64(from), Size: int64(to - from), Count: count})
		}
	}
	if p.Layout <= zen.HeaderInitial {
		add("Summary", 0, 64, 0)
		add("NameMap", s.NameMapNamesOffset, s.NameMapNamesOffset+s.NameMapNamesSize, len(p.Names))
		add("NameMapHashes", s.NameMapHashesOffset, s.NameMapHashesOffset+s.NameMapHashesSize, len(p.Names))
		add("ImportMap", s.ImportMapOffset, s.ExportMapOffset, len(p.ImportMap))
		add("ExportMap", s.ExportMapOffset, s.ExportBundleEntriesOffset, len(p.Exports))
		add("ExportBundles", s.ExportBundleEntriesOffset, s.GraphDataOffset, len(p.BundleEntries))
		add("GraphData", s.GraphDataOffset, s.GraphDataOffset+s.GraphDataSize, len(p.PackageArcs))
	} else {
		nm := int32(p.NameMapOffset)
		add("Summary", 0, nm, 0)
		add("NameMap", nm, nm+int32(p.NameMapSize), len(p.Names))
		if p.HasBulkDataMap {
			add("BulkDataMap", int32(p.BulkDataOffset), s.ImportedPublicExportHashesOffset, len(p.BulkData))
		}
		add("ImportedPublicExportHashes", s.ImportedPublicExportHashesOffset, s.ImportMapOffset, len(p.ImportedPublicExportHashes))
		add("ImportMap", s.ImportMapOffset, s.ExportMapOffset, len(p.ImportMap))
		cell := s.ExportBundleEntriesOffset
		if s.CellImportMapOffset >= 0 {
			cell = s.CellImportMapOffset
		}
		add("ExportMap", s.ExportMapOffset, cell, len(p.Exports))
		if p.Layout >= zen.HeaderSoftPackageReferencesOffset && s.CellImportMapOffset >= 0 && s.CellExportMapOffset >= 0 {
			// UE 5.6+ (Verse cells): earlier layouts have no cell maps.
			add("CellImportMap", s.CellImportMapOffset, s.CellExportMapOffset, len(p.CellImports))
			add("CellExportMap", s.CellExportMapOffset, s.ExportBundleEntriesOffset, len(p.CellExports))
		}
		if s.DependencyBundleHeadersOffset >= 0 {
			add("ExportBundleEntries", s.ExportBundleEntriesOffset, s.DependencyBundleHeadersOffset, len(p.BundleEntries))
			add("DependencyBundleHeaders", s.DependencyBundleHeadersOffset, s.DependencyBundleEntriesOffset, len(p.DependencyHeaders))
			add("DependencyBundleEntries", s.DependencyBundleEntriesOffset, s.ImportedPackageNamesOffset, len(p.DependencyEntries))
			add("ImportedPackageNames", s.ImportedPackageNamesOffset, int32(s.HeaderSize), len(p.ImportedPackageNames))
		} else {
			add("ExportBundleEntries", s.ExportBundleEntriesOffset, s.GraphDataOffset, len(p.BundleEntries))
			add("GraphData", s.GraphDataOffset, int32(s.HeaderSize), len(p.BundleHeaders))
		}
	}
	end := p.ExportDataEnd()
	out = append(out, Section{Name: "ExportData", Offset: int64(s.HeaderSize), Size: end - int64(s.HeaderSize), Count: len(p.Exports) + len(p.CellExports)})
	switch {
	case end > size:
		out[len(out)-1].Error = zenDataShort(p, size)
	case end+4 == size && p.Layout >= zen.HeaderNoExportInfo && zenTagAt(p, end):
		// UE 5.3+ cooks keep the .uexp footer after the exports.
		out = append(out, Section{Name: "PackageFileTag", Offset: end, Size: 4})
	case end < size:
		out = append(out, Section{Name: "Trailer", Offset: end, Size: size - end})
	}
	return out
}

// zenTagAt reports whether the package file tag is at off.
func zenTagAt(p *zen.Package, off int64) bool {
	b, err := p.Bytes(off, 4)
	return err == nil && b[0] == 0xC1 && b[1] == 0x83 && b[2] == 0x2A && b[3] == 0x9E
}

// zenDataShort describes export data cut short: where the package ends and
// the first export whose data it cuts.
func zenDataShort(p *zen.Package, size int64) string {
	for _, r := range p.DataRanges() {
		if r.Offset+r.Size <= size {
			continue
		}
		what := fmt.Sprintf("export %d (%s)", r.Export, p.Exports[r.Export].Name)
		if r.Cell {
			what = fmt.Sprintf("cell export %d", r.Export)
		}
		return fmt.Sprintf("cut short: the package ends at offset 0x%x (%d bytes), inside the data of %s at [0x%x, 0x%x); the exports need %d bytes", size, size, what, r.Offset, r.Offset+r.Size, p.ExportDataEnd())
	}
	return fmt.Sprintf("cut short: the package ends at offset 0x%x, the exports need %d bytes", size, p.ExportDataEnd())
}

// exportPath is the full object path of export i as the engine prints it:
// "/Game/Pkg.Asset" for a top-level export, "/Game/Pkg.Asset:Sub" for its
// subobjects and "/Game/Pkg.Asset:Sub.Deeper" below.
func exportPath(p *zen.Package, i, depth int) string {
	e := &p.Exports[i]
	outer := e.OuterIndex
	if outer.IsNull() || depth > maxExportDepth || outer.Kind() != zen.KindExport || int(outer.Value()) >= len(p.Exports) {
		return p.Name + "." + e.Name
	}
	o := int(outer.Value())
	sep := "."
	if p.Exports[o].OuterIndex.IsNull() {
		sep = ":"
	}
	return exportPath(p, o, depth+1) + sep + e.Name
}

// maxPathBytes bounds the bytes of the object paths of a package of size
// bytes, in all: 8 times its size and 4 MiB (those of the corpus's 855
// packages take at most 2.1 times their size). A long name repeated down
// deep outer chains could make a small file's paths take gigabytes.
func maxPathBytes(size int64) int64 { return 8*size + 4<<20 }

// checkZenPaths fails when the export paths of p, a package of size
// bytes, would take more than maxPathBytes.
func checkZenPaths(p *zen.Package, size int64) error {
	limit := maxPathBytes(size)
	total := int64(0)
	for i := range p.Exports {
		// The length of exportPath(p, i, 0).
		for j, depth := i, 0; ; depth++ {
			e := &p.Exports[j]
			outer := e.OuterIndex
			if outer.IsNull() || depth > maxExportDepth || outer.Kind() != zen.KindExport || int(outer.Value()) >= len(p.Exports) {
				total += int64(len(p.Name)) + 1 + int64(len(e.Name))
				break
			}
			total += 1 + int64(len(e.Name))
			j = int(outer.Value())
		}
		if total > limit {
			return fmt.Errorf("the paths of its %d exports take more than %d bytes, 8 times its size and 4 MiB (long names repeated by deep outer chains?)", len(p.Exports), limit)
		}
	}
	return nil
}

// ref names what an ObjectIndex of the export map points at, as a path.
func (zr *zenResolver) ref(x zen.ObjectIndex) string {
	switch x.Kind() {
	case zen.KindNull:
		return ""
	case zen.KindExport:
		if int(x.Value()) < len(zr.p.Exports) {
			return zr.exportPath(int(x.Value()))
		}
		return fmt.Sprintf("<export %d>", x.Value())
	}
	if path, ok := zr.importPath(x); ok {
		return path
	}
	return zr.importObject(x).Path
}

// importObject resolves one import map entry.
// ue4Import names the object of a 4.26/4.27 package import whose hash is
// h from the package's own names (newPackageImportGuess).
func (zr *zenResolver) ue4Import(h uint64) (Object, bool) {
	if zr.ue4Guess == nil {
		zr.ue4Guess = newPackageImportGuess(zr.p)
	}
	path, ok := zr.ue4Guess.lookup(h)
	if !ok {
		return Object{}, false
	}
	pkg, _, _ := strings.Cut(path, ".")
	return Object{Name: lastElem(path), Path: path, PackageName: pkg}, true
}

func (zr *zenResolver) importObject(x zen.ObjectIndex) Object {
	switch x.Kind() {
	case zen.KindNull:
		return Object{Name: "None", Path: "None"}
	case zen.KindScriptImport:
		if o, isClass, ok := zr.script.LookupClass(x); ok {
			obj := Object{Name: o.Name, Path: o.Path, PackageName: scriptPackage(o.Path)}
			switch {
			case o.OuterIndex.IsNull():
				obj.Class = "/Script/CoreUObject.Package"
			case !o.CDOClassIndex.IsNull() && strings.HasPrefix(o.Name, "Default__"):
				if c, ok := zr.script.Lookup(o.CDOClassIndex); ok {
					obj.Class = c.Path
				}
			case isClass:
				obj.Class = "/Script/CoreUObject.Class"
			}
			obj.ClassPackage = scriptPackage(obj.Class)
			return obj
		}
		if path, ok := zr.byHash.lookup(x.Value()); ok {
			return Object{Name: lastElem(path), Path: path, PackageName: scriptPackage(path)}
		}
		return Object{Name: fmt.Sprintf("<script 0x%016x>", x.Value()), Path: fmt.Sprintf("<script 0x%016x>", x.Value())}
	case zen.KindPackageImport:
		if zr.p.Layout <= zen.HeaderInitial {
			if zr.ctx != nil {
				if le, ok := zr.ctx.legacyImport(zr.pkgID, x); ok {
					return Object{Name: lastElem(le.path), Path: le.path, PackageName: le.pkg}
				}
			}
			if o, ok := zr.ue4Import(x.Value()); ok {
				return o
			}
			return Object{Name: fmt.Sprintf("<import 0x%016x>", x.Value()), Path: fmt.Sprintf("<import 0x%016x>", x.Value())}
		}
		pi, hi := x.PackageImport()
		pkgName, pkgID := zr.importedPackage(int(pi))
		var hash uint64
		if int(hi) < len(zr.p.ImportedPublicExportHashes) {
			hash = uint64(zr.p.ImportedPublicExportHashes[hi])
		}
		known := false
		if zr.ctx != nil && pkgID != 0 && zr.byHash == nil {
			// A package opened whole before names its exports without
			// being read again.
			var e importedExport
			var found bool
			if e, known, found = zr.ctx.importedExport(pkgID, hash); found {
				return Object{Name: e.name, Path: e.path, PackageName: e.pkg, Class: e.class}
			}
		}
		if _, in := zr.ctx.chunkOf(pkgID); in && !known {
			if ip, err := zr.ctx.parsePackage(pkgID); err == nil {
				for i, e := range ip.Exports {
					if uint64(e.PublicExportHash) == hash {
						sub := &zenResolver{p: ip, ctx: zr.ctx, script: zr.script, byHash: zr.byHash, pkgID: pkgID}
						return Object{Name: e.Name, Path: exportPath(ip, i, 0), PackageName: ip.Name, Class: sub.ref(e.ClassIndex)}
					}
				}
			}
		}
		if pkgName == "" {
			pkgName = fmt.Sprintf("<package %d>", pi)
		}
		if n, ok := zr.ownExportName(hash); ok {
			return Object{Name: n, Path: pkgName + "." + n, PackageName: pkgName}
		}
		// The main asset of a package is named after it (and a blueprint's
		// class and CDO after that).
		base := lastElem(pkgName)
		for _, n := range []string{base, base + "_C", "Default__" + base + "_C"} {
			if zen.PublicExportHash(n) == hash {
				return Object{Name: n, Path: pkgName + "." + n, PackageName: pkgName}
			}
		}
		label := fmt.Sprintf("<export 0x%016x>", hash)
		return Object{Name: label, Path: pkgName + "." + label, PackageName: pkgName}
	}
	return Object{Name: "<export>", Path: "<export>"}
}

// ownExportName returns the last of the package's names whose public export
// hash is hash. The names are hashed from the end, only as far as a lookup
// needs (a name found is the last with its hash; a hash not found hashes
// them all), and each hash is kept for the lookups after.
func (zr *zenResolver) ownExportName(hash uint64) (string, bool) {
	if n, ok := zr.exportHashes[hash]; ok {
		return n, true
	}
	names := zr.p.Names
	if zr.hashedFrom >= len(names) {
		return "", false
	}
	if zr.exportHashes == nil {
		zr.exportHashes = map[uint64]string{}
	}
	for zr.hashedFrom < len(names) {
		zr.hashedFrom++
		n := names[len(names)-zr.hashedFrom].Value
		h := zen.PublicExportHash(n)
		if _, later := zr.exportHashes[h]; !later {
			// A later name with the same hash wins, as it would
			// assigning them in order.
			zr.exportHashes[h] = n
		}
		if h == hash {
			return zr.exportHashes[h], true
		}
	}
	return "", false
}

// importedPackage names imported package i and its ID when known.
func (zr *zenResolver) importedPackage(i int) (string, uint64) {
	if i < len(zr.p.ImportedPackageNames) {
		n := zr.p.ImportedPackageNames[i]
		if zr.importedIDs == nil {
			zr.importedIDs = make([]uint64, len(zr.p.ImportedPackageNames))
		}
		if zr.importedIDs[i] == 0 {
			zr.importedIDs[i] = zen.PackageID(n)
		}
		return n, zr.importedIDs[i]
	}
	if zr.ctx != nil && zr.ctx.header != nil {
		if e, ok := zr.ctx.storeEntry(zr.pkgID); ok && i < len(e.ImportedPackages) {
			pid := uint64(e.ImportedPackages[i])
			if n, ok := zr.ctx.packageName(pid); ok {
				return n, pid
			}
			return fmt.Sprintf("<package 0x%016x>", pid), pid
		}
	}
	return "", 0
}

// commonScriptPackages are engine modules most cooked packages import
// from; with the /Script/ names of the package's own name map they are the
// candidates for naming script imports without a global container.
var commonScriptPackages = []string{
	"/Script/CoreUObject", "/Script/Engine", "/Script/UMG", "/Script/SlateCore", "/Script/Slate",
	"/Script/AIModule", "/Script/NavigationSystem", "/Script/EnhancedInput", "/Script/InputCore",
	"/Script/GameplayTags", "/Script/GameplayTasks", "/Script/GameplayAbilities", "/Script/Niagara",
	"/Script/MovieScene", "/Script/LevelSequence", "/Script/MovieSceneTracks", "/Script/AnimGraphRuntime",
	"/Script/PhysicsCore", "/Script/Chaos", "/Script/Landscape", "/Script/Foliage", "/Script/MediaAssets",
	"/Script/PCG", "/Script/ControlRig", "/Script/MetasoundEngine", "/Script/AudioMixer", "/Script/DeveloperSettings",
	"/Script/ModularGameplay", "/Script/CommonUI", "/Script/Paper2D", "/Script/HeadMountedDisplay",
}

func scriptPackage(path string) string {
	if i := strings.IndexByte(path, '.'); i > 0 {
		return path[:i]
	}
	return path
}

func lastElem(path string) string { return propsLastElem(path) }
