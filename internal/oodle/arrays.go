package oodle

// decodeRLE decodes a run-length coded byte array: commands are read from
// the end of the (optionally entropy-coded) command buffer backwards, the
// literal bytes from its start forwards.
func (d *decoder) decodeRLE(src, out []byte, depth int) error {
	if len(src) <= 1 {
		if len(src) != 1 {
			return corrupt("empty RLE array")
		}
		for i := range out {
			out[i] = src[0]
		}
		return nil
	}
	cmd := src[1:]
	if src[0] != 0 {
		dec, n, err := d.decodeBytes(src, 0x40000, depth+1)
		if err != nil {
			return err
		}
		if n <= 0 {
			return corrupt("bad RLE command prefix")
		}
		buf := d.alloc(len(dec) + len(src) - n)
		copy(buf[copy(buf, dec):], src[n:])
		cmd = buf
	}
	lo, hi := 0, len(cmd)
	dst := 0
	var rle byte
	for lo < hi {
		c := uint32(cmd[hi-1])
		var lit, run int
		switch {
		case c-1 >= 0x2f:
			hi--
			lit = int((^c) & 0xF)
			run = int(c >> 4)
		case c >= 0x10:
			if hi-lo < 2 {
				return corrupt("truncated RLE command")
			}
			d := int(cmd[hi-2]) | int(cmd[hi-1])<<8 - 4096
			hi -= 2
			lit = d & 0x3F
			run = d >> 6
		case c == 1:
			rle = cmd[lo]
			lo++
			hi--
			continue
		case c >= 9:
			if hi-lo < 2 {
				return corrupt("truncated RLE command")
			}
			run = (int(cmd[hi-2]) | int(cmd[hi-1])<<8 - 0x8ff) * 128
			hi -= 2
		default:
			if hi-lo < 2 {
				return corrupt("truncated RLE command")
			}
			lit = (int(cmd[hi-2]) | int(cmd[hi-1])<<8 - 511) * 64
			hi -= 2
		}
		if len(out)-dst < lit+run || hi-lo < lit {
			return corrupt("RLE run past its array")
		}
		copy(out[dst:], cmd[lo:lo+lit])
		lo += lit
		dst += lit
		for i := 0; i < run; i++ {
			out[dst+i] = rle
		}
		dst += run
	}
	if lo != hi || dst != len(out) {
		return corrupt("RLE array does not end where it should")
	}
	return nil
}

// decodeRecursive decodes an array split into several sub-arrays, each with
// its own coding, or a multi-array.
func (d *decoder) decodeRecursive(src, out []byte, depth int) error {
	if len(src) < 6 {
		return corrupt("truncated recursive array")
	}
	n := int(src[0] & 0x7F)
	if n < 2 {
		return corrupt("bad recursive array count")
	}
	if src[0]&0x80 == 0 {
		p, o := 1, 0
		for ; n > 0; n-- {
			dec, used, err := d.decodeBytes(src[p:], len(out)-o, depth+1)
			if err != nil {
				return err
			}
			o += copy(out[o:], dec)
			p += used
		}
		if o != len(out) || p != len(src) {
			return corrupt("recursive array does not end where it should")
		}
		return nil
	}
	used, arrays, err := d.decodeMultiArray(src, 1, len(out), depth)
	if err != nil {
		return err
	}
	if len(arrays[0]) != len(out) || used != len(src) {
		return corrupt("multi-array does not end where it should")
	}
	copy(out, arrays[0])
	return nil
}

// decodeMultiArray decodes a multi-array holding count output arrays of at
// most maxTotal bytes together: up to 63 entropy-coded source arrays whose
// pieces are dealt to the outputs by an index list (0 ends an output) and a
// list of piece lengths.
func (d *decoder) decodeMultiArray(src []byte, count, maxTotal, depth int) (int, [][]byte, error) {
	if len(src) < 4 {
		return 0, nil, corrupt("truncated multi-array")
	}
	if src[0]&0x80 == 0 {
		return 0, nil, corrupt("bad multi-array header")
	}
	numArrays := int(src[0] & 0x3F)
	p := 1
	outs := make([][]byte, count)
	if numArrays == 0 {
		for i := range outs {
			dec, n, err := d.decodeBytes(src[p:], maxTotal, depth+1)
			if err != nil {
				return 0, nil, err
			}
			outs[i] = dec
			maxTotal -= len(dec)
			p += n
		}
		return p, outs, nil
	}
	arrays := make([][]byte, numArrays)
	total := 0
	for i := range arrays {
		dec, n, err := d.decodeBytes(src[p:], maxTotal-total, depth+1)
		if err != nil {
			return 0, nil, err
		}
		arrays[i] = dec
		total += len(dec)
		p += n
	}
	if total > maxTotal {
		return 0, nil, corrupt("multi-array larger than its destination")
	}
	if len(src)-p < 3 {
		return 0, nil, corrupt("truncated multi-array")
	}
	q := int(src[p]) | int(src[p+1])<<8
	p += 2
	_, _, numIdx, _, err := streamHeader(src[p:])
	if err != nil {
		return 0, nil, err
	}
	if numIdx > total {
		return 0, nil, corrupt("multi-array index list too long")
	}
	numLens := numIdx - count
	if numLens < 1 {
		return 0, nil, corrupt("multi-array index list too short")
	}
	idx, n, err := d.decodeBytes(src[p:], numIdx, depth+1)
	if err != nil {
		return 0, nil, err
	}
	if len(idx) != numIdx {
		return 0, nil, corrupt("multi-array index list size mismatch")
	}
	p += n
	indexes := d.alloc(numIdx)
	lenLog2 := d.alloc(numIdx)
	if q&0x8000 != 0 {
		for i, t := range idx {
			lenLog2[i] = t >> 4
			indexes[i] = t & 0xF
		}
		numLens = numIdx
	} else {
		copy(indexes, idx)
		ll, n, err := d.decodeBytes(src[p:], numLens, depth+1)
		if err != nil {
			return 0, nil, err
		}
		if len(ll) != numLens {
			return 0, nil, corrupt("multi-array length list size mismatch")
		}
		p += n
		for i, v := range ll {
			if v > 16 {
				return 0, nil, corrupt("multi-array length width above 16")
			}
			lenLog2[i] = v
		}
	}
	complen := q & 0x3FFF
	if len(src)-p < complen {
		return 0, nil, corrupt("multi-array lengths run past the input")
	}
	region := src[p : p+complen]
	f := msbReader{buf: region}
	b := msbReader{buf: region, back: true}
	lens := make([]int, numLens)
	for i := range lens {
		nb := int(lenLog2[i])
		r := &f
		if i&1 == 1 {
			r = &b
		}
		lens[i] = 1<<uint(nb) | int(r.read(nb))
	}
	if indexes[numIdx-1] != 0 {
		return 0, nil, corrupt("multi-array index list not terminated")
	}
	buf := d.alloc(total)
	ii, li, o := 0, 0, 0
	for a := range outs {
		begin := o
		for {
			if ii >= numIdx {
				return 0, nil, corrupt("multi-array index list too short")
			}
			s := int(indexes[ii])
			ii++
			if s == 0 {
				break
			}
			if s > numArrays || li >= numLens {
				return 0, nil, corrupt("bad multi-array index")
			}
			l := lens[li]
			li++
			if l > len(arrays[s-1]) || l > len(buf)-o {
				return 0, nil, corrupt("multi-array piece too long")
			}
			o += copy(buf[o:], arrays[s-1][:l])
			arrays[s-1] = arrays[s-1][l:]
		}
		if q&0x8000 != 0 {
			li++
		}
		outs[a] = buf[begin:o:o]
	}
	if ii != numIdx || li != numLens {
		return 0, nil, corrupt("multi-array lists do not end where they should")
	}
	for _, a := range arrays {
		if len(a) != 0 {
			return 0, nil, corrupt("multi-array source left over")
		}
	}
	return p + complen, outs, nil
}
