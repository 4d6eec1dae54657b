// Package flate is a small DEFLATE (RFC 1951) decoder and encoder with
// zlib (RFC 1950) and gzip (RFC 1952) framing, for the WebAssembly build:
// compress/flate, zlib and gzip cost the page about 180 KB, where this
// package costs a fraction of that. Native programs keep the standard
// library (and klauspost/compress); the tests compare the two.
//
// The decoder works on whole buffers: the caller knows the decompressed
// size (container blocks record it), so output beyond it is an error and
// nothing is allocated from the stream's contents. The encoder is a greedy
// LZ77 with fixed Huffman codes, enough for the page's PNG images.
package flate

import (
	"errors"
	"strconv"
)

// CorruptInputError reports invalid DEFLATE data at the given byte offset
// of the compressed input.
type CorruptInputError int64

func (e CorruptInputError) Error() string {
	return "flate: corrupt input before offset " + strconv.FormatInt(int64(e), 10)
}

// ErrTooLong reports a stream that decodes to more bytes than the
// destination holds.
var ErrTooLong = errors.New("flate: stream longer than the expected size")

// errEOF reports input that ends inside the stream.
var errEOF = errors.New("unexpected EOF")

const (
	maxCodeLen = 15  // longest Huffman code
	fastBits   = 9   // bits resolved by one lookup in huffman.fast
	maxLit     = 286 // literal/length symbols a stream may use
	maxDist    = 30  // distance symbols a stream may use
)

// Base values and extra bits of the length (257..285) and distance codes.
var (
	lenBase   [29]uint16
	lenExtra  [29]uint8
	distBase  [30]uint16
	distExtra [30]uint8
	fixedLit  huffman
	fixedDist huffman
)

func init() {
	b := uint16(3)
	for i := range lenBase {
		if i >= 8 && i < 28 {
			lenExtra[i] = uint8((i - 4) / 4)
		}
		lenBase[i] = b
		b += 1 << lenExtra[i]
	}
	lenBase[28], lenExtra[28] = 258, 0
	b = 1
	for i := range distBase {
		if i >= 2 {
			distExtra[i] = uint8((i - 2) / 2)
		}
		distBase[i] = b
		b += 1 << distExtra[i]
	}
	var l [288]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	fixedLit.build(l[:])
	// 32 five-bit codes; 30 and 31 are invalid distances.
	for i := range 32 {
		l[i] = 5
	}
	fixedDist.build(l[:32])
}

// huffman is a canonical Huffman code: codes of up to fastBits bits are
// found with one lookup, longer ones by walking the code lengths.
type huffman struct {
	count  [maxCodeLen + 1]uint16 // codes of each length
	symbol [288]uint16            // symbols in code order
	fast   [1 << fastBits]uint16  // symbol<<4 | length by the next bits; 0 = longer code
	// min is the number of bits a symbol needs before decoding starts:
	// the shortest code, or for literals/lengths the end-of-block code's
	// length. compress/flate does the same, which decides how much of a
	// truncated stream comes out before the error.
	min uint
}

// build makes the code for the symbols' code lengths (0 = unused). Like
// compress/flate it accepts only complete codes, a single code of one bit,
// or no code at all; it reports whether the lengths were valid.
func (h *huffman) build(lengths []uint8) bool {
	h.count = [maxCodeLen + 1]uint16{}
	for _, l := range lengths {
		h.count[l]++
	}
	h.count[0] = 0
	left, maxLen := 1, 0
	h.min = 0
	for l := 1; l <= maxCodeLen; l++ {
		left = left<<1 - int(h.count[l])
		if left < 0 {
			return false
		}
		if h.count[l] != 0 {
			maxLen = l
			if h.min == 0 {
				h.min = uint(l)
			}
		}
	}
	// An empty code is accepted here and fails when used (a block without
	// distances has no distance codes).
	if maxLen != 0 && left != 0 && !(maxLen == 1 && h.count[1] == 1) {
		return false
	}
	var offs [maxCodeLen + 2]uint16
	for l := 1; l <= maxCodeLen; l++ {
		offs[l+1] = offs[l] + h.count[l]
	}
	for sym, l := range lengths {
		if l != 0 {
			h.symbol[offs[l]] = uint16(sym)
			offs[l]++
		}
	}
	h.fast = [1 << fastBits]uint16{}
	code, i := 0, 0
	for l := 1; l <= fastBits; l++ {
		for range h.count[l] {
			r := reverse(code, l)
			for j := r; j < 1<<fastBits; j += 1 << l {
				h.fast[j] = h.symbol[i]<<4 | uint16(l)
			}
			code++
			i++
		}
		code <<= 1
	}
	return true
}

// reverse returns the low n bits of code in reverse order.
func reverse(code, n int) int {
	r := 0
	for range n {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

// inflater holds the state of one decoding: the input with its bit buffer
// (least significant bit first) and the output.
type inflater struct {
	src   []byte
	pos   int // next byte of src to load into bits
	bits  uint32
	nbits uint
	dst   []byte
	n     int // bytes written to dst
	err   error
	lit   huffman
	dist  huffman
}

// fail records the first error, a CorruptInputError at the current input
// offset unless err is given.
func (f *inflater) fail(err error) {
	if f.err == nil {
		if err == nil {
			err = CorruptInputError(f.pos)
		}
		f.err = err
	}
}

// need loads bits until at least n are buffered; at the end of the input
// it fails.
func (f *inflater) need(n uint) bool {
	for f.nbits < n {
		if f.pos >= len(f.src) {
			f.fail(errEOF)
			return false
		}
		f.bits |= uint32(f.src[f.pos]) << f.nbits
		f.pos++
		f.nbits += 8
	}
	return true
}

// take consumes n bits (n <= 16).
func (f *inflater) take(n uint) uint32 {
	if !f.need(n) {
		return 0
	}
	v := f.bits & (1<<n - 1)
	f.bits >>= n
	f.nbits -= n
	return v
}

// decode reads one symbol of h.
func (f *inflater) decode(h *huffman) int {
	if !f.need(h.min) {
		return -1
	}
	for f.nbits < fastBits && f.pos < len(f.src) {
		f.bits |= uint32(f.src[f.pos]) << f.nbits
		f.pos++
		f.nbits += 8
	}
	if e := h.fast[f.bits&(1<<fastBits-1)]; e != 0 && uint(e&15) <= f.nbits {
		f.bits >>= e & 15
		f.nbits -= uint(e & 15)
		return int(e >> 4)
	}
	// Walk the canonical code one bit at a time (RFC 1951 3.2.2): within
	// each length the codes are consecutive, from first.
	code, first, index := 0, 0, 0
	for l := 1; l <= maxCodeLen; l++ {
		code |= int(f.take(1))
		if f.err != nil {
			return -1
		}
		c := int(h.count[l])
		if code-first < c {
			return int(h.symbol[index+code-first])
		}
		index += c
		first = (first + c) << 1
		code <<= 1
	}
	f.fail(nil)
	return -1
}

// Inflate decodes the DEFLATE stream at the start of src into dst and
// returns the bytes written and the bytes of src the stream took. A stream
// that would write more than len(dst) bytes stops with [ErrTooLong], a
// corrupt one with a [CorruptInputError], and a truncated one with an
// error wrapping "unexpected EOF".
func Inflate(dst, src []byte) (n, used int, err error) {
	f := &inflater{src: src, dst: dst}
	for final := false; !final && f.err == nil; {
		final = f.take(1) == 1
		switch f.take(2) {
		case 0:
			f.stored()
		case 1:
			f.codes(&fixedLit, &fixedDist)
		case 2:
			if f.dynamic() {
				f.codes(&f.lit, &f.dist)
			}
		default:
			f.fail(nil)
		}
	}
	// Whole bytes still in the bit buffer were not part of the stream.
	return f.n, f.pos - int(f.nbits/8), f.err
}

// stored copies a stored block.
func (f *inflater) stored() {
	// Drop the bits up to the byte boundary, and give back buffered bytes.
	f.pos -= int(f.nbits / 8)
	f.bits, f.nbits = 0, 0
	if f.err != nil {
		return
	}
	if len(f.src)-f.pos < 4 {
		f.pos = len(f.src)
		f.fail(errEOF)
		return
	}
	l := int(f.src[f.pos]) | int(f.src[f.pos+1])<<8
	nl := int(f.src[f.pos+2]) | int(f.src[f.pos+3])<<8
	if l != ^nl&0xffff {
		f.fail(nil)
		return
	}
	f.pos += 4
	// Copy what fits and is there; like a reader, report more output
	// only when the input holds it.
	avail, room := min(l, len(f.src)-f.pos), len(f.dst)-f.n
	c := copy(f.dst[f.n:], f.src[f.pos:f.pos+min(avail, room)])
	f.n += c
	f.pos += c
	if avail > room {
		f.fail(ErrTooLong)
	} else if avail < l {
		f.fail(errEOF)
	}
}

// codeOrder is the order of the code length code lengths (RFC 1951 3.2.7).
var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamic reads the code lengths of a dynamic block into f.lit and f.dist.
func (f *inflater) dynamic() bool {
	nlit := int(f.take(5)) + 257
	ndist := int(f.take(5)) + 1
	nclen := int(f.take(4)) + 4
	if f.err != nil {
		return false
	}
	if nlit > maxLit || ndist > maxDist {
		f.fail(nil)
		return false
	}
	var lengths [maxLit + maxDist]uint8
	for i := range nclen {
		lengths[codeOrder[i]] = uint8(f.take(3))
	}
	var clen huffman
	if f.err != nil || !clen.build(lengths[:19]) {
		f.fail(nil)
		return false
	}
	lengths = [maxLit + maxDist]uint8{}
	for i := 0; i < nlit+ndist; {
		sym := f.decode(&clen)
		if f.err != nil {
			return false
		}
		if sym < 16 {
			lengths[i] = uint8(sym)
			i++
			continue
		}
		var rep int
		var v uint8
		switch sym {
		case 16:
			if i == 0 {
				f.fail(nil)
				return false
			}
			v, rep = lengths[i-1], 3+int(f.take(2))
		case 17:
			rep = 3 + int(f.take(3))
		default:
			rep = 11 + int(f.take(7))
		}
		if f.err != nil {
			return false
		}
		if i+rep > nlit+ndist {
			f.fail(nil)
			return false
		}
		for range rep {
			lengths[i] = v
			i++
		}
	}
	if !f.lit.build(lengths[:nlit]) || !f.dist.build(lengths[nlit:nlit+ndist]) {
		f.fail(nil)
		return false
	}
	f.lit.min = max(f.lit.min, uint(lengths[256]))
	return true
}

// codes decodes the symbols of a compressed block up to its end code.
func (f *inflater) codes(lit, dist *huffman) {
	for f.err == nil {
		sym := f.decode(lit)
		switch {
		case sym < 0:
			return
		case sym < 256:
			if f.n >= len(f.dst) {
				f.fail(ErrTooLong)
				return
			}
			f.dst[f.n] = byte(sym)
			f.n++
			continue
		case sym == 256:
			return
		case sym > 285:
			f.fail(nil)
			return
		}
		sym -= 257
		length := int(lenBase[sym]) + int(f.take(uint(lenExtra[sym])))
		d := f.decode(dist)
		if d < 0 {
			return
		}
		if d >= maxDist {
			f.fail(nil)
			return
		}
		back := int(distBase[d]) + int(f.take(uint(distExtra[d])))
		if f.err != nil {
			return
		}
		if back > f.n {
			f.fail(nil)
			return
		}
		if length > len(f.dst)-f.n {
			f.fail(ErrTooLong)
			return
		}
		for i := range length {
			f.dst[f.n+i] = f.dst[f.n-back+i]
		}
		f.n += length
	}
}
