package uasset

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/upkg/upkg/internal/binread"

	"github.com/upkg/upkg/ue"
)

// NameEntry is one entry of the name map (FNameEntrySerialized).
type NameEntry struct {
	Name String `json:"name"`
	// Hashes stored since VER_UE4_NAME_HASHES_SERIALIZED (504): the low 16
	// bits of the case-insensitive and case-preserving hashes. The engine
	// ignores them on load; they are kept for the rewrite.
	NonCasePreservingHash uint16 `json:"non_case_preserving_hash"`
	CasePreservingHash    uint16 `json:"case_preserving_hash"`
}

// nameEntryMin is the smallest name map entry: an empty FString (4 bytes).
const nameEntryMin = 4

func (e *NameEntry) serialize(a archive, v *Versions) {
	hashes := v.UE4 >= VerUE4NameHashesSerialized
	// Name maps are the longest tables of a header: the reader and the
	// rewrite call their archive directly, not through the interface.
	switch a := a.(type) {
	case loader:
		a.str("NameEntry.Name", &e.Name)
		if hashes {
			e.NonCasePreservingHash = a.r.U16("NameEntry.NonCasePreservingHash")
			e.CasePreservingHash = a.r.U16("NameEntry.CasePreservingHash")
		}
	case *saver:
		a.str("NameEntry.Name", &e.Name)
		if hashes {
			a.w.U16(e.NonCasePreservingHash)
			a.w.U16(e.CasePreservingHash)
		}
	default:
		a.str("NameEntry.Name", &e.Name)
		if hashes {
			a.u16("NameEntry.NonCasePreservingHash", &e.NonCasePreservingHash)
			a.u16("NameEntry.CasePreservingHash", &e.CasePreservingHash)
		}
	}
}

// nameMapSize walks count name entries from r's position (r is a copy: the
// caller's cursor does not move) and returns the bytes the entries that
// read whole take: all of them, or those before the one the real read will
// fail at (and report).
func nameMapSize(r binread.Reader, count int, hashes bool) int64 {
	start := r.Offset()
	end := start
	for i := 0; i < count; i++ {
		n := int64(r.I32(""))
		switch {
		case n == math.MinInt32:
			return end - start
		case n > 0:
			r.Skip(n, "")
		case n < 0:
			r.Skip(-2*n, "")
		}
		if hashes {
			r.Skip(4, "")
		}
		if r.Err() != nil {
			break
		}
		end = r.Offset()
	}
	return end - start
}

// nameMapSizeBytes is nameMapSize for a reader over b (from its start, as
// binread.FromBytes) at off, in one pass over the bytes.
func nameMapSizeBytes(b []byte, off int64, count int, hashes bool, bigEndian bool) int64 {
	if off < 0 || off > int64(len(b)) {
		return 0
	}
	size := int64(len(b))
	pos, end := off, off
	for i := 0; i < count; i++ {
		if size-pos < 4 {
			break
		}
		var n int64
		if bigEndian {
			n = int64(int32(binary.BigEndian.Uint32(b[pos:])))
		} else {
			n = int64(int32(binary.LittleEndian.Uint32(b[pos:])))
		}
		pos += 4
		switch {
		case n == math.MinInt32:
			return end - off
		case n > 0:
			pos += n
		case n < 0:
			pos += -2 * n
		}
		if hashes {
			pos += 4
		}
		if pos > size {
			break
		}
		end = pos
	}
	return end - off
}

// Name is an FName as serialized in a package: an index into the package's
// name map and an instance number (0 for none, n for the suffix _n-1).
type Name struct {
	Index  int32 `json:"index"`
	Number int32 `json:"number"`
}

func (n *Name) serialize(a archive, field string) {
	switch a := a.(type) {
	case loader:
		// Names are the most frequent field of a header: join the field
		// name only when a read fails.
		n.Index = a.r.I32Sub(field, ".Index")
		n.Number = a.r.I32Sub(field, ".Number")
	case *saver:
		a.w.I32(n.Index)
		a.w.I32(n.Number)
	default:
		a.i32(field+".Index", &n.Index)
		a.i32(field+".Number", &n.Number)
	}
}

// NameString renders n with the file's name map, as the engine prints it
// ("Name", or "Name_3" for number 4). An index outside the name map gives a
// placeholder naming the bad index.
func (f *File) NameString(n Name) string {
	if n.Index < 0 || int(n.Index) >= len(f.Names) {
		return "<bad name index " + strconv.Itoa(int(n.Index)) + ">"
	}
	return ue.FormatName(f.Names[n.Index].Name.S, n.Number)
}

// NameBase returns the name map string for n without the number suffix, and
// whether the index was valid.
func (f *File) NameBase(n Name) (string, bool) {
	if n.Index < 0 || int(n.Index) >= len(f.Names) {
		return "", false
	}
	return f.Names[n.Index].Name.S, true
}

// Lookup returns the name map string at index i, and whether it exists.
// Property decoders resolve FNames with it.
func (f *File) Lookup(i int32) (string, bool) {
	if i < 0 || int(i) >= len(f.Names) {
		return "", false
	}
	return f.Names[i].Name.S, true
}

// checkName reports an FName whose index is outside the name map.
func (f *File) checkName(n Name, what string) error {
	if n.Index < 0 || int(n.Index) >= len(f.Names) {
		return fmt.Errorf("%s: name index %d outside name map of %d", what, n.Index, len(f.Names))
	}
	if n.Number < 0 {
		return fmt.Errorf("%s: negative name number %d", what, n.Number)
	}
	return nil
}
