package oodle

// leviathanTable is the output of a Leviathan chunk's first phase.
type leviathanTable struct {
	offs []int32
	lens []int32
	lits [][]byte // 1, 2, 4 or 16 literal streams, by chunk mode
	cmds [][]byte // one command stream, or eight picked by output position
	nCmd int
}

// Leviathan chunk modes: how literals are coded.
const (
	levSub     = 0 // literals added to the byte at the last offset
	levRaw     = 1 // plain literals
	levLamSub  = 2 // like Sub, the first literal after a match from its own stream
	levSubAnd3 = 3 // like Sub, four streams picked by output position & 3
	levO1      = 4 // order-1 context: sixteen streams picked by the previous byte's high nibble
	levSubAndF = 5 // like Sub, sixteen streams picked by output position & 15
)

func (d *decoder) readLeviathanTable(src, dst []byte, mode int, first bool) (*leviathanTable, error) {
	if mode > 5 {
		return nil, corrupt("unknown Leviathan chunk mode")
	}
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
	size := len(dst)
	offLimit := size / 3
	scale := 0
	var packedOffs, extra []byte
	var err error
	var n int
	if src[p]&0x80 != 0 {
		scale = int(src[p]) - 127
		p++
	}
	if packedOffs, n, err = d.decodeBytes(src[p:], offLimit, 0); err != nil {
		return nil, err
	}
	p += n
	if scale != 0 && scale != 1 {
		if extra, n, err = d.decodeBytes(src[p:], offLimit, 0); err != nil {
			return nil, err
		}
		if len(extra) != len(packedOffs) {
			return nil, corrupt("offset low-bit array size mismatch")
		}
		p += n
	}
	packedLens, n, err := d.decodeBytes(src[p:], size/5, 0)
	if err != nil {
		return nil, err
	}
	p += n
	t := &leviathanTable{}
	if mode <= 1 {
		lits, n, err := d.decodeBytes(src[p:], size, 0)
		if err != nil {
			return nil, err
		}
		t.lits = [][]byte{lits}
		p += n
	} else {
		count := 16
		switch mode {
		case levLamSub:
			count = 2
		case levSubAnd3:
			count = 4
		}
		n, arrays, err := d.decodeMultiArray(src[p:], count, size, 0)
		if err != nil {
			return nil, err
		}
		t.lits = arrays
		p += n
	}
	if p >= len(src) {
		return nil, corrupt("truncated LZ chunk")
	}
	if src[p]&0x80 == 0 {
		cmds, n, err := d.decodeBytes(src[p:], size, 0)
		if err != nil {
			return nil, err
		}
		t.cmds = [][]byte{cmds}
		t.nCmd = len(cmds)
		p += n
	} else {
		if src[p] != 0x83 {
			return nil, corrupt("bad Leviathan command-stream header")
		}
		p++
		n, arrays, err := d.decodeMultiArray(src[p:], 8, size, 0)
		if err != nil {
			return nil, err
		}
		t.cmds = arrays
		for _, a := range arrays {
			t.nCmd += len(a)
		}
		p += n
	}
	kt := &d.kt
	if err := d.unpackOffsets(src[p:], packedOffs, extra, scale, packedLens, kt); err != nil {
		return nil, err
	}
	t.offs, t.lens = kt.offs, kt.lens
	return t, nil
}

func (d *decoder) leviathanChunk(src, out []byte, start, end, mode int) error {
	t, err := d.readLeviathanTable(src, out[start:end], mode, start == 0)
	if err != nil {
		return err
	}
	return leviathanRuns(t, mode, out, start, end)
}

// litState hands out Leviathan literals for one chunk.
type litState struct {
	mode  int
	lits  [][]byte
	start int // chunk start in out
}

var errLits = corrupt("literal stream exhausted")

// copyLits writes n literals at out[pos:], last being the last match offset.
// lam says the first literal comes from the LamSub "literal after match"
// stream.
func (l *litState) copyLits(out []byte, pos, n int, last int, lam bool) error {
	if n > len(out)-pos || pos+last < 0 {
		return corrupt("literal run past its chunk")
	}
	switch l.mode {
	case levRaw:
		s := l.lits[0]
		if n > len(s) {
			return errLits
		}
		copy(out[pos:pos+n], s[:n])
		l.lits[0] = s[n:]
	case levSub, levLamSub:
		if n == 0 {
			return nil
		}
		if lam {
			s := l.lits[1]
			if len(s) == 0 {
				return errLits
			}
			out[pos] = s[0] + out[pos+last]
			l.lits[1] = s[1:]
			pos++
			n--
		}
		s := l.lits[0]
		if n > len(s) {
			return errLits
		}
		addLits(out, pos, pos+last, n, s)
		l.lits[0] = s[n:]
	case levSubAnd3, levSubAndF:
		mask := len(l.lits) - 1
		for i := 0; i < n; i++ {
			k := (pos + i - l.start) & mask
			s := l.lits[k]
			if len(s) == 0 {
				return errLits
			}
			out[pos+i] = s[0] + out[pos+i+last]
			l.lits[k] = s[1:]
		}
	case levO1:
		if pos == 0 && n > 0 {
			return corrupt("order-1 literal without a previous byte")
		}
		for i := 0; i < n; i++ {
			k := out[pos+i-1] >> 4
			s := l.lits[k]
			if len(s) == 0 {
				return errLits
			}
			out[pos+i] = s[0]
			l.lits[k] = s[1:]
		}
	}
	return nil
}

// leviathanRuns runs phase two of a Leviathan chunk: commands carry a
// literal count (bits 3-4; 3 means the next length from the front of the
// length stream), a match length (bits 0-2, plus 2; 9 means the next length
// from the back of the length stream, plus 6) and a recent-offset slot (bits
// 5-7: 0-6 reuse one of seven recent offsets, 7 takes a new one).
func leviathanRuns(t *leviathanTable, mode int, out []byte, start, end int) error {
	dst := start
	if start == 0 {
		dst = 8
	}
	ls := &litState{mode: mode, lits: t.lits, start: start}
	lens := t.lens
	offs := t.offs
	var recent [8]int32
	for i := range recent {
		recent[i] = -8
	}
	last := -8
	cmds := t.cmds
	cur := 0
	if len(cmds) == 8 {
		cur = (dst - start) & 7
	}
	for left := t.nCmd; left > 0; left-- {
		if len(cmds[cur]) == 0 {
			return corrupt("command stream exhausted")
		}
		cmd := int(cmds[cur][0])
		cmds[cur] = cmds[cur][1:]
		idx := cmd >> 5
		matchlen := cmd&7 + 2

		litCmd := (cmd >> 3) & 3
		litlen := litCmd
		if litCmd == 3 {
			if len(lens) == 0 {
				return corrupt("length stream exhausted")
			}
			litlen = int(lens[0])
			if mode != levO1 {
				litlen &= 0xFFFFFF
			} else if litlen <= 0 {
				return corrupt("bad literal length")
			}
			lens = lens[1:]
		}
		if mode == levLamSub && litCmd != 0 && litlen == 0 {
			return corrupt("LamSub literal run without its first literal")
		}
		if err := ls.copyLits(out[:end], dst, litlen, last, mode == levLamSub); err != nil {
			return err
		}
		dst += litlen

		if idx == 7 {
			if len(offs) == 0 {
				return corrupt("offset stream exhausted")
			}
			recent[7] = offs[0]
			offs = offs[1:]
		}
		off := recent[idx]
		copy(recent[1:idx+1], recent[:idx])
		recent[0] = off
		last = int(off)
		if off >= 0 || int(-off) > dst {
			return corrupt("match offset before the output")
		}
		if matchlen == 9 {
			if len(lens) == 0 {
				return corrupt("length stream exhausted")
			}
			matchlen = int(lens[len(lens)-1]) + 6
			lens = lens[:len(lens)-1]
		}
		if matchlen > end-dst {
			return corrupt("match past its chunk")
		}
		// With room left in the chunk, short matches copy a whole word
		// past their end (see krakenRuns).
		from := dst + int(off)
		switch {
		case matchlen <= 16 && off <= -16 && end-dst >= 16:
			*(*[16]byte)(out[dst:end]) = *(*[16]byte)(out[from:])
		case matchlen <= 16 && off <= -8 && end-dst >= 16:
			*(*[8]byte)(out[dst:end]) = *(*[8]byte)(out[from:])
			*(*[8]byte)(out[dst+8 : end]) = *(*[8]byte)(out[from+8:])
		default:
			copyMatch(out, dst, from, matchlen)
		}
		dst += matchlen
		if len(cmds) == 8 {
			cur = (dst - start) & 7
		}
	}
	if len(offs) != 0 || len(lens) != 0 {
		return corrupt("offset or length stream left over")
	}
	if dst > end {
		return corrupt("chunk overrun")
	}
	if dst < end {
		n := end - dst
		if err := ls.copyLits(out[:end], dst, n, last, mode == levLamSub); err != nil {
			return err
		}
	}
	return nil
}
