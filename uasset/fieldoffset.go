package uasset

import (
	"github.com/upkg/upkg/ue"
)

// offsetFinder is an archive that writes a structure back (through a saver,
// so strings keep their stored encoding and length) and notes the offset at
// which one named field lies. Errors about a value that read but cannot be
// right (an offset outside the file) use it to say where the value is.
type offsetFinder struct {
	*saver
	want  string
	found int64
}

func (a *offsetFinder) at(f string) {
	if a.found < 0 && f == a.want {
		a.found = a.saver.offset()
	}
}

func (a *offsetFinder) i32(f string, v *int32)   { a.at(f); a.saver.i32(f, v) }
func (a *offsetFinder) u32(f string, v *uint32)  { a.at(f); a.saver.u32(f, v) }
func (a *offsetFinder) i64(f string, v *int64)   { a.at(f); a.saver.i64(f, v) }
func (a *offsetFinder) u64(f string, v *uint64)  { a.at(f); a.saver.u64(f, v) }
func (a *offsetFinder) u16(f string, v *uint16)  { a.at(f); a.saver.u16(f, v) }
func (a *offsetFinder) u8(f string, v *uint8)    { a.at(f); a.saver.u8(f, v) }
func (a *offsetFinder) bool32(f string, v *bool) { a.at(f); a.saver.bool32(f, v) }
func (a *offsetFinder) str(f string, v *String)  { a.at(f); a.saver.str(f, v) }
func (a *offsetFinder) guid(f string, v *ue.Guid) {
	a.at(f)
	a.saver.guid(f, v)
}
func (a *offsetFinder) fixed(f string, v []byte) { a.at(f); a.saver.fixed(f, v) }
func (a *offsetFinder) engineVersion(f string, v *ue.EngineVersion) {
	a.at(f)
	a.saver.engineVersion(f, v)
}
func (a *offsetFinder) count(f string, n int, minElem int64) int {
	a.at(f)
	return a.saver.count(f, n, minElem)
}

// summaryFieldOffset returns the file offset of the summary field (its full
// name, "PackageFileSummary.NameOffset"), or -1 when the summary as read
// has no such field.
func (f *File) summaryFieldOffset(field string) int64 {
	a := &offsetFinder{saver: newSaver(nil, 0), want: field, found: -1}
	s := f.Summary
	s.serialize(a, &f.Versions)
	return a.found
}
