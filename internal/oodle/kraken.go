package oodle

import "encoding/binary"

// krakenTable is the output of a Kraken chunk's first phase: the literal and
// command bytes and the unpacked offsets and long lengths.
type krakenTable struct {
	lits []byte
	cmds []byte
	offs []int32
	lens []int32
}

// resize32 returns s with length n, reusing its memory when it is large
// enough (the contents are then stale).
func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// readDistance reads a classic Kraken offset whose code byte is v.
func readDistance(r *msbReader, v uint32) uint32 {
	d, n := distance(r.peek64(), v)
	r.pos += int(n)
	return d
}

// distance decodes a classic Kraken offset whose code byte is v from the
// next stream bits w (at least the top 57 valid, as peek64 gives them): a
// width of 4 to 18 bits, or for v >= 0xF0 4 to 19 bits and 12 more. It
// returns the offset and the number of bits it takes.
func distance(w uint64, v uint32) (uint32, uint) {
	if v < 0xF0 {
		n := uint(v>>4) + 4
		return ((1<<n|uint32(w>>(64-n)))<<4 + v&0xF) - 248, n
	}
	n := uint(v-0xF0) + 4
	hi := (1<<n | uint32(w>>(64-n))) << 12
	return 8322816 + hi + uint32(w<<n>>52), n + 12
}

// readLength reads a long length: a unary prefix of n zeros (n <= 12), then
// n+7 bits including the leading one, minus 64.
func readLength(r *msbReader) (uint32, bool) {
	n := r.clz()
	if n > 12 {
		return 0, false
	}
	r.pos += n
	return r.read(n+7) - 64, true
}

func (d *decoder) unpackOffsets(src []byte, packedOffs, extra []byte, scale int, packedLens []byte, t *krakenTable) error {
	a := msbReader{buf: src}
	b := msbReader{buf: src, back: true}
	if b.peek32() < 0x2000 {
		return corrupt("bad long-length count")
	}
	n := b.clz()
	b.pos += n
	numLong := int(b.read(n+1)) - 1
	t.offs = resize32(t.offs, len(packedOffs))
	// Offsets alternate between the two streams. While both have eight
	// bytes left to load, a pair is read from one 64-bit window each; the
	// rest goes through the readers.
	offs := t.offs
	i := 0
	if scale == 0 {
		aPos, bPos := a.pos, b.pos
		for ; i+1 < len(offs) && aPos>>3+8 <= len(src) && bPos>>3+8 <= len(src); i += 2 {
			w := binary.BigEndian.Uint64(src[aPos>>3:]) << uint(aPos&7)
			o, n := distance(w, uint32(packedOffs[i]))
			aPos += int(n)
			offs[i] = -int32(o)
			w = binary.LittleEndian.Uint64(src[len(src)-bPos>>3-8:]) << uint(bPos&7)
			o, n = distance(w, uint32(packedOffs[i+1]))
			bPos += int(n)
			offs[i+1] = -int32(o)
		}
		a.pos, b.pos = aPos, bPos
		for ; i < len(offs); i++ {
			r := &a
			if i&1 == 1 {
				r = &b
			}
			offs[i] = -int32(readDistance(r, uint32(packedOffs[i])))
		}
	} else {
		aPos, bPos := a.pos, b.pos
		for ; i+1 < len(offs) && aPos>>3+8 <= len(src) && bPos>>3+8 <= len(src); i += 2 {
			c := packedOffs[i]
			nb := uint(c >> 3)
			if nb > 26 {
				break // reported below
			}
			w := binary.BigEndian.Uint64(src[aPos>>3:]) << uint(aPos&7)
			offs[i] = 8 - int32(uint32(8+c&7)<<nb|uint32(w>>(64-nb)))
			aPos += int(nb)
			c = packedOffs[i+1]
			nb = uint(c >> 3)
			if nb > 26 {
				i++
				break
			}
			w = binary.LittleEndian.Uint64(src[len(src)-bPos>>3-8:]) << uint(bPos&7)
			offs[i+1] = 8 - int32(uint32(8+c&7)<<nb|uint32(w>>(64-nb)))
			bPos += int(nb)
		}
		a.pos, b.pos = aPos, bPos
		for ; i < len(offs); i++ {
			r := &a
			if i&1 == 1 {
				r = &b
			}
			c := packedOffs[i]
			nb := int(c >> 3)
			if nb > 26 {
				return corrupt("offset width above 26 bits")
			}
			o := uint32(8+c&7)<<uint(nb) | r.read(nb)
			offs[i] = 8 - int32(o)
		}
		if scale != 1 {
			for i := range t.offs {
				t.offs[i] = int32(scale)*t.offs[i] - int32(extra[i])
			}
		}
	}
	if numLong > 512 {
		return corrupt("too many long lengths")
	}
	long := d.long[:numLong]
	for i := range long {
		r := &a
		if i&1 == 1 {
			r = &b
		}
		v, ok := readLength(r)
		if !ok {
			return corrupt("bad long length")
		}
		long[i] = v
	}
	if a.bytesUsed()+b.bytesUsed() != len(src) {
		return corrupt("offset streams do not meet")
	}
	t.lens = resize32(t.lens, len(packedLens))
	li := 0
	for i, v := range packedLens {
		x := uint32(v)
		if x == 255 {
			if li >= len(long) {
				return corrupt("long lengths exhausted")
			}
			x = long[li] + 255
			li++
		}
		t.lens[i] = int32(x + 3)
	}
	if li != len(long) {
		return corrupt("long lengths left over")
	}
	return nil
}

// readKrakenTable runs phase one of a Kraken LZ chunk. dst is the chunk's
// output; first says the chunk starts the whole output (then its first 8
// bytes are stored raw).
func (d *decoder) readKrakenTable(src []byte, dst []byte, first bool) (*krakenTable, error) {
	if len(src) < 13 {
		return nil, corrupt("truncated LZ chunk")
	}
	p := 0
	if first {
		if len(dst) < 8 {
			return nil, corrupt("LZ chunk shorter than 8 bytes")
		}
		copy(dst, src[:8])
		p = 8
	}
	if src[p]&0x80 != 0 {
		return nil, corrupt("LZ chunk with excess-bytes flag (unsupported)")
	}
	t := &d.kt
	var err error
	var n int
	if t.lits, n, err = d.decodeBytes(src[p:], len(dst), 0); err != nil {
		return nil, err
	}
	p += n
	if t.cmds, n, err = d.decodeBytes(src[p:], len(dst), 0); err != nil {
		return nil, err
	}
	p += n
	if len(src)-p < 3 {
		return nil, corrupt("truncated LZ chunk")
	}
	scale := 0
	var packedOffs, extra []byte
	if src[p]&0x80 != 0 {
		scale = int(src[p]) - 127
		p++
		if packedOffs, n, err = d.decodeBytes(src[p:], len(t.cmds), 0); err != nil {
			return nil, err
		}
		p += n
		if scale != 1 {
			if extra, n, err = d.decodeBytes(src[p:], len(packedOffs), 0); err != nil {
				return nil, err
			}
			if len(extra) != len(packedOffs) {
				return nil, corrupt("offset low-bit array size mismatch")
			}
			p += n
		}
	} else {
		if packedOffs, n, err = d.decodeBytes(src[p:], len(t.cmds), 0); err != nil {
			return nil, err
		}
		p += n
	}
	packedLens, n, err := d.decodeBytes(src[p:], len(dst)>>2, 0)
	if err != nil {
		return nil, err
	}
	p += n
	if err := d.unpackOffsets(src[p:], packedOffs, extra, scale, packedLens, t); err != nil {
		return nil, err
	}
	return t, nil
}

// krakenRuns runs phase two: the copy loop. out is the whole output, the
// chunk spans out[start:end]. In mode 0 literals are added to the byte at
// the last offset ("delta literals"); in mode 1 they are plain.
//
// Most runs and matches are short. Where the chunk has room left, the
// literals of a command are written as one whole word (mode 0: eight bytes,
// mode 1: sixteen, whatever the run's length, even none) and a match at a
// distance of at least 16 as two 16-byte blocks, so that the common
// command takes no branch on its lengths. The bytes written past a run or
// match are rewritten by later runs and matches before anything reads
// them (reads only reach bytes before the write position, and every byte
// of the chunk is written).
func krakenRuns(t *krakenTable, mode int, out []byte, start, end int) error {
	dst := start
	if start == 0 {
		dst = 8
	}
	out = out[:end]
	lits, offs, lens := t.lits, t.offs, t.lens
	recent := [8]int32{4: -8, 5: -8, 6: -8}
	last := int32(-8)
	li, oi, ni := 0, 0, 0 // next literal, offset and length
	for _, f := range t.cmds {
		litlen := int(f & 3)
		matchlen := int(f>>2) & 0xF
		if litlen == 3 {
			if ni >= len(lens) {
				return corrupt("length stream exhausted")
			}
			litlen = int(lens[ni])
			ni++
		}
		if litlen > len(lits)-li || litlen > len(out)-dst {
			return corrupt("literal run past its chunk")
		}
		if mode == 0 {
			from := dst + int(last)
			if from < 0 {
				return corrupt("delta literal before the output")
			}
			if litlen <= 8 && last <= -8 && len(out)-dst >= 8 && len(lits)-li >= 8 {
				const hi = 0x8080808080808080
				x := binary.LittleEndian.Uint64(lits[li : li+8])
				y := binary.LittleEndian.Uint64(out[from : from+8])
				binary.LittleEndian.PutUint64(out[dst:dst+8], (x&^hi)+(y&^hi)^(x^y)&hi)
			} else {
				addLits(out, dst, from, litlen, lits[li:])
			}
		} else if litlen <= 16 && len(out)-dst >= 16 && len(lits)-li >= 16 {
			*(*[16]byte)(out[dst : dst+16]) = *(*[16]byte)(lits[li : li+16])
		} else {
			copy(out[dst:dst+litlen], lits[li:li+litlen])
		}
		li += litlen
		dst += litlen

		// recent[4:7] are the three most recent offsets, most recent
		// first, and recent[7] the next new offset; slot idx+4 moves to
		// the front without branches (recent[1:4] take the spill).
		idx := int(f>>6) + 4
		if oi < len(offs) {
			recent[7] = offs[oi]
		} else if idx == 7 {
			return corrupt("offset stream exhausted")
		}
		oi += (idx >> 1) & idx & 1 // one offset taken when idx is 7
		off := recent[idx]
		recent[idx] = recent[idx-1]
		recent[idx-1] = recent[idx-2]
		recent[idx-2] = recent[idx-3]
		recent[4] = off
		last = off
		if off >= 0 || int(-off) > dst {
			return corrupt("match offset before the output")
		}
		if matchlen == 15 {
			if ni >= len(lens) {
				return corrupt("length stream exhausted")
			}
			matchlen = 14 + int(lens[ni])
			ni++
		} else {
			matchlen += 2
		}
		if matchlen > len(out)-dst {
			return corrupt("match past its chunk")
		}
		// Each block copied reads bytes before the ones it writes, all
		// final already (the distance is at least the block size).
		from := dst + int(off)
		switch {
		case off <= -16 && len(out)-dst >= 32 && matchlen <= 32:
			d := (*[32]byte)(out[dst : dst+32])
			s := (*[32]byte)(out[from : from+32])
			*(*[16]byte)(d[:16]) = *(*[16]byte)(s[:16])
			*(*[16]byte)(d[16:]) = *(*[16]byte)(s[16:])
		case matchlen <= 16 && off <= -8 && len(out)-dst >= 16:
			d := (*[16]byte)(out[dst : dst+16])
			s := (*[16]byte)(out[from : from+16])
			*(*[8]byte)(d[:8]) = *(*[8]byte)(s[:8])
			*(*[8]byte)(d[8:]) = *(*[8]byte)(s[8:])
		case matchlen >= 8 && matchlen <= 16 && off <= -8:
			d := out[dst : dst+matchlen]
			s := out[from : from+matchlen]
			*(*[8]byte)(d) = *(*[8]byte)(s)
			*(*[8]byte)(d[matchlen-8:]) = *(*[8]byte)(s[matchlen-8:])
		case matchlen >= 4 && matchlen < 8 && off <= -4:
			d := out[dst : dst+matchlen]
			s := out[from : from+matchlen]
			*(*[4]byte)(d) = *(*[4]byte)(s)
			*(*[4]byte)(d[matchlen-4:]) = *(*[4]byte)(s[matchlen-4:])
		default:
			copyMatch(out, dst, from, matchlen)
		}
		dst += matchlen
	}
	if oi != len(offs) || ni != len(lens) {
		return corrupt("offset or length stream left over")
	}
	lits = lits[li:]
	if end-dst != len(lits) {
		return corrupt("literal stream size mismatch")
	}
	if mode == 0 {
		if dst+int(last) < 0 {
			return corrupt("delta literal before the output")
		}
		addLits(out, dst, dst+int(last), len(lits), lits)
	} else {
		copy(out[dst:end], lits)
	}
	return nil
}

// lzChunk decodes one LZ chunk src of the given mode into out[start:end]
// (earlier output is the match window).
type lzChunk func(d *decoder, src, out []byte, start, end, mode int) error

func (d *decoder) krakenChunk(src, out []byte, start, end, mode int) error {
	if mode > 1 {
		return corrupt("unknown Kraken chunk mode")
	}
	t, err := d.readKrakenTable(src, out[start:end], start == 0)
	if err != nil {
		return err
	}
	return krakenRuns(t, mode, out, start, end)
}

// decodeQuantum decodes one Kraken or Leviathan quantum (up to 256 KiB, in
// chunks of up to 128 KiB) into out[start:end] and returns the bytes of src
// used.
func (d *decoder) decodeQuantum(src, out []byte, start, end int, lz lzChunk) (int, error) {
	p := 0
	for dst := start; dst < end; {
		count := end - dst
		if count > 0x20000 {
			count = 0x20000
		}
		if len(src)-p < 4 {
			return 0, corrupt("truncated chunk header")
		}
		d.reset()
		hdr := int(src[p])<<16 | int(src[p+1])<<8 | int(src[p+2])
		if hdr&0x800000 == 0 {
			dec, n, err := d.decodeBytes(src[p:], count, 0)
			if err != nil {
				return 0, err
			}
			if len(dec) != count {
				return 0, corrupt("entropy-only chunk size mismatch")
			}
			copy(out[dst:], dec)
			p += n
		} else {
			p += 3
			used := hdr & 0x7FFFF
			mode := (hdr >> 19) & 0xF
			if len(src)-p < used {
				return 0, corrupt("chunk runs past its quantum")
			}
			switch {
			case used < count:
				if err := lz(d, src[p:p+used], out, dst, dst+count, mode); err != nil {
					return 0, err
				}
			case used == count && mode == 0:
				copy(out[dst:], src[p:p+used])
			default:
				return 0, corrupt("bad stored chunk")
			}
			p += used
		}
		dst += count
	}
	return p, nil
}

// copyMatch copies n bytes from out[from:] to out[dst:], byte by byte in
// effect when the two overlap (from < dst). When the distance is at least 8
// (or 4) it moves 8 (or 4) bytes at a time: every step reads bytes that lie
// before the ones it writes or were written already, and the last step ends
// exactly at dst+n, rewriting some bytes with the values they already hold.
func copyMatch(out []byte, dst, from, n int) {
	d := out[dst : dst+n]
	s := out[from : from+n]
	if dst-from >= n && n >= 32 {
		copy(d, s) // no overlap: memmove's wide moves
		return
	}
	if dst-from >= 8 && n >= 8 {
		*(*[8]byte)(d) = *(*[8]byte)(s)
		for i := 8; i < n-8; i += 8 {
			*(*[8]byte)(d[i:]) = *(*[8]byte)(s[i:])
		}
		*(*[8]byte)(d[n-8:]) = *(*[8]byte)(s[n-8:])
		return
	}
	if dst-from >= 4 && n >= 4 {
		for i := 0; i < n-4; i += 4 {
			*(*[4]byte)(d[i:]) = *(*[4]byte)(s[i:])
		}
		*(*[4]byte)(d[n-4:]) = *(*[4]byte)(s[n-4:])
		return
	}
	for i := range d {
		d[i] = s[i]
	}
}

// addLits writes out[dst+i] = lits[i] + out[from+i] for i < n ("delta
// literals"; from < dst, len(lits) >= n). With dst at least 8 bytes after
// from it adds 8 bytes at a time, bytewise without carries between them;
// the last word ends at dst+n, adding some bytes again to the same,
// final, values (as copyMatch copies).
func addLits(out []byte, dst, from, n int, lits []byte) {
	d := out[dst : dst+n]
	s := out[from : from+n]
	lits = lits[:n]
	if dst-from >= 8 && n >= 8 {
		const hi = 0x8080808080808080
		add := func(i int) {
			x := binary.LittleEndian.Uint64(lits[i : i+8])
			y := binary.LittleEndian.Uint64(s[i : i+8])
			binary.LittleEndian.PutUint64(d[i:i+8], (x&^hi)+(y&^hi)^(x^y)&hi)
		}
		for i := 0; i < n-8; i += 8 {
			add(i)
		}
		add(n - 8)
		return
	}
	for i := range d {
		d[i] = lits[i] + s[i]
	}
}
