package zstd

import (
	"math/bits"
)

// revReader reads a backward bitstream (RFC 8878 §4.1): written forwards,
// read from its last byte towards its first, the most significant bits
// first, after the padding (zero bits and a 1) that ends the last byte.
// Bits wanted past the start of the stream read as zeros and are counted in
// over, so callers can tell an exactly consumed stream from an overrun one.
type revReader struct {
	b    []byte
	pos  int    // b[:pos] is not loaded yet
	acc  uint64 // loaded bits; the next ones are the top of the low n bits
	n    uint   // valid bits in acc
	over int    // bits read past the start
}

func (r *revReader) init(b []byte, at int) error {
	if len(b) == 0 {
		return &Error{Offset: at, Msg: "empty bitstream"}
	}
	last := b[len(b)-1]
	if last == 0 {
		return &Error{Offset: at + len(b) - 1, Msg: "bitstream without its end marker"}
	}
	*r = revReader{b: b, pos: len(b)}
	r.refill()
	r.skip(uint(9 - bits.Len8(last)))
	return nil
}

func (r *revReader) refill() {
	for r.n <= 56 && r.pos > 0 {
		r.pos--
		r.acc = r.acc<<8 | uint64(r.b[r.pos])
		r.n += 8
	}
}

// read consumes k ≤ 56 bits.
func (r *revReader) read(k uint) uint64 {
	if k == 0 {
		return 0
	}
	if r.n < k {
		r.refill()
		if r.n < k {
			miss := k - r.n
			v := (r.acc & (1<<r.n - 1)) << miss
			r.over += int(miss)
			r.n = 0
			return v
		}
	}
	r.n -= k
	return (r.acc >> r.n) & (1<<k - 1)
}

// peek returns the next k bits without consuming them.
func (r *revReader) peek(k uint) uint64 {
	if r.n < k {
		r.refill()
		if r.n < k {
			return (r.acc & (1<<r.n - 1)) << (k - r.n)
		}
	}
	return (r.acc >> (r.n - k)) & (1<<k - 1)
}

func (r *revReader) skip(k uint) {
	if r.n < k {
		r.refill()
		if r.n < k {
			r.over += int(k - r.n)
			r.n = 0
			return
		}
	}
	r.n -= k
}

// remaining is the number of bits left; negative after an overrun.
func (r *revReader) remaining() int { return int(r.n) + 8*r.pos - r.over }

// hufTable is a Huffman decoding table indexed by the next maxBits bits.
type hufTable struct {
	maxBits uint
	ent     [1 << 11]uint16 // symbol | bits<<8
}

// readHuffman reads a Huffman tree description at src[p:end] into d.huf
// and returns the offset after it (RFC 8878 §4.2.1).
func (d *decoder) readHuffman(p, end int) (int, error) {
	if p >= end {
		return 0, d.errf(p, "truncated Huffman tree description")
	}
	hb := int(d.src[p])
	p++
	var w [256]byte
	var nw int
	if hb >= 128 {
		nw = hb - 127
		nb := (nw + 1) / 2
		if nb > end-p {
			return 0, d.errf(p, "truncated Huffman weights")
		}
		for i := range nw {
			b := d.src[p+i/2]
			if i%2 == 0 {
				w[i] = b >> 4
			} else {
				w[i] = b & 15
			}
		}
		p += nb
	} else {
		if hb > end-p || hb == 0 {
			return 0, d.errf(p, "truncated FSE-compressed Huffman weights")
		}
		n, err := fseWeights(w[:255], d.src[p:p+hb], p)
		if err != nil {
			return 0, err
		}
		nw = n
		p += hb
	}
	var sum uint32
	var count [13]int
	for i := range nw {
		if w[i] > 11 {
			return 0, d.errf(p, "Huffman weight %d out of range", w[i])
		}
		if w[i] > 0 {
			sum += 1 << (w[i] - 1)
		}
	}
	if sum == 0 {
		return 0, d.errf(p, "Huffman weights are all zero")
	}
	maxBits := uint(bits.Len32(sum))
	left := uint32(1)<<maxBits - sum
	if maxBits > 11 || left&(left-1) != 0 {
		return 0, d.errf(p, "Huffman weights do not complete a tree")
	}
	w[nw] = byte(bits.Len32(left))
	nw++
	for i := range nw {
		count[w[i]]++
	}
	var start [13]int
	pos := 0
	for wt := 1; wt <= int(maxBits); wt++ {
		start[wt] = pos
		pos += count[wt] << (wt - 1)
	}
	t := &d.huf
	t.maxBits = maxBits
	for s := range nw {
		wt := int(w[s])
		if wt == 0 {
			continue
		}
		e := uint16(s) | uint16(int(maxBits)+1-wt)<<8
		n := 1 << (wt - 1)
		for j := range n {
			t.ent[start[wt]+j] = e
		}
		start[wt] += n
	}
	return p, nil
}

// decodeStream fills out from one Huffman-coded stream b (at src offset at).
func (t *hufTable) decodeStream(out, b []byte, at int) error {
	var r revReader
	if err := r.init(b, at); err != nil {
		return err
	}
	for i := range out {
		e := t.ent[r.peek(t.maxBits)]
		out[i] = byte(e)
		r.skip(uint(e >> 8))
	}
	if rem := r.remaining(); rem != 0 {
		return &Error{Offset: at, Msg: "Huffman stream length does not match its literals"}
	}
	return nil
}

// fseWeights decodes FSE-compressed Huffman weights from b into w and
// returns how many there are.
func fseWeights(w, b []byte, at int) (int, error) {
	var t fseTable
	var buf [1 << 6]fseEntry
	n, err := readFSE(&t, buf[:], b, at, 255, 6)
	if err != nil {
		return 0, err
	}
	var r revReader
	if err := r.init(b[n:], at+n); err != nil {
		return 0, err
	}
	s1 := r.read(t.log)
	s2 := r.read(t.log)
	out := 0
	emit := func(s uint64) bool {
		if out >= len(w) {
			return false
		}
		w[out] = t.ent[s].sym
		out++
		return true
	}
	for {
		if !emit(s1) {
			return 0, &Error{Offset: at, Msg: "too many Huffman weights"}
		}
		s1 = t.next(s1, &r)
		if r.remaining() < 0 {
			if !emit(s2) {
				return 0, &Error{Offset: at, Msg: "too many Huffman weights"}
			}
			break
		}
		if !emit(s2) {
			return 0, &Error{Offset: at, Msg: "too many Huffman weights"}
		}
		s2 = t.next(s2, &r)
		if r.remaining() < 0 {
			if !emit(s1) {
				return 0, &Error{Offset: at, Msg: "too many Huffman weights"}
			}
			break
		}
	}
	return out, nil
}

// fseEntry is one state of an FSE decoding table.
type fseEntry struct {
	sym  uint8
	nb   uint8 // bits read to reach the next state
	base uint16
}

type fseTable struct {
	log uint
	ent []fseEntry
}

func (t *fseTable) next(s uint64, r *revReader) uint64 {
	e := t.ent[s]
	return uint64(e.base) + r.read(uint(e.nb))
}

// rle makes the one-state table of an RLE-coded symbol.
func (t *fseTable) rle(buf []fseEntry, sym byte) {
	t.log = 0
	t.ent = buf[:1]
	t.ent[0] = fseEntry{sym: sym}
}

// readFSE reads an FSE table description (RFC 8878 §4.1.1) from the start
// of b and builds its decoding table in buf; it returns the bytes used.
func readFSE(t *fseTable, buf []fseEntry, b []byte, at int, maxSym int, maxLog uint) (int, error) {
	bad := func(msg string) (int, error) { return 0, &Error{Offset: at, Msg: "FSE table: " + msg} }
	bit := 0 // bits consumed
	peek := func(k int) int {
		v := 0
		for i := 0; i < k; i++ {
			q := bit + i
			if q/8 < len(b) && b[q/8]>>(q%8)&1 != 0 {
				v |= 1 << i
			}
		}
		return v
	}
	if len(b) == 0 {
		return bad("truncated")
	}
	log := uint(peek(4)) + 5
	bit = 4
	if log > maxLog {
		return bad("accuracy log too large")
	}
	var prob [256]int16
	remaining := 1<<log + 1
	threshold := 1 << log
	nbBits := int(log) + 1
	sym := 0
	for remaining > 1 {
		if sym > maxSym {
			return bad("too many symbols")
		}
		mx := 2*threshold - 1 - remaining
		v := peek(nbBits)
		var count int
		if v&(threshold-1) < mx {
			count = v & (threshold - 1)
			bit += nbBits - 1
		} else {
			count = v & (2*threshold - 1)
			if count >= threshold {
				count -= mx
			}
			bit += nbBits
		}
		count--
		if count < 0 {
			remaining--
		} else {
			remaining -= count
		}
		if remaining < 1 {
			return bad("probabilities exceed the table")
		}
		prob[sym] = int16(count)
		sym++
		if count == 0 {
			for {
				rep := peek(2)
				bit += 2
				if sym+rep > maxSym+1 {
					return bad("too many symbols")
				}
				sym += rep // prob is already 0
				if rep != 3 {
					break
				}
				if bit > 8*len(b) {
					return bad("truncated")
				}
			}
		}
		for remaining < threshold {
			nbBits--
			threshold >>= 1
		}
		if bit > 8*len(b) {
			return bad("truncated")
		}
	}
	if remaining != 1 {
		return bad("probabilities do not add up")
	}
	if err := t.build(buf, prob[:sym], log); err != nil {
		return 0, &Error{Offset: at, Msg: err.Error()}
	}
	return (bit + 7) / 8, nil
}

type strErr string

func (e strErr) Error() string { return string(e) }

// build makes the decoding table of a normalized distribution.
func (t *fseTable) build(buf []fseEntry, prob []int16, log uint) error {
	size := 1 << log
	if len(buf) < size {
		return strErr("FSE table too large")
	}
	ent := buf[:size]
	high := size - 1
	var next [256]uint16
	for s, p := range prob {
		if p == -1 {
			ent[high].sym = uint8(s)
			high--
			next[s] = 1
		} else {
			next[s] = uint16(p)
		}
	}
	pos, step, mask := 0, size>>1+size>>3+3, size-1
	for s, p := range prob {
		for range int(p) {
			ent[pos].sym = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return strErr("FSE table: corrupt distribution")
	}
	for u := range ent {
		s := ent[u].sym
		ns := next[s]
		next[s]++
		nb := log - uint(bits.Len16(ns)-1)
		ent[u].nb = uint8(nb)
		ent[u].base = uint16(uint(ns)<<nb - uint(size))
	}
	t.log, t.ent = log, ent
	return nil
}
