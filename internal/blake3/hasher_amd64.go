//go:build amd64 && !purego

package blake3

import zeebo "github.com/zeebo/blake3"

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// hasAVX512 reports whether the CPU has AVX-512F and VL and the OS saves its
// registers: CPUID's OSXSAVE bit, then XCR0's SSE, AVX, opmask and both
// ZMM state bits (1, 2, 5, 6, 7).
var hasAVX512 = detectAVX512()

func detectAVX512() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave = 1 << 27
	if ecx1&osxsave == 0 {
		return false
	}
	xcr0, _ := xgetbv()
	const zmmState = 1<<1 | 1<<2 | 1<<5 | 1<<6 | 1<<7
	if xcr0&zmmState != zmmState {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx512f, avx512vl = 1 << 16, 1 << 31
	return ebx7&avx512f != 0 && ebx7&avx512vl != 0
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
	if n := len(p) / blockLen; hasAVX512 && n > 0 {
		// Reads n*blockLen bytes from &p[0], all inside p.
		compressBlocksAVX512(cv, &p[0], n, counter, flags)
		return
	}
	compressBlocksGeneric(cv, p, counter, flags)
}

func compress(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) (out [8]uint32) {
	if hasAVX512 {
		compressAVX512(&out, cv, m, counter, n, flags)
		return out
	}
	return compressGeneric(cv, m, counter, n, flags)
}

// Hasher computes a BLAKE3 hash incrementally. The zero value is not ready;
// use [New].
type Hasher struct {
	w *wide         // with AVX-512
	z *zeebo.Hasher // without
}

// New returns a Hasher in the default hash mode.
func New() *Hasher {
	if hasAVX512 {
		return &Hasher{w: new(wide)}
	}
	return &Hasher{z: zeebo.New()}
}

// Reset returns h to its state after [New], for reuse.
func (h *Hasher) Reset() {
	if h.w != nil {
		h.w.reset()
		return
	}
	h.z.Reset()
}

// Write adds p to the hash. It never fails.
func (h *Hasher) Write(p []byte) (int, error) {
	if h.w != nil {
		h.w.write(p)
		return len(p), nil
	}
	return h.z.Write(p)
}

// Sum256 returns the 32-byte hash of everything written so far.
func (h *Hasher) Sum256() (out [32]byte) {
	if h.w != nil {
		return h.w.sum256()
	}
	h.z.Sum(out[:0])
	return out
}

// Sum256 returns the BLAKE3 hash of data.
func Sum256(data []byte) [32]byte {
	if hasAVX512 {
		return sumWide(data)
	}
	return zeebo.Sum256(data)
}
