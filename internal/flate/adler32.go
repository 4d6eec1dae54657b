package flate

import "encoding/binary"

// adlerMod is the Adler-32 modulus (RFC 1950 8.2).
const adlerMod = 65521

// adlerBlock is the bytes adlerChecksum sums before reducing modulo
// adlerMod: a multiple of adlerChunk small enough that s2 stays far below
// 2^64 (s1 < 2^25, s2 < 2^41).
const adlerBlock = 1 << 16

// adlerChunk is the bytes whose sums adlerChecksum gathers in 16-bit lanes
// before adding them up: small enough that no lane overflows.
const adlerChunk = 64

// adlerChecksum returns the Adler-32 checksum of p, like
// hash/adler32.Checksum, eight bytes at a time.
//
// Over a chunk of N = 8K bytes b[i], s1 grows by S = Σ b[i] and s2 by
// N·s1 + Σ (N-i)·b[i]. Writing i = 8k+j, that sum is
// 8·Σ_k (K-k)·S_k - Σ_j j·L_j, where S_k is the sum of the k-th eight bytes
// and L_j the sum of the bytes at position j of each eight; and
// Σ_k (K-k)·S_k = S + P, P being the sum over k of all bytes before the
// k-th eight. Word z gathers L_2m + L_2m+1 in its 16-bit lane m, y the
// L_2m+1 and q the lanes of P, so Σ_j j·L_j = Σ_m 2m·z_m + Σ_m y_m. With
// K = 8 a lane of z stays below 8·510, of q below 28·510, and each sum
// over the lanes that a multiplication forms in the top lane below 2^16.
func adlerChecksum(p []byte) uint32 {
	const (
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001 // top lane: the sum of the lanes
		twoM  = 0x0000000200040006 // top lane: Σ 2m·lane m
	)
	s1, s2 := uint64(1), uint64(0)
	for len(p) >= adlerChunk {
		n := min(len(p), adlerBlock) &^ (adlerChunk - 1)
		for i := 0; i < n; i += adlerChunk {
			c := (*[adlerChunk]byte)(p[i : i+adlerChunk])
			var z, y, q, w, o uint64
			w = binary.LittleEndian.Uint64(c[0:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[8:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[16:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[24:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[32:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[40:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[48:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			w = binary.LittleEndian.Uint64(c[56:])
			q += z
			o = w >> 8 & lanes
			z += w&lanes + o
			y += o
			sum := z * ones >> 48
			prev := q * ones >> 48
			weighted := (z*twoM + y*ones) >> 48
			s2 += adlerChunk*s1 + 8*(sum+prev) - weighted
			s1 += sum
		}
		p = p[n:]
		s1 %= adlerMod
		s2 %= adlerMod
	}
	for _, c := range p {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
}
