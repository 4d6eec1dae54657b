package oodle

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// errCorrupt is the cause of every malformed-stream error; the public error
// wraps it with the position of the quantum that failed.
var errCorrupt = errors.New("corrupt stream")

func corrupt(what string) error { return &streamError{what} }

type streamError struct{ what string }

func (e *streamError) Error() string { return e.what }
func (e *streamError) Unwrap() error { return errCorrupt }

// streamHeader parses the header of an entropy-coded byte array: its coding
// type, packed size, decoded size and header length.
func streamHeader(src []byte) (typ, srcSize, dstSize, hdr int, err error) {
	if len(src) < 2 {
		return 0, 0, 0, 0, corrupt("truncated byte-array header")
	}
	typ = int(src[0]>>4) & 7
	if typ == 0 {
		if src[0] >= 0x80 {
			srcSize = (int(src[0])<<8 | int(src[1])) & 0xFFF
			hdr = 2
		} else {
			if len(src) < 3 {
				return 0, 0, 0, 0, corrupt("truncated byte-array header")
			}
			srcSize = int(src[0])<<16 | int(src[1])<<8 | int(src[2])
			if srcSize&^0x3FFFF != 0 {
				return 0, 0, 0, 0, corrupt("reserved bits set in stored byte-array size")
			}
			hdr = 3
		}
		return typ, srcSize, srcSize, hdr, nil
	}
	if src[0] >= 0x80 {
		if len(src) < 3 {
			return 0, 0, 0, 0, corrupt("truncated byte-array header")
		}
		v := int(src[0])<<16 | int(src[1])<<8 | int(src[2])
		srcSize = v & 0x3FF
		dstSize = srcSize + (v>>10)&0x3FF + 1
		hdr = 3
	} else {
		if len(src) < 5 {
			return 0, 0, 0, 0, corrupt("truncated byte-array header")
		}
		v := uint32(src[1])<<24 | uint32(src[2])<<16 | uint32(src[3])<<8 | uint32(src[4])
		srcSize = int(v & 0x3FFFF)
		dstSize = int((v>>18|uint32(src[0])<<14)&0x3FFFF) + 1
		if srcSize >= dstSize {
			return 0, 0, 0, 0, corrupt("byte-array packed size not below its decoded size")
		}
		hdr = 5
	}
	return typ, srcSize, dstSize, hdr, nil
}

// decodeBytes decodes one entropy-coded byte array at the start of src whose
// decoded size may not exceed maxOut. It returns the decoded bytes (possibly
// aliasing src for stored arrays) and the number of src bytes used.
func (d *decoder) decodeBytes(src []byte, maxOut int, depth int) ([]byte, int, error) {
	typ, srcSize, dstSize, hdr, err := streamHeader(src)
	if err != nil {
		return nil, 0, err
	}
	if len(src)-hdr < srcSize {
		return nil, 0, corrupt("byte array runs past its input")
	}
	if dstSize > maxOut {
		return nil, 0, corrupt("byte array larger than its destination")
	}
	body := src[hdr : hdr+srcSize]
	if typ == 0 {
		return body, hdr + srcSize, nil
	}
	if depth > 8 {
		return nil, 0, corrupt("byte arrays nested too deeply")
	}
	out := d.alloc(dstSize)
	switch typ {
	case 1:
		err = d.decodeTANS(body, out)
	case 2, 4:
		err = d.decodeHuffman(body, out, typ>>1)
	case 3:
		err = d.decodeRLE(body, out, depth)
	case 5:
		err = d.decodeRecursive(body, out, depth)
	default:
		err = corrupt("unknown byte-array coding type")
	}
	if err != nil {
		return nil, 0, err
	}
	return out, hdr + srcSize, nil
}

func zigzag(v int) int { return -(v & 1) ^ (v >> 1) }

// huffCodes collects the (symbol, code length) pairs of a Huffman table in
// the order read (code lengths 1..11; a table has at most 256 symbols, more
// is reported as corrupt by buildLUT).
type huffCodes struct {
	n     int
	sym   [256]byte
	len   [256]uint8
	count [12]int // symbols per code length
}

func (h *huffCodes) add(sym, length int) {
	if h.n < len(h.sym) {
		h.sym[h.n] = byte(sym)
		h.len[h.n] = uint8(length)
	}
	h.n++
	h.count[length]++
}

// readCodeLengthsOld reads the original code-length table: either a sparse
// list of (symbol, length) or a run-length coded list over all 256 symbols
// with gamma-coded, adaptively centred lengths.
func readCodeLengthsOld(br *msbReader, h *huffCodes) (int, error) {
	if br.bit() == 0 {
		n := int(br.read(8))
		if n == 0 {
			return 0, corrupt("empty Huffman table")
		}
		if n == 1 {
			h.add(int(br.read(8)), 1)
			return 1, nil
		}
		lenBits := int(br.read(3))
		if lenBits > 4 {
			return 0, corrupt("bad Huffman code-length width")
		}
		for i := 0; i < n; i++ {
			sym := int(br.read(8))
			l := int(br.read(lenBits)) + 1
			if l > 11 {
				return 0, corrupt("Huffman code length above 11")
			}
			h.add(sym, l)
		}
		return n, nil
	}
	forced := int(br.read(2))
	thres := uint32(1) << (31 - (20 >> uint(forced)))
	avg := 32
	sym, numSyms := 0, 0
	gamma := func() (int, bool) {
		if br.peek32()&0xFF000000 == 0 {
			return 0, false
		}
		return int(br.read(2*(br.clz()+1))) - 1, true
	}
	skipZeros := br.bit() == 1
	for {
		if !skipZeros {
			z, ok := gamma()
			if !ok {
				return 0, corrupt("bad Huffman zero run")
			}
			sym += z
			if sym >= 256 {
				break
			}
		}
		skipZeros = false
		n, ok := gamma()
		if !ok {
			return 0, corrupt("bad Huffman symbol run")
		}
		if sym+n > 256 {
			return 0, corrupt("Huffman symbol run past 256")
		}
		numSyms += n
		for ; n > 0; n-- {
			if br.peek32() < thres {
				return 0, corrupt("bad Huffman code length")
			}
			lz := br.clz()
			v := int(br.read(lz+forced+1)) + (lz-1)<<uint(forced)
			l := zigzag(v) + (avg+2)>>2
			if l < 1 || l > 11 {
				return 0, corrupt("Huffman code length out of range")
			}
			avg = l + (3*avg+2)>>2
			h.add(sym, l)
			sym++
		}
		if sym == 256 {
			break
		}
	}
	if sym != 256 || numSyms < 2 {
		return 0, corrupt("bad Huffman symbol count")
	}
	return numSyms, nil
}

// readFluff reads the truncated-binary count of gap/run fields that follow
// the symbol lengths of a range-coded alphabet.
func readFluff(br *msbReader, numSyms int) int {
	if numSyms == 256 {
		return 0
	}
	x := 257 - numSyms
	if x > numSyms {
		x = numSyms
	}
	x *= 2
	y := bits.Len32(uint32(x - 1))
	v := int(br.peek32() >> (32 - uint(y)))
	z := 1<<uint(y) - x
	if v>>1 >= z {
		br.pos += y
		return v - z
	}
	br.pos += y - 1
	return v >> 1
}

// readRiceLengths reads n unary values (the count of zero bits before each
// one bit), taking them from a 56-bit window per load. The window is bit
// reversed, so that its one bits can be found lowest first and cleared
// one by one: each value is the distance from the one bit before, and
// finding the next one bit does not wait for the value before it.
func readRiceLengths(br *msbReader, dst []int) error {
	limit := len(br.buf) * 8
	c := 0
	for i := 0; i < len(dst); {
		if br.pos >= limit {
			return corrupt("truncated Golomb-Rice lengths")
		}
		r := bits.Reverse64(br.peek64()) & (1<<56 - 1)
		next := 0 // window bit after the last one bit taken
		for ; r != 0 && i < len(dst); i++ {
			p := bits.TrailingZeros64(r)
			dst[i] = c + p - next
			c = 0
			next = p + 1
			r &= r - 1
		}
		if i < len(dst) {
			// No one bit left in the window: the zeros run on.
			c += 56 - next
			next = 56
		}
		br.pos += next
	}
	return nil
}

type symRange struct{ sym, num int }

// convertToRanges reads the symbol ranges of a range-coded alphabet: the
// gap/count fields have widths given by the rice values in widths.
func convertToRanges(br *msbReader, numSyms, fluff int, widths []int, ranges []symRange) ([]symRange, error) {
	numRanges := fluff >> 1
	symIdx := 0
	if fluff&1 != 0 {
		v := widths[0]
		widths = widths[1:]
		if v >= 8 {
			return nil, corrupt("bad symbol-range width")
		}
		symIdx = int(br.read(v+1)) + 1<<uint(v+1) - 1
	}
	used := 0
	ranges = ranges[:0]
	for i := 0; i < numRanges; i++ {
		// Both fields (at most 8 + 8 bits) from one window.
		v, v2 := uint(widths[0]), uint(widths[1])+1
		if v >= 9 || v2 >= 9 {
			return nil, corrupt("bad symbol-range width")
		}
		w := br.peek64()
		br.pos += int(v + v2)
		num := int(w>>(64-v)) + 1<<v
		space := int(w<<v>>(64-v2)) + 1<<v2 - 1
		ranges = append(ranges, symRange{symIdx, num})
		used += num
		symIdx += num + space
		widths = widths[2:]
	}
	if symIdx >= 256 || used >= numSyms || symIdx+numSyms-used > 256 {
		return nil, corrupt("symbol ranges exceed the alphabet")
	}
	ranges = append(ranges, symRange{symIdx, numSyms - used})
	return ranges, nil
}

// readCodeLengthsNew reads the newer code-length table: Golomb-Rice coded
// length deltas plus symbol ranges.
func (d *decoder) readCodeLengthsNew(br *msbReader, h *huffCodes) (int, error) {
	forced := int(br.read(2))
	numSyms := int(br.read(8)) + 1
	fluff := readFluff(br, numSyms)
	lens := d.rice[:numSyms+fluff]
	if err := readRiceLengths(br, lens); err != nil {
		return 0, err
	}
	if forced > 0 {
		if br.pos+forced*numSyms > len(br.buf)*8 {
			return 0, corrupt("truncated Golomb-Rice low bits")
		}
		// The low bits, a 56-bit window at a time.
		f := uint(forced)
		for i := 0; i < numSyms; {
			w := br.peek64()
			k := min(numSyms-i, 56/forced)
			br.pos += k * forced
			for ; k > 0; k-- {
				lens[i] = (lens[i]<<f | int(w>>(64-f))) & 0xFF
				w <<= f
				i++
			}
		}
	}
	// The lengths are counted in two histograms, even and odd symbols,
	// so that runs of one length do not wait on one counter.
	var count [2][16]int
	sum := 0x1e
	for i := 0; i < numSyms; i++ {
		v := zigzag(lens[i] & 0xFF)
		l := v + sum>>2 + 1
		if l < 1 || l > 11 {
			return 0, corrupt("Huffman code length out of range")
		}
		lens[i] = l
		count[i&1][l]++
		sum += v
		if sum < 0 {
			return 0, corrupt("Huffman code length out of range")
		}
	}
	ranges, err := convertToRanges(br, numSyms, fluff, lens[numSyms:], d.ranges[:])
	if err != nil {
		return 0, err
	}
	// The ranges hold numSyms (at most 256) symbols in all.
	k := 0
	for _, r := range ranges {
		for j := 0; j < r.num; j++ {
			h.sym[k] = byte(r.sym + j)
			h.len[k] = uint8(lens[k])
			k++
		}
	}
	h.n = k
	for l := range h.count {
		h.count[l] = count[0][l] + count[1][l]
	}
	return numSyms, nil
}

// huffLUT maps the next 11 stream bits (least significant first) to an
// entry holding the code length (low byte) and the symbol (high byte): the
// length, which the next lookup waits for, needs no shift, and with all 2048
// entries filled the index needs no mask but 11 bits.
type huffLUT struct {
	e [2048]uint16
}

// buildLUT assigns canonical codes (shorter codes first, symbols of one
// length in the order read). The table is built by doubling: once the first
// 1<<l entries hold every code of at most l bits (a code's bits reversed,
// since the streams are read LSB first, give its slot), copying them to the
// next 1<<l entries places those codes again for l+1 bits, and each code of
// l+1 bits then takes its one slot there. Slots of longer codes hold
// leftovers until their codes are placed; a complete code fills them all.
// Past the longest code the doubling goes on to fill all 2048 entries.
func (h *huffCodes) buildLUT(lut *huffLUT) error {
	if h.n > len(h.sym) {
		return corrupt("Huffman table with more than 256 symbols")
	}
	// first[l] is the index in byLen of the first symbol of length l.
	var first [13]int
	maxLen := 0
	slot := 0
	for l := 1; l <= 11; l++ {
		n := h.count[l]
		first[l+1] = first[l] + n
		if n > 0 {
			maxLen = l
			if slot+n<<uint(11-l) > 2048 {
				return corrupt("oversubscribed Huffman code")
			}
			slot += n << uint(11-l)
		}
	}
	if slot != 2048 {
		return corrupt("incomplete Huffman code")
	}
	// byLen lists the symbol entries grouped by length, in the order read.
	var byLen [256]uint8
	next := first
	for i := range h.sym[:h.n] {
		l := h.len[i] & 15
		byLen[next[l]] = uint8(i)
		next[l]++
	}
	e := &lut.e
	code := 0 // next code, left-aligned to 11 bits
	for l := 1; l <= maxLen; l++ {
		if l > 1 {
			copy(e[1<<(l-1):1<<l], e[:1<<(l-1)])
		}
		for _, k := range byLen[first[l]:first[l+1]] {
			e[bits.Reverse16(uint16(code))>>5&2047] = uint16(h.sym[k])<<8 | uint16(l)
			code += 1 << (11 - l)
		}
	}
	for l := maxLen + 1; l <= 11; l++ {
		copy(e[1<<(l-1):1<<l], e[:1<<(l-1)])
	}
	return nil
}

// decodeHuffman decodes a Huffman byte array: a code table followed by one
// (streams == 1) or two (streams == 2) triples of bit streams (forward,
// backward from the end, forward from the middle), interleaved symbol by
// symbol.
func (d *decoder) decodeHuffman(src, out []byte, streams int) error {
	br := msbReader{buf: src}
	var h huffCodes
	var n int
	var err error
	if br.bit() == 0 {
		n, err = readCodeLengthsOld(&br, &h)
	} else if br.bit() == 0 {
		n, err = d.readCodeLengthsNew(&br, &h)
	} else {
		return corrupt("unknown Huffman table format")
	}
	if err != nil {
		return err
	}
	if br.overrun() {
		return corrupt("truncated Huffman table")
	}
	p := br.bytesUsed()
	if n == 1 {
		// A one-symbol alphabet: the array repeats it (whatever its
		// nominal code length).
		for i := range out {
			out[i] = h.sym[0]
		}
		return nil
	}
	lut := &d.lut
	if err := h.buildLUT(lut); err != nil {
		return err
	}
	if streams == 1 {
		if p+3 > len(src) {
			return corrupt("truncated Huffman streams")
		}
		mid := int(src[p]) | int(src[p+1])<<8
		return huffTriple(src[p+2:], mid, out, lut)
	}
	if p+6 > len(src) {
		return corrupt("truncated Huffman streams")
	}
	split := int(src[p]) | int(src[p+1])<<8 | int(src[p+2])<<16
	p += 3
	if split > len(src)-p {
		return corrupt("bad Huffman stream split")
	}
	first := src[p : p+split]
	second := src[p+split:]
	if len(first) < 2 || len(second) < 3 {
		return corrupt("bad Huffman stream split")
	}
	left := int(first[0]) | int(first[1])<<8
	right := int(second[0]) | int(second[1])<<8
	if len(first)-2 < left+2 || len(second)-2 < right+2 {
		return corrupt("bad Huffman stream split")
	}
	half := (len(out) + 1) >> 1
	return huffTwoTriples(first[2:], left, out[:half], second[2:], right, out[half:], lut)
}

// huffTriple decodes out from three interleaved streams in buf: forward
// from 0, backward from the end and forward from mid. The forward stream
// must end exactly at mid and the other two must meet.
//
// Codes are at most 11 bits, so after one refill (at least 56 bits) a stream
// yields five symbols. The main loop (huffRounds) keeps the three readers
// in local variables (the compiler holds them in registers) and runs while
// every stream has eight bytes left to load; the readers then finish the
// last symbols one at a time (huffFinish).
//
// Each symbol's window is shifted before its byte is stored: the compiler
// (amd64 without BMI2, whose variable shifts take their count in CX) can
// then load the entry into CX, shift, and store CX>>8, where storing first
// made it spill the entry to the stack on every symbol.
func huffTriple(buf []byte, mid int, out []byte, lut *huffLUT) error {
	if mid > len(buf) {
		return corrupt("bad Huffman stream split")
	}
	aPos, bPos, cPos, i := huffRounds(buf, mid, out, lut, 0, 0, uint(mid)*8, 0)
	return huffFinish(buf, mid, out, lut, aPos, bPos, cPos, i)
}

// huffTwoTriples decodes the two triples of a two-triple Huffman array
// (into out1 and out2) as huffTriple would decode one after the other, but
// runs their main loops together: a stream's symbols wait on each other
// (each lookup needs the bits the one before left), so six streams keep the
// processor busier than three.
func huffTwoTriples(buf1 []byte, mid1 int, out1 []byte, buf2 []byte, mid2 int, out2 []byte, lut *huffLUT) error {
	if mid1 > len(buf1) || mid2 > len(buf2) {
		if err := huffTriple(buf1, mid1, out1, lut); err != nil {
			return err
		}
		return huffTriple(buf2, mid2, out2, lut)
	}
	aPos1, bPos1, cPos1, i1 := uint(0), uint(0), uint(mid1)*8, 0
	aPos2, bPos2, cPos2, i2 := uint(0), uint(0), uint(mid2)*8, 0
	aEnd1, bEnd1, cEnd1 := mid1-8, len(buf1)-mid1-8, len(buf1)-8
	aEnd2, bEnd2, cEnd2 := mid2-8, len(buf2)-mid2-8, len(buf2)-8
	tab := &lut.e
	for len(out1)-i1 >= 15 && int(aPos1>>3) <= aEnd1 && int(bPos1>>3) <= bEnd1 && int(cPos1>>3) <= cEnd1 &&
		len(out2)-i2 >= 15 && int(aPos2>>3) <= aEnd2 && int(bPos2>>3) <= bEnd2 && int(cPos2>>3) <= cEnd2 {
		aAcc1 := binary.LittleEndian.Uint64(buf1[aPos1>>3:]) >> (aPos1 & 7)
		aAcc2 := binary.LittleEndian.Uint64(buf2[aPos2>>3:]) >> (aPos2 & 7)
		bAcc1 := binary.BigEndian.Uint64(buf1[len(buf1)-int(bPos1>>3)-8:]) >> (bPos1 & 7)
		bAcc2 := binary.BigEndian.Uint64(buf2[len(buf2)-int(bPos2>>3)-8:]) >> (bPos2 & 7)
		cAcc1 := binary.LittleEndian.Uint64(buf1[cPos1>>3:]) >> (cPos1 & 7)
		cAcc2 := binary.LittleEndian.Uint64(buf2[cPos2>>3:]) >> (cPos2 & 7)
		var e uint
		o1 := out1[i1 : i1+15 : i1+15]
		o2 := out2[i2 : i2+15 : i2+15]
		e = uint(tab[aAcc1&2047])
		aAcc1 >>= e & 63
		o1[0] = byte(e >> 8)
		aPos1 += e & 0xFF
		e = uint(tab[aAcc2&2047])
		aAcc2 >>= e & 63
		o2[0] = byte(e >> 8)
		aPos2 += e & 0xFF
		e = uint(tab[bAcc1&2047])
		bAcc1 >>= e & 63
		o1[1] = byte(e >> 8)
		bPos1 += e & 0xFF
		e = uint(tab[bAcc2&2047])
		bAcc2 >>= e & 63
		o2[1] = byte(e >> 8)
		bPos2 += e & 0xFF
		e = uint(tab[cAcc1&2047])
		cAcc1 >>= e & 63
		o1[2] = byte(e >> 8)
		cPos1 += e & 0xFF
		e = uint(tab[cAcc2&2047])
		cAcc2 >>= e & 63
		o2[2] = byte(e >> 8)
		cPos2 += e & 0xFF
		e = uint(tab[aAcc1&2047])
		aAcc1 >>= e & 63
		o1[3] = byte(e >> 8)
		aPos1 += e & 0xFF
		e = uint(tab[aAcc2&2047])
		aAcc2 >>= e & 63
		o2[3] = byte(e >> 8)
		aPos2 += e & 0xFF
		e = uint(tab[bAcc1&2047])
		bAcc1 >>= e & 63
		o1[4] = byte(e >> 8)
		bPos1 += e & 0xFF
		e = uint(tab[bAcc2&2047])
		bAcc2 >>= e & 63
		o2[4] = byte(e >> 8)
		bPos2 += e & 0xFF
		e = uint(tab[cAcc1&2047])
		cAcc1 >>= e & 63
		o1[5] = byte(e >> 8)
		cPos1 += e & 0xFF
		e = uint(tab[cAcc2&2047])
		cAcc2 >>= e & 63
		o2[5] = byte(e >> 8)
		cPos2 += e & 0xFF
		e = uint(tab[aAcc1&2047])
		aAcc1 >>= e & 63
		o1[6] = byte(e >> 8)
		aPos1 += e & 0xFF
		e = uint(tab[aAcc2&2047])
		aAcc2 >>= e & 63
		o2[6] = byte(e >> 8)
		aPos2 += e & 0xFF
		e = uint(tab[bAcc1&2047])
		bAcc1 >>= e & 63
		o1[7] = byte(e >> 8)
		bPos1 += e & 0xFF
		e = uint(tab[bAcc2&2047])
		bAcc2 >>= e & 63
		o2[7] = byte(e >> 8)
		bPos2 += e & 0xFF
		e = uint(tab[cAcc1&2047])
		cAcc1 >>= e & 63
		o1[8] = byte(e >> 8)
		cPos1 += e & 0xFF
		e = uint(tab[cAcc2&2047])
		cAcc2 >>= e & 63
		o2[8] = byte(e >> 8)
		cPos2 += e & 0xFF
		e = uint(tab[aAcc1&2047])
		aAcc1 >>= e & 63
		o1[9] = byte(e >> 8)
		aPos1 += e & 0xFF
		e = uint(tab[aAcc2&2047])
		aAcc2 >>= e & 63
		o2[9] = byte(e >> 8)
		aPos2 += e & 0xFF
		e = uint(tab[bAcc1&2047])
		bAcc1 >>= e & 63
		o1[10] = byte(e >> 8)
		bPos1 += e & 0xFF
		e = uint(tab[bAcc2&2047])
		bAcc2 >>= e & 63
		o2[10] = byte(e >> 8)
		bPos2 += e & 0xFF
		e = uint(tab[cAcc1&2047])
		cAcc1 >>= e & 63
		o1[11] = byte(e >> 8)
		cPos1 += e & 0xFF
		e = uint(tab[cAcc2&2047])
		cAcc2 >>= e & 63
		o2[11] = byte(e >> 8)
		cPos2 += e & 0xFF
		e = uint(tab[aAcc1&2047])
		aAcc1 >>= e & 63
		o1[12] = byte(e >> 8)
		aPos1 += e & 0xFF
		e = uint(tab[aAcc2&2047])
		aAcc2 >>= e & 63
		o2[12] = byte(e >> 8)
		aPos2 += e & 0xFF
		e = uint(tab[bAcc1&2047])
		bAcc1 >>= e & 63
		o1[13] = byte(e >> 8)
		bPos1 += e & 0xFF
		e = uint(tab[bAcc2&2047])
		bAcc2 >>= e & 63
		o2[13] = byte(e >> 8)
		bPos2 += e & 0xFF
		e = uint(tab[cAcc1&2047])
		cAcc1 >>= e & 63
		o1[14] = byte(e >> 8)
		cPos1 += e & 0xFF
		e = uint(tab[cAcc2&2047])
		cAcc2 >>= e & 63
		o2[14] = byte(e >> 8)
		cPos2 += e & 0xFF
		i1 += 15
		i2 += 15
	}
	aPos1, bPos1, cPos1, i1 = huffRounds(buf1, mid1, out1, lut, aPos1, bPos1, cPos1, i1)
	if err := huffFinish(buf1, mid1, out1, lut, aPos1, bPos1, cPos1, i1); err != nil {
		return err
	}
	aPos2, bPos2, cPos2, i2 = huffRounds(buf2, mid2, out2, lut, aPos2, bPos2, cPos2, i2)
	return huffFinish(buf2, mid2, out2, lut, aPos2, bPos2, cPos2, i2)
}

// huffRounds runs the main loop of huffTriple from the given state: the
// bits taken from each stream (a's and c's counted from the start of buf,
// c starting at mid, b's back from the end) and the symbols written. A
// refill loads the eight bytes holding the next unconsumed bit (at least
// 57 bits), and a symbol takes its bits from that window. All three load
// from buf, which leaves the compiler registers for the rest.
func huffRounds(buf []byte, mid int, out []byte, lut *huffLUT, aPos, bPos, cPos uint, i int) (uint, uint, uint, int) {
	aEnd, bEnd, cEnd := mid-8, len(buf)-mid-8, len(buf)-8
	tab := &lut.e
	for len(out)-i >= 15 && int(aPos>>3) <= aEnd && int(bPos>>3) <= bEnd && int(cPos>>3) <= cEnd {
		aAcc := binary.LittleEndian.Uint64(buf[aPos>>3:]) >> (aPos & 7)
		bAcc := binary.BigEndian.Uint64(buf[len(buf)-int(bPos>>3)-8:]) >> (bPos & 7)
		cAcc := binary.LittleEndian.Uint64(buf[cPos>>3:]) >> (cPos & 7)
		var e uint
		o := out[i : i+15 : i+15]
		// Five symbols per stream, unrolled.
		e = uint(tab[aAcc&2047])
		aAcc >>= e & 63
		o[0] = byte(e >> 8)
		aPos += e & 0xFF
		e = uint(tab[bAcc&2047])
		bAcc >>= e & 63
		o[1] = byte(e >> 8)
		bPos += e & 0xFF
		e = uint(tab[cAcc&2047])
		cAcc >>= e & 63
		o[2] = byte(e >> 8)
		cPos += e & 0xFF
		e = uint(tab[aAcc&2047])
		aAcc >>= e & 63
		o[3] = byte(e >> 8)
		aPos += e & 0xFF
		e = uint(tab[bAcc&2047])
		bAcc >>= e & 63
		o[4] = byte(e >> 8)
		bPos += e & 0xFF
		e = uint(tab[cAcc&2047])
		cAcc >>= e & 63
		o[5] = byte(e >> 8)
		cPos += e & 0xFF
		e = uint(tab[aAcc&2047])
		aAcc >>= e & 63
		o[6] = byte(e >> 8)
		aPos += e & 0xFF
		e = uint(tab[bAcc&2047])
		bAcc >>= e & 63
		o[7] = byte(e >> 8)
		bPos += e & 0xFF
		e = uint(tab[cAcc&2047])
		cAcc >>= e & 63
		o[8] = byte(e >> 8)
		cPos += e & 0xFF
		e = uint(tab[aAcc&2047])
		aAcc >>= e & 63
		o[9] = byte(e >> 8)
		aPos += e & 0xFF
		e = uint(tab[bAcc&2047])
		bAcc >>= e & 63
		o[10] = byte(e >> 8)
		bPos += e & 0xFF
		e = uint(tab[cAcc&2047])
		cAcc >>= e & 63
		o[11] = byte(e >> 8)
		cPos += e & 0xFF
		e = uint(tab[aAcc&2047])
		aAcc >>= e & 63
		o[12] = byte(e >> 8)
		aPos += e & 0xFF
		e = uint(tab[bAcc&2047])
		bAcc >>= e & 63
		o[13] = byte(e >> 8)
		bPos += e & 0xFF
		e = uint(tab[cAcc&2047])
		cAcc >>= e & 63
		o[14] = byte(e >> 8)
		cPos += e & 0xFF
		i += 15
	}
	return aPos, bPos, cPos, i
}

// huffFinish decodes the symbols of a triple left after huffRounds, one
// at a time through the readers, and checks where the streams end.
func huffFinish(buf []byte, mid int, out []byte, lut *huffLUT, aPos, bPos, cPos uint, i int) error {
	aBuf, bBuf, cBuf := buf[:mid], buf[mid:], buf[mid:]
	tab := &lut.e
	a := lsbReader{buf: aBuf, next: int(aPos >> 3)}
	b := lsbBackReader{buf: bBuf, next: int(bPos >> 3)}
	c := lsbReader{buf: cBuf, next: int(cPos>>3) - mid}
	a.refill()
	a.skip(aPos & 7)
	b.refill()
	b.skip(bPos & 7)
	c.refill()
	c.skip(cPos & 7)
	for ; len(out)-i >= 3; i += 3 {
		if a.n < 11 {
			a.refill()
		}
		if b.n < 11 {
			b.refill()
		}
		if c.n < 11 {
			c.refill()
		}
		o := out[i : i+3 : i+3]
		e := tab[a.acc&2047]
		o[0] = byte(e >> 8)
		a.skip(uint(e) & 63)
		e = tab[b.acc&2047]
		o[1] = byte(e >> 8)
		b.skip(uint(e) & 63)
		e = tab[c.acc&2047]
		o[2] = byte(e >> 8)
		c.skip(uint(e) & 63)
	}
	if i < len(out) {
		if a.n < 11 {
			a.refill()
		}
		e := tab[a.acc&2047]
		out[i] = byte(e >> 8)
		a.skip(uint(e) & 63)
		i++
	}
	if i < len(out) {
		if b.n < 11 {
			b.refill()
		}
		e := tab[b.acc&2047]
		out[i] = byte(e >> 8)
		b.skip(uint(e) & 63)
	}
	if a.bytesUsed() != mid || b.bytesUsed()+c.bytesUsed() != len(buf)-mid {
		return corrupt("Huffman streams do not end where they should")
	}
	return nil
}
