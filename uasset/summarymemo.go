package uasset

import (
	"strings"
	"sync"
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
	a, b := summaryLayoutOf(e.engine), summaryLayoutOf(engine)
	if a == nil || b == nil {
		return false
	}
	// A summary that failed part way holds the legacy version (read
	// before) and the flags when it got to them: the fields up to the
	// failure are those of that choice.
	l := summaryChoice(e.summary.LegacyFileVersion, e.summary.FilterEditorOnly())
	return l >= 0 && a[l] == b[l]
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

// summaryLayout numbers, for each choice, the list of fields a release's
// summary has: two releases with the same number read it alike.
type summaryLayout [summaryChoices]int

var (
	summaryLayoutsOnce sync.Once
	summaryLayouts     []summaryLayout // by index in engines
)

// summaryLayoutOf returns the summary layouts of engines[engine], or nil.
func summaryLayoutOf(engine int) *summaryLayout {
	summaryLayoutsOnce.Do(func() {
		ids := map[string]int{}
		summaryLayouts = make([]summaryLayout, len(engines))
		for i, e := range engines {
			v := e.versions()
			for legacy := int32(-1); legacy >= LegacyFileVersionCurrent; legacy-- {
				for _, editorOnly := range []bool{false, true} {
					sig := summarySignature(&v, legacy, editorOnly)
					id, ok := ids[sig]
					if !ok {
						id = len(ids)
						ids[sig] = id
					}
					summaryLayouts[i][summaryChoice(legacy, editorOnly)] = id
				}
			}
		}
	})
	if engine < 0 || engine >= len(summaryLayouts) {
		return nil
	}
	return &summaryLayouts[engine]
}

// summarySignature lists the summary fields read with versions v, a legacy
// file version and PKG_FilterEditorOnly clear or set, for a summary whose
// arrays hold one element each (so that the element fields are listed too).
func summarySignature(v *Versions, legacy int32, filterEditorOnly bool) string {
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
	var b strings.Builder
	for _, fl := range s.Fields(v) {
		b.WriteString(fl.Name)
		b.WriteByte(0)
	}
	return b.String()
}
