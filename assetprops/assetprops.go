// Package assetprops decodes the exports of a UE4/UE5 package read by
// package uasset with the property decoder of package property: it builds
// the decoder's [property.Context] from the package (versions, name map,
// object paths, soft object paths, mappings) and describes each export.
package assetprops

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/uasset"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
)

// ErrNeedMappings reports a package with unversioned properties opened
// without a .usmap.
var ErrNeedMappings = errors.New("this package stores unversioned properties (cooked with PKG_UnversionedProperties): " +
	"their names and types are not in the file; decoding them needs the game's .usmap mappings file (--mappings FILE), " +
	"dumped from the running game with a tool such as UE4SS or Dumper-7")

// errNoData marks an export whose serialized bytes could not be read.
var errNoData = errors.New("export data unavailable")

// Loader opens another package by its long package name ("/Game/Data/S_Row")
// so that the schemas of the classes and structs it defines can be used for
// unversioned data that refers to them. It returns an error when the
// package is not available.
type Loader func(packagePath string) (*uasset.File, error)

// Context returns the decoder context for f. mappings may be nil.
func Context(f *uasset.File, mappings *usmap.File) *property.Context {
	return ContextWith(f, mappings, nil)
}

// maxLoadDepth bounds chains of packages loaded for their schemas (a struct
// whose members are structs of yet other packages); it also stops cycles.
const maxLoadDepth = 8

// ContextWith is Context with a loader for schemas defined in other
// packages (Blueprint classes and user-defined structs the package imports).
func ContextWith(f *uasset.File, mappings *usmap.File, load Loader) *property.Context {
	return contextDepth(f, mappings, load, 0, map[string]*property.Context{})
}

// versionContext is the part of f's decoder context that says which
// versions the package has: all that a [property.VersionTrace] asks.
func versionContext(f *uasset.File) *property.Context {
	ctx := &property.Context{
		FileVersionUE4:   f.Versions.UE4,
		FileVersionUE5:   f.Versions.UE5,
		Unversioned:      f.Summary.PackageFlags&uasset.PKG_UnversionedProperties != 0,
		FilterEditorOnly: f.Summary.PackageFlags&uasset.PKG_FilterEditorOnly != 0,
	}
	vers := f.Versions
	engine := f.Engine.Version
	ctx.CustomVersion = func(key ue.Guid) (int32, bool) {
		if v, ok := vers.CustomVersion(key); ok {
			return v, true
		}
		if len(vers.Custom) == 0 {
			return engineCustomVersion(engine, key)
		}
		return 0, false
	}
	return ctx
}

func contextDepth(f *uasset.File, mappings *usmap.File, load Loader, depth int, seen map[string]*property.Context) *property.Context {
	names := nameList(len(f.Names))
	for i := range f.Names {
		names[i] = f.Names[i].Name.S
	}
	ctx := versionContext(f)
	ctx.Names = names
	ctx.Mappings = mappings
	nImp, nExp := int32(len(f.Imports)), int32(len(f.Exports))
	// Paths are built once each, when first asked for (by index + nImp;
	// the context, like its schema caches, serves one decode at a time).
	var paths []string
	ctx.Object = func(i int32) string {
		if i == 0 || i < -nImp || i > nExp {
			return ""
		}
		if paths == nil {
			paths = make([]string, int(nImp)+int(nExp)+1)
		}
		p := &paths[i+nImp]
		if *p == "" {
			*p = f.ObjectPath(uasset.PackageIndex(i))
		}
		return *p
	}
	// The lookups are built when first asked for: only unversioned data
	// asks, and a context made for tagged properties never does.
	var (
		once            sync.Once
		local, imported func(string) *usmap.Struct
	)
	ctx.LocalSchema = func(name string) *usmap.Struct {
		once.Do(func() {
			local = localSchemas(f, ctx)
			if load != nil && depth < maxLoadDepth {
				imported = importedSchemas(f, mappings, load, depth, seen)
			}
		})
		if local != nil {
			if s := local(name); s != nil {
				return s
			}
		}
		if imported != nil && mappings.Struct(name) == nil {
			return imported(name)
		}
		return nil
	}
	for _, p := range f.SoftObjectPaths {
		pkg := f.NameString(p.PackageName)
		asset := f.NameString(p.AssetName)
		sp := property.SoftObjectPath{SubPath: p.SubPath.S}
		switch {
		case pkg == "None" || pkg == "":
		case asset == "None" || asset == "":
			sp.AssetPath = pkg
		default:
			sp.AssetPath = pkg + "." + asset
		}
		ctx.SoftObjectPaths = append(ctx.SoftObjectPaths, sp)
	}
	return ctx
}

// ExportInfo describes export i (0-based) for the decoder.
func ExportInfo(f *uasset.File, i int) property.Export {
	e := &f.Exports[i]
	ex := property.Export{
		Class:       f.ClassName(uasset.PackageIndex(i + 1)),
		Name:        f.NameString(e.ObjectName),
		ObjectFlags: e.ObjectFlags,
		ScriptStart: e.ScriptSerializationStartOffset,
		ScriptEnd:   e.ScriptSerializationEndOffset,
	}
	if c := e.ClassIndex; !c.IsNull() {
		cls := f.ClassName(c)
		ex.ClassIsBlueprint = strings.HasSuffix(cls, "BlueprintGeneratedClass") || strings.HasSuffix(ex.Class, "_C")
	}
	return ex
}

// Decode decodes export i (0-based) of f.
func Decode(f *uasset.File, ctx *property.Context, i int) (*property.Object, error) {
	return decode(f, ctx, i, nil)
}

// decode is Decode; with lite set it decodes only the outcome into lite
// (see [property.ReadExportLiteInto]) and returns it, for callers that
// only count.
func decode(f *uasset.File, ctx *property.Context, i int, lite *property.Object) (*property.Object, error) {
	if i < 0 || i >= len(f.Exports) {
		return nil, fmt.Errorf("export %d out of range (%d exports)", i, len(f.Exports))
	}
	if ctx.Unversioned && ctx.Mappings == nil {
		return nil, ErrNeedMappings
	}
	data, err := f.Exports[i].Data()
	if err != nil {
		return nil, fmt.Errorf("export %d: %w: %w", i, errNoData, err)
	}
	if lite != nil {
		property.ReadExportLiteInto(ctx, data, ExportInfo(f, i), lite)
		return lite, nil
	}
	return property.ReadExport(ctx, data, ExportInfo(f, i)), nil
}

// Stats counts the results of decoding every export of a package.
type Stats struct {
	Exports  int
	Complete int
	Failed   int
	// NoData counts exports whose bytes could not be read (a missing .uexp).
	NoData           int
	BytesUnaccounted int64
	// Failures names the failing exports with the first issue.
	Failures []string
	// NativeRaw counts native structs kept raw, by name.
	NativeRaw map[string]int
	// Bytes is the export data decoded.
	Bytes int64
	// TailBytes counts the bytes after the decoded parts that are kept as a
	// labelled raw tail (class-specific data without a decoder).
	TailBytes int64
}

// maxFailures bounds Stats.Failures.
const maxFailures = 20

// DecodeAll decodes every export and counts the results.
func DecodeAll(f *uasset.File, ctx *property.Context) ([]*property.Object, Stats, error) {
	return decodeAll(f, ctx, true, nil)
}

// DecodeStats is DecodeAll without the decoded objects: each export's
// object is dropped once counted, so memory holds one export at a time
// (what a verify pass over many packages needs).
func DecodeStats(f *uasset.File, ctx *property.Context) (Stats, error) {
	return DecodeStatsWith(f, ctx, nil)
}

// DecodeStatsWith is DecodeStats taking the results of exports that engine
// inference already decoded under f's layout (see [CandidateChecker.Prior])
// instead of decoding them again. The results are used only where they
// are certain to be what decoding under ctx gives: for packages with
// versioned (tagged) properties, where an export's decoding depends on
// nothing but the tables, its bytes and the version questions it asked,
// an export's result is used when ctx answers all of its questions alike.
func DecodeStatsWith(f *uasset.File, ctx *property.Context, prior *Prior) (Stats, error) {
	if prior != nil && ctx.Unversioned {
		prior = nil
	}
	_, st, err := decodeAll(f, ctx, false, prior)
	return st, err
}

// exportOutcome is what the statistics take from one decoded export.
type exportOutcome struct {
	complete          bool
	size, unaccounted int64
	tail              int64
	native            map[string]int
	err               string // the decoding issue when not complete
}

func outcomeOf(o *property.Object) exportOutcome {
	x := exportOutcome{complete: o.Complete, size: o.Size, unaccounted: o.Unaccounted, native: o.NativeStructs}
	if o.Tail != nil {
		x.tail = o.Tail.Size
	}
	if !o.Complete {
		x.err = fmt.Sprint(o.Err())
	}
	return x
}

// sharedDataSlack is what decodeAll decodes beyond twice a package's
// bytes (a variable: tests lower it).
var sharedDataSlack int64 = 64 << 20

func decodeAll(f *uasset.File, ctx *property.Context, keep bool, prior *Prior) ([]*property.Object, Stats, error) {
	var st Stats
	if ctx.Unversioned && ctx.Mappings == nil {
		return nil, st, ErrNeedMappings
	}
	var objs []*property.Object
	var scratch *property.Object // one Object for every lite decode
	if keep {
		objs = make([]*property.Object, len(f.Exports))
	} else {
		scratch = new(property.Object)
	}
	// The engine gives each export bytes of its own; exports of a crafted
	// package pointing at the same bytes would have them decoded again for
	// each. Past twice the package's bytes and 64 MiB, the rest fail.
	_, uexpSize := f.Uexp()
	decoded, limit := int64(0), 2*(f.Size()+uexpSize)+sharedDataSlack
	for i := range f.Exports {
		st.Exports++
		x, known := exportOutcome{}, false
		if prior != nil {
			x, known = prior.outcome(i, ctx)
		}
		if !known {
			if decoded += max(f.Exports[i].SerialSize, 0); decoded > limit && !f.MissingUexp() {
				st.Failed++
				st.BytesUnaccounted += f.Exports[i].SerialSize
				if len(st.Failures) < maxFailures {
					st.Failures = append(st.Failures, fmt.Sprintf("export %d %s: the exports up to it span %d bytes, more than twice the package's and 64 MiB (exports share data): not decoded", i, f.NameString(f.Exports[i].ObjectName), decoded))
				}
				continue
			}
			o, err := decode(f, ctx, i, scratch)
			if err != nil && errors.Is(err, errNoData) {
				st.NoData++
				st.BytesUnaccounted += f.Exports[i].SerialSize
				if len(st.Failures) < maxFailures {
					st.Failures = append(st.Failures, fmt.Sprintf("export %d %s: %v", i, f.NameString(f.Exports[i].ObjectName), err))
				}
				continue
			}
			if err != nil {
				st.Failed++
				st.BytesUnaccounted += f.Exports[i].SerialSize
				if len(st.Failures) < maxFailures {
					st.Failures = append(st.Failures, fmt.Sprintf("export %d %s: %v", i, f.NameString(f.Exports[i].ObjectName), err))
				}
				continue
			}
			if keep {
				objs[i] = o
			}
			x = outcomeOf(o)
		}
		st.Bytes += x.size
		st.BytesUnaccounted += x.unaccounted
		st.TailBytes += x.tail
		for k, v := range x.native {
			if st.NativeRaw == nil {
				st.NativeRaw = map[string]int{}
			}
			st.NativeRaw[k] += v
		}
		if x.complete {
			st.Complete++
			continue
		}
		st.Failed++
		if len(st.Failures) < maxFailures {
			st.Failures = append(st.Failures, fmt.Sprintf("export %d %s (%s): %s", i, f.NameString(f.Exports[i].ObjectName), ExportInfo(f, i).Class, x.err))
		}
	}
	return objs, st, nil
}

// CandidateCheck returns a check for uasset.WithCandidateCheck: a candidate
// engine under which most of the first exports' property streams do not
// decode is dropped. (A majority rather than every export: the check must
// not reject the right engine because of one export the decoder cannot
// read, or the package would not open at all.) Unversioned packages are
// checked only with mappings.
func CandidateCheck(mappings *usmap.File) func(*uasset.File) error {
	return CandidateCheckWith(mappings, nil)
}

// CandidateCheckWith is CandidateCheck with a loader for schemas of other
// packages (made for each candidate reading of the package). Exports that
// fail only for want of a schema say nothing about the layout and are not
// counted.
func CandidateCheckWith(mappings *usmap.File, loader func(*uasset.File) Loader) func(*uasset.File) error {
	return NewCandidateChecker(mappings, loader).Check
}

// CandidateChecker runs the check of [CandidateCheckWith] and keeps what it
// decoded, so that the layout finally chosen need not decode those
// exports again ([CandidateChecker.Prior], [DecodeStatsWith]). Make one per
// package opened.
//
// Candidate layouts often read the same tables from the package and differ
// only in versions the property streams at hand never consult. Each
// decoding records the version questions it asked; a later candidate with
// the same tables that answers them all alike gets the same outcome
// without decoding again (the decoder is deterministic). For versioned
// (tagged) properties this holds export by export: decoding one export
// consults nothing that decoding another left behind, so each export is
// decoded once per distinct set of answers to its own questions.
// Unversioned data can take schemas from the package's own exports, which
// the context caches as it decodes; there the questions of a whole check
// are compared at once.
type CandidateChecker struct {
	mappings *usmap.File
	loader   func(*uasset.File) Loader

	mu     sync.Mutex
	whole  []*candidateMemo // unversioned packages: whole checks
	tables []*tablesMemo    // versioned packages: exports decoded, by tables
	byFile map[*uasset.File]*Prior
	// decoded counts the exports the checks decoded, reused those whose
	// outcome was taken from an earlier candidate's decoding.
	decoded, reused int
	// contexts the checks made, for Release.
	contexts []*property.Context
}

// made notes a context the checks made.
func (c *CandidateChecker) made(ctx *property.Context) {
	c.mu.Lock()
	c.contexts = append(c.contexts, ctx)
	c.mu.Unlock()
}

// Release gives the memory of the contexts the checks made back for reuse
// by later contexts ([ReleaseContext]), for a caller done with the checker
// and with everything it handed out (verify, once the package's line is
// made).
func (c *CandidateChecker) Release() {
	c.mu.Lock()
	ctxs := c.contexts
	c.contexts = nil
	c.mu.Unlock()
	for _, ctx := range ctxs {
		ReleaseContext(ctx)
	}
}

// ReleaseContext gives the memory of ctx's name list back for reuse by
// later contexts, for a caller done with ctx and with everything decoded
// under it; ctx has no names afterwards.
func ReleaseContext(ctx *property.Context) {
	if ctx == nil || cap(ctx.Names) == 0 {
		return
	}
	l := ctx.Names
	clear(l) // keeps no package's strings alive
	ctx.Names = nil
	l = l[:0]
	nameLists.Put(&l)
}

// nameLists keeps the name lists of released contexts.
var nameLists sync.Pool

// nameList returns a name list of n entries, reusing a released one when
// it has room.
func nameList(n int) []string {
	if p, _ := nameLists.Get().(*[]string); p != nil && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]string, n)
}

// NewCandidateChecker returns a checker; loader may be nil.
func NewCandidateChecker(mappings *usmap.File, loader func(*uasset.File) Loader) *CandidateChecker {
	return &CandidateChecker{mappings: mappings, loader: loader, byFile: map[*uasset.File]*Prior{}}
}

// maxCandidateMemo bounds the outcomes a checker remembers (there are a
// few dozen engine layouts; a checker used across packages keeps only the
// latest).
const maxCandidateMemo = 64

// candidateMemo is a whole check of an unversioned package: its outcome
// and the version questions all of its decoding asked.
type candidateMemo struct {
	tablesRef
	trace *property.VersionTrace
	prior *Prior
	err   error
}

// tablesMemo holds the export decodings of the candidates of a versioned
// package that read one set of tables (one tablesKey): for each export,
// one decoding per distinct set of answers to its questions.
type tablesMemo struct {
	tablesRef
	exports map[int][]*checkedExport
}

// checkedExport is what a candidate check takes from decoding one export,
// with the version questions the decoding asked.
type checkedExport struct {
	trace   *property.VersionTrace
	x       exportOutcome
	missing bool  // it failed only for want of a schema (see missingSchema)
	issue   error // the decoding's first issue when not complete
}

// Prior holds the export results a candidate check decoded, each with
// the version questions its decoding asked.
type Prior struct {
	exports map[int]*checkedExport
}

// outcome returns the result of export i when decoding it under ctx is
// certain to give it: ctx answers the decoding's questions alike.
func (p *Prior) outcome(i int, ctx *property.Context) (exportOutcome, bool) {
	e := p.exports[i]
	if e == nil || !e.trace.Holds(ctx) {
		return exportOutcome{}, false
	}
	return e.x, true
}

// Check is the candidate check (see [CandidateCheckWith]).
func (c *CandidateChecker) Check(f *uasset.File) error {
	vctx := versionContext(f)
	if vctx.Unversioned && c.mappings == nil {
		return nil
	}
	k := tablesOf(f)
	var prior *Prior
	var err error
	if vctx.Unversioned {
		prior, err = c.checkWhole(f, &k, vctx)
	} else {
		prior, err = c.checkEach(f, &k, vctx)
	}
	k.release()
	if err == nil {
		// Only candidates that pass are kept (they are the ones a
		// package can be read as), so a checker whose package failed
		// to open holds no readings.
		c.mu.Lock()
		if len(c.byFile) >= maxCandidateMemo {
			clear(c.byFile)
		}
		c.byFile[f] = prior
		c.mu.Unlock()
	}
	return err
}

// checkWhole checks an unversioned package, reusing an earlier check with
// the same tables whose questions vctx answers alike.
func (c *CandidateChecker) checkWhole(f *uasset.File, k *tables, vctx *property.Context) (*Prior, error) {
	c.mu.Lock()
	for _, m := range c.whole {
		if k.is(&m.tablesRef) && m.trace.Holds(vctx) {
			c.reused += len(m.prior.exports)
			c.mu.Unlock()
			return m.prior, m.err
		}
	}
	c.mu.Unlock()
	ctx := ContextWith(f, c.mappings, c.load(f))
	c.made(ctx)
	trace := &property.VersionTrace{}
	ctx.Trace = trace
	prior := &Prior{exports: map[int]*checkedExport{}}
	err := checkCandidate(f, func(i int) (*checkedExport, error) {
		return decodeChecked(f, ctx, i, trace)
	}, prior.exports)
	ctx.Trace = nil
	c.mu.Lock()
	c.decoded += len(prior.exports)
	if len(c.whole) >= maxCandidateMemo {
		c.whole = c.whole[1:]
	}
	c.whole = append(c.whole, &candidateMemo{tablesRef: k.ref(), trace: trace, prior: prior, err: err})
	c.mu.Unlock()
	return prior, err
}

// checkEach checks a versioned package, taking each export's outcome from
// an earlier candidate with the same tables whose decoding of that export
// asked questions vctx answers alike, and decoding it otherwise.
func (c *CandidateChecker) checkEach(f *uasset.File, k *tables, vctx *property.Context) (*Prior, error) {
	c.mu.Lock()
	var tm *tablesMemo
	for _, m := range c.tables {
		if k.is(&m.tablesRef) {
			tm = m
			break
		}
	}
	if tm == nil {
		tm = &tablesMemo{tablesRef: k.ref(), exports: map[int][]*checkedExport{}}
		if len(c.tables) >= maxCandidateMemo {
			c.tables = c.tables[1:]
		}
		c.tables = append(c.tables, tm)
	}
	c.mu.Unlock()
	var ctx *property.Context // made when an export must be decoded
	prior := &Prior{exports: map[int]*checkedExport{}}
	err := checkCandidate(f, func(i int) (*checkedExport, error) {
		c.mu.Lock()
		for _, e := range tm.exports[i] {
			if e.trace.Holds(vctx) {
				c.reused++
				c.mu.Unlock()
				return e, nil
			}
		}
		c.mu.Unlock()
		if ctx == nil {
			ctx = ContextWith(f, c.mappings, c.load(f))
			c.made(ctx)
		}
		trace := &property.VersionTrace{}
		ctx.Trace = trace
		e, err := decodeChecked(f, ctx, i, trace)
		ctx.Trace = nil
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.decoded++
		tm.exports[i] = append(tm.exports[i], e)
		c.mu.Unlock()
		return e, nil
	}, prior.exports)
	return prior, err
}

func (c *CandidateChecker) load(f *uasset.File) Loader {
	if c.loader == nil {
		return nil
	}
	return c.loader(f)
}

// decodeChecked decodes export i of f under ctx, whose questions go to
// trace.
func decodeChecked(f *uasset.File, ctx *property.Context, i int, trace *property.VersionTrace) (*checkedExport, error) {
	var lite property.Object
	o, err := decode(f, ctx, i, &lite) // only the outcome and issues are kept

	if err != nil {
		return nil, err
	}
	e := &checkedExport{trace: trace, x: outcomeOf(o), missing: missingSchema(o)}
	if !o.Complete {
		e.issue = o.Err()
	}
	return e, nil
}

// Prior returns what the check of f (one of the candidate readings it
// checked) decoded, or nil.
func (c *CandidateChecker) Prior(f *uasset.File) *Prior {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byFile[f]
}

// checkCandidate takes the results of the first exports of f from decode
// and fails when most of those that say anything about the layout do not
// decode. The results it gets go to results.
func checkCandidate(f *uasset.File, decode func(i int) (*checkedExport, error), results map[int]*checkedExport) error {
	// A few exports suffice to tell layouts apart; decoding everything
	// for every candidate would be slow on big maps.
	const maxChecked = 16
	tried, complete := 0, 0
	var first error
	for i := 0; i < len(f.Exports) && tried < maxChecked; i++ {
		// Stop as soon as the outcome is settled: even if every export
		// still to be tried failed, the majority already decoded.
		if left := min(maxChecked-tried, len(f.Exports)-i); tried > 0 && complete*2 >= tried+left {
			break
		}
		e, err := decode(i)
		if err != nil {
			continue // no data (a missing .uexp) says nothing about the layout
		}
		results[i] = e
		if e.missing {
			continue // no schema says nothing about the layout either
		}
		tried++
		if e.x.complete {
			complete++
		} else if first == nil {
			first = fmt.Errorf("export %d: %w", i, e.issue)
		}
	}
	if tried > 0 && complete*2 < tried {
		return fmt.Errorf("property streams do not decode under this layout (%d of %d failed; %w)", tried-complete, tried, first)
	}
	return nil
}

// tablesKey encodes everything of f, other than its versions, that the
// decoder's context and the export data depend on: package flags and
// path, where the header ends, the name map, and the import, export and
// soft object path tables. Two readings of a package with equal keys give
// the decoder the same names, objects and bytes. The key is appended to
// b (a reused buffer; the memos keep string copies of it).
func tablesKey(b []byte, f *uasset.File) []byte {
	b = slices.Grow(b, 64+16*len(f.Names)+40*len(f.Imports)+80*len(f.Exports))
	u32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	u64 := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
	str := func(s string) { u32(uint32(len(s))); b = append(b, s...) }
	name := func(n uasset.Name) { u32(uint32(n.Index)); u32(uint32(n.Number)) }
	bit := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	u32(f.Summary.PackageFlags)
	u32(uint32(f.Summary.TotalHeaderSize))
	str(f.PackagePath)
	str(f.Engine.Version)
	u32(uint32(len(f.Names)))
	for i := range f.Names {
		str(f.Names[i].Name.S)
	}
	u32(uint32(len(f.Imports)))
	for i := range f.Imports {
		im := &f.Imports[i]
		name(im.ClassPackage)
		name(im.ClassName)
		u32(uint32(im.OuterIndex))
		name(im.ObjectName)
		name(im.PackageName)
		bit(im.ImportOptional)
	}
	u32(uint32(len(f.Exports)))
	for i := range f.Exports {
		e := &f.Exports[i]
		u32(uint32(e.ClassIndex))
		u32(uint32(e.SuperIndex))
		u32(uint32(e.TemplateIndex))
		u32(uint32(e.OuterIndex))
		name(e.ObjectName)
		u32(e.ObjectFlags)
		u64(uint64(e.SerialSize))
		u64(uint64(e.SerialOffset))
		u64(uint64(e.ScriptSerializationStartOffset))
		u64(uint64(e.ScriptSerializationEndOffset))
	}
	u32(uint32(len(f.SoftObjectPaths)))
	for i := range f.SoftObjectPaths {
		sp := &f.SoftObjectPaths[i]
		name(sp.PackageName)
		name(sp.AssetName)
		str(sp.SubPath.S)
	}
	return b
}

// keyBufs holds the buffers tablesKey appends to.
var keyBufs = sync.Pool{New: func() any { return new([]byte) }}

// tablesID identifies the tables of a reading of a package by the slices
// holding them: inference candidates that read a table alike share one
// slice (package uasset's memos), and nothing writes the entries while
// the checker lives. Two readings with equal IDs have equal tablesKeys;
// readings with different IDs are compared by their keys. The pointers
// keep the slices alive, so an address is not reused while a memo holds it.
type tablesID struct {
	flags                             uint32
	totalHeaderSize                   int32
	path, engine                      string
	names                             *uasset.NameEntry
	imports                           *uasset.ObjectImport
	exports                           *uasset.ObjectExport
	soft                              *uasset.SoftObjectPath
	nNames, nImports, nExports, nSoft int
}

// tables is the identity of one reading's tables, with its tablesKey
// made when first compared.
type tables struct {
	f   *uasset.File
	id  tablesID
	buf *[]byte // from keyBufs, once made
	key []byte
}

func tablesOf(f *uasset.File) tables {
	id := tablesID{flags: f.Summary.PackageFlags, totalHeaderSize: f.Summary.TotalHeaderSize,
		path: f.PackagePath, engine: f.Engine.Version,
		nNames: len(f.Names), nImports: len(f.Imports), nExports: len(f.Exports), nSoft: len(f.SoftObjectPaths)}
	if len(f.Names) > 0 {
		id.names = &f.Names[0]
	}
	if len(f.Imports) > 0 {
		id.imports = &f.Imports[0]
	}
	if len(f.Exports) > 0 {
		id.exports = &f.Exports[0]
	}
	if len(f.SoftObjectPaths) > 0 {
		id.soft = &f.SoftObjectPaths[0]
	}
	return tables{f: f, id: id}
}

// bytes returns the tablesKey of the reading.
func (t *tables) bytes() []byte {
	if t.buf == nil {
		t.buf = keyBufs.Get().(*[]byte)
		t.key = tablesKey((*t.buf)[:0], t.f)
	}
	return t.key
}

// tablesRef is what a memo keeps of the reading it was made for: its ID,
// and its tablesKey, made only when a reading with another ID is compared
// with it (the reading's tables do not change while the checker lives).
type tablesRef struct {
	id    tablesID
	f     *uasset.File
	key   string
	keyed bool
}

// ref returns a memo's reference to the reading.
func (t *tables) ref() tablesRef { return tablesRef{id: t.id, f: t.f} }

// is reports whether the reading's tables are those of the memo's reading.
func (t *tables) is(m *tablesRef) bool {
	if m.id == t.id {
		return true
	}
	if !m.keyed {
		m.key, m.keyed = string(tablesKey(nil, m.f)), true
	}
	return m.key == string(t.bytes())
}

// release gives the key's buffer back.
func (t *tables) release() {
	if t.buf != nil {
		*t.buf = t.key
		keyBufs.Put(t.buf)
		t.buf, t.key = nil, nil
	}
}

// localSchemas returns a lookup of the schemas of the classes and structs
// the package defines (Blueprint classes, user-defined structs), read from
// their exports' FProperty definitions, for unversioned data the mappings
// do not cover.
func localSchemas(f *uasset.File, ctx *property.Context) func(string) *usmap.Struct {
	byName := map[string]int{}
	for i := range f.Exports {
		if property.IsStructClass(f.ClassName(uasset.PackageIndex(i + 1))) {
			n := strings.ToLower(f.NameString(f.Exports[i].ObjectName))
			if _, dup := byName[n]; !dup {
				byName[n] = i
			}
		}
	}
	if len(byName) == 0 {
		return nil
	}
	cache := map[int]*usmap.Struct{}
	busy := map[int]bool{}
	var mu sync.Mutex
	return func(name string) *usmap.Struct {
		mu.Lock()
		defer mu.Unlock()
		i, ok := byName[strings.ToLower(name)]
		if !ok {
			return nil
		}
		if s, done := cache[i]; done {
			return s
		}
		if busy[i] {
			return nil
		}
		busy[i] = true
		mu.Unlock() // decoding the class may look up other local schemas
		var s *usmap.Struct
		if data, err := f.Exports[i].Data(); err == nil {
			o := property.ReadExport(ctx, data, ExportInfo(f, i))
			if h, ok := o.ClassData.(*property.StructHeader); ok {
				s = h.Schema(f.NameString(f.Exports[i].ObjectName))
			}
		}
		mu.Lock()
		delete(busy, i)
		cache[i] = s
		return s
	}
}

// missingSchema reports an export that failed only because a schema was
// not available (a struct or class neither in the mappings nor found).
func missingSchema(o *property.Object) bool {
	if o.Complete || len(o.Issues) == 0 {
		return false
	}
	for _, is := range o.Issues {
		if !strings.Contains(is.Msg, "no schema for") && !strings.Contains(is.Msg, "need a .usmap") {
			return false
		}
	}
	return true
}

// importedSchemas returns a lookup of schemas defined by the packages f
// imports: an imported object named like the struct, whose outermost outer
// is a package, is looked up in that package (loaded with load).
func importedSchemas(f *uasset.File, mappings *usmap.File, load Loader, depth int, seen map[string]*property.Context) func(string) *usmap.Struct {
	pkgOf := map[string]string{}
	for i := range f.Imports {
		im := &f.Imports[i]
		// Walk to the outermost import: the package.
		p := uasset.PackageIndex(-int32(i) - 1)
		for range 32 {
			o := f.Outer(p)
			if o.IsNull() {
				break
			}
			p = o
		}
		if p == uasset.PackageIndex(-int32(i)-1) {
			continue // a package itself
		}
		pkg := f.ObjectName(p)
		if strings.HasPrefix(pkg, "/") && !strings.HasPrefix(pkg, "/Script/") {
			// Only these names are looked up: lowered here, not for
			// every import.
			name := strings.ToLower(f.NameString(im.ObjectName))
			if _, dup := pkgOf[name]; !dup {
				pkgOf[name] = pkg
			}
		}
	}
	if len(pkgOf) == 0 {
		return nil
	}
	var mu sync.Mutex
	return func(name string) *usmap.Struct {
		mu.Lock()
		pkg, ok := pkgOf[strings.ToLower(name)]
		if !ok {
			mu.Unlock()
			return nil
		}
		ctx, done := seen[pkg]
		if !done {
			seen[pkg] = nil // in progress: a cycle finds nothing
			mu.Unlock()
			if g, err := load(pkg); err == nil {
				ctx = contextDepth(g, mappings, load, depth+1, seen)
			}
			mu.Lock()
			seen[pkg] = ctx
		}
		mu.Unlock()
		if ctx == nil || ctx.LocalSchema == nil {
			return nil
		}
		return ctx.LocalSchema(name)
	}
}
