package flate

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdler32 compares adler32 with hash/adler32 on random data and on
// runs of 0xff (the largest sums) of many lengths, around the block size.
func TestAdler32(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rnd := make([]byte, 3*adlerBlock+100)
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	ff := make([]byte, len(rnd))
	for i := range ff {
		ff[i] = 0xff
	}
	for _, data := range [][]byte{rnd, ff} {
		for n := range 70 {
			for _, m := range []int{n, adlerBlock - 35 + n, 2*adlerBlock - 35 + n, len(data) - n} {
				if got, want := adlerChecksum(data[:m]), adler32.Checksum(data[:m]); got != want {
					t.Fatalf("%d bytes: %#x, want %#x", m, got, want)
				}
			}
		}
	}
}

func BenchmarkAdler32(b *testing.B) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			adler32.Checksum(data)
		}
	})
	b.Run("own", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			adlerChecksum(data)
		}
	})
}
