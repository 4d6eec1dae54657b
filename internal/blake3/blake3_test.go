package blake3

import (
	"encoding/hex"
	"testing"
)

// input returns the official test-vector input: byte i is i % 251.
func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

func TestVectors(t *testing.T) {
	// From the BLAKE3 reference test_vectors.json (first 32 bytes of output).
	tests := []struct {
		n    int
		want string
	}{
		{0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"},
	}
	for _, tt := range tests {
		got := Sum256(input(tt.n))
		if hex.EncodeToString(got[:]) != tt.want {
			t.Errorf("len %d: have %x, want %s", tt.n, got, tt.want)
		}
	}
}

// TestIncremental checks that split writes give the same hash as one write,
// across chunk and block boundaries.
func TestIncremental(t *testing.T) {
	data := input(9000)
	want := Sum256(data)
	for _, step := range []int{1, 63, 64, 65, 1023, 1024, 1025, 4096} {
		h := New()
		for i := 0; i < len(data); i += step {
			h.Write(data[i:min(i+step, len(data))])
		}
		if got := h.Sum256(); got != want {
			t.Errorf("step %d: have %x, want %x", step, got, want)
		}
	}
}

func BenchmarkSum256(b *testing.B) {
	data := input(1 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Sum256(data)
	}
}
