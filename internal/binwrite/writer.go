// Package binwrite serializes the values internal/binread reads, in the same
// shapes, so that a parsed header can be written back byte for byte.
package binwrite

import (
	"encoding/binary"
	"math"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/upkg/upkg/internal/binread"
)

// Writer appends little-endian (by default) values to a byte slice.
type Writer struct {
	buf   []byte
	order binary.AppendByteOrder
	big   bool // order is big-endian (saves an interface call per value)
}

// New returns an empty little-endian Writer.
func New() *Writer { return &Writer{order: binary.LittleEndian} }

// SetOrder switches the byte order.
func (w *Writer) SetOrder(o binary.AppendByteOrder) {
	w.order = o
	w.big = o == binary.BigEndian
}

// Grow reserves room for n more bytes.
func (w *Writer) Grow(n int) {
	if n > cap(w.buf)-len(w.buf) {
		w.buf = append(w.buf[:len(w.buf):len(w.buf)], make([]byte, n)...)[:len(w.buf)]
	}
}

// Bytes returns what was written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Reset empties the writer, keeping its buffer for what is written next.
func (w *Writer) Reset() { w.buf = w.buf[:0] }

// Cap returns the room the buffer has.
func (w *Writer) Cap() int { return cap(w.buf) }

// Len returns the number of bytes written.
func (w *Writer) Len() int { return len(w.buf) }

// PatchU32 overwrites a uint32 written earlier at off (for offsets only known later).
func (w *Writer) PatchU32(off int, v uint32) {
	var tmp []byte
	tmp = w.order.AppendUint32(tmp, v)
	copy(w.buf[off:], tmp)
}

// PatchU64 overwrites a uint64 written earlier at off.
func (w *Writer) PatchU64(off int, v uint64) {
	var tmp []byte
	tmp = w.order.AppendUint64(tmp, v)
	copy(w.buf[off:], tmp)
}

func (w *Writer) U8(v uint8) { w.buf = append(w.buf, v) }
func (w *Writer) U16(v uint16) {
	if w.big {
		w.buf = binary.BigEndian.AppendUint16(w.buf, v)
	} else {
		w.buf = binary.LittleEndian.AppendUint16(w.buf, v)
	}
}
func (w *Writer) U32(v uint32) {
	if w.big {
		w.buf = binary.BigEndian.AppendUint32(w.buf, v)
	} else {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, v)
	}
}
func (w *Writer) U64(v uint64) {
	if w.big {
		w.buf = binary.BigEndian.AppendUint64(w.buf, v)
	} else {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
	}
}
func (w *Writer) I8(v int8)     { w.U8(uint8(v)) }
func (w *Writer) I16(v int16)   { w.U16(uint16(v)) }
func (w *Writer) I32(v int32)   { w.U32(uint32(v)) }
func (w *Writer) I64(v int64)   { w.U64(uint64(v)) }
func (w *Writer) F32(v float32) { w.U32(math.Float32bits(v)) }
func (w *Writer) F64(v float64) { w.U64(math.Float64bits(v)) }
func (w *Writer) Raw(b []byte)  { w.buf = append(w.buf, b...) }
func (w *Writer) Zeros(n int)   { w.buf = append(w.buf, make([]byte, n)...) }
func (w *Writer) Bool32(v bool) { w.U32(b2u(v)) }
func (w *Writer) Bool8(v bool)  { w.U8(uint8(b2u(v))) }

func b2u(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// FString writes s the way the engine does: empty as length 0, pure ASCII as
// ANSI, anything else as UTF-16.
func (w *Writer) FString(s string) {
	enc := binread.StrANSI
	if s == "" {
		enc = binread.StrEmpty
	} else {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				enc = binread.StrUTF16
				break
			}
		}
	}
	w.FStringEnc(s, enc)
}

// FStringEnc writes s with the encoding binread reported for it.
func (w *Writer) FStringEnc(s string, enc binread.StrEnc) {
	switch enc {
	case binread.StrEmpty:
		if s == "" {
			w.I32(0)
			return
		}
		w.FString(s)
	case binread.StrANSI, binread.StrNoNul:
		nul := 0
		if enc == binread.StrANSI {
			nul = 1
		}
		// Most strings are ASCII, one byte per character already: copy
		// the string after its length, then check the copy (8 bytes at a
		// time), and take it back when it was not.
		at := len(w.buf)
		w.I32(int32(len(s) + nul))
		w.buf = append(w.buf, s...)
		if !binread.IsASCII(w.buf[at+4:]) {
			w.buf = w.buf[:at]
			w.I32(int32(utf8.RuneCountInString(s) + nul))
			for _, c := range s {
				w.U8(uint8(c))
			}
		}
		if nul == 1 {
			w.U8(0)
		}
	default:
		n := 0
		for i := 0; i < len(s); {
			c, size := wtf8Rune(s, i)
			n++ // a unit, or two for c >= 0x10000 (as below)
			if c >= 0x10000 {
				n++
			}
			i += size
		}
		if enc == binread.StrUTF16 {
			n++
		}
		w.I32(-int32(n))
		// The units go straight into the room grown for them.
		w.Grow(2 * n)
		at := len(w.buf)
		b := w.buf[:at+2*n]
		for i := 0; i < len(s); {
			c, size := wtf8Rune(s, i)
			i += size
			if c >= 0x10000 {
				r1, r2 := utf16.EncodeRune(c)
				putUnit(b[at:], uint16(r1), w.big)
				putUnit(b[at+2:], uint16(r2), w.big)
				at += 4
			} else {
				putUnit(b[at:], uint16(c), w.big)
				at += 2
			}
		}
		if enc == binread.StrUTF16 {
			putUnit(b[at:], 0, w.big)
		}
		w.buf = b
	}
}

// wtf8Rune decodes the character at s[i] as range does, except that an
// unpaired UTF-16 surrogate in its three-byte generalized UTF-8 form (how
// binread keeps one) is that surrogate, not three U+FFFD.
func wtf8Rune(s string, i int) (rune, int) {
	c, size := utf8.DecodeRuneInString(s[i:])
	if c == utf8.RuneError && size == 1 && s[i] == 0xED && i+2 < len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	}
	return c, size
}

// putUnit stores one UTF-16 code unit in the writer's byte order (inlined,
// unlike a call through a PutUint16 function value).
func putUnit(b []byte, u uint16, big bool) {
	_ = b[1]
	if big {
		b[0], b[1] = byte(u>>8), byte(u)
	} else {
		b[0], b[1] = byte(u), byte(u>>8)
	}
}
