package uasset

// tableMemo keeps the import and export maps the last inference candidate
// read, for the next candidates, as nameMemo does for the name map. An
// entry's serializer consults nothing but the reader and the entry layout
// (importLayout, exportLayout), so a map of the same file read at the same
// offset, with the same count, byte order and entry layout, holds the same
// entries. Each candidate still checks the entries against its own
// summary and name map (checkImport, checkExport) and gets its own copy.
// Only maps read whole without error are kept. The memo holds the entries
// of the candidate that read them (not a copy): a File does not change its
// maps after reading them, and the memo lives only while NewFile infers.
type tableMemo struct {
	imports mapMemo[ObjectImport, importLayout]
	exports mapMemo[ObjectExport, exportLayout]
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
