package uasset

// sectionMemo keeps optional sections inference candidates read whose
// serializers ask no version (the depends map, the preload dependencies),
// for the next candidates, as nameMemo does for the name map: a section of
// the same file read at the same offset, with the same count from the
// summary and byte order, holds the same entries. Only sections read
// without error are kept. The candidates share the slices: a File does not
// change its sections after reading them.
type sectionMemo struct {
	entries []sectionEntry
}

// sectionEntry is one section read whole.
type sectionEntry struct {
	name      string
	off       int64
	count     int32 // the summary's count the section was read with
	bigEndian bool
	size      int64 // bytes read
	n         int   // Section.Count
	val       any   // what the section holds
}

// readSectionShared is readSection for a section named name whose
// serializer asks no version: count is the summary's count it reads with,
// get returns what it read (for the next candidates) and set gives f what
// an earlier candidate read.
func (f *File) readSectionShared(name string, off int64, count int32, ser sectionSer, n func() int, get func() any, set func(any)) error {
	m := f.secs
	if m == nil {
		return f.readSection(name, off, ser, n)
	}
	for i := range m.entries {
		e := &m.entries[i]
		if e.name == name && e.off == off && e.count == count && e.bigEndian == f.BigEndian {
			set(e.val)
			f.Sections = append(f.Sections, Section{Name: name, Offset: off, Size: e.size, Count: e.n})
			f.sers = append(f.sers, sectionRec{name: name, off: off, ser: ser})
			return nil
		}
	}
	if err := f.readSection(name, off, ser, n); err != nil {
		return err
	}
	sec := &f.Sections[len(f.Sections)-1]
	m.entries = append(m.entries, sectionEntry{name: name, off: off, count: count, bigEndian: f.BigEndian, size: sec.Size, n: sec.Count, val: get()})
	return nil
}
