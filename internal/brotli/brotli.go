// Package brotli is a Brotli decoder (RFC 7932) for streams whose
// decompressed size is known in advance, as in .usmap mapping files.
//
// upkg used github.com/andybalholm/brotli, whose package also holds an HTTP
// compression handler: importing it links net/http, crypto/tls and
// crypto/x509 into every program, about 1.6 MB of the page's WebAssembly.
// This decoder needs only the standard library. It decodes into a
// caller-sized buffer, so nothing is allocated from sizes the stream
// declares; back-references reach into that buffer.
//
// The static dictionary (dictionary.bin, RFC 7932 Appendix A) and the
// context lookup tables (context.bin, section 7.1) are data from the RFC.
package brotli

import (
	_ "embed"
	"fmt"
)

//go:embed dictionary.bin
var dictionary string

// contextLUT holds, for the context modes LSB6, MSB6, UTF8 and Signed in
// that order, 256 bytes indexed by the last byte and 256 by the one before;
// a literal's context is their OR (RFC 7932 section 7.1).
//
//go:embed context.bin
var contextLUT string

// Error reports corrupt or unsupported input and the byte offset in the
// compressed stream where it was detected.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("brotli: %s (at compressed byte %d)", e.Msg, e.Offset)
}

type transform struct {
	prefix string
	kind   uint8
	suffix string
}

// Dictionary word lengths 4..24: bits of the word index, and the offset of
// each length's words.
var (
	dictBits   = [25]uint8{0, 0, 0, 0, 10, 10, 11, 11, 10, 10, 10, 10, 10, 9, 9, 8, 7, 7, 8, 7, 7, 6, 6, 5, 5}
	dictOffset [26]int
)

func init() {
	for n := 4; n <= 24; n++ {
		dictOffset[n+1] = dictOffset[n] + n<<dictBits[n]
	}
}

// Block count, insert length and copy length codes: base values and extra
// bits (RFC 7932 sections 6 and 5).
var (
	blockBase  = [26]uint32{1, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 145, 177, 209, 241, 305, 369, 497, 753, 1265, 2289, 4337, 8433, 16625}
	blockExtra = [26]uint8{2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13, 24}
	insBase    = [24]uint32{0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 18, 26, 34, 50, 66, 98, 130, 194, 322, 578, 1090, 2114, 6210, 22594}
	insExtra   = [24]uint8{0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 12, 14, 24}
	copyBase   = [24]uint32{2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 18, 22, 30, 38, 54, 70, 102, 134, 198, 326, 582, 1094, 2118}
	copyExtra  = [24]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 24}
	// The insert-and-copy alphabet in cells of 64: the first insert and
	// copy length codes of each cell.
	cellIns  = [11]uint8{0, 0, 0, 0, 8, 8, 0, 16, 8, 16, 16}
	cellCopy = [11]uint8{0, 8, 0, 8, 0, 8, 16, 0, 16, 8, 16}
)

// Decode decompresses the Brotli stream src into dst and returns the number
// of bytes written; a stream that produces more than len(dst) bytes is an
// error. Bytes after the end of the stream are an error too.
func Decode(dst, src []byte) (int, error) {
	d := decoder{br: bitReader{src: src}, dst: dst}
	err := d.stream()
	if err == nil && d.br.pos < len(src) {
		err = d.br.errf("%d bytes after the end of the stream", len(src)-d.br.pos)
	}
	return d.out, err
}

type decoder struct {
	br    bitReader
	dst   []byte
	out   int
	win   int // window size
	dist  [4]int
	dists int // distances pushed (for the ring buffer index)
}

func (d *decoder) stream() error {
	br := &d.br
	wbits := 16
	if br.bits(1) == 1 {
		if n := br.bits(3); n != 0 {
			wbits = 17 + int(n)
		} else if n := br.bits(3); n == 1 {
			return br.errf("large-window Brotli is not supported")
		} else if n != 0 {
			wbits = 8 + int(n)
		} else {
			wbits = 17
		}
	}
	d.win = 1<<wbits - 16
	d.dist = [4]int{4, 11, 15, 16} // last, second last, ...
	for {
		last, err := d.metaBlock()
		if err != nil {
			return err
		}
		if br.err != nil {
			return br.err
		}
		if last {
			// The rest of the last byte must be zero padding.
			if br.n > 0 && br.bits(br.n) != 0 {
				return br.errf("nonzero padding after the last meta-block")
			}
			return br.err
		}
	}
}

// metaBlock decodes one meta-block; it reports whether it was the last.
func (d *decoder) metaBlock() (bool, error) {
	br := &d.br
	isLast := br.bits(1) == 1
	if isLast && br.bits(1) == 1 {
		return true, br.err // ISLASTEMPTY
	}
	nibbles := [4]int{4, 5, 6, 0}[br.bits(2)]
	if nibbles == 0 {
		// Metadata: skipped.
		if br.bits(1) != 0 {
			return false, br.errf("reserved bit set in a metadata block")
		}
		nb := int(br.bits(2))
		skip := 0
		for i := range nb {
			b := int(br.bits(8))
			if i == nb-1 && nb > 1 && b == 0 {
				return false, br.errf("metadata length with a zero high byte")
			}
			skip |= b << (8 * i)
		}
		if nb > 0 {
			skip++
		}
		if err := br.align(); err != nil {
			return false, err
		}
		if skip > len(br.src)-br.pos {
			return false, br.errf("truncated metadata block")
		}
		br.pos += skip
		return isLast, br.err
	}
	mlen := 0
	for i := range nibbles {
		v := int(br.bits(4))
		if i == nibbles-1 && nibbles > 4 && v == 0 {
			return false, br.errf("meta-block length with a zero high nibble")
		}
		mlen |= v << (4 * i)
	}
	mlen++
	if br.err != nil {
		return false, br.err
	}
	if mlen > len(d.dst)-d.out {
		return false, br.errf("output exceeds the %d bytes expected", len(d.dst))
	}
	if !isLast && br.bits(1) == 1 {
		// Uncompressed.
		if err := br.align(); err != nil {
			return false, err
		}
		if mlen > len(br.src)-br.pos {
			return false, br.errf("truncated uncompressed meta-block")
		}
		d.out += copy(d.dst[d.out:], br.src[br.pos:br.pos+mlen])
		br.pos += mlen
		return false, nil
	}
	return isLast, d.compressed(mlen)
}

// blockSwitch tracks the block types and counts of one category.
type blockSwitch struct {
	n           int // number of block types
	types       prefixCode
	counts      prefixCode
	typ, prev   int
	left        int // symbols left in the current block
	initialized bool
}

func (d *decoder) readBlockSwitch(b *blockSwitch) error {
	br := &d.br
	*b = blockSwitch{n: br.varLen(), prev: 1, left: 1 << 28}
	if b.n < 2 {
		return br.err
	}
	if err := d.readPrefixCode(&b.types, b.n+2); err != nil {
		return err
	}
	if err := d.readPrefixCode(&b.counts, 26); err != nil {
		return err
	}
	b.left = d.blockCount(&b.counts)
	return br.err
}

func (d *decoder) blockCount(c *prefixCode) int {
	s := c.decode(&d.br)
	if s >= 26 {
		return 0
	}
	return int(blockBase[s]) + int(d.br.bits(uint(blockExtra[s])))
}

// next consumes one symbol of the category, switching block first when the
// current one is used up.
func (d *decoder) next(b *blockSwitch) {
	if b.left == 0 {
		s := b.types.decode(&d.br)
		t := 0
		switch s {
		case 0:
			t = b.prev
		case 1:
			t = (b.typ + 1) % b.n
		default:
			t = s - 2
		}
		if t >= b.n {
			t = b.n - 1 // only on corrupt input, which the bit reader reports
		}
		b.prev, b.typ = b.typ, t
		b.left = d.blockCount(&b.counts)
	}
	b.left--
}

func (d *decoder) compressed(mlen int) error {
	br := &d.br
	var bs [3]blockSwitch // literals, insert-and-copy, distances
	for i := range bs {
		if err := d.readBlockSwitch(&bs[i]); err != nil {
			return err
		}
	}
	npostfix := uint(br.bits(2))
	ndirect := int(br.bits(4)) << npostfix
	modes := make([]uint8, bs[0].n)
	for i := range modes {
		modes[i] = uint8(br.bits(2))
	}
	litMap, nLit, err := d.contextMap(64 * bs[0].n)
	if err != nil {
		return err
	}
	distMap, nDist, err := d.contextMap(4 * bs[2].n)
	if err != nil {
		return err
	}
	litCodes := make([]prefixCode, nLit)
	for i := range litCodes {
		if err := d.readPrefixCode(&litCodes[i], 256); err != nil {
			return err
		}
	}
	cmdCodes := make([]prefixCode, bs[1].n)
	for i := range cmdCodes {
		if err := d.readPrefixCode(&cmdCodes[i], 704); err != nil {
			return err
		}
	}
	distAlphabet := 16 + ndirect + 48<<npostfix
	distCodes := make([]prefixCode, nDist)
	for i := range distCodes {
		if err := d.readPrefixCode(&distCodes[i], distAlphabet); err != nil {
			return err
		}
	}
	if br.err != nil {
		return br.err
	}
	end := d.out + mlen
	for d.out < end {
		if br.err != nil {
			return br.err
		}
		d.next(&bs[1])
		cmd := cmdCodes[bs[1].typ].decode(br)
		if cmd >= 704 {
			return br.errf("corrupt insert-and-copy code")
		}
		cell := cmd >> 6
		ic := int(cellIns[cell]) + (cmd>>3)&7
		cc := int(cellCopy[cell]) + cmd&7
		insLen := int(insBase[ic]) + int(br.bits(uint(insExtra[ic])))
		copyLen := int(copyBase[cc]) + int(br.bits(uint(copyExtra[cc])))
		if insLen > end-d.out {
			return br.errf("%d literals overrun the meta-block", insLen)
		}
		for range insLen {
			d.next(&bs[0])
			var p1, p2 byte
			if d.out > 0 {
				p1 = d.dst[d.out-1]
			}
			if d.out > 1 {
				p2 = d.dst[d.out-2]
			}
			lut := contextLUT[int(modes[bs[0].typ])*512:]
			ctx := lut[p1] | lut[256+int(p2)]
			c := litCodes[litMap[64*bs[0].typ+int(ctx)]].decode(br)
			d.dst[d.out] = byte(c)
			d.out++
		}
		if d.out >= end {
			break
		}
		dcode := 0
		if cmd >= 128 {
			d.next(&bs[2])
			cid := min(copyLen, 5) - 2
			dcode = distCodes[distMap[4*bs[2].typ+cid]].decode(br)
			if dcode >= distAlphabet {
				return br.errf("corrupt distance code")
			}
		}
		dist, err := d.distance(dcode, npostfix, ndirect)
		if err != nil {
			return err
		}
		maxDist := min(d.out, d.win)
		if dist > maxDist {
			if err := d.dictWord(dist-maxDist-1, copyLen, end); err != nil {
				return err
			}
			continue
		}
		if dcode != 0 {
			d.dist = [4]int{dist, d.dist[0], d.dist[1], d.dist[2]}
		}
		if copyLen > end-d.out {
			return br.errf("copy of %d bytes overruns the meta-block", copyLen)
		}
		src := d.out - dist
		for i := range copyLen {
			d.dst[d.out+i] = d.dst[src+i]
		}
		d.out += copyLen
	}
	return br.err
}

// distance resolves a distance code (RFC 7932 section 4).
func (d *decoder) distance(code int, npostfix uint, ndirect int) (int, error) {
	var dist int
	switch {
	case code < 16:
		base := d.dist[[16]uint8{0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}[code]]
		dist = base + int([16]int8{0, 0, 0, 0, -1, 1, -2, 2, -3, 3, -1, 1, -2, 2, -3, 3}[code])
	case code < 16+ndirect:
		dist = code - 15
	default:
		c := code - ndirect - 16
		nbits := 1 + uint(c>>(npostfix+1))
		hcode := c >> npostfix
		lcode := c & (1<<npostfix - 1)
		offset := (2+hcode&1)<<nbits - 4
		dist = (offset+int(d.br.bits(nbits)))<<npostfix + lcode + ndirect + 1
	}
	if dist <= 0 {
		return 0, d.br.errf("invalid distance %d", dist)
	}
	return dist, nil
}

// dictWord writes the transformed static dictionary word for a reference
// past the window.
func (d *decoder) dictWord(id, n, end int) error {
	if n < 4 || n > 24 {
		return d.br.errf("dictionary reference with length %d", n)
	}
	nb := dictBits[n]
	idx := id & (1<<nb - 1)
	t := id >> nb
	if t >= len(transforms) {
		return d.br.errf("dictionary reference with transform %d", t)
	}
	word := dictionary[dictOffset[n]+idx*n : dictOffset[n]+(idx+1)*n]
	tr := &transforms[t]
	var buf [64]byte
	w := append(buf[:0], tr.prefix...)
	start := len(w)
	switch k := tr.kind; {
	case k >= 1 && k <= 9:
		w = append(w, word[:max(0, n-int(k))]...)
	case k >= 12 && k <= 20:
		w = append(w, word[min(n, int(k)-11):]...)
	default:
		w = append(w, word...)
	}
	switch tr.kind {
	case 10:
		if start < len(w) {
			upper(w[start:])
		}
	case 11:
		for i := start; i < len(w); {
			i += upper(w[i:])
		}
	}
	w = append(w, tr.suffix...)
	if len(w) > end-d.out {
		return d.br.errf("dictionary word overruns the meta-block")
	}
	d.out += copy(d.dst[d.out:], w)
	return nil
}

// upper applies the RFC's uppercasing to the character starting w and
// returns its length in bytes.
func upper(w []byte) int {
	switch {
	case w[0] < 0xC0:
		if w[0] >= 'a' && w[0] <= 'z' {
			w[0] ^= 32
		}
		return 1
	case w[0] < 0xE0:
		if len(w) > 1 {
			w[1] ^= 32
		}
		return min(2, len(w))
	default:
		if len(w) > 2 {
			w[2] ^= 5
		}
		return min(3, len(w))
	}
}

// contextMap reads a context map of n entries (RFC 7932 section 7.3) and
// returns it with the number of prefix codes it refers to.
func (d *decoder) contextMap(n int) ([]uint8, int, error) {
	br := &d.br
	m := make([]uint8, n)
	trees := br.varLen()
	if trees < 2 {
		return m, 1, br.err
	}
	rle := 0
	if br.bits(1) == 1 {
		rle = int(br.bits(4)) + 1
	}
	var code prefixCode
	if err := d.readPrefixCode(&code, trees+rle); err != nil {
		return nil, 0, err
	}
	for i := 0; i < n; {
		if br.err != nil {
			return nil, 0, br.err
		}
		s := code.decode(br)
		switch {
		case s == 0:
			m[i] = 0
			i++
		case s <= rle:
			run := 1<<s + int(br.bits(uint(s)))
			if run > n-i {
				return nil, 0, br.errf("context map run overflows the map")
			}
			i += run // already zero
		default:
			v := s - rle
			if v >= trees {
				return nil, 0, br.errf("context map entry %d out of range", v)
			}
			m[i] = uint8(v)
			i++
		}
	}
	if br.bits(1) == 1 {
		// Inverse move-to-front.
		var mtf [256]uint8
		for i := range mtf {
			mtf[i] = uint8(i)
		}
		for i, v := range m {
			x := mtf[v]
			m[i] = x
			copy(mtf[1:int(v)+1], mtf[:v])
			mtf[0] = x
		}
	}
	return m, trees, br.err
}
