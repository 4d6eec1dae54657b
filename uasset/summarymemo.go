package uasset

import (
	"slices"
	"sync"

	"github.com/upkg/upkg/ue"
)

// summaryMemo keeps the summaries inference candidates read, for the
// candidates that read the summary alike, as nameMemo does for the name
// map. PackageFileSummary.serialize asks only which object-version
// thresholds the versions pass, the legacy file version and
// PKG_FilterEditorOnly; releases for which it lists the same fields
// (summaryLayouts) read from the same bytes the same summary, end at the
// same offset and pass or fail checkSummary and the name-map check alike.
// A summary read names the legacy version and package flags it has (a
// read that failed before PackageFlags asked nothing of them, and holds
// zero flags), so a release reading the fields of that choice alike shares
// it. The candidates share the summary's slices: a File does not change
// its summary after reading it.
type summaryMemo struct {
	entries []summaryEntry
}

// summaryEntry is one summary read, with how it ended.
type summaryEntry struct {
	engine   int // index in engines of the release it was read as
	summary  PackageFileSummary
	end      int64 // where the summary ended
	progress readStage
	err      error
}

// readSummaryShared is readSummary, taking the summary from the memo when a
// candidate reading it alike read it already.
func (f *File) readSummaryShared() error {
	m, engine := f.sums, f.sumEngine
	if m == nil || engine < 0 || !f.strict {
		_, err := f.readSummary()
		return err
	}
	for i := range m.entries {
		e := &m.entries[i]
		if !e.readsAlike(engine) {
			continue
		}
		f.Summary = e.summary
		if e.progress >= readSummary {
			f.summaryRead(e.end)
		}
		f.progress = e.progress
		return e.err
	}
	end, err := f.readSummary()
	m.entries = append(m.entries, summaryEntry{engine: engine, summary: f.Summary, end: end, progress: f.progress, err: err})
	return err
}

// readsAlike reports whether release engine reads the summary e holds as
// e's release did.
func (e *summaryEntry) readsAlike(engine int) bool {
	// A summary that failed part way holds the legacy version (read
	// before) and the flags when it got to them: the fields up to the
	// failure are those of that choice.
	l := summaryChoice(e.summary.LegacyFileVersion, e.summary.FilterEditorOnly())
	if l < 0 {
		return false
	}
	ids := summaryLayoutsOf(l)
	if e.engine < 0 || e.engine >= len(ids) || engine < 0 || engine >= len(ids) {
		return false
	}
	return ids[e.engine] == ids[engine]
}

// summaryChoices are the legacy file versions (-1 … LegacyFileVersionCurrent)
// times PKG_FilterEditorOnly clear or set.
const summaryChoices = 2 * -LegacyFileVersionCurrent

// summaryChoice numbers a legacy file version and editor flag choice, or
// returns -1.
func summaryChoice(legacy int32, filterEditorOnly bool) int {
	if legacy >= 0 || legacy < LegacyFileVersionCurrent {
		return -1
	}
	i := 2 * int(-legacy-1)
	if filterEditorOnly {
		i++
	}
	return i
}

// summaryLayouts holds, for each choice, a number per release (by index in
// engines) for the fields its summary has: two releases with the same
// number read it alike. Each choice is worked out when first needed.
var summaryLayouts [summaryChoices]struct {
	once sync.Once
	ids  []int
}

// summaryLayoutsOf returns the layout numbers of the releases for choice l.
func summaryLayoutsOf(l int) []int {
	c := &summaryLayouts[l]
	c.once.Do(func() {
		legacy := -int32(l/2) - 1
		filterEditorOnly := l%2 == 1
		var distinct [][]string
		c.ids = make([]int, len(engines))
		for i, e := range engines {
			v := e.versions()
			names := summaryFieldNames(&v, legacy, filterEditorOnly)
			id := slices.IndexFunc(distinct, func(d []string) bool { return slices.Equal(d, names) })
			if id < 0 {
				id = len(distinct)
				distinct = append(distinct, names)
			}
			c.ids[i] = id
		}
	})
	return c.ids
}

// summaryFieldNames lists the summary fields read with versions v, a legacy
// file version and PKG_FilterEditorOnly clear or set, for a summary whose
// arrays hold one element each (so that the element fields are listed too).
func summaryFieldNames(v *Versions, legacy int32, filterEditorOnly bool) []string {
	s := PackageFileSummary{
		LegacyFileVersion:        legacy,
		CustomVersions:           make([]CustomVersion, 1),
		Generations:              make([]GenerationInfo, 1),
		CompressedChunks:         make([]CompressedChunk, 1),
		AdditionalPackagesToCook: make([]String, 1),
		ChunkIDs:                 make([]int32, 1),
	}
	if filterEditorOnly {
		s.PackageFlags = PKG_FilterEditorOnly
	}
	a := &fieldNamer{names: make([]string, 0, 96)}
	s.serialize(a, v)
	return a.names
}

// fieldNamer is an archive that lists the names of the fields serialized,
// as lister does without their values.
type fieldNamer struct{ names []string }

func (a *fieldNamer) add(f string)                                { a.names = append(a.names, f) }
func (a *fieldNamer) loading() bool                               { return false }
func (a *fieldNamer) i32(f string, _ *int32)                      { a.add(f) }
func (a *fieldNamer) u32(f string, _ *uint32)                     { a.add(f) }
func (a *fieldNamer) i64(f string, _ *int64)                      { a.add(f) }
func (a *fieldNamer) u64(f string, _ *uint64)                     { a.add(f) }
func (a *fieldNamer) u16(f string, _ *uint16)                     { a.add(f) }
func (a *fieldNamer) u8(f string, _ *uint8)                       { a.add(f) }
func (a *fieldNamer) bool32(f string, _ *bool)                    { a.add(f) }
func (a *fieldNamer) str(f string, _ *String)                     { a.add(f) }
func (a *fieldNamer) guid(f string, _ *ue.Guid)                   { a.add(f) }
func (a *fieldNamer) fixed(f string, _ []byte)                    { a.add(f) }
func (a *fieldNamer) engineVersion(f string, _ *ue.EngineVersion) { a.add(f) }
func (a *fieldNamer) failed() bool                                { return false }
func (a *fieldNamer) fail(string, error)                          {}
func (a *fieldNamer) offset() int64                               { return -1 }
func (a *fieldNamer) remaining() int64                            { return 0 }
func (a *fieldNamer) count(f string, n int, _ int64) int {
	a.add(f)
	return n
}
