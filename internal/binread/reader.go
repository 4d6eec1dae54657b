// Package binread is the bounded cursor every upkg format reader is built on.
//
// Ground rules for this file:
//   - A [Reader] never reads past the size it was given, and never allocates
//     more than the bytes that remain (counts and lengths from the file are
//     checked against [Reader.Remaining] first).
//   - The first failure is sticky: later reads return zero values, and the
//     caller checks [Reader.Err] once per record (the shape of debug/dwarf's buf).
//   - Every error is an [*Error] carrying the absolute file offset and the name
//     of the field being read, so a user sees what and where.
package binread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// windowSize is how much is read from the underlying io.ReaderAt at once.
// Package headers are a few KiB to a few MiB; 64 KiB keeps the number of
// ReadAt calls small without holding much memory per open file.
const windowSize = 64 << 10

// Error is a read failure at a known place in the file.
type Error struct {
	Offset int64  // absolute offset of the field in the file
	Field  string // what was being read, e.g. "PackageFileSummary.NameCount"
	Err    error  // io.ErrUnexpectedEOF, ErrCount, or a format-specific error
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("at offset 0x%x: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("%s at offset 0x%x: %v", e.Field, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

var (
	// ErrCount reports a count or length that cannot fit in the bytes that remain.
	ErrCount = errors.New("count exceeds remaining bytes")
	// ErrNegative reports a negative count, length or offset.
	ErrNegative = errors.New("negative value")
)

// Reader is a little-endian (by default) cursor over a bounded byte range.
type Reader struct {
	r     io.ReaderAt
	base  int64 // absolute offset of position 0 (for error messages)
	size  int64 // bytes addressable: positions [0, size)
	off   int64 // current position, relative to base
	err   error
	order binary.ByteOrder
	big   bool // order is big-endian (saves an interface call per read)
	// u16big: UTF-16 FString code units are big-endian. It follows
	// order, except where SetUTF16Order says otherwise.
	u16big bool

	win    []byte // cached bytes [winOff, winOff+len(win))
	winOff int64
	whole  bool // win holds the whole range (FromBytes)
	// lim is where the quick little-endian reads (U8, U16, U32Sub, U64)
	// may end: len(win) while the Reader is whole, little-endian and
	// without error; 0 otherwise (every other case, including the zero
	// Reader, takes the careful path). setLim keeps it in step.
	lim int64

	// text holds a copy of win[textOff:textOff+len(text)] (ShareText):
	// ASCII FStrings read inside it are substrings of it.
	text    string
	textOff int64
}

// New returns a Reader over the first size bytes of r. When r is a [Mem]
// holding them, reads slice it as [FromBytes] does.
func New(r io.ReaderAt, size int64) *Reader {
	if size < 0 {
		size = 0
	}
	if m, ok := r.(Mem); ok && size <= int64(len(m)) {
		return FromBytes(m[:size])
	}
	return &Reader{r: r, size: size, order: binary.LittleEndian}
}

// Mem is a file's bytes held in memory, as an io.ReaderAt that a [Reader]
// reads without copying. Its bytes must not change while it is read.
type Mem []byte

// ReadAt copies bytes at off into p, like bytes.Reader.ReadAt.
func (m Mem) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("binread.Mem.ReadAt: negative offset")
	}
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// FromBytes returns a Reader over b. Reads slice b without copying.
func FromBytes(b []byte) *Reader {
	return &Reader{size: int64(len(b)), order: binary.LittleEndian, win: b, whole: true, lim: int64(len(b))}
}

// setLim sets lim from whole, big and err.
func (r *Reader) setLim() {
	r.lim = 0
	if r.whole && !r.big && r.err == nil {
		r.lim = int64(len(r.win))
	}
}

// Section returns a new Reader over n bytes starting at off (relative to r),
// sharing r's source. Offsets in its errors stay absolute. A range outside r
// gives a Reader whose error is already set.
func (r *Reader) Section(off, n int64, field string) *Reader {
	s := new(Reader)
	r.SectionInto(s, off, n, field)
	return s
}

// SectionInto is [Reader.Section] setting up s (whatever it held before)
// instead of a new Reader, for decoders that reuse their readers.
func (r *Reader) SectionInto(s *Reader, off, n int64, field string) {
	if r.whole && off >= 0 && n >= 0 && off <= r.size && n <= r.size-off {
		// The common case, field by field: assigning a whole Reader
		// copies it through the runtime.
		s.r, s.base, s.size, s.off, s.err = r.r, r.base+off, n, 0, nil
		s.order, s.big, s.u16big = r.order, r.big, r.u16big
		s.win, s.winOff, s.whole = r.win[off:off+n], 0, true
		s.text, s.textOff = "", 0
		s.setLim()
		return
	}
	*s = Reader{r: r.r, base: r.base + off, size: n, order: r.order, big: r.big, u16big: r.u16big}
	if off < 0 || n < 0 || off > r.size || n > r.size-off {
		s.size = 0
		s.err = &Error{Offset: r.base + off, Field: field, Err: fmt.Errorf("range [0x%x, +0x%x) outside data of size 0x%x", off, n, r.size)}
		return
	}
	if r.whole {
		s.win = r.win[off : off+n]
		s.whole = true
		s.setLim()
	}
}

// SetOrder switches the byte order (big-endian for swapped console packages).
func (r *Reader) SetOrder(o binary.ByteOrder) {
	r.order = o
	r.big = o == binary.BigEndian
	r.u16big = r.big
	r.setLim()
}

// SetUTF16Order sets the byte order of UTF-16 FString code units apart
// from that of everything else (call it after SetOrder, which resets it):
// Mass Effect's console packages are big-endian but for their UTF-16
// strings, which stay little-endian.
func (r *Reader) SetUTF16Order(o binary.ByteOrder) { r.u16big = o == binary.BigEndian }

// Order returns the current byte order.
func (r *Reader) Order() binary.ByteOrder { return r.order }

// BigEndian reports whether the reader is in big-endian mode.
func (r *Reader) BigEndian() bool { return r.big }

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Offset returns the current position relative to the start of the range.
func (r *Reader) Offset() int64 { return r.off }

// Abs returns the current absolute file offset.
func (r *Reader) Abs() int64 { return r.base + r.off }

// Base returns the absolute offset of position 0.
func (r *Reader) Base() int64 { return r.base }

// Size returns the size of the range.
func (r *Reader) Size() int64 { return r.size }

// Remaining returns the bytes left after the current position.
func (r *Reader) Remaining() int64 {
	if r.off >= r.size {
		return 0
	}
	return r.size - r.off
}

// SeekTo moves to an offset relative to the start of the range. Seeking outside
// [0, Size] sets the error.
func (r *Reader) SeekTo(off int64, field string) {
	if r.err != nil {
		return
	}
	if off < 0 || off > r.size {
		r.fail(field, fmt.Errorf("offset 0x%x outside data of size 0x%x", off, r.size))
		return
	}
	r.off = off
}

// Skip advances n bytes.
func (r *Reader) Skip(n int64, field string) {
	if r.err != nil {
		return
	}
	if n < 0 {
		r.fail(field, ErrNegative)
		return
	}
	if n > r.Remaining() {
		r.fail(field, io.ErrUnexpectedEOF)
		return
	}
	r.off += n
}

// Fail sets the sticky error (if none is set yet) at the current offset.
func (r *Reader) Fail(field string, err error) { r.fail(field, err) }

// Failf is Fail with a formatted message.
func (r *Reader) Failf(field, format string, args ...any) {
	r.fail(field, fmt.Errorf(format, args...))
}

// FailAt sets the sticky error at an explicit position (relative to the range).
func (r *Reader) FailAt(off int64, field string, err error) {
	if r.err == nil {
		r.err = &Error{Offset: r.base + off, Field: field, Err: err}
		r.lim = 0
	}
}

func (r *Reader) fail(field string, err error) {
	if r.err == nil {
		r.err = &Error{Offset: r.base + r.off, Field: field, Err: err}
		r.lim = 0
	}
}

// ClearErr forgets the sticky error. Use it only to try an alternative layout
// after a failed attempt, together with SeekTo.
func (r *Reader) ClearErr() {
	r.err = nil
	r.setLim()
}

// peek returns n bytes at the current position without advancing, or nil and
// sets the error. The slice is valid until the next read.
func (r *Reader) peek(n int, field string) []byte { return r.peekSub(n, field, "") }

// peekSub is peek for the field named field+sub; the name is joined only
// when the read fails, so hot readers of records ("Export.ObjectName" +
// ".Index") do not build a string per field.
func (r *Reader) peekSub(n int, field, sub string) []byte {
	if r.err != nil {
		return nil
	}
	if int64(n) > r.Remaining() {
		r.fail(field+sub, io.ErrUnexpectedEOF)
		return nil
	}
	if r.whole {
		return r.win[r.off : r.off+int64(n)]
	}
	if r.off >= r.winOff && r.off+int64(n) <= r.winOff+int64(len(r.win)) {
		s := r.off - r.winOff
		return r.win[s : s+int64(n)]
	}
	want := max(int64(n), windowSize)
	want = min(want, r.size-r.off)
	if cap(r.win) < int(want) {
		r.win = make([]byte, want)
	}
	r.win = r.win[:want]
	got, err := r.r.ReadAt(r.win, r.base+r.off)
	if int64(got) < int64(n) {
		r.win = r.win[:0]
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.fail(field+sub, err)
		return nil
	}
	r.win = r.win[:got]
	r.winOff = r.off
	return r.win[:n]
}

// fast is the common case of take, small enough to inline into the
// fixed-size reads: the range is in memory (then len(r.win) is r.size) and
// holds n more bytes. It returns nil otherwise, leaving the checks and the
// error to take.
func (r *Reader) fast(n int) []byte {
	if e := r.off + int64(n); r.whole && r.err == nil && e <= int64(len(r.win)) {
		b := r.win[r.off:e]
		r.off = e
		return b
	}
	return nil
}

func (r *Reader) take(n int, field string) []byte { return r.takeSub(n, field, "") }

func (r *Reader) takeSub(n int, field, sub string) []byte {
	b := r.peekSub(n, field, sub)
	if b != nil {
		r.off += int64(n)
	}
	return b
}

// slow returns the next n bytes of a fixed-size read past its quick case:
// from the window when the range is in memory, else through takeSub.
func (r *Reader) slow(n int, field, sub string) []byte {
	if b := r.fast(n); b != nil {
		return b
	}
	return r.takeSub(n, field, sub)
}

// U8 reads a byte.
func (r *Reader) U8(field string) uint8 {
	if r.off < r.lim {
		v := r.win[r.off]
		r.off++
		return v
	}
	return r.u8(field)
}

// u8 is U8 past its quick case (one limit test).
func (r *Reader) u8(field string) uint8 {
	if r.whole && r.err == nil && r.off < int64(len(r.win)) {
		v := r.win[r.off]
		r.off++
		return v
	}
	if b := r.take(1, field); b != nil {
		return b[0]
	}
	return 0
}

// I8 reads a signed byte.
func (r *Reader) I8(field string) int8 { return int8(r.U8(field)) }

// U16 reads a uint16.
func (r *Reader) U16(field string) uint16 {
	if e := r.off + 2; e <= r.lim {
		v := binary.LittleEndian.Uint16(r.win[r.off:e])
		r.off = e
		return v
	}
	return r.u16(field)
}

// u16 is U16 past its quick case (one limit test).
func (r *Reader) u16(field string) uint16 {
	b := r.slow(2, field, "")
	if b == nil {
		return 0
	}
	if r.big {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

// I16 reads an int16.
func (r *Reader) I16(field string) int16 { return int16(r.U16(field)) }

// U32 reads a uint32.
func (r *Reader) U32(field string) uint32 { return r.U32Sub(field, "") }

// U32Sub reads a uint32 named field+sub (joined only in an error).
func (r *Reader) U32Sub(field, sub string) uint32 {
	if e := r.off + 4; e <= r.lim {
		v := binary.LittleEndian.Uint32(r.win[r.off:e])
		r.off = e
		return v
	}
	return r.u32Sub(field, sub)
}

// u32Sub is U32Sub past its quick case (one limit test).
func (r *Reader) u32Sub(field, sub string) uint32 {
	b := r.slow(4, field, sub)
	if b == nil {
		return 0
	}
	if r.big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

// I32 reads an int32.
func (r *Reader) I32(field string) int32 { return int32(r.U32Sub(field, "")) }

// I32Sub reads an int32 named field+sub (joined only in an error).
func (r *Reader) I32Sub(field, sub string) int32 { return int32(r.U32Sub(field, sub)) }

// U64 reads a uint64.
func (r *Reader) U64(field string) uint64 {
	if e := r.off + 8; e <= r.lim {
		v := binary.LittleEndian.Uint64(r.win[r.off:e])
		r.off = e
		return v
	}
	return r.u64(field)
}

// u64 is U64 past its quick case (one limit test).
func (r *Reader) u64(field string) uint64 {
	b := r.slow(8, field, "")
	if b == nil {
		return 0
	}
	if r.big {
		return binary.BigEndian.Uint64(b)
	}
	return binary.LittleEndian.Uint64(b)
}

// I64 reads an int64.
func (r *Reader) I64(field string) int64 { return int64(r.U64(field)) }

// F32 reads a float32.
func (r *Reader) F32(field string) float32 { return math.Float32frombits(r.U32(field)) }

// F64 reads a float64.
func (r *Reader) F64(field string) float64 { return math.Float64frombits(r.U64(field)) }

// Bool32 reads a UBOOL as Unreal serializes bool: a uint32 that must be 0 or 1.
func (r *Reader) Bool32(field string) bool {
	start := r.off
	v := r.U32(field)
	if v > 1 {
		r.FailAt(start, field, NewLazyError(nil, "bool value %d is neither 0 nor 1", int64(v)))
		return false
	}
	return v == 1
}

// Bool8 reads a one-byte bool that must be 0 or 1.
func (r *Reader) Bool8(field string) bool {
	start := r.off
	v := r.U8(field)
	if v > 1 {
		r.FailAt(start, field, NewLazyError(nil, "bool value %d is neither 0 nor 1", int64(v)))
		return false
	}
	return v == 1
}

// Bytes reads n bytes into a new slice. n is checked against the remaining
// bytes before anything is allocated.
func (r *Reader) Bytes(n int64, field string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 {
		r.fail(field, ErrNegative)
		return nil
	}
	if n > r.Remaining() {
		r.fail(field, NewLazyError(io.ErrUnexpectedEOF, "%d bytes wanted, %d left", n, r.Remaining()))
		return nil
	}
	out := make([]byte, n)
	if r.whole {
		copy(out, r.win[r.off:])
		r.off += n
		return out
	}
	if n <= windowSize {
		copy(out, r.take(int(n), field))
		return out
	}
	got, err := r.r.ReadAt(out, r.base+r.off)
	if int64(got) < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.fail(field, err)
		return nil
	}
	r.off += n
	return out
}

// Fixed reads exactly len(dst) bytes into dst.
func (r *Reader) Fixed(dst []byte, field string) {
	if b := r.take(len(dst), field); b != nil {
		copy(dst, b)
	}
}

// Count reads an int32 element count and checks that count*minElemSize bytes
// remain. It returns 0 (with the error set) for a negative or impossible count.
// Use it before every allocation sized by the file.
func (r *Reader) Count(field string, minElemSize int64) int {
	start := r.off
	n := r.I32(field)
	return r.CheckCount(start, int64(n), minElemSize, field)
}

// CheckCount checks a count already read (at position start) against the
// remaining bytes; see [Reader.Count].
func (r *Reader) CheckCount(start, n, minElemSize int64, field string) int {
	if r.err != nil {
		return 0
	}
	if n < 0 {
		r.FailAt(start, field, NewLazyError(ErrNegative, "count %d", n))
		return 0
	}
	if minElemSize < 1 {
		minElemSize = 1
	}
	if n > r.Remaining()/minElemSize {
		r.FailAt(start, field, NewLazyError(ErrCount, "count %d of at least %d bytes each, %d bytes left", n, minElemSize, r.Remaining()))
		return 0
	}
	return int(n)
}

// StrEnc records how an FString was stored, so a writer can reproduce it.
type StrEnc uint8

const (
	StrANSI       StrEnc = iota // positive length, one byte per char, NUL-terminated
	StrUTF16                    // negative length, UTF-16LE units, NUL-terminated
	StrEmpty                    // length 0
	StrNoNul                    // ANSI without the terminating NUL (written by some tools)
	StrUTF16NoNul               // UTF-16 without the terminating NUL
)

// maxFString bounds a single string. Unreal's own archive refuses strings
// longer than this (MAX_SERIALIZED_STRLEN is 1 << 24 in recent engines); the
// remaining-bytes check applies first anyway.
const maxFString = 1 << 24

// ShareText copies the next n bytes (from the current position) into one
// string, once: ASCII FStrings read from them afterwards are substrings of
// that copy instead of a string each, and keep the whole copy alive while
// any of them is. It is meant for sections of many strings (a name map).
// It does nothing unless the range is in memory ([FromBytes]) and holds n
// more bytes.
func (r *Reader) ShareText(n int64) {
	if !r.whole || r.err != nil || n <= 0 || n > r.Remaining() {
		return
	}
	r.text = string(r.win[r.off : r.off+n])
	r.textOff = r.off
}

// SetText gives a reader over bytes in memory ([FromBytes]) a copy of
// them as a string: text must hold the bytes the range starts with (the
// caller makes it once with string(b) and shares it between readers of the
// same bytes; the reader does not compare them). ASCII FStrings read
// inside it are then substrings of it, not a string each; they keep all of
// text alive while any of them is.
func (r *Reader) SetText(text string) {
	if !r.whole || int64(len(text)) > r.size {
		return
	}
	r.text = text
	r.textOff = 0
}

// FString reads an FString: int32 length, positive for ANSI (Latin-1) bytes,
// negative for UTF-16 code units, both including the terminating NUL.
func (r *Reader) FString(field string) string {
	s, _ := r.FStringEnc(field)
	return s
}

// FStringEnc reads an FString and reports its encoding.
func (r *Reader) FStringEnc(field string) (string, StrEnc) { return r.FStringEncSub(field, "") }

// FStringEncSub is FStringEnc of the field named field+sub (joined only in
// an error).
func (r *Reader) FStringEncSub(field, sub string) (string, StrEnc) {
	b, pos, enc := r.fstringBytes(field, sub)
	switch enc {
	case StrANSI, StrNoNul:
		if r.text != "" && pos >= r.textOff && pos-r.textOff+int64(len(b)) <= int64(len(r.text)) && IsASCII(b) {
			t := pos - r.textOff
			return r.text[t : t+int64(len(b))], enc
		}
		return Latin1(b), enc
	case StrUTF16, StrUTF16NoNul:
		return r.utf16String(b), enc
	}
	return "", StrEmpty
}

// SkipFString reads an FString exactly as FString does (the same checks,
// the same errors) without making the string, for callers that do not
// keep it.
func (r *Reader) SkipFString(field string) {
	r.fstringBytes(field, "")
}

// fstringBytes reads an FString's length and bytes: b holds the characters
// without the terminating NUL, pos is where they start; enc is StrEmpty
// for an empty string or a failure.
func (r *Reader) fstringBytes(field, sub string) (b []byte, pos int64, enc StrEnc) {
	start := r.off
	n := r.I32Sub(field, sub)
	if r.err != nil {
		return nil, 0, StrEmpty
	}
	switch {
	case n == 0:
		return nil, 0, StrEmpty
	case n == math.MinInt32:
		r.FailAt(start, field+sub, NewLazyError(nil, "string length %d", int64(n)))
		return nil, 0, StrEmpty
	case n > 0:
		if n > maxFString || int64(n) > r.Remaining() {
			r.FailAt(start, field+sub, NewLazyError(ErrCount, "string of %d bytes, %d left", int64(n), r.Remaining()))
			return nil, 0, StrEmpty
		}
		pos = r.off
		b = r.takeSub(int(n), field, sub)
		if b == nil {
			return nil, 0, StrEmpty
		}
		if b[n-1] == 0 {
			return b[:n-1], pos, StrANSI
		}
		return b, pos, StrNoNul
	default:
		units := -int64(n)
		if units > maxFString || units*2 > r.Remaining() {
			r.FailAt(start, field+sub, NewLazyError(ErrCount, "UTF-16 string of %d units, %d bytes left", units, r.Remaining()))
			return nil, 0, StrEmpty
		}
		pos = r.off
		b = r.takeSub(int(units*2), field, sub)
		if b == nil {
			return nil, 0, StrEmpty
		}
		if b[len(b)-1] == 0 && b[len(b)-2] == 0 {
			return b[:len(b)-2], pos, StrUTF16
		}
		return b, pos, StrUTF16NoNul
	}
}

// utf16String decodes UTF-16 code units (in the reader's byte order) to a
// string the way string(utf16.Decode(units)) does, unpaired surrogates
// becoming U+FFFD, without the intermediate slices: units below 0x80 (most
// text) are copied as bytes.
func (r *Reader) utf16String(b []byte) string {
	lo, hi := 0, 1 // byte offsets of a unit's low and high byte
	if r.u16big {
		lo, hi = 1, 0
	}
	unit := func(i int) rune { return rune(b[i+lo]) | rune(b[i+hi])<<8 }
	// A code unit takes at most 3 bytes of UTF-8 (a surrogate pair 4 for
	// its 2 units). The bytes are gathered on the stack when they fit, so
	// that the string is the only allocation.
	var buf [256]byte
	out := buf[:0]
	if most := len(b) / 2 * 3; most > len(buf) {
		out = make([]byte, 0, most)
	}
	// ascii masks the bits that must be clear for four units in a row to
	// be ASCII: the high bytes, and the top bit of the low ones.
	ascii := uint64(0xFF80FF80FF80FF80)
	if r.u16big {
		ascii = 0x80FF80FF80FF80FF
	}
	i := 0
	for i+1 < len(b) {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&ascii == 0 {
			out = append(out, b[i+lo], b[i+2+lo], b[i+4+lo], b[i+6+lo])
			i += 8
		}
		if i+1 >= len(b) {
			break
		}
		c := unit(i)
		i += 2
		switch {
		case c < utf8.RuneSelf:
			out = append(out, byte(c))
			continue
		case utf16.IsSurrogate(c) && c < 0xDC00 && i+1 < len(b) && unit(i) >= 0xDC00 && unit(i) < 0xE000:
			c = utf16.DecodeRune(c, unit(i))
			i += 2
		case utf16.IsSurrogate(c):
			// An unpaired surrogate stays what it is, in its three-byte
			// generalized UTF-8 form (WTF-8), so that writing the string
			// back gives the same code unit (binwrite.FStringEnc).
			out = append(out, 0xE0|byte(c>>12), 0x80|byte(c>>6)&0x3F, 0x80|byte(c)&0x3F)
			continue
		}
		out = utf8.AppendRune(out, c)
	}
	return string(out)
}

// Latin1 converts ANSI bytes to a Go string: each byte is the code point
// of the same value. Pure ASCII (the common case) is returned without
// re-encoding.
func Latin1(b []byte) string {
	if IsASCII(b) {
		return string(b)
	}
	// Each byte is the code point of the same value: one UTF-8 byte below
	// 0x80, two from there (what string([]rune) of the bytes gives).
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		if c < utf8.RuneSelf {
			out = append(out, c)
		} else {
			out = append(out, 0xC0|c>>6, 0x80|c&0x3F)
		}
	}
	return string(out)
}

// IsASCII reports whether every byte of b is below 0x80.
func IsASCII(b []byte) bool {
	for len(b) >= 8 { // 8 bytes at a time: names and paths are mostly longer
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// IsASCIIString is [IsASCII] of a string.
func IsASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// SliceCap returns a safe initial capacity for a slice of n elements read
// from a file: n itself when small, a fixed cap otherwise, so that a lying
// count costs only what append really needs.
func SliceCap(n int) int {
	const maxPrealloc = 1 << 16
	if n < 0 {
		return 0
	}
	return min(n, maxPrealloc)
}
