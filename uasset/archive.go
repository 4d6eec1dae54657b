package uasset

// Ground rules for this file: every on-disk structure of a package is
// described once, by a serialize method that takes an archive. The same
// method reads (loader), writes (saver) and lists fields for display
// (lister), the way Unreal's own operator<< serves FArchive in both
// directions. That symmetry is what makes the header rewrite byte-exact: a
// field cannot be read under one condition and written under another.

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/binwrite"
	"github.com/upkg/upkg/ue"
)

// archive is the two-way serializer every structure is described with.
type archive interface {
	loading() bool
	i32(field string, v *int32)
	u32(field string, v *uint32)
	i64(field string, v *int64)
	u64(field string, v *uint64)
	u16(field string, v *uint16)
	u8(field string, v *uint8)
	bool32(field string, v *bool)
	str(field string, v *String)
	guid(field string, v *ue.Guid)
	fixed(field string, v []byte)
	engineVersion(field string, v *ue.EngineVersion)
	// count reads or writes an int32 element count. When loading, it
	// checks the count against the bytes left, assuming each element takes
	// at least minElem bytes, and returns 0 on failure.
	count(field string, n int, minElem int64) int
	failed() bool
	fail(field string, err error)
	offset() int64 // absolute position (loader/saver), -1 for the lister
	// remaining is the number of bytes left to read (loader only).
	remaining() int64
}

// String is an FString with the encoding it was stored in, so that a rewrite
// reproduces it (ANSI vs UTF-16, terminating NUL or not).
type String struct {
	S   string
	Enc binread.StrEnc
	// raw keeps the stored bytes (length included) of a string that does not
	// survive decoding, such as UTF-16 with unpaired surrogates. A pointer:
	// names and tags are many, such strings rare.
	raw *[]byte
}

func (s String) String() string { return s.S }

// MarshalText prints the string alone in JSON.
func (s String) MarshalText() ([]byte, error) { return []byte(s.S), nil }

// loader reads through a binread.Reader.
type loader struct{ r *binread.Reader }

func (a loader) loading() bool            { return true }
func (a loader) i32(f string, v *int32)   { *v = a.r.I32(f) }
func (a loader) u32(f string, v *uint32)  { *v = a.r.U32(f) }
func (a loader) i64(f string, v *int64)   { *v = a.r.I64(f) }
func (a loader) u64(f string, v *uint64)  { *v = a.r.U64(f) }
func (a loader) u16(f string, v *uint16)  { *v = a.r.U16(f) }
func (a loader) u8(f string, v *uint8)    { *v = a.r.U8(f) }
func (a loader) bool32(f string, v *bool) { *v = a.r.Bool32(f) }
func (a loader) str(f string, v *String) {
	start := a.r.Offset()
	v.S, v.Enc = a.r.FStringEnc(f)
	v.raw = nil
	// (Decoded text is valid UTF-8: U+FFFD is found as its three bytes,
	// faster than ContainsRune, which also decodes every rune.)
	if (v.Enc == binread.StrUTF16 || v.Enc == binread.StrUTF16NoNul) && a.r.Err() == nil && strings.Contains(v.S, string(utf8.RuneError)) {
		// Unpaired surrogates decode to U+FFFD; keep the bytes so that a
		// rewrite reproduces them.
		end := a.r.Offset()
		a.r.SeekTo(start, f)
		b := a.r.Bytes(end-start, f)
		v.raw = &b
	}
}
func (a loader) guid(f string, v *ue.Guid) { *v = ue.ReadGuid(a.r, f) }
func (a loader) fixed(f string, v []byte)  { a.r.Fixed(v, f) }
func (a loader) failed() bool              { return a.r.Err() != nil }
func (a loader) fail(f string, err error)  { a.r.Fail(f, err) }
func (a loader) offset() int64             { return a.r.Abs() }
func (a loader) count(f string, _ int, minElem int64) int {
	return a.r.Count(f, minElem)
}
func (a loader) engineVersion(f string, v *ue.EngineVersion) {
	*v = ue.ReadEngineVersion(a.r, f)
}

// saver writes through a binwrite.Writer. base is the absolute offset of the
// writer's first byte.
type saver struct {
	w    *binwrite.Writer
	base int64
	// inPlace, when set, is offered the blobs given to fixed: it reports
	// whether it accounted for v at absolute offset off itself (see
	// HeaderRoundTrip), and then has emptied the writer and moved base
	// past v; otherwise v is written.
	inPlace func(off int64, v []byte) bool
}

func newSaver(order binary.ByteOrder, base int64) *saver {
	w := binwrite.New()
	if order == binary.BigEndian {
		w.SetOrder(binary.BigEndian)
	}
	return &saver{w: w, base: base}
}

func (a *saver) loading() bool            { return false }
func (a *saver) i32(_ string, v *int32)   { a.w.I32(*v) }
func (a *saver) u32(_ string, v *uint32)  { a.w.U32(*v) }
func (a *saver) i64(_ string, v *int64)   { a.w.I64(*v) }
func (a *saver) u64(_ string, v *uint64)  { a.w.U64(*v) }
func (a *saver) u16(_ string, v *uint16)  { a.w.U16(*v) }
func (a *saver) u8(_ string, v *uint8)    { a.w.U8(*v) }
func (a *saver) bool32(_ string, v *bool) { a.w.Bool32(*v) }
func (a *saver) str(_ string, v *String) {
	if v.raw != nil {
		a.w.Raw(*v.raw)
		return
	}
	a.w.FStringEnc(v.S, v.Enc)
}
func (a *saver) guid(_ string, v *ue.Guid) { ue.WriteGuid(a.w, *v) }
func (a *saver) fixed(_ string, v []byte) {
	if a.inPlace != nil && a.inPlace(a.offset(), v) {
		return
	}
	a.w.Raw(v)
}
func (a *saver) failed() bool       { return false }
func (a *saver) fail(string, error) {}
func (a *saver) offset() int64      { return a.base + int64(a.w.Len()) }
func (a *saver) remaining() int64   { return 0 }
func (a *saver) count(_ string, n int, _ int64) int {
	a.w.I32(int32(n))
	return n
}
func (a *saver) engineVersion(_ string, v *ue.EngineVersion) { ue.WriteEngineVersion(a.w, *v) }

// lister records the fields of a structure in order, for display.
type lister struct {
	prefix string
	out    []Field
}

// Field is one named value of a structure, in file order.
type Field struct {
	Name  string
	Value any
}

func (a *lister) add(f string, v any) {
	if len(f) > len(a.prefix) && f[:len(a.prefix)] == a.prefix {
		f = f[len(a.prefix):]
	}
	a.out = append(a.out, Field{f, v})
}

func (a *lister) loading() bool                               { return false }
func (a *lister) i32(f string, v *int32)                      { a.add(f, *v) }
func (a *lister) u32(f string, v *uint32)                     { a.add(f, *v) }
func (a *lister) i64(f string, v *int64)                      { a.add(f, *v) }
func (a *lister) u64(f string, v *uint64)                     { a.add(f, *v) }
func (a *lister) u16(f string, v *uint16)                     { a.add(f, *v) }
func (a *lister) u8(f string, v *uint8)                       { a.add(f, *v) }
func (a *lister) bool32(f string, v *bool)                    { a.add(f, *v) }
func (a *lister) str(f string, v *String)                     { a.add(f, v.S) }
func (a *lister) guid(f string, v *ue.Guid)                   { a.add(f, v.String()) }
func (a *lister) fixed(f string, v []byte)                    { a.add(f, hexString(v)) }
func (a *lister) engineVersion(f string, v *ue.EngineVersion) { a.add(f, v.String()) }
func (a *lister) failed() bool                                { return false }
func (a *lister) fail(string, error)                          {}
func (a *lister) offset() int64                               { return -1 }
func (a *lister) count(f string, n int, _ int64) int {
	a.add(f, n)
	return n
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i] = digits[c>>4]
		out[2*i+1] = digits[c&15]
	}
	return string(out)
}

// maxSharedText bounds a section copied to text for its strings
// (shareText): the copy must stay cheap next to the strings it saves.
const maxSharedText = 4 << 20

// shareText makes the ASCII strings a loader reads from its next n bytes
// substrings of one copy of them (binread.Reader.ShareText). Other
// archives ignore it.
func shareText(a archive, n int64) {
	if l, ok := a.(loader); ok && n <= maxSharedText {
		l.r.ShareText(n)
	}
}

// maxSmallSharedText bounds the copy shareTextUpTo makes: tables of a few
// strings (thumbnails, gatherable text, metadata) whose extent is known
// only as the next section's offset. Strings past it are made one by one.
const maxSmallSharedText = 16 << 10

// shareTextUpTo is shareText of at most maxSmallSharedText bytes.
func shareTextUpTo(a archive, n int64) { shareText(a, min(n, maxSmallSharedText)) }

// serializeSlice runs one element serializer over a counted array. When
// loading, the count is checked against the bytes left first and the slice
// grows by append, so a lying count costs nothing.
func serializeSlice[T any](a archive, field string, s *[]T, minElem int64, elem func(a archive, v *T)) {
	n := a.count(field, len(*s), minElem)
	if a.loading() {
		if a.failed() {
			return
		}
		out := make([]T, 0, binread.SliceCap(n))
		for i := 0; i < n && !a.failed(); i++ {
			// Read into the slice itself: a local passed to elem would
			// be moved to the heap, one allocation per element.
			var zero T
			out = append(out, zero)
			elem(a, &out[len(out)-1])
		}
		*s = out
		return
	}
	for i := range *s {
		elem(a, &(*s)[i])
	}
}

func (a loader) remaining() int64  { return a.r.Remaining() }
func (a *lister) remaining() int64 { return 0 }
