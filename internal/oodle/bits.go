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
func (r *msbReader) peek32() uint32 { return uint32(r.peek64() >> 32) }

// peek64 returns the next 64 bits, the next bit in bit 63; at least the
// top 57 are the stream's (zeros past its end).
func (r *msbReader) peek64() uint64 {
	i := r.pos >> 3
	sh := uint(r.pos & 7)
	if i >= 0 && i+8 <= len(r.buf) {
		var v uint64
		if r.back {
			v = binary.LittleEndian.Uint64(r.buf[len(r.buf)-i-8:])
		} else {
			v = binary.BigEndian.Uint64(r.buf[i:])
		}
		return v << sh
	}
	var v uint64
	for k := 0; k < 8; k++ {
		v = v<<8 | uint64(r.byteAt(i+k))
	}
	return v << sh
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

// lsbReader reads bits least-significant first, forwards from the start of
// buf. Reads past the end yield zero bits; callers check bytesUsed
// afterwards. lsbBackReader is the same reading backwards from the end of
// its buf (the last byte first). Both keep their state in four fields so
// that the compiler can hold a reader in registers.
type lsbReader struct {
	buf  []byte
	next int    // next byte index to load
	acc  uint64 // loaded bits, next bit in bit 0
	n    uint   // number of valid bits in acc (at most 64)
}

type lsbBackReader struct {
	buf  []byte
	next int // next byte to load, counted from the end of buf
	acc  uint64
	n    uint
}

// refill loads bytes until at least 56 bits are valid. While eight bytes
// lie inside buf it loads them at once and counts as loaded as many whole
// bytes as fit in acc; the bits above them hold the next bytes, which a
// later load ORs in again unchanged.
func (r *lsbReader) refill() {
	if r.next+8 <= len(r.buf) {
		r.acc |= binary.LittleEndian.Uint64(r.buf[r.next:]) << r.n
		r.next += int((63 - r.n) >> 3)
		r.n |= 56 // the same as adding 8 bits per byte counted above
		return
	}
	r.refillTail()
}

// refillTail loads byte by byte near the end of buf (zeros past it).
func (r *lsbReader) refillTail() {
	for r.n <= 56 {
		if r.next < len(r.buf) {
			r.acc |= uint64(r.buf[r.next]) << r.n
		}
		r.n += 8
		r.next++
	}
}

func (r *lsbBackReader) refill() {
	if r.next+8 <= len(r.buf) {
		r.acc |= binary.BigEndian.Uint64(r.buf[len(r.buf)-r.next-8:]) << r.n
		r.next += int((63 - r.n) >> 3)
		r.n |= 56
		return
	}
	r.refillTail()
}

func (r *lsbBackReader) refillTail() {
	for r.n <= 56 {
		if r.next < len(r.buf) {
			r.acc |= uint64(r.buf[len(r.buf)-1-r.next]) << r.n
		}
		r.n += 8
		r.next++
	}
}

// skip drops n bits (n <= r.n).
func (r *lsbReader) skip(n uint) {
	r.acc >>= n
	r.n -= n
}

func (r *lsbBackReader) skip(n uint) {
	r.acc >>= n
	r.n -= n
}

// read returns the next n bits (n <= 32).
func (r *lsbReader) read(n uint) uint32 {
	if r.n < 32 {
		r.refill()
	}
	v := uint32(r.acc & (1<<n - 1))
	r.skip(n)
	return v
}

func (r *lsbBackReader) read(n uint) uint32 {
	if r.n < 32 {
		r.refill()
	}
	v := uint32(r.acc & (1<<n - 1))
	r.skip(n)
	return v
}

// bytesUsed is the number of bytes touched so far (a partly read byte counts).
func (r *lsbReader) bytesUsed() int     { return r.next - int(r.n>>3) }
func (r *lsbBackReader) bytesUsed() int { return r.next - int(r.n>>3) }
