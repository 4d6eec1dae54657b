package flate

import "encoding/binary"

// adlerMod is the Adler-32 modulus (RFC 1950 8.2).
const adlerMod = 65521

// adlerBlock is the bytes adler32 sums before reducing modulo adlerMod:
// a multiple of 8 small enough that no 32-bit lane of its sums overflows
// (see adlerChecksum).
const adlerBlock = 8 << 11

// adlerChecksum returns the Adler-32 checksum of p, like hash/adler32.Checksum,
// eight bytes at a time.
//
// For a block of N = 8K bytes b[i], s1 grows by S = Σ b[i] and s2 by
// N·s1 + Σ (N-i)·b[i]. Writing i = 8k+j, the sum is
// 8·Σ_k (K-k)·S_k - Σ_j j·L_j, where S_k is the sum of the k-th eight bytes
// and L_j the sum of the bytes at position j of each eight; and
// Σ_k (K-k)·S_k = S + P, P being the sum over k of all bytes before the
// k-th eight. Four words hold the L_j in two 32-bit lanes each (positions
// j and j+4), and one more the lanes of P. With K = 2048 a
// lane of P stays below 255·K²/2 and the sum of four below 2^32.
func adlerChecksum(p []byte) uint32 {
	const lanes = 0x000000ff000000ff
	s1, s2 := uint64(1), uint64(0)
	for len(p) >= 8 {
		n := min(len(p), adlerBlock) &^ 7
		var l0, l1, l2, l3, q uint64
		for i := 0; i < n; i += 8 {
			w := binary.LittleEndian.Uint64(p[i:])
			q += l0 + l1 + l2 + l3
			l0 += w & lanes
			l1 += w >> 8 & lanes
			l2 += w >> 16 & lanes
			l3 += w >> 24 & lanes
		}
		p = p[n:]
		l := l0 + l1 + l2 + l3
		sum := l&0xffffffff + l>>32
		prev := q&0xffffffff + q>>32
		weighted := 4*(l0>>32) + l1&0xffffffff + 5*(l1>>32) + 2*(l2&0xffffffff) + 6*(l2>>32) +
			3*(l3&0xffffffff) + 7*(l3>>32)
		s2 += uint64(n)*s1 + 8*(sum+prev) - weighted
		s1 += sum
		s1 %= adlerMod
		s2 %= adlerMod
	}
	for _, c := range p {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
}
