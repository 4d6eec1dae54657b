// Package flate is a small DEFLATE (RFC 1951) decoder and encoder with
// zlib (RFC 1950) and gzip (RFC 1952) framing. Package compression decodes
// Zlib blocks with it in every build: it works on whole blocks, which is
// both faster than a streaming reader (about 2x less CPU than
// klauspost/compress on the corpus's zlib blocks) and much smaller in the
// WebAssembly build than compress/flate, zlib and gzip. The tests compare
// it with the standard library.
//
// The decoder works on whole buffers: the caller knows the decompressed
// size (container blocks record it), so output beyond it is an error and
// nothing is allocated from the stream's contents. The encoder is a greedy
// LZ77 with fixed Huffman codes, enough for the page's PNG images.
package flate

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"sync"
	"unsafe"
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
	maxLit     = 286 // literal/length symbols a stream may use
	maxDist    = 30  // distance symbols a stream may use

	// Bits resolved by the first lookup in a decoding table; longer codes
	// continue in a subtable. The table sizes are the most a complete code
	// can need with these first-level sizes (288 symbols with 11 bits, 32
	// with 8, 19 of up to 7 bits with 7: what zlib's "enough" program
	// computes, as libdeflate lists them); build checks them anyway.
	litTableBits   = 11
	litTableSize   = 2342
	distTableBits  = 8
	distTableSize  = 402
	clenTableBits  = 7
	clenTableSize  = 1 << clenTableBits
	maxMatchLength = 258
)

// A table entry (uint32) describes the symbol whose code the low bits of
// the bit buffer start with:
//
//	bits 0-5    bits the symbol takes: its code and extra bits (0 in an
//	            entry no code reaches); bit 5 is always 0, so that
//	            shifting by the entry takes them
//	bits 6-7    flags
//	bits 8-11   code length; subtable bits
//	bits 12-15  flags
//	bits 16-31  literal byte, length or distance base, code length
//	            symbol; subtable start
//
// A length or distance is its base plus the bits of the symbol above its
// code, (bits & (1<<taken - 1)) >> codeLength. A subtable entry holds the
// code's whole length; the subtable is indexed by the bits after the
// first level's.
const (
	entryLit  = 1 << 6  // a literal byte
	entryEnd  = 1 << 7  // the end of the block
	entrySub  = 1 << 12 // the code continues in a subtable
	entryBad  = 1 << 13 // no valid symbol: a corrupt stream
	entryNone = entryBad
)

// Base values and extra bits of the length (257..285) and distance codes.
var (
	lenBase   [29]uint16
	lenExtra  [29]uint8
	distBase  [30]uint16
	distExtra [30]uint8

	// The entries (without code length) of the literal/length, distance
	// and code length symbols.
	litSymbols  [288]uint32
	distSymbols [32]uint32
	clenSymbols [19]uint32

	fixedLitTable  [litTableSize]uint32
	fixedDistTable [distTableSize]uint32
	fixedLit       huffman
	fixedDist      huffman
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
	for i := range litSymbols {
		switch {
		case i < 256:
			litSymbols[i] = uint32(i)<<16 | entryLit
		case i == 256:
			litSymbols[i] = entryEnd
		case i < 257+len(lenBase):
			litSymbols[i] = uint32(lenBase[i-257])<<16 | uint32(lenExtra[i-257])
		default:
			litSymbols[i] = entryBad // 286 and 287 have fixed codes but no meaning
		}
	}
	for i := range distSymbols {
		if i < len(distBase) {
			distSymbols[i] = uint32(distBase[i])<<16 | uint32(distExtra[i])
		} else {
			distSymbols[i] = entryBad
		}
	}
	for i := range clenSymbols {
		clenSymbols[i] = uint32(i) << 16
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
	fixedLit.build(fixedLitTable[:], litTableBits, l[:], litSymbols[:])
	// 32 five-bit codes; 30 and 31 are invalid distances.
	for i := range 32 {
		l[i] = 5
	}
	fixedDist.build(fixedDistTable[:], distTableBits, l[:32], distSymbols[:])
}

// huffman is a canonical Huffman code as a decoding table.
type huffman struct {
	table []uint32
	bits  uint // bits of the first lookup
	// min is the number of bits a symbol needs before decoding starts:
	// the shortest code, or for literals/lengths the end-of-block code's
	// length. compress/flate does the same, which decides how much of a
	// truncated stream comes out before the error.
	min uint
}

// build makes the decoding table in table, with tableBits bits in the
// first lookup, for the symbols' code lengths (0 = unused); symbols holds
// each symbol's entry without its code length (with its extra bits in
// bits 0-4). Like compress/flate it accepts only complete codes, a single
// code of one bit, or no code at all; it reports whether the lengths were
// valid.
func (h *huffman) build(table []uint32, tableBits uint, lengths []uint8, symbols []uint32) bool {
	var count [maxCodeLen + 1]uint16
	for _, l := range lengths {
		count[l&15]++
	}
	count[0] = 0
	left, maxLen := 1, uint(0)
	h.min = 0
	for l := uint(1); l <= maxCodeLen; l++ {
		left = left<<1 - int(count[l])
		if left < 0 {
			return false
		}
		if count[l] != 0 {
			maxLen = l
			if h.min == 0 {
				h.min = l
			}
		}
	}
	// An empty code is accepted here and fails when used (a block without
	// distances has no distance codes).
	if maxLen != 0 && left != 0 && !(maxLen == 1 && count[1] == 1) {
		return false
	}
	h.table, h.bits = table, tableBits
	// Symbols sorted by code length, then value: the canonical order.
	var offs [maxCodeLen + 2]uint16
	for l := 1; l <= maxCodeLen; l++ {
		offs[l+1] = offs[l] + count[l]
	}
	var sorted [288]uint16
	for sym, l := range lengths {
		if l != 0 {
			sorted[offs[l]] = uint16(sym)
			offs[l]++
		}
	}
	// The first level: codes of each length l at their bit-reversed value
	// in the first 1<<l entries, which are then repeated for the next
	// length, so that shorter codes fill every entry they prefix. Entries
	// no code reaches stay entryNone.
	table[0] = entryNone
	code, i, size := 0, 0, 1
	for l := uint(1); l <= tableBits; l++ {
		copy(table[size:2*size], table[:size])
		size *= 2
		for range count[l] {
			table[bits.Reverse16(uint16(code))>>(16-l)] = symbols[sorted[i]] + uint32(l) | uint32(l)<<8
			code++
			i++
		}
		code <<= 1
	}
	if maxLen <= tableBits {
		return true
	}
	// Longer codes: those that share their first tableBits bits follow
	// each other in canonical order and get a subtable for the bits after
	// them, as small as the codes of that prefix fill: the codes left,
	// shortest first, fill a subtable of 1<<subBits entries when they
	// cover it (RFC 1951 3.2.2; zlib's inflate_table sizes them so).
	next, start, subBits, prefix := 1<<tableBits, 0, uint(0), -1
	for l := tableBits + 1; l <= maxLen; l++ {
		for range count[l] {
			if p := code >> (l - tableBits); p != prefix {
				prefix, subBits = p, l-tableBits
				for room := 1<<subBits - int(count[l]); room > 0 && subBits+tableBits < maxLen; {
					subBits++
					room = room<<1 - int(count[subBits+tableBits])
				}
				if next+1<<subBits > len(table) {
					return false
				}
				table[bits.Reverse16(uint16(p))>>(16-tableBits)] = uint32(next)<<16 | uint32(subBits)<<8 | entrySub
				start = next
				next += 1 << subBits
			}
			ent := symbols[sorted[i]] + uint32(l) | uint32(l)<<8
			for j := int(bits.Reverse16(uint16(code))>>(16-l)) >> tableBits; j < 1<<subBits; j += 1 << (l - tableBits) {
				table[start+j] = ent
			}
			count[l]--
			code++
			i++
		}
		code <<= 1
	}
	return true
}

// inflater holds the state of one decoding: the input with its bit buffer
// (least significant bit first) and the output, and the tables of the
// current dynamic block.
type inflater struct {
	src []byte
	pos int // next byte of src to load into bits
	// bits holds nbits bits of the stream; the bits above them are zero
	// or the stream's next bits (refill loads whole words).
	bits  uint64
	nbits uint
	dst   []byte
	n     int // bytes written to dst
	err   error
	lit   huffman
	dist  huffman

	litTable  [litTableSize]uint32
	distTable [distTableSize]uint32
	clenTable [clenTableSize]uint32
}

// inflaters keeps inflaters (with their 11 KB of tables) for reuse.
var inflaters = sync.Pool{New: func() any { return new(inflater) }}

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

// refill loads as many whole bytes of input as the bit buffer holds.
func (f *inflater) refill() {
	if f.pos <= len(f.src)-8 {
		f.bits |= binary.LittleEndian.Uint64(f.src[f.pos:]) << f.nbits
		f.pos += int(63-f.nbits) >> 3
		f.nbits |= 56
		return
	}
	for f.nbits <= 56 && f.pos < len(f.src) {
		f.bits |= uint64(f.src[f.pos]) << f.nbits
		f.pos++
		f.nbits += 8
	}
}

// take consumes n bits (n <= 16); at the end of the input it fails.
func (f *inflater) take(n uint) uint32 {
	if f.nbits < n {
		f.refill()
		if f.nbits < n {
			f.fail(errEOF)
			return 0
		}
	}
	v := uint32(f.bits) & (1<<n - 1)
	f.bits >>= n
	f.nbits -= n
	return v
}

// decode reads the code of one symbol of h (not its extra bits) and
// returns its entry; it fails (and returns entryBad) at the end of the
// input or on an invalid code.
func (f *inflater) decode(h *huffman) uint32 {
	if f.nbits < maxCodeLen {
		f.refill()
		if f.nbits < h.min {
			f.fail(errEOF)
			return entryBad
		}
	}
	e := h.table[f.bits&(1<<h.bits-1)]
	if e&entrySub != 0 {
		e = h.table[e>>16+uint32(f.bits>>h.bits)&(1<<(e>>8&15)-1)]
	}
	l := uint(e >> 8 & 15)
	switch {
	case e&entryBad != 0:
		f.fail(nil)
		return entryBad
	case l > f.nbits:
		f.fail(errEOF)
		return entryBad
	}
	f.bits >>= l
	f.nbits -= l
	return e
}

// Inflate decodes the DEFLATE stream at the start of src into dst and
// returns the bytes written and the bytes of src the stream took. A stream
// that would write more than len(dst) bytes stops with [ErrTooLong], a
// corrupt one with a [CorruptInputError], and a truncated one with an
// error wrapping "unexpected EOF".
func Inflate(dst, src []byte) (n, used int, err error) {
	f := inflaters.Get().(*inflater)
	f.src, f.pos, f.bits, f.nbits, f.dst, f.n, f.err = src, 0, 0, 0, dst, 0, nil
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
	n, used, err = f.n, f.pos-int(f.nbits/8), f.err
	f.src, f.dst, f.err = nil, nil, nil
	inflaters.Put(f)
	return n, used, err
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
	if f.err != nil || !clen.build(f.clenTable[:], clenTableBits, lengths[:19], clenSymbols[:]) {
		f.fail(nil)
		return false
	}
	lengths = [maxLit + maxDist]uint8{}
	for i := 0; i < nlit+ndist; {
		// What decode does, inline while the bits are there.
		if f.nbits < maxCodeLen {
			f.refill()
		}
		var e uint32
		if f.nbits >= maxCodeLen {
			e = f.clenTable[f.bits&(1<<clenTableBits-1)]
			if e&entryBad != 0 {
				f.fail(nil)
				return false
			}
			f.bits >>= e >> 8 & 15
			f.nbits -= uint(e >> 8 & 15)
		} else if e = f.decode(&clen); f.err != nil {
			return false
		}
		sym := e >> 16
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
	if !f.lit.build(f.litTable[:], litTableBits, lengths[:nlit], litSymbols[:]) ||
		!f.dist.build(f.distTable[:], distTableBits, lengths[nlit:nlit+ndist], distSymbols[:]) {
		f.fail(nil)
		return false
	}
	f.lit.min = max(f.lit.min, uint(lengths[256]))
	return true
}

// codes decodes the symbols of a compressed block up to its end code:
// first with fast, then symbol by symbol near the ends of the input and
// the output, where every step checks what is left.
func (f *inflater) codes(lit, dist *huffman) {
	if f.fast(lit, dist) {
		return
	}
	for f.err == nil {
		e := f.decode(lit)
		switch {
		case f.err != nil:
			return
		case e&entryLit != 0:
			if f.n >= len(f.dst) {
				f.fail(ErrTooLong)
				return
			}
			f.dst[f.n] = byte(e >> 16)
			f.n++
			continue
		case e&entryEnd != 0:
			return
		}
		length := int(e>>16) + int(f.take(uint(e&31-e>>8&15)))
		d := f.decode(dist)
		if f.err != nil {
			return
		}
		back := int(d>>16) + int(f.take(uint(d&31-d>>8&15)))
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

// fastSlack is the output room the fast loop keeps for the literals it
// decodes between checks; a match must fit with the up to 7 bytes its
// word copies write beyond it.
const fastSlack = 8

// fast decodes symbols while at least 8 bytes of input and fastSlack bytes
// of output remain, with one refill of the bit buffer before each match
// and before every three literals (56 bits or more: a length code with its
// extra bits and a distance code with its extra bits take at most 48,
// three literal codes 45). It returns true at the end of the block, and
// false when a check fails or the ends come near, with the symbol in
// question not taken: codes decodes it again, with the careful checks and
// errors.
func (f *inflater) fast(lit, dist *huffman) bool {
	src, dst := f.src, f.dst
	pos, n := f.pos, f.n
	b, nb := f.bits, f.nbits
	srcEnd, dstEnd := len(src)-8, len(dst)-fastSlack
	if pos > srcEnd || n > dstEnd {
		return false
	}
	// Both tables of every block have the same first-level sizes.
	lt := (*[litTableSize]uint32)(lit.table)
	dt := (*[distTableSize]uint32)(dist.table)
	const lmask, dmask = 1<<litTableBits - 1, 1<<distTableBits - 1
	// The loop reads src and writes literals through pointers: its
	// condition keeps pos+8 <= len(src) and n+fastSlack <= len(dst), so
	// the word loads and the up to three literals between checks stay in
	// bounds. Without a length per slice and a check per access, the
	// loop's state fits in registers (the spilled bit buffer cost a store
	// and reload on its chain at each refill).
	sp, dp := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(dst))
	load := func(pos int) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(sp, pos))[:]) }
	put := func(n int, e uint32) { *(*byte)(unsafe.Add(dp, n)) = byte(e >> 16) }
	end := false
	for pos <= srcEnd && n <= dstEnd {
		// Look the symbol up before the refill when the bits are there:
		// the refill only adds bits above them, and the lookup need not
		// wait for its load.
		var e uint32
		if nb >= litTableBits {
			e = lt[b&lmask]
			b |= load(pos) << (nb & 63)
		} else {
			b |= load(pos) << (nb & 63)
			e = lt[b&lmask]
		}
		pos += int(63-nb) >> 3
		nb |= 56
		if e&entryLit != 0 {
			// Up to three literals per refill, each looked up as soon
			// as the one before is taken. Literals of the first level
			// are the common case: a subtable entry is resolved after
			// the branch that finds it is no literal.
			put(n, e)
			n++
			b >>= e & 63
			nb -= uint(e & 31)
			e = lt[b&lmask]
			if e&entryLit == 0 {
				goto other
			}
			put(n, e)
			n++
			b >>= e & 63
			nb -= uint(e & 31)
			e = lt[b&lmask]
			if e&entryLit == 0 {
				goto other
			}
			put(n, e)
			n++
			b >>= e & 63
			nb -= uint(e & 31)
			continue
		other:
			// A length, the end or a long code after literals: refill
			// for it.
			if pos > srcEnd {
				break
			}
			b |= load(pos) << (nb & 63)
			pos += int(63-nb) >> 3
			nb |= 56
		}
		if e&entrySub != 0 {
			e = lt[e>>16+uint32(b>>litTableBits)&(1<<(e>>8&15)-1)]
			if e&entryLit != 0 {
				put(n, e)
				n++
				b >>= e & 63
				nb -= uint(e & 31)
				continue
			}
		}
		if e&(entryEnd|entryBad) != 0 {
			if e&entryBad != 0 {
				break
			}
			b >>= e & 63
			nb -= uint(e & 31)
			end = true
			break
		}
		// A length, then its distance.
		length := int(e>>16) + int(b&(1<<(e&31)-1)>>(e>>8&15))
		bl := b >> (e & 63)
		d := dt[bl&dmask]
		if d&entrySub != 0 {
			d = dt[d>>16+uint32(bl>>distTableBits)&(1<<(d>>8&15)-1)]
		}
		if d&entryBad != 0 {
			break
		}
		back := int(d>>16) + int(bl&(1<<(d&31)-1)>>(d>>8&15))
		if back > n || length > len(dst)-7-n {
			break
		}
		b = bl >> (d & 63)
		nb -= uint(e&31 + d&31)
		if back >= 8 && length <= 32 && n+32 <= len(dst) {
			// Short matches from 8 or more bytes back: four words
			// whatever the length, with no loop to mispredict.
			s := dst[n-back : n-back+32]
			o := dst[n : n+32]
			binary.LittleEndian.PutUint64(o, binary.LittleEndian.Uint64(s))
			binary.LittleEndian.PutUint64(o[8:], binary.LittleEndian.Uint64(s[8:]))
			binary.LittleEndian.PutUint64(o[16:], binary.LittleEndian.Uint64(s[16:]))
			binary.LittleEndian.PutUint64(o[24:], binary.LittleEndian.Uint64(s[24:]))
		} else {
			copyMatch(dst, n, back, length)
		}
		n += length
	}
	f.pos, f.n, f.bits, f.nbits = pos, n, b, nb
	return end
}

// copyMatch copies length bytes from back bytes before dst[n] to dst[n],
// eight at a time, writing up to 7 bytes beyond; dst must have room.
func copyMatch(dst []byte, n, back, length int) {
	end := n + length
	if back < 8 {
		// Repeat the back bytes until the pattern is p >= 8 bytes long,
		// a whole number of repetitions, then copy words from p back.
		p := back
		for p < 8 {
			p *= 2
		}
		for ; n < end && n < end-length+p-back; n++ {
			dst[n] = dst[n-back]
		}
		back = p
	}
	for ; n < end; n += 8 {
		binary.LittleEndian.PutUint64(dst[n:], binary.LittleEndian.Uint64(dst[n-back:]))
	}
}
