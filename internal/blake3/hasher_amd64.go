//go:build amd64 && !purego

package blake3

import "github.com/upkg/upkg/internal/cpuid"

// hasAVX512 reports whether the CPU has AVX2, AVX-512F and VL and the OS saves its
// registers: CPUID's OSXSAVE bit, then XCR0's SSE, AVX, opmask and both
// ZMM state bits (1, 2, 5, 6, 7).
//
// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers (XCR0 bits 1 and 2).
var hasAVX2, hasAVX512 = detectCPU()

func detectCPU() (avx2, avx512 bool) {
	maxLeaf, _, _, _ := cpuid.CPUID(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid.CPUID(1, 0)
	const osxsave = 1 << 27
	if ecx1&osxsave == 0 {
		return false, false
	}
	xcr0, _ := cpuid.XGETBV()
	_, ebx7, _, _ := cpuid.CPUID(7, 0)
	const ymmState = 1<<1 | 1<<2
	const zmmState = ymmState | 1<<5 | 1<<6 | 1<<7
	const bitAVX2, bitAVX512F, bitAVX512VL = 1 << 5, 1 << 16, 1 << 31
	avx2 = xcr0&ymmState == ymmState && ebx7&bitAVX2 != 0
	avx512 = avx2 && xcr0&zmmState == zmmState && ebx7&bitAVX512F != 0 && ebx7&bitAVX512VL != 0
	return avx2, avx512
}

// compressAVX512 is compressGeneric with the state in XMM rows.
//
//go:noescape
func compressAVX512(out, cv *[8]uint32, m *[16]uint32, counter uint64, n, flags uint32)

// compressBlocksAVX512 is compressBlocksGeneric for nblocks (at least 1)
// blocks at p.
//
//go:noescape
func compressBlocksAVX512(cv *[8]uint32, p *byte, nblocks int, counter uint64, flags uint32)

func compressBlocks(cv *[8]uint32, p []byte, counter uint64, flags uint32) {
	// The assembly reads n*blockLen bytes from &p[0], all inside p.
	switch n := len(p) / blockLen; {
	case n == 0:
	case hasAVX512:
		compressBlocksAVX512(cv, &p[0], n, counter, flags)
	case hasAVX2:
		compressBlocksAVX2(cv, &p[0], n, counter, flags)
	default:
		compressBlocksGeneric(cv, p, counter, flags)
	}
}

func compress(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) (out [8]uint32) {
	switch {
	case hasAVX512:
		compressAVX512(&out, cv, m, counter, n, flags)
		return out
	case hasAVX2:
		compressAVX2(&out, cv, m, counter, n, flags)
		return out
	}
	return compressGeneric(cv, m, counter, n, flags)
}

// Hasher computes a BLAKE3 hash incrementally. The zero value is not ready;
// use [New].
type Hasher struct {
	w *wide     // with AVX2 or AVX-512
	p *portable // without
}

// New returns a Hasher in the default hash mode.
func New() *Hasher {
	if hasAVX2 {
		return &Hasher{w: new(wide)}
	}
	p := newPortable()
	return &Hasher{p: &p}
}

// Reset returns h to its state after [New], for reuse.
func (h *Hasher) Reset() {
	if h.w != nil {
		h.w.reset()
		return
	}
	*h.p = newPortable()
}

// Write adds p to the hash. It never fails.
func (h *Hasher) Write(p []byte) (int, error) {
	if h.w != nil {
		h.w.write(p)
		return len(p), nil
	}
	return h.p.Write(p)
}

// Sum256 returns the 32-byte hash of everything written so far.
func (h *Hasher) Sum256() [32]byte {
	if h.w != nil {
		return h.w.sum256()
	}
	return h.p.Sum256()
}

// Sum256 returns the BLAKE3 hash of data.
func Sum256(data []byte) [32]byte {
	if hasAVX2 {
		return sumWide(data)
	}
	return sumPortable(data)
}
