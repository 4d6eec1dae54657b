package uasset

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// Ground rules for this file: an unversioned package says nothing about its
// engine, so each candidate release's layout is tried in turn. A candidate
// survives when the summary and every table read, every section reads, and
// the invariants of a package written by a real cooker hold (validate). Then
// the checks given with WithCandidateCheck run. The survivors are reported;
// releases whose layouts read alike are named together as ambiguous.

// layoutKey groups releases that read the header identically.
type layoutKey struct {
	ue4, ue5 int32
	// importPkg: the release's cooked imports hold PackageName (5.8+).
	importPkg bool
	// tile3D: world tile positions are FIntVector
	// (FortniteMainBranchObjectVersion 1, 4.20+).
	tile3D bool
}

func infer(r io.ReaderAt, size int64, order binary.ByteOrder, o *options, legacy int32) (*File, error) {
	// Releases that write this legacy file version come first; the others
	// are tried only when none of those reads the package.
	f, err := inferFrom(r, size, order, o, legacy, true)
	if err == nil || !anyEngine(legacy, false) {
		return f, err
	}
	if f2, err2 := inferFrom(r, size, order, o, legacy, false); err2 == nil {
		f2.Engine.Note = strings.TrimSpace(f2.Engine.Note + " (no release writing legacy file version " + itoa(int64(legacy)) + " reads it)")
		return f2, nil
	}
	return nil, err
}

// candidate reports whether release e is a candidate of the pass that
// tries the releases writing legacy file version legacy (writes) or the
// others (!writes).
func candidate(e *Engine, legacy int32, writes bool) bool {
	return (e.Legacy == legacy) == writes
}

// anyEngine reports whether the pass (see candidate) has a candidate.
func anyEngine(legacy int32, writes bool) bool {
	for i := range engines {
		if candidate(&engines[i], legacy, writes) {
			return true
		}
	}
	return false
}

// inferFrom tries the releases candidate picks with legacy and writes.
func inferFrom(r io.ReaderAt, size int64, order binary.ByteOrder, o *options, legacy int32, writes bool) (*File, error) {
	if !anyEngine(legacy, writes) {
		return nil, ErrNeedEngine
	}
	type result struct {
		key      layoutKey
		f        *File
		engines  []string
		err      error
		progress readStage
		// read is the File the group's read gave (nil when it failed);
		// readErr and valErr are how its read and validate ended.
		// Groups whose releases read the header alike (readClass)
		// share them.
		read            *File
		readErr, valErr error
		// copied: f is a copy of an earlier group's read.
		copied bool
	}
	results := make([]*result, 0, 16) // a few dozen releases, fewer layouts
	var spare *File                   // a File to reuse
	if o.hdrCache == nil {
		o.hdrCache = new([]byte)
	}
	if o.hdrText == nil {
		o.hdrText = new(string)
	}
	if o.names == nil && o.tables == nil && o.sums == nil && o.secs == nil {
		m := cachedMemos()
		o.names, o.tables, o.sums, o.secs, o.memos = &m.names, &m.tables, &m.sums, &m.secs, m
	}
	if o.names == nil {
		o.names = &nameMemo{}
	}
	if o.tables == nil {
		o.tables = &tableMemo{}
	}
	if o.sums == nil {
		o.sums = &summaryMemo{entries: make([]summaryEntry, 0, 4)} // most packages: a few distinct summary reads
	}
	if o.secs == nil {
		o.secs = &sectionMemo{}
	}
	for i := range engines {
		e := &engines[i]
		if !candidate(e, legacy, writes) {
			continue
		}
		es := engineStaticOf(e.Name)
		if es == nil {
			continue // not in the table (cands come from it)
		}
		k := es.key
		if j := slices.IndexFunc(results, func(r *result) bool { return r.key == k }); j >= 0 {
			results[j].engines = append(results[j].engines, e.Name)
			continue
		}
		res := &result{key: k, engines: []string{e.Name}}
		var f *File
		if j := slices.IndexFunc(results, func(r *result) bool { return engineStaticOf(r.engines[0]).class == es.class }); j >= 0 {
			// An earlier group reads the header alike: its read and
			// validate end as this group's would. Only the check, which
			// decodes export data with the versions, is this group's own.
			src := results[j]
			res.progress, res.readErr, res.valErr = src.progress, src.readErr, src.valErr
			results = append(results, res)
			if res.err = cmp.Or(src.readErr, src.valErr); res.err != nil {
				continue
			}
			f = new(File)
			*f = *src.read
			f.Versions, f.sumEngine = es.versions, es.index
			res.copied = true
		} else {
			results = append(results, res)
			if spare != nil {
				f, spare = spare.reset(r, size, order, o), nil
			} else {
				f = newFile(r, size, order, o)
			}
			f.strict = true
			f.sumEngine = es.index
			err := f.read(es.versions)
			res.progress = f.progress
			if err != nil {
				res.err, res.readErr = err, err
				spare = f // nothing keeps it (a failed read put no export map, whose entries point to it, in the memo)
				continue
			}
			res.read = f
			if err := f.validate(); err != nil {
				res.err, res.valErr = err, err
				continue
			}
		}
		for _, check := range o.checks {
			if err := check(f); err != nil {
				res.err = err
				break
			}
		}
		res.f = f
	}
	var ok []*result
	for _, res := range results {
		if res.err != nil {
			continue
		}
		res.engines = filterByFlags(res.engines, &res.f.Summary)
		if len(res.engines) == 0 {
			res.err = formatErrf("summary", "%w: package flags 0x%x not written by this release", errInvariant, res.f.Summary.PackageFlags)
			continue
		}
		ok = append(ok, res)
	}
	if len(ok) == 0 {
		// Report the candidate that got furthest (read the summary, the
		// name map, …) before failing: for a damaged file most likely the
		// right layout. Among equals the newest, as most files in the wild
		// are recent. Its error names the field and offset that broke.
		var tried []string
		best := results[0]
		for _, res := range results {
			tried = append(tried, strings.Join(res.engines, "/"))
			if res.progress >= best.progress {
				best = res
			}
		}
		where := ""
		if off := errOffset(best.err); off >= 0 {
			where = fmt.Sprintf(" at offset 0x%x", off)
		}
		lead := ErrNeedEngine
		if errors.Is(best.err, io.ErrUnexpectedEOF) {
			// The layout likeliest to be right ran off the end of the
			// file: it is cut short, not of an unknown engine.
			lead = errCutShort
		}
		return nil, fmt.Errorf("%w (no engine layout reads it; tried %s; %s got furthest%s: %w)", lead, strings.Join(tried, ", "), best.engines[len(best.engines)-1], where, best.err)
	}
	// Prefer the newest layout among the survivors.
	sort.SliceStable(ok, func(i, j int) bool {
		if ok[i].key.ue5 != ok[j].key.ue5 {
			return ok[i].key.ue5 > ok[j].key.ue5
		}
		if ok[i].key.ue4 != ok[j].key.ue4 {
			return ok[i].key.ue4 > ok[j].key.ue4
		}
		return ok[i].key.importPkg && !ok[j].key.importPkg
	})
	var all []string
	for _, res := range ok {
		all = append(all, res.engines...)
	}
	sortEngineNames(all)
	// The releases left may still differ in what they write into the
	// export data (evidence.go).
	all, why := ok[0].f.narrowByEvidence(all)
	// The newest full release left (an early-access build is only chosen
	// alone), read with the layout of its group.
	choice := all[len(all)-1]
	for i := len(all) - 1; i >= 0; i-- {
		if !strings.HasSuffix(all[i], "EA") {
			choice = all[i]
			break
		}
	}
	f, copied := ok[0].f, ok[0].copied
	for _, res := range ok {
		if contains(res.engines, choice) {
			f, copied = res.f, res.copied
			break
		}
	}
	if copied {
		// The copy's section serializers are bound to the File it was
		// copied from: read the header into f itself (alike, from the
		// memos), so that the rewrite follows f's model. f stays the
		// File the checks saw.
		cp := *f
		f.Sections, f.sers = nil, nil // shared with the original: not to be recycled
		es := engineStaticOf(engines[cp.sumEngine].Name)
		f.reset(r, size, order, o)
		f.strict, f.sumEngine = true, es.index
		if err := f.read(es.versions); err != nil {
			*f = cp // cannot happen (TestReadClass); the copy reads as well
		}
	}
	f.ownImports()
	f.ownExports()
	if o.release {
		// The other candidates' Files (copies share their original's
		// section arrays, and are left out).
		for _, res := range results {
			if g := res.read; g != nil && g != f {
				f.others = append(f.others, g)
			}
		}
		if spare != nil && spare != f {
			f.others = append(f.others, spare)
		}
	}
	if es := engineStaticOf(choice); es != nil {
		f.Versions.Custom = es.versions.Custom
	}
	f.Engine = EngineInfo{Version: choice, Source: "detected", Candidates: all}
	switch {
	case len(all) > 1:
		f.Engine.Note = "ambiguous: " + describeCandidates(all) + " read alike; chose " + f.Engine.Version + " (give --engine to pick)"
		if why != "" {
			f.Engine.Note += "; " + why
		}
	case why != "":
		f.Engine.Note = "chose " + choice + " from the export data: " + why
	}
	return f, nil
}

// unversionedPropertiesSince is the first release whose cooker can write
// unversioned property serialization (PKG_UnversionedProperties).
const unversionedPropertiesSince = "4.25"

// filterByFlags drops releases that cannot have written a package with
// these flags.
func filterByFlags(names []string, s *PackageFileSummary) []string {
	if !s.UnversionedProperties() {
		return names
	}
	min := engineIndex(unversionedPropertiesSince)
	var out []string
	for _, n := range names {
		if engineIndex(n) >= min {
			out = append(out, n)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func engineIndex(name string) int {
	if es := engineStaticOf(name); es != nil {
		return es.index
	}
	return -1
}

func sortEngineNames(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return engineIndex(names[i]) < engineIndex(names[j]) })
}

// engineStatic is what inference needs of a release, worked out once.
type engineStatic struct {
	index    int // in engines
	key      layoutKey
	class    readClass
	versions Versions
	traits   layoutTraits // what the structural evidence probes test
}

var engineStatics struct {
	once   sync.Once
	byName map[string]*engineStatic
}

// engineStaticOf returns the release called name, or nil.
func engineStaticOf(name string) *engineStatic {
	engineStatics.once.Do(func() {
		byName := make(map[string]*engineStatic, len(engines))
		for i, e := range engines {
			byName[e.Name] = &engineStatic{index: i}
		}
		since := -1
		for i, e := range engines {
			if e.Name == cookedImportPackageNameSince {
				since = i
			}
		}
		for i, e := range engines {
			es := byName[e.Name]
			// e.versions(), without asking engineIndex (which waits for this)
			es.versions = Versions{UE4: e.UE4, UE5: e.UE5, CookedImportPackageName: i >= since, Custom: engineCustomVersions(e.Name)}
			es.key = layoutKey{e.UE4, e.UE5, es.versions.CookedImportPackageName, e.customVersion(fortniteMainBranchObjectVersion) >= fnmWorldCompositionTile3DOffset}
			es.traits = traitsOf(e)
			es.class = readClassOf(es.key)
		}
		engineStatics.byName = byName
	})
	return engineStatics.byName[name]
}

// readClass groups layouts whose reads of any package end alike: the
// header reader (read, validate and what they call) asks of the versions
// only whether UE4 and UE5 reach the thresholds named in const.go
// (VerUE4…, VerUE5…), whether cooked imports hold PackageName, and whether
// world tile positions are FIntVectors (layoutKey.tile3D), so releases on
// the same side of each read the same bytes into the same tables and
// sections, with the same errors. (TestReadClass holds the reader to this.)
type readClass struct {
	ue4, ue5  int // thresholds reached
	importPkg bool
	tile3D    bool
}

// readThresholdsUE4 and readThresholdsUE5 are the VerUE4… and VerUE5…
// constants of const.go.
var (
	readThresholdsUE4 = []int32{VerUE4OldestLoadablePackage, VerUE4WorldLevelInfo, VerUE4WorldLevelInfoUpdated,
		VerUE4WorldLevelInfoLODList, VerUE4WorldLevelInfoZOrder, VerUE4WorldLayerEnableDistanceStreaming,
		VerUE4AddedChunkIDToAssetDataAndUPackage, VerUE4ChangedChunkIDToBeAnArrayOfChunkIDs, VerUE4EngineVersionObject,
		VerUE4LoadForEditorGame, VerUE4AddStringAssetReferencesMap, VerUE4PackageSummaryHasCompatibleEngineVersion,
		VerUE4SerializeTextInPackages, VerUE4CookedAssetsInEditorSupport, VerUE4NameHashesSerialized,
		VerUE4PreloadDependenciesInCookedExports, VerUE4TemplateIndexInCookedExports, VerUE4AddedSearchableNames,
		VerUE464BitExportMapSerialSizes, VerUE4AddedSoftObjectPath, VerUE4AddedPackageSummaryLocalizationID,
		VerUE4AddedPackageOwner, VerUE4NonOuterPackageImport, VerUE4AssetRegistryDependencyFlags,
		VerUE4CorrectLicenseeFlag, VerUE4Latest}
	readThresholdsUE5 = []int32{VerUE5InitialVersion, VerUE5NamesReferencedFromExportData, VerUE5PayloadTOC,
		VerUE5OptionalResources, VerUE5LargeWorldCoordinates, VerUE5RemoveObjectExportPackageGUID,
		VerUE5TrackObjectExportIsInherited, VerUE5FSoftObjectPathRemoveAssetPathFNames, VerUE5AddSoftObjectPathList,
		VerUE5DataResources, VerUE5ScriptSerializationOffset, VerUE5PropertyTagExtensionAndOverridableSerializion,
		VerUE5PropertyTagCompleteTypeName, VerUE5AssetRegistryPackageBuildDependencies,
		VerUE5MetadataSerializationOffset, VerUE5VerseCells, VerUE5PackageSavedHash,
		VerUE5OSSubObjectShadowSerialization, VerUE5ImportTypeHierarchies, VerUE5Latest}
)

func readClassOf(k layoutKey) readClass {
	reached := func(v int32, ts []int32) int {
		n := 0
		for _, t := range ts {
			if v >= t {
				n++
			}
		}
		return n
	}
	return readClass{reached(k.ue4, readThresholdsUE4), reached(k.ue5, readThresholdsUE5), k.importPkg, k.tile3D}
}

// describeCandidates renders "4.19, 4.20 and 4.21".
func describeCandidates(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// errOffset returns the file offset an error carries, or -1.
func errOffset(err error) int64 {
	var be *binread.Error
	if errors.As(err, &be) {
		return be.Offset
	}
	return -1
}

// errInvariant marks a package that read but breaks an invariant.
var errInvariant = errors.New("invariant broken")

// validateNames checks that every name is printable text (once for the
// candidates sharing one name map).
func (f *File) validateNames() error {
	if f.names.validNames(f) {
		return nil
	}
	for i := range f.Names {
		n := f.Names[i].Name.S
		if n == "" {
			return formatErrf("names", "%w: name %d is empty", errInvariant, i)
		}
		if !printableName(n) {
			return formatErrf("names", "%w: name %d (%q) holds control characters", errInvariant, i, n)
		}
	}
	f.names.namesValid(f)
	return nil
}

// printableName reports whether s holds no control character and no
// U+FFFD (what invalid UTF-8 decodes to). ASCII is checked eight bytes at
// a time (four for shorter names), the last word overlapping the one
// before it (bytes checked twice pass twice); the rest, from the first
// word holding a byte of 0x80 or above, byte by byte and rune by rune.
func printableName(s string) bool {
	i := 0
	switch {
	case len(s) >= 8:
		for {
			j := min(i, len(s)-8)
			w := uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
				uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
			if w&0x8080808080808080 != 0 {
				break // not ASCII (in s[i:]: the bytes before passed): the loop below looks at it
			}
			// With every byte below 0x80, w-0x20… borrows into a byte's
			// top bit exactly when some byte is below 0x20 (the lowest
			// such byte wraps; bytes above it can only borrow from it).
			if (w-0x2020202020202020)&0x8080808080808080 != 0 {
				return false
			}
			if j+8 == len(s) {
				return true
			}
			i += 8
		}
	case len(s) >= 4:
		a := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
		b := uint32(s[len(s)-4]) | uint32(s[len(s)-3])<<8 | uint32(s[len(s)-2])<<16 | uint32(s[len(s)-1])<<24
		if (a|b)&0x80808080 == 0 {
			return ((a-0x20202020)|(b-0x20202020))&0x80808080 == 0
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			for _, r := range s[i:] {
				if r < 0x20 || r == 0xFFFD {
					return false
				}
			}
			return true
		}
		if c < 0x20 {
			return false
		}
	}
	return true
}

// validate checks the invariants a package written by the engine satisfies:
// every section read, names are printable text, export data ranges lie after
// the header, do not overlap and stay inside the package data.
func (f *File) validate() error {
	if err := f.SectionErrors(); err != nil {
		return err
	}
	if err := f.validateNames(); err != nil {
		return err
	}
	s := &f.Summary
	if s.TotalHeaderSize <= 0 {
		return formatErrf("summary", "%w: TotalHeaderSize %d", errInvariant, s.TotalHeaderSize)
	}
	for _, sec := range f.Sections {
		switch sec.Name {
		case "export data", "bulk data", "package trailer", "package tag":
			continue
		}
		if sec.Offset+sec.Size > int64(s.TotalHeaderSize) && sec.Name != "asset registry" && sec.Name != "asset registry dependencies" && sec.Name != "world tile info" {
			return formatErrf(sec.Name, "%w: section ends at 0x%x, after TotalHeaderSize 0x%x", errInvariant, sec.Offset+sec.Size, s.TotalHeaderSize)
		}
	}
	// The engine writes the name map (or the first table) right after the
	// summary: a layout that leaves bytes between them, or overlaps, is wrong.
	first := int64(-1)
	var sumEnd int64
	for _, sec := range f.Sections {
		switch {
		case sec.Name == "summary":
			sumEnd = sec.Offset + sec.Size
		case sec.Name == "export data" || sec.Name == "bulk data" || sec.Name == "package trailer" || sec.Name == "package tag" || sec.InUexp:
		case first < 0 || sec.Offset < first:
			first = sec.Offset
		}
	}
	if first >= 0 && first != sumEnd {
		return formatErrf("summary", "%w: summary ends at 0x%x but the first section starts at 0x%x", errInvariant, sumEnd, first)
	}
	if err := f.validateTiling(); err != nil {
		return err
	}
	if f.tables.spansPassed(f) {
		return nil // these very entries passed with this TotalHeaderSize
	}
	type span struct{ off, size int64 }
	spans := make([]span, 0, len(f.Exports))
	for _, e := range f.Exports {
		if e.SerialSize > 0 {
			spans = append(spans, span{e.SerialOffset, e.SerialSize})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.off, b.off) }) // sort.Slice's algorithm, without reflection
	for i, sp := range spans {
		if sp.off < int64(s.TotalHeaderSize) {
			return formatErrf("exports", "%w: export data at 0x%x inside the header (TotalHeaderSize 0x%x)", errInvariant, sp.off, s.TotalHeaderSize)
		}
		if i > 0 && sp.off != spans[i-1].off+spans[i-1].size {
			return formatErrf("exports", "%w: export data not contiguous: 0x%x after a range ending at 0x%x", errInvariant, sp.off, spans[i-1].off+spans[i-1].size)
		}
	}
	f.tables.spansPass(f)
	return nil
}

// validateTiling checks that the header sections neither overlap nor leave
// bytes no section accounts for (zero padding before TotalHeaderSize
// aside): the cooker writes the tables back to back.
func (f *File) validateTiling() error {
	var buf [32]headerSpan // most headers have fewer sections
	spans := f.headerSpansInto(buf[:0])
	for i := 1; i < len(spans); i++ {
		if spans[i].off < spans[i-1].end {
			return formatErrf(spans[i-1].name, "%w: %s ends at 0x%x, inside %s at 0x%x", errInvariant, spans[i-1].name, spans[i-1].end, spans[i].name, spans[i].off)
		}
	}
	// The gaps gapsBetween lists, in order, without listing them.
	bad := func(off, n int64) error {
		if f.zeroBytes(off, n) {
			return nil
		}
		return formatErrf("header", "%w: %d bytes at 0x%x belong to no section", errInvariant, n, off)
	}
	pos := int64(0)
	for _, sp := range spans {
		if sp.off > pos {
			if err := bad(pos, sp.off-pos); err != nil {
				return err
			}
		}
		pos = max(pos, sp.end)
	}
	if end := f.headerEnd(); pos < end {
		return bad(pos, end-pos)
	}
	return nil
}

// inferMemos are the memos inference shares between the candidates of one
// package, in one allocation.
type inferMemos struct {
	names   nameMemo
	tables  tableMemo
	sums    summaryMemo
	secs    sectionMemo
	sumsBuf [4]summaryEntry // most packages: a few distinct summary reads
}
