package binread

import "fmt"

// CompactIndex reads an Unreal 1 / Unreal 2 compact index (FCompactIndex): a
// signed integer stored in one to five bytes. The first byte holds the sign
// (bit 7), a continuation flag (bit 6) and the six lowest value bits; each
// following byte adds seven bits with bit 7 as its continuation flag, and a
// fifth byte adds its full eight bits. UE3 (file version 178 and later) stores
// plain int32 values instead.
//
// Values that need more than 32 bits of magnitude (possible only with a
// corrupt fifth byte) are reported as an error rather than wrapped.
func (r *Reader) CompactIndex(field string) int32 {
	start := r.off
	b := r.U8(field)
	if r.err != nil {
		return 0
	}
	neg := b&0x80 != 0
	v := uint64(b & 0x3f)
	more := b&0x40 != 0
	shift := uint(6)
	for i := 1; more && i < 5; i++ {
		b = r.U8(field)
		if r.err != nil {
			return 0
		}
		if i == 4 {
			v |= uint64(b) << shift
			more = false
			break
		}
		v |= uint64(b&0x7f) << shift
		more = b&0x80 != 0
		shift += 7
	}
	if v > 1<<31 || (!neg && v == 1<<31) {
		r.FailAt(start, field, fmt.Errorf("compact index magnitude %d does not fit in int32", v))
		return 0
	}
	if neg {
		return int32(-int64(v))
	}
	return int32(v)
}

// CompactIndexSize returns how many bytes the compact index encoding of v
// takes (1 to 5).
func CompactIndexSize(v int32) int {
	u := uint64(v)
	if v < 0 {
		u = uint64(-int64(v))
	}
	switch {
	case u < 1<<6:
		return 1
	case u < 1<<13:
		return 2
	case u < 1<<20:
		return 3
	case u < 1<<27:
		return 4
	}
	return 5
}

// AppendCompactIndex appends the compact index encoding of v to b.
func AppendCompactIndex(b []byte, v int32) []byte {
	u := uint64(v)
	var first byte
	if v < 0 {
		u = uint64(-int64(v))
		first = 0x80
	}
	first |= byte(u & 0x3f)
	u >>= 6
	if u == 0 {
		return append(b, first)
	}
	b = append(b, first|0x40)
	for i := 1; i < 4; i++ {
		c := byte(u & 0x7f)
		u >>= 7
		if u == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
	return append(b, byte(u))
}
