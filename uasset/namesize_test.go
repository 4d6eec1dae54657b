package uasset

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// TestNameMapSizeBytes checks that the byte loop gives what nameMapSize
// gives over a reader of the same bytes: well-formed maps, maps cut short,
// lying lengths and random bytes, in both byte orders.
func TestNameMapSizeBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 20000; iter++ {
		big := iter%2 == 1
		var order binary.AppendByteOrder = binary.LittleEndian
		if big {
			order = binary.BigEndian
		}
		var b []byte
		for range rng.IntN(8) {
			b = append(b, byte(rng.IntN(256)))
		}
		n := rng.IntN(12)
		for i := 0; i < n; i++ {
			var l int32
			switch rng.IntN(8) {
			case 0:
				l = int32(rng.Uint32()) // anything
			case 1:
				l = math.MinInt32
			case 2:
				l = -int32(rng.IntN(6))
			default:
				l = int32(rng.IntN(10))
			}
			b = order.AppendUint32(b, uint32(l))
			k := int(l)
			if k < 0 {
				k = -2 * k
			}
			for range min(max(k, 0)+rng.IntN(3)*4, 64) {
				b = append(b, byte(rng.IntN(256)))
			}
		}
		if rng.IntN(4) == 0 && len(b) > 0 {
			b = b[:rng.IntN(len(b))]
		}
		off := int64(rng.IntN(len(b) + 1))
		count := rng.IntN(n + 3)
		hashes := rng.IntN(2) == 0
		r := binread.FromBytes(b)
		if big {
			r.SetOrder(binary.BigEndian)
		}
		r.SeekTo(off, "")
		want := nameMapSize(*r, count, hashes)
		if got := nameMapSizeBytes(b, off, count, hashes, big); got != want {
			t.Fatalf("bytes % x at %d, count %d, hashes %v, big %v: %d, want %d", b, off, count, hashes, big, got, want)
		}
	}
}
