package zstd

import (
	"math/bits"
)

// Sequence codes (RFC 8878 §3.1.1.3.2.1): baselines and extra bits of the
// literal length and match length codes.
var (
	llBase = [36]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llBits = [36]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	mlBase = [53]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlBits = [53]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

// Predefined distributions (RFC 8878 §3.1.1.3.2.2), in the table order
// literal lengths, offsets, match lengths.
var (
	predefProb = [3][]int16{
		{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
			2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1},
		{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			-1, -1, -1, -1, -1},
		{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
			-1, -1, -1, -1, -1},
	}
	predefLog = [3]uint{6, 5, 6}
	maxSym    = [3]int{35, 31, 52}
	maxLog    = [3]uint{9, 8, 9}
	predef    [3]fseTable
)

func init() {
	for i := range predef {
		buf := make([]fseEntry, 1<<predefLog[i])
		if err := predef[i].build(buf, predefProb[i], predefLog[i]); err != nil {
			panic(err)
		}
	}
}

// sequences decodes the sequences section at src[p:end] and executes it
// with the block's literals.
func (d *decoder) sequences(p, end int) error {
	if p >= end {
		return d.errf(p, "truncated sequences section")
	}
	b0 := int(d.src[p])
	p++
	nseq := b0
	switch {
	case b0 >= 255:
		if end-p < 2 {
			return d.errf(p, "truncated number of sequences")
		}
		nseq = int(d.src[p]) + int(d.src[p+1])<<8 + 0x7F00
		p += 2
	case b0 >= 128:
		if end-p < 1 {
			return d.errf(p, "truncated number of sequences")
		}
		nseq = (b0-128)<<8 + int(d.src[p])
		p++
	}
	if nseq == 0 {
		return d.emitLiterals(d.lits, p)
	}
	if p >= end {
		return d.errf(p, "truncated sequence compression modes")
	}
	modes := d.src[p]
	if modes&3 != 0 {
		return d.errf(p, "reserved bits set in sequence compression modes")
	}
	p++
	for i, shift := range [3]uint{6, 4, 2} {
		if d.seqTabBuf[i] == nil {
			d.seqTabBuf[i] = make([]fseEntry, 1<<maxLog[i])
		}
		switch (modes >> shift) & 3 {
		case 0:
			d.seqTabs[i] = predef[i]
		case 1:
			if p >= end {
				return d.errf(p, "truncated RLE sequence code")
			}
			if int(d.src[p]) > maxSym[i] {
				return d.errf(p, "RLE sequence code %d out of range", d.src[p])
			}
			d.seqTabs[i].rle(d.seqTabBuf[i], d.src[p])
			p++
		case 2:
			n, err := readFSE(&d.seqTabs[i], d.seqTabBuf[i], d.src[p:end], p, maxSym[i], maxLog[i])
			if err != nil {
				return err
			}
			p += n
		case 3:
			if !d.hasSeqTab[i] {
				return d.errf(p, "repeated sequence table without a previous one")
			}
		}
		d.hasSeqTab[i] = true
	}
	var r revReader
	if err := r.init(d.src[p:end], p); err != nil {
		return err
	}
	ll, of, ml := &d.seqTabs[0], &d.seqTabs[1], &d.seqTabs[2]
	sLL, sOF, sML := r.read(ll.log), r.read(of.log), r.read(ml.log)
	lits := d.lits
	for i := range nseq {
		llc, ofc, mlc := ll.ent[sLL].sym, of.ent[sOF].sym, ml.ent[sML].sym
		if llc > 35 || mlc > 52 || ofc > 31 {
			return d.errf(p, "sequence %d: code out of range", i)
		}
		ov := int(1)<<ofc + int(r.read(uint(ofc)))
		mlen := int(mlBase[mlc]) + int(r.read(uint(mlBits[mlc])))
		llen := int(llBase[llc]) + int(r.read(uint(llBits[llc])))
		var off int
		if ov > 3 {
			off = ov - 3
			d.rep = [3]int{off, d.rep[0], d.rep[1]}
		} else {
			idx := ov - 1
			if llen == 0 {
				idx++
			}
			switch idx {
			case 0:
				off = d.rep[0]
			case 1:
				off = d.rep[1]
				d.rep = [3]int{off, d.rep[0], d.rep[2]}
			case 2:
				off = d.rep[2]
				d.rep = [3]int{off, d.rep[0], d.rep[1]}
			default:
				off = d.rep[0] - 1
				d.rep = [3]int{off, d.rep[0], d.rep[1]}
			}
		}
		if i < nseq-1 {
			sLL = ll.next(sLL, &r)
			sML = ml.next(sML, &r)
			sOF = of.next(sOF, &r)
		}
		if r.remaining() < 0 {
			return d.errf(p, "sequence bitstream overrun at sequence %d of %d", i, nseq)
		}
		if llen > len(lits) {
			return d.errf(p, "sequence %d needs %d literals, %d left", i, llen, len(lits))
		}
		if err := d.room(llen+mlen, p); err != nil {
			return err
		}
		d.out += copy(d.dst[d.out:], lits[:llen])
		lits = lits[llen:]
		if off <= 0 || off > d.out-d.frameStart {
			return d.errf(p, "sequence %d: match offset %d outside the %d bytes decoded", i, off, d.out-d.frameStart)
		}
		src := d.out - off
		if off >= mlen {
			copy(d.dst[d.out:d.out+mlen], d.dst[src:])
		} else {
			for j := range mlen {
				d.dst[d.out+j] = d.dst[src+j]
			}
		}
		d.out += mlen
	}
	if r.remaining() != 0 {
		return d.errf(p, "sequence bitstream has %d bits left over", r.remaining())
	}
	return d.emitLiterals(lits, end)
}

func (d *decoder) emitLiterals(lits []byte, at int) error {
	if err := d.room(len(lits), at); err != nil {
		return err
	}
	d.out += copy(d.dst[d.out:], lits)
	return nil
}

const (
	prime1 = 11400714785074694791
	prime2 = 14029467366897019727
	prime3 = 1609587929392839161
	prime4 = 9650029242287828579
	prime5 = 2870177450012600261
)

func le64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func xxRound(acc, lane uint64) uint64 {
	return bits.RotateLeft64(acc+lane*prime2, 31) * prime1
}

// xxh64 is XXH64 with seed 0, the frame content checksum's hash.
func xxh64(b []byte) uint64 {
	n := uint64(len(b))
	var h uint64
	if len(b) >= 32 {
		p1, p2 := uint64(prime1), uint64(prime2)
		v1, v2, v3, v4 := p1+p2, p2, uint64(0), -p1
		for ; len(b) >= 32; b = b[32:] {
			v1 = xxRound(v1, le64(b))
			v2 = xxRound(v2, le64(b[8:]))
			v3 = xxRound(v3, le64(b[16:]))
			v4 = xxRound(v4, le64(b[24:]))
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		for _, v := range [4]uint64{v1, v2, v3, v4} {
			h ^= xxRound(0, v)
			h = h*prime1 + prime4
		}
	} else {
		h = prime5
	}
	h += n
	for ; len(b) >= 8; b = b[8:] {
		h ^= xxRound(0, le64(b))
		h = bits.RotateLeft64(h, 27)*prime1 + prime4
	}
	if len(b) >= 4 {
		h ^= uint64(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24) * prime1
		h = bits.RotateLeft64(h, 23)*prime2 + prime3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * prime5
		h = bits.RotateLeft64(h, 11) * prime1
	}
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}
