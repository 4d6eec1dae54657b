package legacy

import (
	"errors"
	"fmt"
	"sync"

	"github.com/upkg/upkg/compression"
)

// Mass Effect's PlayStation 3 and Wii U packages compress their blocks with
// LZMA: each block is the 5-byte properties header (lc/lp/pb byte and the
// dictionary size) followed by the raw range-coded stream, with no size
// field, because the block table gives the uncompressed size. The decoder
// below follows the LZMA specification (the "LZMA SDK" format description):
// a binary range decoder, adaptive 11-bit probabilities, literal coding
// with the match byte after a match, and the four-distance repeat state
// machine. It is registered as "LZMA" in the compression registry.

func init() {
	compression.Register("LZMA", decompressLZMA)
}

var errLZMA = errors.New("lzma: corrupt input")

const (
	lzmaProbInit       = 1 << 10
	lzmaNumStates      = 12
	lzmaPosStatesMax   = 1 << 4
	lzmaLenToPosStates = 4
	lzmaEndPosModel    = 14
	lzmaFullDistances  = 1 << (lzmaEndPosModel >> 1)
	lzmaAlignBits      = 4
	lzmaMatchMinLen    = 2
)

type lzmaRange struct {
	src   []byte
	pos   int
	rng   uint32
	code  uint32
	short bool // ran past the input
}

func (r *lzmaRange) next() byte {
	if r.pos >= len(r.src) {
		r.short = true
		return 0
	}
	r.pos++
	return r.src[r.pos-1]
}

func (r *lzmaRange) normalize() {
	if r.rng < 1<<24 {
		r.shift()
	}
}

// shift takes in the next input byte (kept out of line so that bit
// inlines).
func (r *lzmaRange) shift() {
	r.rng <<= 8
	r.code = r.code<<8 | uint32(r.next())
}

func (r *lzmaRange) bit(p *uint16) (b uint32) {
	v := uint32(*p)
	bound := (r.rng >> 11) * v
	if r.code < bound {
		r.rng = bound
		*p = uint16(v + (1<<11-v)>>5)
	} else {
		r.rng -= bound
		r.code -= bound
		*p = uint16(v - v>>5)
		b = 1
	}
	if r.rng < 1<<24 {
		r.shift()
	}
	return b
}

func (r *lzmaRange) direct(n int) uint32 {
	var v uint32
	for range n {
		r.rng >>= 1
		r.code -= r.rng
		t := 0 - (r.code >> 31)
		r.code += r.rng & t
		v = v<<1 + (t + 1)
		r.normalize()
	}
	return v
}

// tree decodes a bits-bit symbol through a bit tree, most significant
// bit first. It and the other multi-bit decoders keep the coder state in
// locals: the same steps as bit, without a memory round trip per bit.
func (r *lzmaRange) tree(probs []uint16, bits int) uint32 {
	return r.treeFrom(probs, 1, 1<<bits) - 1<<bits
}

// treeFrom continues a bit-tree decode at node m until m reaches end.
func (r *lzmaRange) treeFrom(probs []uint16, m, end uint32) uint32 {
	rng, code := r.rng, r.code
	for m < end {
		// Branch-free: literal bits are hard to predict. mask is all ones
		// for a 1 bit; the updates are the same as in bit.
		p := &probs[m]
		v := uint32(*p)
		bound := (rng >> 11) * v
		var b uint32
		if code >= bound {
			b = 1
		}
		mask := -b
		rng = bound&^mask | (rng-bound)&mask
		code -= bound & mask
		*p = uint16(v + ((1<<11-v)>>5)&^mask - (v>>5)&mask)
		m = m<<1 | b
		if rng < 1<<24 {
			rng <<= 8
			code = code<<8 | uint32(r.next())
		}
	}
	r.rng, r.code = rng, code
	return m
}

func (r *lzmaRange) reverse(probs []uint16, bits int) uint32 {
	rng, code := r.rng, r.code
	m, sym := uint32(1), uint32(0)
	for i := range bits {
		p := &probs[m]
		v := uint32(*p)
		bound := (rng >> 11) * v
		if code < bound {
			rng = bound
			*p = uint16(v + (1<<11-v)>>5)
			m <<= 1
		} else {
			rng -= bound
			code -= bound
			*p = uint16(v - v>>5)
			m = m<<1 | 1
			sym |= 1 << i
		}
		if rng < 1<<24 {
			rng <<= 8
			code = code<<8 | uint32(r.next())
		}
	}
	r.rng, r.code = rng, code
	return sym
}

// matchedLiteral decodes a literal after a match: while its bits agree
// with those of the match byte mb, they are coded with their own
// probabilities. It returns the symbol decoded so far (1 followed by the
// bits), to be finished with treeFrom.
func (r *lzmaRange) matchedLiteral(probs []uint16, mb uint32) uint32 {
	rng, code := r.rng, r.code
	sym := uint32(1)
	for sym < 0x100 {
		mbit := (mb >> 7) & 1
		mb <<= 1
		p := &probs[(1+mbit)<<8+sym]
		v := uint32(*p)
		bound := (rng >> 11) * v
		var b uint32
		if code >= bound {
			b = 1
		}
		mask := -b
		rng = bound&^mask | (rng-bound)&mask
		code -= bound & mask
		*p = uint16(v + ((1<<11-v)>>5)&^mask - (v>>5)&mask)
		if rng < 1<<24 {
			rng <<= 8
			code = code<<8 | uint32(r.next())
		}
		sym = sym<<1 | b
		if mbit != b {
			break
		}
	}
	r.rng, r.code = rng, code
	return sym
}

type lzmaLen struct {
	choice, choice2 uint16
	low, mid        [lzmaPosStatesMax][1 << 3]uint16
	high            [1 << 8]uint16
}

func (l *lzmaLen) init() {
	l.choice, l.choice2 = lzmaProbInit, lzmaProbInit
	for i := range l.low {
		for j := range l.low[i] {
			l.low[i][j], l.mid[i][j] = lzmaProbInit, lzmaProbInit
		}
	}
	for i := range l.high {
		l.high[i] = lzmaProbInit
	}
}

func (l *lzmaLen) decode(r *lzmaRange, posState uint32) uint32 {
	if r.bit(&l.choice) == 0 {
		return r.tree(l.low[posState][:], 3)
	}
	if r.bit(&l.choice2) == 0 {
		return 8 + r.tree(l.mid[posState][:], 3)
	}
	return 16 + r.tree(l.high[:], 8)
}

// lzmaFixedProbs counts the probabilities decompressLZMA keeps besides the
// literal coder's (the length coders are separate).
const lzmaFixedProbs = lzmaNumStates<<4*2 + lzmaNumStates*4 + lzmaLenToPosStates<<6 + 1 + lzmaFullDistances - lzmaEndPosModel + 1<<lzmaAlignBits

// lzmaSlabs keeps probability slabs between blocks.
var lzmaSlabs = sync.Pool{New: func() any { return new([]uint16) }}

// decompressLZMA expands a properties header plus raw LZMA stream into dst.
func decompressLZMA(dst, src []byte) error {
	if len(src) < 5+5 {
		return fmt.Errorf("%w: %d bytes is too short", errLZMA, len(src))
	}
	d := int(src[0])
	if d >= 9*5*5 {
		return fmt.Errorf("%w: properties byte 0x%02x", errLZMA, d)
	}
	lc, lp, pb := d%9, (d/9)%5, d/45
	if lc+lp > 8 {
		// Keeps the literal table at most 0x300<<8 entries (1.5 MiB).
		return fmt.Errorf("%w: lc+lp = %d", errLZMA, lc+lp)
	}
	r := &lzmaRange{src: src[5:], rng: 0xFFFFFFFF}
	if r.next() != 0 {
		return fmt.Errorf("%w: range coder does not start with 0", errLZMA)
	}
	for range 4 {
		r.code = r.code<<8 | uint32(r.next())
	}

	// All probabilities come from one pooled slab.
	nLit := 0x300 << (lc + lp)
	slab := lzmaSlabs.Get().(*[]uint16)
	defer lzmaSlabs.Put(slab)
	if need := nLit + lzmaFixedProbs; cap(*slab) < need {
		*slab = make([]uint16, need)
	}
	probs := (*slab)[:nLit+lzmaFixedProbs]
	for i := range probs {
		probs[i] = lzmaProbInit
	}
	newProbs := func(n int) []uint16 {
		p := probs[:n:n]
		probs = probs[n:]
		return p
	}
	literal := newProbs(nLit)
	isMatch := newProbs(lzmaNumStates << 4)
	isRep := newProbs(lzmaNumStates)
	isRepG0 := newProbs(lzmaNumStates)
	isRepG1 := newProbs(lzmaNumStates)
	isRepG2 := newProbs(lzmaNumStates)
	isRep0Long := newProbs(lzmaNumStates << 4)
	posSlot := newProbs(lzmaLenToPosStates << 6)
	posSpecial := newProbs(1 + lzmaFullDistances - lzmaEndPosModel)
	align := newProbs(1 << lzmaAlignBits)
	var lenDec, repLenDec lzmaLen
	lenDec.init()
	repLenDec.init()

	var rep0, rep1, rep2, rep3 uint32
	state := uint32(0)
	pbMask := uint32(1)<<pb - 1
	lpMask := uint32(1)<<lp - 1
	op := 0
	for op < len(dst) {
		if r.short {
			return fmt.Errorf("%w: input ends after %d of %d output bytes", errLZMA, op, len(dst))
		}
		posState := uint32(op) & pbMask
		if r.bit(&isMatch[state<<4+posState]) == 0 {
			var prev uint32
			if op > 0 {
				prev = uint32(dst[op-1])
			}
			ls := (uint32(op)&lpMask)<<lc + prev>>(8-lc)
			probs := literal[0x300*ls : 0x300*ls+0x300]
			sym := uint32(1)
			if state >= 7 {
				if int(rep0) >= op {
					return fmt.Errorf("%w: distance %d before the start", errLZMA, rep0+1)
				}
				sym = r.matchedLiteral(probs, uint32(dst[op-int(rep0)-1]))
			}
			sym = r.treeFrom(probs, sym, 0x100)
			dst[op] = byte(sym)
			op++
			switch {
			case state < 4:
				state = 0
			case state < 10:
				state -= 3
			default:
				state -= 6
			}
			continue
		}
		var n uint32
		if r.bit(&isRep[state]) == 1 {
			if op == 0 {
				return fmt.Errorf("%w: repeat match at the start", errLZMA)
			}
			if r.bit(&isRepG0[state]) == 0 {
				if r.bit(&isRep0Long[state<<4+posState]) == 0 {
					if int(rep0) >= op {
						return fmt.Errorf("%w: distance %d before the start", errLZMA, rep0+1)
					}
					if state < 7 {
						state = 9
					} else {
						state = 11
					}
					dst[op] = dst[op-int(rep0)-1]
					op++
					continue
				}
			} else {
				var dist uint32
				if r.bit(&isRepG1[state]) == 0 {
					dist = rep1
				} else {
					if r.bit(&isRepG2[state]) == 0 {
						dist = rep2
					} else {
						dist = rep3
						rep3 = rep2
					}
					rep2 = rep1
				}
				rep1 = rep0
				rep0 = dist
			}
			n = repLenDec.decode(r, posState)
			if state < 7 {
				state = 8
			} else {
				state = 11
			}
		} else {
			rep3, rep2, rep1 = rep2, rep1, rep0
			n = lenDec.decode(r, posState)
			if state < 7 {
				state = 7
			} else {
				state = 10
			}
			ls := min(n, lzmaLenToPosStates-1)
			slot := r.tree(posSlot[ls<<6:ls<<6+64], 6)
			if slot < 4 {
				rep0 = slot
			} else {
				bits := int(slot>>1) - 1
				dist := (2 | slot&1) << bits
				if slot < lzmaEndPosModel {
					dist += r.reverse(posSpecial[dist-slot:], bits)
				} else {
					dist += r.direct(bits-lzmaAlignBits) << lzmaAlignBits
					dist += r.reverse(align, lzmaAlignBits)
				}
				rep0 = dist
			}
			if rep0 == 0xFFFFFFFF {
				break // end marker
			}
		}
		length := int(n) + lzmaMatchMinLen
		if int(rep0) >= op {
			return fmt.Errorf("%w: distance %d at output %d", errLZMA, rep0+1, op)
		}
		if length > len(dst)-op {
			return fmt.Errorf("%w: match of %d bytes overruns the output", errLZMA, length)
		}
		from := op - int(rep0) - 1
		if from+length <= op {
			copy(dst[op:op+length], dst[from:])
		} else {
			for i := range length {
				dst[op+i] = dst[from+i]
			}
		}
		op += length
	}
	if op != len(dst) {
		return fmt.Errorf("%w: stream ends after %d of %d bytes", errLZMA, op, len(dst))
	}
	return nil
}
