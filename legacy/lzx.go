package legacy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/upkg/upkg/compression"
)

// Xbox 360 packages compress their blocks with LZX through XMemCompress:
// the block is a run of frames, each prefixed by its compressed size (two
// bytes big-endian, or 0xFF, two bytes of uncompressed size and two of
// compressed size), whose payloads form one LZX bitstream with a 128 KiB
// window. The decoder below implements the LZX format as Microsoft
// documents it for cabinet files: 16-bit little-endian words read MSB
// first, verbatim, aligned-offset and uncompressed blocks, code lengths
// sent as deltas through a pre-tree, three repeated offsets, 32 KiB output
// frames with the bitstream realigned after each, and the optional E8
// call-address translation. It is registered as "LZX".

func init() {
	compression.Register("LZX", decompressXMemLZX)
}

var (
	errLZX = errors.New("lzx: corrupt input")
	// errLZXCode is built once so that sym stays small enough to inline.
	errLZXCode = fmt.Errorf("%w: invalid Huffman code", errLZX)
)

const (
	lzxWindowBits    = 17 // XMemCompress default for UE3 packages
	lzxFrameSize     = 32768
	lzxNumChars      = 256
	lzxPretreeSize   = 20
	lzxAlignedSize   = 8
	lzxLengthSize    = 249
	lzxMinMatch      = 2
	lzxPrimaryLength = 7
	lzxBlockVerbatim = 1
	lzxBlockAligned  = 2
	lzxBlockStored   = 3
	lzxTableBits     = 16 // codes are at most 16 bits long
	lzxLenSlack      = 64 // runs may overshoot the table end by this much
)

var lzxExtraBits, lzxPositionBase [51]uint32

func init() {
	j := uint32(0)
	for i := 0; i < 51; i += 2 {
		lzxExtraBits[i] = j
		if i+1 < 51 {
			lzxExtraBits[i+1] = j
		}
		if i != 0 && j < 17 {
			j++
		}
	}
	j = 0
	for i := range lzxPositionBase {
		lzxPositionBase[i] = j
		j += 1 << lzxExtraBits[i]
	}
}

// lzxBits reads the LZX bitstream.
type lzxBits struct {
	src  []byte
	pos  int    // next byte of src to load
	buf  uint64 // bits, most significant first
	n    uint   // valid bits in buf
	over int    // 16-bit words read past the end (padded with zeros)
}

func (b *lzxBits) fill() {
	if b.n <= 16 && b.pos >= 0 && b.pos+6 <= len(b.src) {
		// Three words at once.
		s := b.src[b.pos : b.pos+6]
		w := uint64(s[0]) | uint64(s[1])<<8
		w = w<<16 | uint64(s[2]) | uint64(s[3])<<8
		w = w<<16 | uint64(s[4]) | uint64(s[5])<<8
		b.buf |= w << (16 - b.n)
		b.n += 48
		b.pos += 6
	}
	for b.n <= 48 {
		var w uint64
		if b.pos+1 < len(b.src) {
			w = uint64(b.src[b.pos]) | uint64(b.src[b.pos+1])<<8
			b.pos += 2
		} else {
			b.over++
			b.pos += 2
		}
		b.buf |= w << (48 - b.n)
		b.n += 16
	}
}

func (b *lzxBits) peek(n uint) uint32 {
	if b.n < n {
		b.fill()
	}
	return uint32(b.buf >> (64 - n))
}

func (b *lzxBits) drop(n uint) {
	b.buf <<= n
	b.n -= n
}

func (b *lzxBits) bits(n uint) uint32 {
	if n == 0 {
		return 0
	}
	v := b.peek(n)
	b.drop(n)
	return v
}

// pastEnd reports whether decoding consumed bits beyond the input (the
// zero padding fill adds is only lookahead).
func (b *lzxBits) pastEnd() bool {
	return int64(b.pos)*8-int64(b.n) > int64(len(b.src))*8+16
}

// align discards the bits left in the current 16-bit word.
func (b *lzxBits) align() { b.drop(b.n % 16) }

// unread gives back the whole words still buffered, so that byte reads
// continue where the bitstream stands.
func (b *lzxBits) unread() {
	b.pos -= int(b.n / 8)
	b.buf, b.n = 0, 0
}

// lzxTable is a canonical Huffman decoding table in two levels. The
// first 1<<lzxRootBits entries are indexed by the next lzxRootBits bits:
// a code of at most that length gives its symbol in the low 12 bits and
// its length above; a longer code's prefix gives lzxLink, the sub-table's
// start in the low 24 bits. A sub-table has 1<<(lzxTableBits-lzxRootBits)
// entries, indexed by the bits after the prefix. Entries of unused codes
// are 0.
type lzxTable []uint32

const (
	lzxRootBits = 10
	lzxSubBits  = lzxTableBits - lzxRootBits
	lzxLink     = 1 << 31
)

// buildLZXTable fills t (reusing its storage) for the code lengths lens
// (0 = unused; lengths above lzxTableBits are ignored).
func buildLZXTable(t lzxTable, lens []uint8) (lzxTable, error) {
	var count [lzxTableBits + 1]uint32
	for _, l := range lens {
		if l <= lzxTableBits {
			count[l]++
		}
	}
	// next[l] is the first code of length l; codes of one length go to
	// the symbols in order.
	var next [lzxTableBits + 1]uint32
	code := uint32(0)
	for l := 1; l <= lzxTableBits; l++ {
		if code+count[l] > 1<<l {
			return t, fmt.Errorf("%w: over-subscribed Huffman code", errLZX)
		}
		next[l] = code
		code = (code + count[l]) << 1
	}
	if cap(t) < 1<<lzxRootBits {
		t = make(lzxTable, 1<<lzxRootBits, 1<<lzxRootBits+8<<lzxSubBits)
	}
	t = t[:1<<lzxRootBits]
	clear(t)
	for sym, sl := range lens {
		l := uint32(sl)
		if l == 0 || l > lzxTableBits {
			continue
		}
		c := next[l]
		next[l]++
		v := l<<12 | uint32(sym)
		if l <= lzxRootBits {
			start := c << (lzxRootBits - l)
			fill := t[start : start+1<<(lzxRootBits-l)]
			for k := range fill {
				fill[k] = v
			}
			continue
		}
		prefix := c >> (l - lzxRootBits)
		if t[prefix]&lzxLink == 0 {
			off := len(t)
			t = append(t, make([]uint32, 1<<lzxSubBits)...)
			t[prefix] = lzxLink | uint32(off)
		}
		sub := t[t[prefix]&0xFFFFFF:]
		start := (c << (lzxTableBits - l)) & (1<<lzxSubBits - 1)
		fill := sub[start : start+1<<(lzxTableBits-l)]
		for k := range fill {
			fill[k] = v
		}
	}
	return t, nil
}

func (b *lzxBits) sym(t lzxTable) (int, error) {
	if b.n < lzxTableBits {
		b.fill()
	}
	v := uint32(b.buf >> (64 - lzxTableBits))
	e := t[v>>lzxSubBits]
	if e&lzxLink != 0 {
		e = t[e&0xFFFFFF+v&(1<<lzxSubBits-1)]
	}
	l := uint(e >> 12)
	if l == 0 {
		return 0, errLZXCode
	}
	b.drop(l)
	return int(e & 0xFFF), nil
}

type lzxDecoder struct {
	bits   lzxBits
	stream []byte // the block's payloads without frame headers
	// window is the sliding window: win (kept between blocks), or the
	// output itself when it is decoded in place.
	window, win            []byte
	wpos                   int
	r0, r1, r2             uint32
	mainLens, lengthLens   []uint8
	mainTable, lengthTable lzxTable
	alignedTable, preTable lzxTable
	blockType              int
	blockRemaining         int
	intelStarted           bool
	intelSize              int32
	slots                  int
}

// readLens reads code lengths [first, last) of lens as deltas through a
// freshly sent pre-tree.
func (d *lzxDecoder) readLens(lens []uint8, first, last int) error {
	var pre [lzxPretreeSize]uint8
	for i := range pre {
		pre[i] = uint8(d.bits.bits(4))
	}
	var err error
	if d.preTable, err = buildLZXTable(d.preTable, pre[:]); err != nil {
		return err
	}
	delta := func(x, z int) uint8 {
		v := int(lens[x]) - z
		if v < 0 {
			v += 17
		}
		return uint8(v)
	}
	for x := first; x < last; {
		z, err := d.bits.sym(d.preTable)
		if err != nil {
			return err
		}
		switch z {
		case 17, 18:
			var n int
			if z == 17 {
				n = int(d.bits.bits(4)) + 4
			} else {
				n = int(d.bits.bits(5)) + 20
			}
			if x+n > len(lens) {
				return fmt.Errorf("%w: code length run past the table", errLZX)
			}
			for ; n > 0; n-- {
				lens[x] = 0
				x++
			}
		case 19:
			n := int(d.bits.bits(1)) + 4
			z2, err := d.bits.sym(d.preTable)
			if err != nil {
				return err
			}
			if x+n > len(lens) || z2 > 16 {
				return fmt.Errorf("%w: code length run past the table", errLZX)
			}
			v := delta(x, z2)
			for ; n > 0; n-- {
				lens[x] = v
				x++
			}
		default:
			if z > 16 {
				return fmt.Errorf("%w: pre-tree symbol %d", errLZX, z)
			}
			lens[x] = delta(x, z)
			x++
		}
	}
	return nil
}

func (d *lzxDecoder) readBlockHeader() error {
	d.blockType = int(d.bits.bits(3))
	hi := d.bits.bits(16)
	lo := d.bits.bits(8)
	d.blockRemaining = int(hi<<8 | lo)
	var err error
	switch d.blockType {
	case lzxBlockAligned:
		var al [lzxAlignedSize]uint8
		for i := range al {
			al[i] = uint8(d.bits.bits(3))
		}
		if d.alignedTable, err = buildLZXTable(d.alignedTable, al[:]); err != nil {
			return err
		}
		fallthrough
	case lzxBlockVerbatim:
		mainSize := lzxNumChars + d.slots*8
		if err := d.readLens(d.mainLens, 0, lzxNumChars); err != nil {
			return err
		}
		if err := d.readLens(d.mainLens, lzxNumChars, mainSize); err != nil {
			return err
		}
		if d.mainTable, err = buildLZXTable(d.mainTable, d.mainLens[:mainSize]); err != nil {
			return err
		}
		if d.mainLens[0xE8] != 0 {
			d.intelStarted = true
		}
		if err := d.readLens(d.lengthLens, 0, lzxLengthSize); err != nil {
			return err
		}
		if d.lengthTable, err = buildLZXTable(d.lengthTable, d.lengthLens[:lzxLengthSize]); err != nil {
			return err
		}
	case lzxBlockStored:
		d.intelStarted = true
		// 1 to 16 bits of padding up to the next 16-bit boundary.
		pad := d.bits.n % 16
		if pad == 0 {
			pad = 16
		}
		d.bits.peek(pad)
		d.bits.drop(pad)
		d.bits.unread()
		if d.bits.pos+12 > len(d.bits.src) {
			return fmt.Errorf("%w: stored block header past the input", errLZX)
		}
		s := d.bits.src[d.bits.pos:]
		d.r0, d.r1, d.r2 = binary.LittleEndian.Uint32(s), binary.LittleEndian.Uint32(s[4:]), binary.LittleEndian.Uint32(s[8:])
		d.bits.pos += 12
	default:
		return fmt.Errorf("%w: block type %d", errLZX, d.blockType)
	}
	return nil
}

// decodeRun decodes n bytes of the current block into the window; direct
// says the window is the output, which has nothing before its start.
func (d *lzxDecoder) decodeRun(n int, direct bool) (int, error) {
	if d.blockType == lzxBlockStored {
		if d.bits.pos < 0 || n > len(d.bits.src)-d.bits.pos {
			return 0, fmt.Errorf("%w: stored block past the input", errLZX)
		}
		copy(d.window[d.wpos:d.wpos+n], d.bits.src[d.bits.pos:])
		d.bits.pos += n
		d.wpos += n
		return n, nil
	}
	// The window position, the repeated offsets and the bit buffer live
	// in locals (registers) and go back to d on every return; refill
	// hands the buffer to fill when fewer bits remain than a read needs.
	// The loop runs to a window position rather than counting bytes, and
	// the main table's first level is an array (no bounds check per
	// lookup): fewer live values, so the literal path keeps them in
	// registers.
	if len(d.mainTable) < 1<<lzxRootBits {
		return 0, errLZXCode
	}
	win, wpos := d.window, d.wpos
	start, end := wpos, wpos+n
	bs := &d.bits
	buf, nb := bs.buf, bs.n
	r0, r1, r2 := d.r0, d.r1, d.r2
	main, lengths, aligned := d.mainTable, d.lengthTable, d.alignedTable
	mainRoot := (*[1 << lzxRootBits]uint32)(main)
	isAligned := d.blockType == lzxBlockAligned
	var err error
loop:
	for wpos < end {
		if nb < lzxTableBits {
			buf, nb = bs.refill(buf, nb)
		}
		v := uint32(buf >> (64 - lzxTableBits))
		e := mainRoot[v>>lzxSubBits]
		if e&lzxLink != 0 {
			e = main[e&0xFFFFFF+v&(1<<lzxSubBits-1)]
		}
		l := uint(e>>12) & 31
		if l == 0 {
			err = errLZXCode
			break loop
		}
		buf <<= l
		nb -= l
		el := int(e & 0xFFF)
		if el < lzxNumChars {
			if uint(wpos) >= uint(len(win)) {
				err = fmt.Errorf("%w: literal past the window", errLZX)
				break loop
			}
			win[wpos] = byte(el)
			wpos++
			continue
		}
		el -= lzxNumChars
		length := el & lzxPrimaryLength
		if length == lzxPrimaryLength {
			if nb < lzxTableBits {
				buf, nb = bs.refill(buf, nb)
			}
			foot, l := lzxSym(lengths, buf)
			if l == 0 {
				err = errLZXCode
				break loop
			}
			buf <<= l & 63
			nb -= l
			length += foot
		}
		length += lzxMinMatch
		slot := el >> 3
		var off uint32
		switch {
		case slot == 0:
			off = r0
		case slot == 1:
			off = r1
			r1 = r0
			r0 = off
		case slot == 2:
			off = r2
			r2 = r0
			r0 = off
		default:
			extra := uint(lzxExtraBits[slot]) & 31
			off = lzxPositionBase[slot] - 2
			if isAligned && extra >= 3 {
				if extra > 3 {
					if nb < extra-3 {
						buf, nb = bs.refill(buf, nb)
					}
					off += uint32(buf>>((64-(extra-3))&63)) << 3
					buf <<= extra - 3
					nb -= extra - 3
				}
				if nb < lzxTableBits {
					buf, nb = bs.refill(buf, nb)
				}
				a, l := lzxSym(aligned, buf)
				if l == 0 {
					err = errLZXCode
					break loop
				}
				buf <<= l & 63
				nb -= l
				off += uint32(a)
			} else if isAligned && extra == 0 || !isAligned && slot == 3 {
				off = 1
			} else {
				if nb < extra {
					buf, nb = bs.refill(buf, nb)
				}
				off += uint32(buf >> ((64 - extra) & 63))
				buf <<= extra
				nb -= extra
			}
			r2, r1, r0 = r1, r0, off
		}
		ws := len(win)
		if wpos+length > ws || off == 0 || int(off) > ws {
			err = fmt.Errorf("%w: match of %d at distance %d", errLZX, length, off)
			break loop
		}
		src := wpos - int(off)
		if src >= 0 {
			if direct && off >= 8 && wpos+length+8 <= ws {
				// Eight bytes at a time, past the match's end: in
				// the output, those bytes are still to be decoded.
				for k := 0; k < length; k += 8 {
					binary.LittleEndian.PutUint64(win[wpos+k:], binary.LittleEndian.Uint64(win[src+k:]))
				}
			} else {
				lzxCopy(win, wpos, src, length)
			}
			wpos += length
		} else {
			if direct {
				err = fmt.Errorf("%w: match at distance %d before the start of the block", errLZX, off)
				break loop
			}
			// The match starts in the older data at the window's end.
			src += ws
			for k := 0; k < length; k++ {
				win[wpos] = win[src]
				wpos++
				src++
				if src == ws {
					src = 0
				}
			}
		}
	}
	d.wpos = wpos
	bs.buf, bs.n = buf, nb
	d.r0, d.r1, d.r2 = r0, r1, r2
	return wpos - start, err
}

// lzxSym looks up the next code of buf (at least lzxTableBits valid
// bits) in t: its symbol and length, 0 for an unused code.
func lzxSym(t lzxTable, buf uint64) (int, uint) {
	v := uint32(buf >> (64 - lzxTableBits))
	e := t[v>>lzxSubBits]
	if e&lzxLink != 0 {
		e = t[e&0xFFFFFF+v&(1<<lzxSubBits-1)]
	}
	return int(e & 0xFFF), uint(e >> 12)
}

// refill stores the bit buffer of a decoding loop, fills it and returns
// it.
func (b *lzxBits) refill(buf uint64, n uint) (uint64, uint) {
	b.buf, b.n = buf, n
	b.fill()
	return b.buf, b.n
}

// lzxCopy copies a match of length bytes from win[src:] to win[dst:]
// (src < dst, dst+length <= len(win)) front to back, as a byte loop
// would: a match closer than its length repeats its start. Eight bytes
// at a time when the distance allows, without writing past the match.
func lzxCopy(win []byte, dst, src, length int) {
	off := dst - src
	switch {
	case off >= length && length > 32:
		copy(win[dst:dst+length], win[src:src+length])
	case off >= 8:
		k := 0
		for ; k+8 <= length; k += 8 {
			binary.LittleEndian.PutUint64(win[dst+k:], binary.LittleEndian.Uint64(win[src+k:]))
		}
		for ; k < length; k++ {
			win[dst+k] = win[src+k]
		}
	default:
		// A distance below 8 repeats a short pattern: its first eight
		// bytes one by one, then words from a whole number of patterns
		// back (at least 8 bytes, at most off+7, so inside the match's
		// source or the bytes already written).
		m := win[src : src+length+off]
		k := off
		for ; k < len(m) && k < off+8; k++ {
			m[k] = m[k-off]
		}
		d := off
		for d < 8 {
			d += off
		}
		for ; k+8 <= len(m); k += 8 {
			binary.LittleEndian.PutUint64(m[k:], binary.LittleEndian.Uint64(m[k-d:]))
		}
		for ; k < len(m); k++ {
			m[k] = m[k-off]
		}
	}
}

// lzxPool keeps decoders (window, tables and stream buffer) between
// blocks.
var lzxPool = sync.Pool{New: func() any {
	return &lzxDecoder{
		mainLens:   make([]uint8, lzxNumChars+50*8+lzxLenSlack),
		lengthLens: make([]uint8, lzxLengthSize+lzxLenSlack),
	}
}}

// reset prepares a pooled decoder for a new stream.
func (d *lzxDecoder) reset(stream []byte) {
	d.bits = lzxBits{src: stream}
	d.window = nil
	d.wpos = 0
	d.r0, d.r1, d.r2 = 1, 1, 1
	clear(d.mainLens)
	clear(d.lengthLens)
	d.blockType, d.blockRemaining = 0, 0
	d.intelStarted = false
	d.intelSize = 0
	d.slots = 34 // position slots of a 2^17 window
}

// decompressXMemLZX expands one XMemCompress block into dst.
func decompressXMemLZX(dst, src []byte) error {
	d := lzxPool.Get().(*lzxDecoder)
	defer lzxPool.Put(d)
	// Strip the frame headers; the payloads are one bitstream.
	stream := d.stream[:0]
	for p := 0; p < len(src); {
		var n int
		if src[p] == 0xFF {
			if p+5 > len(src) {
				return fmt.Errorf("%w: truncated frame header", errLZX)
			}
			n = int(src[p+3])<<8 | int(src[p+4])
			p += 5
		} else {
			if p+2 > len(src) {
				return fmt.Errorf("%w: truncated frame header", errLZX)
			}
			n = int(src[p])<<8 | int(src[p+1])
			p += 2
		}
		if n == 0 {
			break
		}
		n = min(n, len(src)-p)
		stream = append(stream, src[p:p+n]...)
		p += n
	}
	d.stream = stream
	d.reset(stream)
	if len(dst) == 0 {
		return nil
	}
	if d.bits.bits(1) == 1 {
		d.intelSize = int32(d.bits.bits(16)<<16 | d.bits.bits(16))
	}
	// Without E8 translation a block that fits the window is decoded
	// straight into dst: the window is dst. Matches reaching before the
	// start of the block are then refused (a fresh window would supply
	// zeros; XMemCompress never refers to them).
	direct := d.intelSize == 0 && len(dst) <= 1<<lzxWindowBits
	if direct {
		d.window = dst
	} else {
		if d.win == nil {
			d.win = make([]byte, 1<<lzxWindowBits)
		}
		clear(d.win)
		d.window = d.win
	}
	defer func() { d.window = nil }()
	out := 0
	for out < len(dst) {
		frame := min(lzxFrameSize, len(dst)-out)
		frameStart := d.wpos
		for todo := frame; todo > 0; {
			if d.blockRemaining == 0 {
				if err := d.readBlockHeader(); err != nil {
					return err
				}
			}
			run := min(d.blockRemaining, todo)
			got, err := d.decodeRun(run, direct)
			if err != nil {
				return err
			}
			// A match may run past the requested length; it still belongs
			// to the block.
			if got > d.blockRemaining || got > todo+lzxFrameSize {
				return fmt.Errorf("%w: match overruns its block", errLZX)
			}
			d.blockRemaining -= got
			todo -= got
			if d.bits.pastEnd() {
				return fmt.Errorf("%w: input ends after %d of %d bytes", errLZX, out, len(dst))
			}
		}
		if d.wpos-frameStart != frame {
			return fmt.Errorf("%w: frame of %d bytes decoded to %d", errLZX, frame, d.wpos-frameStart)
		}
		if !direct {
			copy(dst[out:], d.window[frameStart:d.wpos])
			if d.intelSize != 0 && d.intelStarted {
				lzxE8(dst[out:out+frame], int32(out), d.intelSize)
			}
		}
		out += frame
		if d.wpos == len(d.window) {
			d.wpos = 0
		}
		if d.blockType != lzxBlockStored {
			d.bits.align()
		}
	}
	return nil
}

// lzxE8 undoes the E8 call translation on one output frame.
func lzxE8(b []byte, pos, size int32) {
	for i := 0; i+10 <= len(b); {
		if b[i] != 0xE8 {
			i++
			pos++
			continue
		}
		abs := int32(binary.LittleEndian.Uint32(b[i+1:]))
		if abs >= -pos && abs < size {
			rel := abs - pos
			if abs < 0 {
				rel = abs + size
			}
			binary.LittleEndian.PutUint32(b[i+1:], uint32(rel))
		}
		i += 5
		pos += 5
	}
}
