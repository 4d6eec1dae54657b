package flate

import (
	"encoding/binary"
	"hash/adler32"
	"io"
	"math/bits"
)

const (
	windowSize = 1 << 15 // DEFLATE's largest distance
	minMatch   = 3
	maxMatch   = 258
	hashBits   = 15
	maxChain   = 32 // candidates tried per position: speed against size
)

// fixedLitCode and fixedDistCode are the fixed Huffman codes (RFC 1951
// 3.2.6), bit-reversed for writing least significant bit first.
var (
	fixedLitCode  [288]uint16
	fixedLitLen   [288]uint8
	fixedDistCode [30]uint16
)

func init() {
	for i := range fixedLitLen {
		switch {
		case i < 144, i >= 280:
			fixedLitLen[i] = 8
		case i < 256:
			fixedLitLen[i] = 9
		default:
			fixedLitLen[i] = 7
		}
	}
	code := 0
	for l := uint8(1); l <= maxCodeLen; l++ {
		for sym, sl := range fixedLitLen {
			if sl == l {
				fixedLitCode[sym] = bits.Reverse16(uint16(code)) >> (16 - l)
				code++
			}
		}
		code <<= 1
	}
	for d := range fixedDistCode {
		fixedDistCode[d] = bits.Reverse16(uint16(d)) >> 11
	}
}

// bitWriter appends bits to out, least significant bit first.
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
}

func (w *bitWriter) put(v uint32, n uint) {
	w.bits |= uint64(v) << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
}

func (w *bitWriter) lit(sym int) { w.put(uint32(fixedLitCode[sym]), uint(fixedLitLen[sym])) }

// match writes a length (3..258) and distance (1..32768) pair.
func (w *bitWriter) match(length, dist int) {
	i := len(lenBase) - 1
	for int(lenBase[i]) > length {
		i--
	}
	w.lit(257 + i)
	w.put(uint32(length-int(lenBase[i])), uint(lenExtra[i]))
	d := len(distBase) - 1
	for int(distBase[d]) > dist {
		d--
	}
	w.put(uint32(fixedDistCode[d]), 5)
	w.put(uint32(dist-int(distBase[d])), uint(distExtra[d]))
}

// Deflate appends src compressed as one DEFLATE block with the fixed
// Huffman codes to dst: greedy matching over hash chains.
func Deflate(dst, src []byte) []byte {
	w := &bitWriter{out: dst}
	w.put(1|1<<1, 3)                   // BFINAL, BTYPE 01
	head := make([]int32, 1<<hashBits) // position+1 of the last 3 bytes with each hash
	prev := make([]int32, windowSize)  // previous position+1 with the same hash
	hash := func(i int) int {
		v := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16
		return int((v * 0x9e3779b1) >> (32 - hashBits))
	}
	insert := func(i int) {
		if i+minMatch <= len(src) {
			h := hash(i)
			prev[i&(windowSize-1)] = head[h]
			head[h] = int32(i + 1)
		}
	}
	for i := 0; i < len(src); {
		bestLen, bestDist := 0, 0
		if i+minMatch <= len(src) {
			limit := min(maxMatch, len(src)-i)
			cand := int(head[hash(i)]) - 1
			for tries := 0; cand >= 0 && i-cand <= windowSize && tries < maxChain; tries++ {
				if src[cand+bestLen] == src[i+bestLen] || bestLen == 0 {
					l := 0
					for l < limit && src[cand+l] == src[i+l] {
						l++
					}
					if l > bestLen {
						bestLen, bestDist = l, i-cand
						if l == limit {
							break
						}
					}
				}
				next := int(prev[cand&(windowSize-1)]) - 1
				if next >= cand {
					break // the slot was reused by a newer position
				}
				cand = next
			}
		}
		if bestLen >= minMatch {
			w.match(bestLen, bestDist)
			for j := range bestLen {
				insert(i + j)
			}
			i += bestLen
			continue
		}
		w.lit(int(src[i]))
		insert(i)
		i++
	}
	w.lit(256)
	if w.n > 0 {
		w.put(0, 8-w.n)
	}
	return w.out
}

// ZlibWriter is a zlib stream writer that keeps what is written and
// compresses it with [Deflate] on Close (it stands in for compress/zlib's
// Writer in the WebAssembly build).
type ZlibWriter struct {
	w   io.Writer
	buf []byte
}

// NewZlibWriter returns a ZlibWriter writing to w.
func NewZlibWriter(w io.Writer) *ZlibWriter { return &ZlibWriter{w: w} }

// Write keeps p for Close.
func (z *ZlibWriter) Write(p []byte) (int, error) {
	z.buf = append(z.buf, p...)
	return len(p), nil
}

// Close writes the zlib stream: header, compressed data, Adler-32.
func (z *ZlibWriter) Close() error {
	out := Deflate([]byte{0x78, 0x01}, z.buf)
	out = binary.BigEndian.AppendUint32(out, adler32.Checksum(z.buf))
	z.buf = nil
	_, err := z.w.Write(out)
	return err
}
