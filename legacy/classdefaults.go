package legacy

import (
	"github.com/upkg/upkg/internal/binread"
)

// UE1 and UE2 store a class's default properties at the end of the UClass
// export, after the compiled script, whose serialized length is only known
// by decoding the bytecode. Instead of decoding it, classDefaults finds
// where the UState and UClass fields that follow the script start: at that
// position the fields must hold valid references and names, and the
// tagged default properties after them must end exactly at the end of the
// export. The first such position wins: bytes inside the defaults can pass
// the field checks too, but only later, giving a shorter list that ends at
// the same terminator. Classes without a match (and UE3, which keeps
// defaults in Default__ objects) are reported without properties.

// maxClassScan bounds the bytes searched (the largest UE2 classes are a
// few hundred KiB).
const maxClassScan = 4 << 20

// classDefaults returns the default properties of UClass export i and
// where they start, or ok=false. keep=false finds them the same way
// without building the list (see propReader.keep).
func (f *File) classDefaults(data []byte, keep bool) (props []Property, start int64, ok bool) {
	if f.ue3() || len(data) > maxClassScan {
		return nil, 0, false
	}
	budget := 4*len(data) + 1<<16 // tags read over all attempts
	r := binread.FromBytes(data)
	f.setOrder(r)
	hi := 20 // high half of UState.StateFlags, which is always below 0x10000
	if f.BigEndian {
		hi = 18
	}
	for q := 8; q+24 < len(data) && budget > 0; q++ {
		if data[q+hi] != 0 || data[q+hi+1] != 0 {
			continue
		}
		r.ClearErr()
		r.SeekTo(int64(q), "Class")
		if !f.classTail(r) {
			continue
		}
		s := r.Offset()
		pr := propReader{f: f, r: *r, budget: &budget, keep: keep}
		list, err := pr.list()
		if err == nil && pr.r.Remaining() == 0 {
			return list, s, true
		}
	}
	return nil, 0, false
}

// classTail reads and checks the UState and UClass fields that follow the
// script (UE1/UE2 layout).
func (f *File) classTail(r *binread.Reader) bool {
	ver := int(f.Summary.FileVersion)
	r.U64("State.ProbeMask")
	r.U64("State.IgnoreMask")
	r.U16("State.LabelTableOffset")
	if r.U32("State.StateFlags") > 0xFFFF {
		return false
	}
	r.U32("Class.ClassFlags")
	r.Skip(16, "Class.ClassGuid")
	n := r.CompactIndex("Class.Dependencies")
	if r.Err() != nil || n < 0 || n > 4096 {
		return false
	}
	for range n {
		c := r.CompactIndex("Dependency.Class")
		deep := r.U32("Dependency.Deep")
		r.U32("Dependency.ScriptTextCRC")
		if r.Err() != nil || deep > 1 || c == 0 || !f.validRef(c) {
			return false
		}
	}
	n = r.CompactIndex("Class.PackageImports")
	if r.Err() != nil || n < 0 || n > 4096 {
		return false
	}
	for range n {
		if idx := r.CompactIndex("Class.PackageImport"); idx < 0 || int(idx) >= len(f.Names) {
			return false
		}
	}
	if ver >= verLazyArraySkip {
		if w := r.CompactIndex("Class.ClassWithin"); !f.validRef(w) {
			return false
		}
		if c := r.CompactIndex("Class.ClassConfigName"); c < 0 || int(c) >= len(f.Names) {
			return false
		}
	}
	if ver >= 99 {
		n = r.CompactIndex("Class.HideCategories")
		if r.Err() != nil || n < 0 || n > 4096 {
			return false
		}
		for range n {
			if idx := r.CompactIndex("Class.HideCategory"); idx < 0 || int(idx) >= len(f.Names) {
				return false
			}
		}
	}
	return r.Err() == nil
}
