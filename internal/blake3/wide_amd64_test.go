//go:build amd64 && !purego

package blake3

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// isas runs f once per instruction set the CPU has (AVX-512, then AVX2
// with AVX-512 switched off), the wide hasher's kernels changing with it.
func isas(t *testing.T, f func(t *testing.T)) {
	if !hasAVX2 {
		t.Skip("no AVX2")
	}
	if hasAVX512 {
		t.Run("avx512", f)
	}
	t.Run("avx2", func(t *testing.T) {
		defer func(v bool) { hasAVX512 = v }(hasAVX512)
		hasAVX512 = false
		f(t)
	})
}

// reference returns the hash of data computed by the portable code with
// the portable compression function: no assembly at all.
func reference(data []byte) [32]byte {
	defer func(a, b bool) { hasAVX2, hasAVX512 = a, b }(hasAVX2, hasAVX512)
	hasAVX2, hasAVX512 = false, false
	return sumPortable(data)
}

// splits are the write sizes the differential tests feed hashers with.
var splits = []int{1, 63, 64, 65, 1023, 1024, 1025, 8191, 16 << 10, 16<<10 + 1, 64 << 10}

// TestVectorsISA runs the official vectors through the wide hasher with
// each instruction set, and through reference.
func TestVectorsISA(t *testing.T) {
	want := map[int]string{
		0:      "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
		1023:   "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11",
		2049:   "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030",
		8193:   "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b",
		31744:  "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47",
		102400: "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085",
	}
	for n, w := range want {
		if got := reference(input(n)); hex.EncodeToString(got[:]) != w {
			t.Errorf("reference, len %d: have %x, want %s", n, got, w)
		}
	}
	isas(t, func(t *testing.T) {
		for n, w := range want {
			if got := sumWide(input(n)); hex.EncodeToString(got[:]) != w {
				t.Errorf("len %d: have %x, want %s", n, got, w)
			}
		}
	})
}

// TestWide checks the wide hasher, with each instruction set the CPU has,
// against the portable code without assembly on every length up to
// 20 KiB, in one piece and split into writes of each size in splits.
func TestWide(t *testing.T) {
	data := make([]byte, 20<<10)
	fill(rand.New(rand.NewPCG(1, 2)), data)
	want := make([][32]byte, len(data)+1)
	for n := range want {
		want[n] = reference(data[:n])
	}
	isas(t, func(t *testing.T) {
		for n := 0; n <= len(data); n++ {
			checkWide(t, data[:n], want[n], n%97 == 0 || n%1024 <= 1 || n%1024 == 1023)
		}
	})
}

// TestWideLong checks long random inputs, around the subtree sizes and
// at random lengths, with writes of every size in splits.
func TestWideLong(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 4<<20)
	fill(r, data)
	var lengths []int
	for _, k := range []int{16, 17, 31, 32, 33, 48, 63, 64, 65, 127, 128, 129, 1024, 2048, 3072} {
		lengths = append(lengths, k*chunkLen-1, k*chunkLen, k*chunkLen+1)
	}
	for range 20 {
		lengths = append(lengths, r.IntN(len(data)))
	}
	want := make([][32]byte, len(lengths))
	for i, n := range lengths {
		want[i] = reference(data[:n])
	}
	isas(t, func(t *testing.T) {
		for i, n := range lengths {
			checkWide(t, data[:n], want[i], true)
		}
	})
}

func checkWide(t *testing.T, data []byte, want [32]byte, splitAll bool) {
	t.Helper()
	if got := sumWide(data); got != want {
		t.Fatalf("sumWide len %d: have %x, want %x", len(data), got, want)
	}
	if len(data) <= 20<<10 {
		if got := sumPortable(data); got != want {
			t.Fatalf("portable with assembly compress, len %d: have %x, want %x", len(data), got, want)
		}
	}
	var w wide
	for _, step := range splits {
		if !splitAll && step != 1025 {
			continue
		}
		w.reset()
		for i := 0; i < len(data); i += step {
			w.write(data[i:min(i+step, len(data))])
		}
		if got := w.sum256(); got != want {
			t.Fatalf("wide len %d in writes of %d: have %x, want %x", len(data), step, got, want)
		}
	}
	// Sum in the middle leaves the state as it was.
	w.reset()
	half := len(data) / 2
	w.write(data[:half])
	w.sum256()
	w.write(data[half:])
	if got := w.sum256(); got != want {
		t.Fatalf("wide len %d, sum after %d: have %x, want %x", len(data), half, got, want)
	}
}

// TestChunkLanes checks chunks16 (the kernels through it) on every lane
// count and last-chunk length.
func TestChunkLanes(t *testing.T) {
	data := make([]byte, 17*chunkLen)
	fill(rand.New(rand.NewPCG(5, 6)), data)
	isas(t, func(t *testing.T) {
		for n := 1; n <= 16; n++ {
			for _, lastLen := range []int{1, 63, 64, 65, 1000, 1023, 1024} {
				p := data[:(n-1)*chunkLen+lastLen]
				for _, counter := range []uint64{0, 16, 1 << 32, 1<<32 + 16, 1<<64 - 16} {
					var out [16][8]uint32
					chunks16(p, counter, &out)
					for i := range n {
						c := newChunkState(counter + uint64(i))
						c.update(p[i*chunkLen : min((i+1)*chunkLen, len(p))])
						o := c.output()
						if want := o.chainingValue(); out[i] != want {
							t.Fatalf("chunks n %d last %d counter %#x lane %d: have %x, want %x", n, lastLen, counter, i, out[i], want)
						}
					}
				}
			}
		}
		var cvs [64][8]uint32
		for i := range cvs {
			for j := range cvs[i] {
				cvs[i][j] = uint32(i*131 + j*7)
			}
		}
		for _, n := range []int{2, 4, 6, 8, 10, 14, 16, 32, 64} {
			c := cvs
			parents(c[:], n)
			for i := range n / 2 {
				if want := parentCV(cvs[2*i], cvs[2*i+1]); c[i] != want {
					t.Fatalf("parents of %d lane %d: have %x, want %x", n, i, c[i], want)
				}
			}
		}
	})
}

func TestKernelLanes(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	data := make([]byte, 17*chunkLen)
	fill(rand.New(rand.NewPCG(5, 6)), data)
	for n := 1; n <= 16; n++ {
		for _, lastLen := range []int{1, 63, 64, 65, 1000, 1023, 1024} {
			p := data[:(n-1)*chunkLen+lastLen]
			for _, counter := range []uint64{0, 16, 1 << 32, 1<<32 + 16, 1<<64 - 16} {
				want := make([][8]uint32, n)
				for i := range n {
					c := newChunkState(counter + uint64(i))
					c.update(p[i*chunkLen : min((i+1)*chunkLen, len(p))])
					o := c.output()
					want[i] = o.chainingValue()
				}
				var out [16][8]uint32
				chunks16(p, counter, &out)
				for i := range n {
					if out[i] != want[i] {
						t.Fatalf("chunks n %d last %d counter %#x lane %d: have %x, want %x", n, lastLen, counter, i, out[i], want[i])
					}
				}
				if n > 8 {
					continue
				}
				// The 16-lane kernel with few lanes too.
				var out16 [16][8]uint32
				last := p[(n-1)*chunkLen:]
				var pad [chunkLen]byte
				copy(pad[:], last)
				fb := (len(last) - 1) / blockLen
				flags := uint32(flagChunkEnd)
				if fb == 0 {
					flags |= flagChunkStart
				}
				hashChunks16(&p[0], n, counter, &out16, &pad[0], fb, uint32(len(last)-fb*blockLen), flags)
				for i := range n {
					if out16[i] != want[i] {
						t.Fatalf("chunks16 n %d last %d counter %#x lane %d: have %x, want %x", n, lastLen, counter, i, out16[i], want[i])
					}
				}
			}
		}
		var in [32][8]uint32
		for i := range in {
			for j := range in[i] {
				in[i][j] = uint32(i*131 + j*7 + n)
			}
		}
		var out, out8 [16][8]uint32
		hashParents16(&in, n, &out)
		if n <= 8 {
			hashParents8((*[16][8]uint32)(in[:16]), n, (*[8][8]uint32)(out8[:8]))
		}
		for i := range n {
			want := parentCV(in[2*i], in[2*i+1])
			if out[i] != want {
				t.Fatalf("parents n %d lane %d: have %x, want %x", n, i, out[i], want)
			}
			if n <= 8 && out8[i] != want {
				t.Fatalf("parents8 n %d lane %d: have %x, want %x", n, i, out8[i], want)
			}
		}
	}
}

// FuzzWide compares [Sum256] and [Hasher] (the wide hasher with the best
// instruction set) with the portable code without assembly on arbitrary
// input, written in pieces of a fuzzed size.
func FuzzWide(f *testing.F) {
	f.Add([]byte("abc"), uint16(1))
	f.Add(make([]byte, 5000), uint16(1024))
	f.Add(make([]byte, 40000), uint16(17000))
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		want := reference(data)
		if got := Sum256(data); got != want {
			t.Fatalf("Sum256 len %d: have %x, want %x", len(data), got, want)
		}
		h := New()
		s := max(int(step), 1)
		for i := 0; i < len(data); i += s {
			h.Write(data[i:min(i+s, len(data))])
		}
		if got := h.Sum256(); got != want {
			t.Fatalf("Hasher len %d in writes of %d: have %x, want %x", len(data), s, got, want)
		}
	})
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// TestCompress checks the assembly compression functions against the
// portable one.
func TestCompress(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	data := make([]byte, 16*blockLen)
	fill(r, data)
	for range 1000 {
		var cv [8]uint32
		var m [16]uint32
		for i := range cv {
			cv[i] = r.Uint32()
		}
		for i := range m {
			m[i] = r.Uint32()
		}
		counter, n, flags := r.Uint64(), r.Uint32N(65), r.Uint32N(16)
		want := compressGeneric(&cv, &m, counter, n, flags)
		var got [8]uint32
		if hasAVX2 {
			compressAVX2(&got, &cv, &m, counter, n, flags)
			if got != want {
				t.Fatalf("compressAVX2: have %x, want %x", got, want)
			}
		}
		if hasAVX512 {
			compressAVX512(&got, &cv, &m, counter, n, flags)
			if got != want {
				t.Fatalf("compressAVX512: have %x, want %x", got, want)
			}
		}
	}
	for nb := 1; nb <= 16; nb++ {
		want := iv
		flags := uint32(flagChunkStart)
		for b := range nb {
			m := words(data[b*blockLen : (b+1)*blockLen])
			want = compressGeneric(&want, &m, 5, blockLen, flags)
			flags = 0
		}
		if hasAVX2 {
			cv := iv
			compressBlocksAVX2(&cv, &data[0], nb, 5, flagChunkStart)
			if cv != want {
				t.Fatalf("compressBlocksAVX2 %d blocks: have %x, want %x", nb, cv, want)
			}
		}
		if hasAVX512 {
			cv := iv
			compressBlocksAVX512(&cv, &data[0], nb, 5, flagChunkStart)
			if cv != want {
				t.Fatalf("compressBlocksAVX512 %d blocks: have %x, want %x", nb, cv, want)
			}
		}
	}
}
