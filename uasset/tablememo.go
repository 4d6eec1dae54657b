package uasset

// tableMemo keeps the import and export maps the last inference candidate
// read, for the next candidates, as nameMemo does for the name map. An
// entry's serializer consults nothing but the reader and the entry layout
// (importLayout, exportLayout), so a map of the same file read at the same
// offset, with the same count, byte order and entry layout, holds the same
// entries. Each candidate still checks the entries against its own
// summary and name map (checkImport, checkExport), unless the checks
// passed already with everything they consult the same (checkContext);
// candidates share the entries, and infer makes the chosen one their
// owner (ownImports, ownExports). Only maps read whole without error are
// kept. The memo holds the entries
// of the candidate that read them (not a copy): a File does not change its
// maps after reading them, and the memo lives only while NewFile infers.
type tableMemo struct {
	imports mapMemo[ObjectImport, importLayout]
	exports mapMemo[ObjectExport, exportLayout]
	path    pathMemo
}

// pathMemo keeps what nameMapPackagePath found for the name, import and
// export maps it was given: the very slices, which the candidates sharing
// them do not change while inferring.
type pathMemo struct {
	ok       bool
	names    *NameEntry
	imports  *ObjectImport
	exports  *ObjectExport
	nNames   int
	nImports int
	nExports int
	path     string
}

// nameMapPackagePath is f.nameMapPackagePath, taken from the memo when f
// holds the tables it was found for; t may be nil.
func (t *tableMemo) nameMapPackagePath(f *File) string {
	if t == nil {
		return f.nameMapPackagePath()
	}
	key := pathMemo{ok: true, names: firstElem(f.Names), imports: firstElem(f.Imports), exports: firstElem(f.Exports),
		nNames: len(f.Names), nImports: len(f.Imports), nExports: len(f.Exports)}
	if m := &t.path; m.ok && m.names == key.names && m.imports == key.imports && m.exports == key.exports &&
		m.nNames == key.nNames && m.nImports == key.nImports && m.nExports == key.nExports {
		return m.path
	}
	key.path = f.nameMapPackagePath()
	t.path = key
	return key.path
}

// firstElem returns the address of s's first element, or nil.
func firstElem[E any](s []E) *E {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// mapMemo is one remembered map.
type mapMemo[E any, L comparable] struct {
	ok        bool
	offset    int64
	count     int32
	bigEndian bool
	layout    L
	entries   []E
	starts    []int64 // where each entry starts (for errors)
	end       int64   // where the map ended
	// checked: every entry passed checkImport or checkExport in a File
	// whose checkContext was ctx; missingUexp is what checkExport left.
	checked     bool
	ctx         checkContext
	missingUexp bool
	// spansOK: the entries' serial ranges passed validate's checks
	// (after the header, back to back) with TotalHeaderSize spansHeader.
	spansOK     bool
	spansHeader int32
}

// checkContext is all that checkImport and checkExport consult of a File
// besides the entry and its index: two Files with equal contexts pass or
// fail the checks of an entry alike (and mark the .uexp missing alike).
type checkContext struct {
	names                    int
	importCount, exportCount int32
	totalHeaderSize          int32
	filterEditorOnly         bool
	size                     int64
	uexp                     bool
	uexpSize                 int64
}

func (f *File) checkContext() checkContext {
	s := &f.Summary
	return checkContext{names: len(f.Names), importCount: s.ImportCount, exportCount: s.ExportCount,
		totalHeaderSize: s.TotalHeaderSize, filterEditorOnly: s.FilterEditorOnly(),
		size: f.size, uexp: f.uexp != nil, uexpSize: f.uexpSize}
}

// checkedFor reports whether the entries passed the checks in a File with
// f's context; m may be nil.
func (m *mapMemo[E, L]) checkedFor(f *File) bool {
	return m != nil && m.checked && m.ctx == f.checkContext()
}

// passed notes that every entry passed the checks in f; m may be nil.
func (m *mapMemo[E, L]) passed(f *File) {
	if m == nil {
		return
	}
	m.checked, m.ctx, m.missingUexp = true, f.checkContext(), f.missingUexp
}

// matches reports whether a map read at offset with count entries of
// layout l, in f's byte order, is the remembered one; m may be nil.
func (m *mapMemo[E, L]) matches(f *File, offset int64, count int32, l L) bool {
	return m != nil && m.ok && m.offset == offset && m.count == count && m.bigEndian == f.BigEndian && m.layout == l
}

// put remembers a map read whole; m may be nil.
func (m *mapMemo[E, L]) put(f *File, offset int64, count int32, l L, entries []E, starts []int64, end int64) {
	if m == nil {
		return
	}
	*m = mapMemo[E, L]{ok: true, offset: offset, count: count, bigEndian: f.BigEndian, layout: l, entries: entries, starts: starts, end: end}
}

func (t *tableMemo) importMap() *mapMemo[ObjectImport, importLayout] {
	if t == nil {
		return nil
	}
	return &t.imports
}

func (t *tableMemo) exportMap() *mapMemo[ObjectExport, exportLayout] {
	if t == nil {
		return nil
	}
	return &t.exports
}

// sharesExports reports whether f's export map is the remembered entries
// themselves (shared, not a copy); t may be nil.
func (t *tableMemo) sharesExports(f *File) bool {
	if t == nil || !t.exports.ok || len(f.Exports) == 0 {
		return false
	}
	e := t.exports.entries
	return len(e) == len(f.Exports) && &e[0] == &f.Exports[0]
}

// spansPassed reports whether f's export map is the remembered one and its
// serial ranges passed validate's checks with f's TotalHeaderSize.
func (t *tableMemo) spansPassed(f *File) bool {
	return t.sharesExports(f) && t.exports.spansOK && t.exports.spansHeader == f.Summary.TotalHeaderSize
}

// spansPass notes that f's export serial ranges passed validate's checks.
func (t *tableMemo) spansPass(f *File) {
	if t.sharesExports(f) {
		t.exports.spansOK, t.exports.spansHeader = true, f.Summary.TotalHeaderSize
	}
}
