//go:build amd64 && !purego

package blake3

import (
	"math/rand/v2"
	"testing"

	zeebo "github.com/zeebo/blake3"
)

// splits are the write sizes the differential tests feed hashers with.
var splits = []int{1, 63, 64, 65, 1023, 1024, 1025, 8191, 16 << 10, 16<<10 + 1, 64 << 10}

// TestWide checks the AVX-512 hasher (when the CPU has it) against the
// portable code and github.com/zeebo/blake3 on every length up to 20 KiB,
// in one piece and split into writes of each size in splits.
func TestWide(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	data := make([]byte, 20<<10)
	fill(rand.New(rand.NewPCG(1, 2)), data)
	for n := 0; n <= len(data); n++ {
		checkWide(t, data[:n], n%97 == 0 || n%1024 <= 1 || n%1024 == 1023)
	}
}

// TestWideLong checks long random inputs, around the subtree sizes and
// at random lengths, with writes of every size in splits.
func TestWideLong(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
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
	for _, n := range lengths {
		checkWide(t, data[:n], true)
	}
}

func checkWide(t *testing.T, data []byte, splitAll bool) {
	t.Helper()
	want := zeebo.Sum256(data)
	if got := sumWide(data); got != want {
		t.Fatalf("sumWide len %d: have %x, want %x", len(data), got, want)
	}
	if len(data) <= 20<<10 {
		if got := sumPortable(data); got != want {
			t.Fatalf("portable len %d: have %x, want %x", len(data), got, want)
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

// FuzzWide compares the AVX-512 hasher with the portable one and zeebo on
// arbitrary input, written in pieces of a fuzzed size.
func FuzzWide(f *testing.F) {
	f.Add([]byte("abc"), uint16(1))
	f.Add(make([]byte, 5000), uint16(1024))
	f.Add(make([]byte, 40000), uint16(17000))
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		want := zeebo.Sum256(data)
		if got := sumPortable(data); got != want {
			t.Fatalf("portable len %d: have %x, want %x", len(data), got, want)
		}
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
