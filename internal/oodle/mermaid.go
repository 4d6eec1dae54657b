package oodle

// mermaidTable is the output of a Mermaid/Selkie chunk's first phase. The
// chunk is copied in two halves of up to 64 KiB, each with its own commands
// and far offsets; literals, near offsets and lengths run on across them.
type mermaidTable struct {
	lits    []byte
	cmds    [2][]byte
	off16   []uint16
	off32   [2][]uint32
	lengths []byte // the rest of the chunk, read as commands need it
}

func le16(b []byte) int { return int(b[0]) | int(b[1])<<8 }

// mermaidFarOffsets reads n far offsets (3 bytes, or 4 when the output is
// past 12 MiB and the value is >= 0xC00000) of at most limit each.
func mermaidFarOffsets(src []byte, n int, limit int) ([]uint32, int, error) {
	out := make([]uint32, 0, min(n, len(src)/3))
	p := 0
	for i := 0; i < n; i++ {
		if len(src)-p < 3 {
			return nil, 0, corrupt("truncated far offsets")
		}
		off := int(src[p]) | int(src[p+1])<<8 | int(src[p+2])<<16
		p += 3
		if limit >= 0xC00000-1 && off >= 0xC00000 {
			if p >= len(src) {
				return nil, 0, corrupt("truncated far offsets")
			}
			off += int(src[p]) << 22
			p++
		}
		if off > limit {
			return nil, 0, corrupt("far offset before the output")
		}
		out = append(out, uint32(off))
	}
	return out, p, nil
}

func (d *decoder) readMermaidTable(src, dst []byte, offset int) (*mermaidTable, error) {
	if len(src) < 10 {
		return nil, corrupt("truncated LZ chunk")
	}
	p := 0
	if offset == 0 {
		if len(dst) < 8 {
			return nil, corrupt("LZ chunk shorter than 8 bytes")
		}
		copy(dst, src[:8])
		p = 8
	}
	size := len(dst)
	t := &mermaidTable{}
	var n int
	var err error
	if t.lits, n, err = d.decodeBytes(src[p:], size, 0); err != nil {
		return nil, err
	}
	p += n
	cmds, n, err := d.decodeBytes(src[p:], size, 0)
	if err != nil {
		return nil, err
	}
	p += n
	split := len(cmds)
	if size > 0x10000 {
		if len(src)-p < 2 {
			return nil, corrupt("truncated LZ chunk")
		}
		split = le16(src[p:])
		p += 2
		if split > len(cmds) {
			return nil, corrupt("command split past the commands")
		}
	}
	t.cmds = [2][]byte{cmds[:split], cmds[split:]}
	if len(src)-p < 2 {
		return nil, corrupt("truncated LZ chunk")
	}
	n16 := le16(src[p:])
	p += 2
	if n16 == 0xFFFF {
		hi, n, err := d.decodeBytes(src[p:], size>>1, 0)
		if err != nil {
			return nil, err
		}
		p += n
		lo, n, err := d.decodeBytes(src[p:], size>>1, 0)
		if err != nil {
			return nil, err
		}
		p += n
		if len(lo) != len(hi) {
			return nil, corrupt("near-offset halves differ in size")
		}
		t.off16 = make([]uint16, len(lo))
		for i := range lo {
			t.off16[i] = uint16(lo[i]) | uint16(hi[i])<<8
		}
	} else {
		if len(src)-p < 2*n16 {
			return nil, corrupt("near offsets run past the chunk")
		}
		t.off16 = make([]uint16, n16)
		for i := range t.off16 {
			t.off16[i] = uint16(le16(src[p+2*i:]))
		}
		p += 2 * n16
	}
	if len(src)-p < 3 {
		return nil, corrupt("truncated LZ chunk")
	}
	v := int(src[p]) | int(src[p+1])<<8 | int(src[p+2])<<16
	p += 3
	if v != 0 {
		n1, n2 := v>>12, v&0xFFF
		if n1 == 4095 {
			if len(src)-p < 2 {
				return nil, corrupt("truncated LZ chunk")
			}
			n1 = le16(src[p:])
			p += 2
		}
		if n2 == 4095 {
			if len(src)-p < 2 {
				return nil, corrupt("truncated LZ chunk")
			}
			n2 = le16(src[p:])
			p += 2
		}
		if t.off32[0], n, err = mermaidFarOffsets(src[p:], n1, offset); err != nil {
			return nil, err
		}
		p += n
		if t.off32[1], n, err = mermaidFarOffsets(src[p:], n2, offset+0x10000); err != nil {
			return nil, err
		}
		p += n
	}
	t.lengths = src[p:]
	return t, nil
}

// readLen reads a long length: one byte, or when above 251 that byte plus
// four times the following 16-bit value.
func (t *mermaidTable) readLen() (int, bool) {
	if len(t.lengths) == 0 {
		return 0, false
	}
	l := int(t.lengths[0])
	if l > 251 {
		if len(t.lengths) < 3 {
			return 0, false
		}
		l += 4 * le16(t.lengths[1:])
		t.lengths = t.lengths[3:]
		return l, true
	}
	t.lengths = t.lengths[1:]
	return l, true
}

func (d *decoder) mermaidChunk(src, out []byte, start, end, mode int) error {
	if mode > 1 {
		return corrupt("unknown Mermaid chunk mode")
	}
	t, err := d.readMermaidTable(src, out[start:end], start)
	if err != nil {
		return err
	}
	recent := -8
	for half := 0; half < 2; half++ {
		begin := start + half*0x10000
		if begin >= end {
			break
		}
		stop := min(begin+0x10000, end)
		pos := begin
		if begin == 0 {
			pos = 8
		}
		if recent, err = mermaidRuns(t, half, mode, out, begin, pos, stop, recent); err != nil {
			return err
		}
	}
	if len(t.lengths) != 0 {
		return corrupt("length stream left over")
	}
	return nil
}

// mermaidRuns copies one half of a Mermaid chunk, out[pos:stop], begin being
// the half's start (far offsets count back from it). Commands >= 24 hold a
// literal count (bits 0-2), a match length (bits 3-6) and, in bit 7, whether
// to keep the recent offset (else a near offset follows); 3-23 are far
// matches of cmd+5 bytes; 0 is a long literal run, 1 a long near match and 2
// a long far match, their lengths in the length stream.
func mermaidRuns(t *mermaidTable, half, mode int, out []byte, begin, pos, stop, recent int) (int, error) {
	lits := func(n int) error {
		if n > len(t.lits) || n > stop-pos {
			return corrupt("literal run past its chunk")
		}
		if mode == 0 {
			if pos+recent < 0 {
				return corrupt("delta literal before the output")
			}
			addLits(out, pos, pos+recent, n, t.lits)
		} else {
			copy(out[pos:pos+n], t.lits[:n])
		}
		t.lits = t.lits[n:]
		pos += n
		return nil
	}
	match := func(n int) error {
		if recent >= 0 || -recent > pos {
			return corrupt("match offset before the output")
		}
		if n > stop-pos {
			return corrupt("match past its chunk")
		}
		copyMatch(out, pos, pos+recent, n)
		pos += n
		return nil
	}
	far := func() error {
		if len(t.off32[half]) == 0 {
			return corrupt("far offsets exhausted")
		}
		recent = begin - int(t.off32[half][0]) - pos
		t.off32[half] = t.off32[half][1:]
		return nil
	}
	for _, c := range t.cmds[half] {
		cmd := int(c)
		switch {
		case cmd >= 24:
			if err := lits(cmd & 7); err != nil {
				return 0, err
			}
			if cmd&0x80 == 0 {
				if len(t.off16) == 0 {
					return 0, corrupt("near offsets exhausted")
				}
				recent = -int(t.off16[0])
				t.off16 = t.off16[1:]
			}
			if n := (cmd >> 3) & 0xF; n > 0 {
				if err := match(n); err != nil {
					return 0, err
				}
			}
		case cmd > 2:
			if err := far(); err != nil {
				return 0, err
			}
			if err := match(cmd + 5); err != nil {
				return 0, err
			}
		case cmd == 0:
			l, ok := t.readLen()
			if !ok {
				return 0, corrupt("length stream exhausted")
			}
			if err := lits(l + 64); err != nil {
				return 0, err
			}
		case cmd == 1:
			l, ok := t.readLen()
			if !ok {
				return 0, corrupt("length stream exhausted")
			}
			if len(t.off16) == 0 {
				return 0, corrupt("near offsets exhausted")
			}
			recent = -int(t.off16[0])
			t.off16 = t.off16[1:]
			if err := match(l + 91); err != nil {
				return 0, err
			}
		default:
			l, ok := t.readLen()
			if !ok {
				return 0, corrupt("length stream exhausted")
			}
			if err := far(); err != nil {
				return 0, err
			}
			if err := match(l + 29); err != nil {
				return 0, err
			}
		}
	}
	if err := lits(stop - pos); err != nil {
		return 0, err
	}
	return recent, nil
}
