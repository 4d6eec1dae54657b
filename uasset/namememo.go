package uasset

// nameMemo keeps the name map the last inference candidate read, for the
// next candidates: layouts differ in many summary fields, but most read
// the name map at the same offset with the same count, and decoding
// thousands of FStrings once per candidate was a large part of inferring
// an engine version. Only a map read without error is kept. The candidates
// share the slice; a File does not change its name map after reading it.
type nameMemo struct {
	ok        bool
	offset    int32
	count     int32
	hashes    bool // VER_UE4_NAME_HASHES_SERIALIZED: the entries carry hashes
	bigEndian bool
	names     []NameEntry
	end       int64 // where the map ended
	valid     bool  // the names passed validate's checks
}

func (m *nameMemo) matches(f *File) bool {
	s := &f.Summary
	return m.ok && m.offset == s.NameOffset && m.count == s.NameCount &&
		m.hashes == (f.Versions.UE4 >= VerUE4NameHashesSerialized) && m.bigEndian == f.BigEndian
}

// get gives f the remembered name map when f reads it alike.
func (m *nameMemo) get(f *File) bool {
	if m == nil || !m.matches(f) {
		return false
	}
	f.Names = m.names
	f.namesRead(m.end)
	return true
}

// put remembers the name map f read, ending at end.
func (m *nameMemo) put(f *File, end int64) {
	if m == nil {
		return
	}
	s := &f.Summary
	*m = nameMemo{ok: true, offset: s.NameOffset, count: s.NameCount,
		hashes: f.Versions.UE4 >= VerUE4NameHashesSerialized, bigEndian: f.BigEndian, names: f.Names, end: end}
}

// validNames reports whether f's name map is the remembered one and has
// passed validate's name checks already.
func (m *nameMemo) validNames(f *File) bool {
	return m != nil && m.valid && m.matches(f) && sameNames(m.names, f.Names)
}

// namesValid notes that f's name map passed validate's name checks.
func (m *nameMemo) namesValid(f *File) {
	if m != nil && m.matches(f) && sameNames(m.names, f.Names) {
		m.valid = true
	}
}

// sameNames reports whether a and b are the same slice.
func sameNames(a, b []NameEntry) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
