package oodle

import (
	"encoding/binary"
	"math/bits"
)

// msbReader reads bits most-significant first, either forwards from the start
// of buf or backwards from its end (then the last byte comes first). Reads
// past the end yield zero bits; callers check the position afterwards.
type msbReader struct {
	buf  []byte
	pos  int // bits consumed
	back bool
}

func (r *msbReader) byteAt(i int) uint32 {
	if i < 0 || i >= len(r.buf) {
		return 0
	}
	if r.back {
		return uint32(r.buf[len(r.buf)-1-i])
	}
	return uint32(r.buf[i])
}

// peek32 returns the next 32 bits, the next bit in bit 31.
func (r *msbReader) peek32() uint32 {
	i := r.pos >> 3
	sh := uint(r.pos & 7)
	if i >= 0 && i+8 <= len(r.buf) {
		// The five bytes lie inside buf: one load.
		var v uint64
		if r.back {
			v = binary.LittleEndian.Uint64(r.buf[len(r.buf)-i-8:])
		} else {
			v = binary.BigEndian.Uint64(r.buf[i:])
		}
		return uint32(v << sh >> 32)
	}
	v := uint64(r.byteAt(i))<<32 | uint64(r.byteAt(i+1))<<24 | uint64(r.byteAt(i+2))<<16 |
		uint64(r.byteAt(i+3))<<8 | uint64(r.byteAt(i+4))
	return uint32(v >> (8 - sh))
}

// read returns the next n bits (0 <= n <= 32).
func (r *msbReader) read(n int) uint32 {
	if n == 0 {
		return 0
	}
	v := r.peek32() >> (32 - uint(n))
	r.pos += n
	return v
}

func (r *msbReader) bit() uint32 { return r.read(1) }

// clz is the number of zero bits before the next one bit, as seen in the next
// 32 bits (32 if they are all zero).
func (r *msbReader) clz() int { return bits.LeadingZeros32(r.peek32()) }

// bytesUsed is the number of bytes touched so far (a partly read byte counts).
func (r *msbReader) bytesUsed() int { return (r.pos + 7) >> 3 }

// overrun reports whether more bits were consumed than buf holds.
func (r *msbReader) overrun() bool { return r.pos > len(r.buf)*8 }

// lsbReader reads bits least-significant first, forwards from the start of buf
// or backwards from its end. Reads past the end yield zero bits.
type lsbReader struct {
	buf   []byte
	next  int    // next byte index (counted from the reading end) to load
	acc   uint64 // loaded bits, next bit in bit 0
	n     uint   // number of valid bits in acc
	back  bool
	limit int
}

func newLSB(buf []byte, back bool) lsbReader {
	return lsbReader{buf: buf, back: back}
}

func (r *lsbReader) refill() {
	// Eight bytes at once while they lie inside buf: as many whole bytes
	// as fit in acc are counted as loaded (the bits above them hold the
	// next bytes, which a later load ORs in again unchanged).
	if r.next >= 0 && r.next+8 <= len(r.buf) {
		var v uint64
		if r.back {
			v = binary.BigEndian.Uint64(r.buf[len(r.buf)-r.next-8:])
		} else {
			v = binary.LittleEndian.Uint64(r.buf[r.next:])
		}
		r.acc |= v << r.n
		k := (63 - r.n) >> 3
		r.next += int(k)
		r.n += k * 8
		return
	}
	for r.n <= 56 {
		var b byte
		if r.next < len(r.buf) {
			if r.back {
				b = r.buf[len(r.buf)-1-r.next]
			} else {
				b = r.buf[r.next]
			}
		}
		r.acc |= uint64(b) << r.n
		r.n += 8
		r.next++
	}
}

// peek returns at least 32 valid low bits.
func (r *lsbReader) peek() uint64 {
	if r.n < 32 {
		r.refill()
	}
	return r.acc
}

func (r *lsbReader) skip(n uint) {
	r.acc >>= n
	r.n -= n
}

func (r *lsbReader) read(n uint) uint32 {
	if n == 0 {
		return 0
	}
	v := uint32(r.peek() & (1<<n - 1))
	r.skip(n)
	return v
}

// bytesUsed is the number of bytes touched so far (a partly read byte counts).
func (r *lsbReader) bytesUsed() int { return r.next - int(r.n>>3) }
