package oodle

import (
	"math/bits"
	"sort"
)

// tansEntry is one state of a tANS decoding table: the symbol it emits and
// how the next state is formed (next = w + the next bitsX stream bits).
type tansEntry struct {
	w      uint32
	bitsX  uint8
	symbol uint8
}

type tansWeights struct {
	ones  []byte   // symbols of weight 1
	multi []uint32 // symbol<<16 | weight, weight >= 2
}

func (d *decoder) readTANSTable(br *msbReader, lBits int) (*tansWeights, error) {
	t := &tansWeights{}
	L := 1 << uint(lBits)
	if br.bit() == 1 {
		q := int(br.read(3))
		numSyms := int(br.read(8)) + 1
		if numSyms < 2 {
			return nil, corrupt("tANS table with one symbol")
		}
		fluff := readFluff(br, numSyms)
		rice := d.rice[:numSyms+fluff]
		if err := readRiceLengths(br, rice); err != nil {
			return nil, err
		}
		ranges, err := convertToRanges(br, numSyms, fluff, rice[numSyms:], d.ranges[:])
		if err != nil {
			return nil, err
		}
		k := 0
		avg := 6
		sum := 0
		for _, r := range ranges {
			sym := r.sym
			for j := 0; j < r.num; j++ {
				nextra := q + rice[k]
				k++
				if nextra > 15 {
					return nil, corrupt("tANS weight too wide")
				}
				v := int(br.read(nextra)) + 1<<uint(nextra) - 1<<uint(q)
				avgDiv4 := avg >> 2
				limit := 2 * avgDiv4
				if v <= limit {
					v = avgDiv4 + zigzag(v)
				}
				if limit > v {
					limit = v
				}
				v++
				avg += limit - avgDiv4
				switch {
				case v == 1:
					t.ones = append(t.ones, byte(sym))
				case v >= 2:
					t.multi = append(t.multi, uint32(sym)<<16|uint32(v))
				}
				sum += v
				sym++
			}
		}
		if sum != L {
			return nil, corrupt("tANS weights do not sum to the table size")
		}
		return t, nil
	}
	var seen [256]bool
	count := int(br.read(3)) + 1
	perSym := bits.Len(uint(lBits))
	maxDelta := int(br.read(perSym))
	if maxDelta == 0 || maxDelta > lBits {
		return nil, corrupt("bad tANS weight width")
	}
	weight, total := 0, 0
	for ; count > 0; count-- {
		sym := int(br.read(8))
		if seen[sym] {
			return nil, corrupt("tANS symbol repeated")
		}
		weight += int(br.read(maxDelta))
		if weight == 0 {
			return nil, corrupt("tANS zero weight")
		}
		seen[sym] = true
		if weight == 1 {
			t.ones = append(t.ones, byte(sym))
		} else {
			t.multi = append(t.multi, uint32(sym)<<16|uint32(weight))
		}
		total += weight
	}
	sym := int(br.read(8))
	if seen[sym] {
		return nil, corrupt("tANS symbol repeated")
	}
	if total >= L || L-total < weight || L-total <= 1 {
		return nil, corrupt("bad tANS weights")
	}
	t.multi = append(t.multi, uint32(sym)<<16|uint32(L-total))
	sort.Slice(t.ones, func(i, j int) bool { return t.ones[i] < t.ones[j] })
	sort.Slice(t.multi, func(i, j int) bool { return t.multi[i] < t.multi[j] })
	return t, nil
}

// buildTANS spreads the symbols over the L states: weight-1 symbols take the
// last slots, the others are dealt round-robin into four interleaved
// quarters.
func buildTANS(t *tansWeights, lBits int, lut []tansEntry) ([]tansEntry, error) {
	L := 1 << uint(lBits)
	lut = lut[:L]
	clear(lut) // slots a corrupt table leaves unfilled decode as zero
	left := L - len(t.ones)
	if left < 0 {
		return nil, corrupt("too many tANS symbols")
	}
	var ptr [4]int
	sa := left >> 2
	sb := sa
	if left&3 > 0 {
		sb++
	}
	ptr[1] = sb
	sb += sa
	if left&3 > 1 {
		sb++
	}
	ptr[2] = sb
	sb += sa
	if left&3 > 2 {
		sb++
	}
	ptr[3] = sb
	for i, s := range t.ones {
		lut[left+i] = tansEntry{w: 0, bitsX: uint8(lBits), symbol: s}
	}
	put := func(j int, e tansEntry) bool {
		if ptr[j] >= left {
			return false
		}
		lut[ptr[j]] = e
		ptr[j]++
		return true
	}
	wsum := 0
	for _, m := range t.multi {
		weight := int(m & 0xFFFF)
		sym := uint8(m >> 16)
		if weight > 4 {
			symBits := bits.Len(uint(weight)) - 1
			z := lBits - symBits
			if z < 0 {
				return nil, corrupt("tANS weight above the table size")
			}
			e := tansEntry{symbol: sym, bitsX: uint8(z), w: uint32((L - 1) & (weight << uint(z)))}
			add := uint32(1) << uint(z)
			x := 1<<uint(symBits+1) - weight
			for j := 0; j < 4; j++ {
				y := (weight + ((wsum - j - 1) & 3)) >> 2
				if x >= y {
					for n := y; n > 0; n-- {
						if !put(j, e) {
							return nil, corrupt("tANS table overflow")
						}
						e.w += add
					}
					x -= y
				} else {
					for n := x; n > 0; n-- {
						if !put(j, e) {
							return nil, corrupt("tANS table overflow")
						}
						e.w += add
					}
					z--
					if z < 0 {
						return nil, corrupt("tANS weight above the table size")
					}
					add >>= 1
					e.bitsX = uint8(z)
					e.w = 0
					for n := y - x; n > 0; n-- {
						if !put(j, e) {
							return nil, corrupt("tANS table overflow")
						}
						e.w += add
					}
					x = weight
				}
			}
		} else {
			b := uint32((1<<uint(weight))-1) << uint(wsum&3)
			b |= b >> 4
			ww := weight
			for n := weight; n > 0; n-- {
				idx := bits.TrailingZeros32(b)
				b &= b - 1
				wb := bits.Len(uint(ww)) - 1
				e := tansEntry{symbol: sym, bitsX: uint8(lBits - wb), w: uint32((L - 1) & (ww << uint(lBits-wb)))}
				ww++
				if idx > 3 || !put(idx, e) {
					return nil, corrupt("tANS table overflow")
				}
			}
		}
		wsum += weight
	}
	return lut, nil
}

// decodeTANS decodes a tANS byte array: a table, then five interleaved
// states fed from a forward and a backward bit stream; the final states are
// the last five bytes.
func (d *decoder) decodeTANS(src, out []byte) error {
	if len(src) < 8 || len(out) < 5 {
		return corrupt("tANS array too small")
	}
	br := msbReader{buf: src}
	if br.bit() != 0 {
		return corrupt("tANS reserved bit set")
	}
	lBits := int(br.read(2)) + 8
	t, err := d.readTANSTable(&br, lBits)
	if err != nil {
		return err
	}
	if br.overrun() {
		return corrupt("truncated tANS table")
	}
	p := br.bytesUsed()
	if p >= len(src) {
		return corrupt("truncated tANS data")
	}
	lut, err := buildTANS(t, lBits, d.tans[:])
	if err != nil {
		return err
	}
	body := src[p:] // the two streams may share bytes when short
	f := lsbReader{buf: body}
	b := lsbBackReader{buf: body}
	lb := uint(lBits)
	var st [5]uint32
	st[0] = f.read(lb)
	st[1] = b.read(lb)
	st[2] = f.read(lb)
	st[3] = b.read(lb)
	st[4] = f.read(lb)
	// Symbols come in groups of five, one per state, the next states' bits
	// read alternately from the forward and the backward stream. A state
	// takes at most lBits <= 11 bits, so one refill serves a group.
	L := uint32(len(lut))
	end := len(out) - 5
	i := 0
	for g := 0; i < end; g++ {
		fwd := g&1 == 0
		if fwd {
			f.refill()
		} else {
			b.refill()
		}
		for j := 0; j < 5 && i < end; j, i = j+1, i+1 {
			s := st[j]
			if s >= L {
				return corrupt("tANS state out of range")
			}
			e := lut[s]
			out[i] = e.symbol
			var v uint64
			if fwd {
				v = f.acc
				f.skip(uint(e.bitsX))
			} else {
				v = b.acc
				b.skip(uint(e.bitsX))
			}
			st[j] = uint32(v&(1<<e.bitsX-1)) + e.w
		}
	}
	if f.bytesUsed()+b.bytesUsed() != len(body) {
		return corrupt("tANS streams do not meet")
	}
	for j := 0; j < 5; j++ {
		if st[j] > 0xFF {
			return corrupt("bad final tANS state")
		}
		out[end+j] = byte(st[j])
	}
	return nil
}
