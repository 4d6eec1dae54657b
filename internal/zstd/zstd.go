// Package zstd is a compact Zstandard decoder (RFC 8878) for blocks whose
// decompressed size is known in advance, as in Unreal containers and
// mapping files.
//
// It exists for the page's WebAssembly build: the full-featured
// github.com/klauspost/compress/zstd links its encoder, crypto/rand and
// math/big into any program that imports it (about 0.7 MB of WebAssembly),
// while this decoder is a few dozen kilobytes. Native builds keep using
// klauspost (faster); the tests check that both agree.
//
// Dictionaries are not supported (Unreal does not use them with Zstd).
// Content checksums are verified.
package zstd

import (
	"encoding/binary"
	"fmt"
)

// Error reports corrupt or unsupported input, with the byte offset in the
// compressed data where it was found.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("zstd: %s (at compressed byte %d)", e.Msg, e.Offset)
}

const (
	frameMagic    = 0xFD2FB528
	skipMagicMask = 0xFFFFFFF0
	skipMagic     = 0x184D2A50
	maxBlockSize  = 128 << 10
)

// Decode decompresses every frame in src into dst and returns the number of
// bytes written. Output that would not fit in dst is an error: dst is the
// caller's bound on the decompressed size, and nothing is allocated from the
// sizes the stream declares beyond one block's literals (at most 128 KiB).
func Decode(dst, src []byte) (int, error) {
	d := decoder{src: src, dst: dst}
	if len(src) == 0 {
		return 0, d.errf(0, "empty input")
	}
	for d.pos < len(src) {
		if err := d.frame(); err != nil {
			return d.out, err
		}
	}
	return d.out, nil
}

type decoder struct {
	src []byte
	pos int // next byte of src
	dst []byte
	out int // bytes written to dst

	frameStart int // dst offset where the current frame's output starts
	rep        [3]int
	huf        hufTable
	hasHuf     bool
	seqTabs    [3]fseTable // literal lengths, offsets, match lengths
	hasSeqTab  [3]bool
	lits       []byte
	seqTabBuf  [3][]fseEntry
}

func (d *decoder) errf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) need(n int, what string) error {
	if n < 0 || len(d.src)-d.pos < n {
		return d.errf(d.pos, "truncated %s: need %d bytes, %d left", what, n, len(d.src)-d.pos)
	}
	return nil
}

func (d *decoder) frame() error {
	start := d.pos
	if err := d.need(4, "frame magic"); err != nil {
		return err
	}
	magic := binary.LittleEndian.Uint32(d.src[d.pos:])
	d.pos += 4
	if magic&skipMagicMask == skipMagic {
		if err := d.need(4, "skippable frame size"); err != nil {
			return err
		}
		n := int(binary.LittleEndian.Uint32(d.src[d.pos:]))
		d.pos += 4
		if err := d.need(n, "skippable frame"); err != nil {
			return err
		}
		d.pos += n
		return nil
	}
	if magic != frameMagic {
		return d.errf(start, "bad frame magic 0x%08x", magic)
	}
	if err := d.need(1, "frame header"); err != nil {
		return err
	}
	fhd := d.src[d.pos]
	d.pos++
	fcsFlag := fhd >> 6
	single := fhd&0x20 != 0
	checksum := fhd&0x04 != 0
	if fhd&0x08 != 0 {
		return d.errf(d.pos-1, "reserved bit set in frame header descriptor")
	}
	if !single {
		if err := d.need(1, "window descriptor"); err != nil {
			return err
		}
		d.pos++ // the window size is no bound here: dst is
	}
	dictLen := [4]int{0, 1, 2, 4}[fhd&3]
	if err := d.need(dictLen, "dictionary ID"); err != nil {
		return err
	}
	var dictID uint32
	for i := range dictLen {
		dictID |= uint32(d.src[d.pos+i]) << (8 * i)
	}
	if dictID != 0 {
		return d.errf(d.pos, "frame needs dictionary %d: dictionaries are not supported", dictID)
	}
	d.pos += dictLen
	fcsLen := [4]int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && single {
		fcsLen = 1
	}
	if err := d.need(fcsLen, "frame content size"); err != nil {
		return err
	}
	contentSize := int64(-1)
	switch fcsLen {
	case 1:
		contentSize = int64(d.src[d.pos])
	case 2:
		contentSize = int64(binary.LittleEndian.Uint16(d.src[d.pos:])) + 256
	case 4:
		contentSize = int64(binary.LittleEndian.Uint32(d.src[d.pos:]))
	case 8:
		contentSize = int64(binary.LittleEndian.Uint64(d.src[d.pos:]))
	}
	d.pos += fcsLen
	if contentSize > int64(len(d.dst)-d.out) || contentSize < -1 {
		return d.errf(d.pos-fcsLen, "frame content size %d exceeds the %d bytes expected", uint64(contentSize), len(d.dst)-d.out)
	}

	d.frameStart = d.out
	d.rep = [3]int{1, 4, 8}
	d.hasHuf = false
	d.hasSeqTab = [3]bool{}
	for {
		if err := d.need(3, "block header"); err != nil {
			return err
		}
		h := uint32(d.src[d.pos]) | uint32(d.src[d.pos+1])<<8 | uint32(d.src[d.pos+2])<<16
		hdrAt := d.pos
		d.pos += 3
		last := h&1 != 0
		size := int(h >> 3)
		switch (h >> 1) & 3 {
		case 0: // raw
			if size > maxBlockSize {
				return d.errf(hdrAt, "raw block of %d bytes exceeds 128 KiB", size)
			}
			if err := d.need(size, "raw block"); err != nil {
				return err
			}
			if err := d.room(size, hdrAt); err != nil {
				return err
			}
			d.out += copy(d.dst[d.out:], d.src[d.pos:d.pos+size])
			d.pos += size
		case 1: // RLE
			if size > maxBlockSize {
				return d.errf(hdrAt, "RLE block of %d bytes exceeds 128 KiB", size)
			}
			if err := d.need(1, "RLE block"); err != nil {
				return err
			}
			if err := d.room(size, hdrAt); err != nil {
				return err
			}
			b := d.src[d.pos]
			d.pos++
			for i := range size {
				d.dst[d.out+i] = b
			}
			d.out += size
		case 2:
			if size > maxBlockSize {
				return d.errf(hdrAt, "compressed block of %d bytes exceeds 128 KiB", size)
			}
			if err := d.need(size, "compressed block"); err != nil {
				return err
			}
			if err := d.compressedBlock(d.pos, d.pos+size); err != nil {
				return err
			}
			d.pos += size
		default:
			return d.errf(hdrAt, "reserved block type")
		}
		if last {
			break
		}
	}
	if contentSize >= 0 && int64(d.out-d.frameStart) != contentSize {
		return d.errf(d.pos, "frame decoded to %d bytes, its header says %d", d.out-d.frameStart, contentSize)
	}
	if checksum {
		if err := d.need(4, "content checksum"); err != nil {
			return err
		}
		want := binary.LittleEndian.Uint32(d.src[d.pos:])
		if got := uint32(xxh64(d.dst[d.frameStart:d.out])); got != want {
			return d.errf(d.pos, "content checksum mismatch: 0x%08x, stored 0x%08x", got, want)
		}
		d.pos += 4
	}
	return nil
}

// room checks that n more bytes fit in dst.
func (d *decoder) room(n, at int) error {
	if n > len(d.dst)-d.out {
		return d.errf(at, "output exceeds the %d bytes expected", len(d.dst))
	}
	return nil
}

// compressedBlock decodes the compressed block in src[start:end].
func (d *decoder) compressedBlock(start, end int) error {
	p, err := d.literals(start, end)
	if err != nil {
		return err
	}
	return d.sequences(p, end)
}

// literals decodes the literals section at src[p:end] into d.lits and
// returns the offset of the sequences section.
func (d *decoder) literals(p, end int) (int, error) {
	if p >= end {
		return 0, d.errf(p, "truncated literals section header")
	}
	b0 := d.src[p]
	typ := b0 & 3
	sf := (b0 >> 2) & 3
	var regen, comp, hdr int
	streams := 1
	if typ < 2 {
		switch sf {
		case 0, 2:
			hdr, regen = 1, int(b0>>3)
		case 1:
			hdr = 2
		case 3:
			hdr = 3
		}
		if p+hdr > end {
			return 0, d.errf(p, "truncated literals section header")
		}
		switch hdr {
		case 2:
			regen = int(b0>>4) | int(d.src[p+1])<<4
		case 3:
			regen = int(b0>>4) | int(d.src[p+1])<<4 | int(d.src[p+2])<<12
		}
	} else {
		var sizeBits uint
		switch sf {
		case 0:
			hdr, sizeBits = 3, 10
		case 1:
			hdr, sizeBits, streams = 3, 10, 4
		case 2:
			hdr, sizeBits, streams = 4, 14, 4
		case 3:
			hdr, sizeBits, streams = 5, 18, 4
		}
		if p+hdr > end {
			return 0, d.errf(p, "truncated literals section header")
		}
		var v uint64
		for i := hdr - 1; i >= 0; i-- {
			v = v<<8 | uint64(d.src[p+i])
		}
		mask := uint64(1)<<sizeBits - 1
		regen = int((v >> 4) & mask)
		comp = int((v >> (4 + sizeBits)) & mask)
	}
	if regen > maxBlockSize {
		return 0, d.errf(p, "literals of %d bytes exceed 128 KiB", regen)
	}
	if cap(d.lits) < regen {
		d.lits = make([]byte, regen, max(regen, 4096))
	}
	d.lits = d.lits[:regen]
	p += hdr
	switch typ {
	case 0:
		if regen > end-p {
			return 0, d.errf(p, "truncated raw literals")
		}
		copy(d.lits, d.src[p:p+regen])
		return p + regen, nil
	case 1:
		if p >= end {
			return 0, d.errf(p, "truncated RLE literals")
		}
		for i := range d.lits {
			d.lits[i] = d.src[p]
		}
		return p + 1, nil
	}
	if comp > end-p {
		return 0, d.errf(p, "compressed literals of %d bytes overrun the block", comp)
	}
	lend := p + comp
	if typ == 2 {
		n, err := d.readHuffman(p, lend)
		if err != nil {
			return 0, err
		}
		p = n
		d.hasHuf = true
	} else if !d.hasHuf {
		return 0, d.errf(p, "treeless literals without a previous Huffman table")
	}
	if streams == 1 {
		if err := d.huf.decodeStream(d.lits, d.src[p:lend], p); err != nil {
			return 0, err
		}
		return lend, nil
	}
	if lend-p < 6 {
		return 0, d.errf(p, "truncated literals jump table")
	}
	s1 := int(binary.LittleEndian.Uint16(d.src[p:]))
	s2 := int(binary.LittleEndian.Uint16(d.src[p+2:]))
	s3 := int(binary.LittleEndian.Uint16(d.src[p+4:]))
	p += 6
	if s1+s2+s3 > lend-p {
		return 0, d.errf(p-6, "literals jump table overruns the section")
	}
	seg := (regen + 3) / 4
	if 3*seg > regen {
		return 0, d.errf(p, "four literal streams for only %d literals", regen)
	}
	bounds := [5]int{p, p + s1, p + s1 + s2, p + s1 + s2 + s3, lend}
	for i := range 4 {
		lo, hi := i*seg, (i+1)*seg
		if i == 3 {
			hi = regen
		}
		if err := d.huf.decodeStream(d.lits[lo:hi], d.src[bounds[i]:bounds[i+1]], bounds[i]); err != nil {
			return 0, err
		}
	}
	return lend, nil
}
