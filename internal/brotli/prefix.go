package brotli

import (
	"fmt"
	"math/bits"
)

// bitReader reads the stream's bits, least significant first. It loads a
// byte only when the bits it holds run out, so after each read fewer than
// 8 bits are pending and pos is the next unread byte. Errors are sticky:
// reads after one return zeros.
type bitReader struct {
	src []byte
	pos int
	acc uint64
	n   uint
	err error
}

func (br *bitReader) errf(format string, args ...any) error {
	err := &Error{Offset: br.pos, Msg: fmt.Sprintf(format, args...)}
	if br.err == nil {
		br.err = err
	}
	return br.err
}

// bits reads k ≤ 32 bits.
func (br *bitReader) bits(k uint) uint32 {
	for br.n < k {
		if br.pos >= len(br.src) {
			if br.err == nil {
				br.errf("truncated stream")
			}
			return 0
		}
		br.acc |= uint64(br.src[br.pos]) << br.n
		br.pos++
		br.n += 8
	}
	v := uint32(br.acc & (1<<k - 1))
	br.acc >>= k
	br.n -= k
	return v
}

// align skips to the next byte boundary; the skipped bits must be zero.
func (br *bitReader) align() error {
	if br.n > 0 && br.bits(br.n) != 0 {
		return br.errf("nonzero padding bits")
	}
	return br.err
}

// varLen reads the 1..256 encoding of block type and tree counts.
func (br *bitReader) varLen() int {
	if br.bits(1) == 0 {
		return 1
	}
	n := uint(br.bits(3))
	if n == 0 {
		return 2
	}
	return 1<<n + int(br.bits(n)) + 1
}

// prefixCode is a canonical prefix code, decoded bit by bit.
type prefixCode struct {
	single  bool // one symbol, coded with zero bits
	sym     int
	counts  [16]uint16 // codes of each length
	symbols []uint16   // by code length, then symbol value
}

func (c *prefixCode) decode(br *bitReader) int {
	if c.single {
		return c.sym
	}
	code, first, index := 0, 0, 0
	for l := 1; l <= 15; l++ {
		code |= int(br.bits(1))
		n := int(c.counts[l])
		if code-first < n {
			return int(c.symbols[index+code-first])
		}
		index += n
		first = (first + n) << 1
		code <<= 1
	}
	br.errf("invalid prefix code")
	return 1 << 20
}

// build makes the code from symbol code lengths.
func (c *prefixCode) build(lengths []uint8) {
	*c = prefixCode{symbols: make([]uint16, 0, len(lengths))}
	for l := 1; l <= 15; l++ {
		for s, n := range lengths {
			if int(n) == l {
				c.counts[l]++
				c.symbols = append(c.symbols, uint16(s))
			}
		}
	}
}

// codeLengthOrder is the order of the code length code lengths.
var codeLengthOrder = [18]uint8{1, 2, 3, 4, 0, 5, 17, 6, 16, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// readPrefixCode reads a prefix code description (RFC 7932 section 3.4,
// 3.5) for an alphabet of the given size.
func (d *decoder) readPrefixCode(c *prefixCode, alphabet int) error {
	br := &d.br
	hskip := int(br.bits(2))
	if hskip == 1 {
		// Simple prefix code.
		nsym := int(br.bits(2)) + 1
		width := uint(bits.Len(uint(alphabet - 1)))
		var syms [4]int
		for i := range nsym {
			syms[i] = int(br.bits(width))
			if syms[i] >= alphabet {
				return br.errf("simple prefix code symbol %d out of range", syms[i])
			}
			for j := range i {
				if syms[j] == syms[i] {
					return br.errf("simple prefix code repeats symbol %d", syms[i])
				}
			}
		}
		if nsym == 1 {
			*c = prefixCode{single: true, sym: syms[0]}
			return br.err
		}
		lengths := make([]uint8, alphabet)
		switch nsym {
		case 2:
			lengths[syms[0]], lengths[syms[1]] = 1, 1
		case 3:
			lengths[syms[0]], lengths[syms[1]], lengths[syms[2]] = 1, 2, 2
		case 4:
			if br.bits(1) == 0 {
				lengths[syms[0]], lengths[syms[1]], lengths[syms[2]], lengths[syms[3]] = 2, 2, 2, 2
			} else {
				lengths[syms[0]], lengths[syms[1]], lengths[syms[2]], lengths[syms[3]] = 1, 2, 3, 3
			}
		}
		c.build(lengths)
		return br.err
	}
	// Complex prefix code: first the code length code.
	var clen [18]uint8
	space, num := 32, 0
	for i := hskip; i < 18 && space > 0; i++ {
		var v uint8
		switch br.bits(2) {
		case 0:
			v = 0
		case 1:
			v = 4
		case 2:
			v = 3
		default:
			if br.bits(1) == 0 {
				v = 2
			} else if br.bits(1) == 0 {
				v = 1
			} else {
				v = 5
			}
		}
		clen[codeLengthOrder[i]] = v
		if v != 0 {
			space -= 32 >> v
			num++
		}
	}
	if br.err != nil {
		return br.err
	}
	if num != 1 && space != 0 {
		return br.errf("incomplete code length code")
	}
	var cl prefixCode
	if num == 1 {
		for s, v := range clen {
			if v != 0 {
				cl = prefixCode{single: true, sym: s}
			}
		}
	} else {
		cl.build(clen[:])
	}
	lengths := make([]uint8, alphabet)
	prev, repeatLen := uint8(8), uint8(0)
	repeat, total := 0, 32768
	for i := 0; i < alphabet && total > 0; {
		if br.err != nil {
			return br.err
		}
		s := cl.decode(br)
		if s < 16 {
			lengths[i] = uint8(s)
			i++
			repeat = 0
			if s != 0 {
				prev = uint8(s)
				total -= 32768 >> s
			}
			continue
		}
		extra, newLen := uint(2), prev
		if s == 17 {
			extra, newLen = 3, 0
		}
		if repeatLen != newLen {
			repeat, repeatLen = 0, newLen
		}
		old := repeat
		if repeat > 0 {
			repeat = (repeat - 2) << extra
		}
		repeat += int(br.bits(extra)) + 3
		delta := repeat - old
		if delta > alphabet-i {
			return br.errf("code length repeat overflows the alphabet")
		}
		for j := range delta {
			lengths[i+j] = repeatLen
		}
		i += delta
		if repeatLen != 0 {
			total -= delta * (32768 >> repeatLen)
		}
	}
	if br.err != nil {
		return br.err
	}
	if total != 0 {
		return br.errf("incomplete prefix code")
	}
	c.build(lengths)
	return nil
}
