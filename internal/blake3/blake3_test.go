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
	// The BLAKE3 reference test_vectors.json inputs (first 32 bytes of
	// output); the multi-chunk ones cover whole chunks hashed in place,
	// the tree merges and the last chunk kept for the root.
	tests := []struct {
		n    int
		want string
	}{
		{0, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{1, "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213"},
		{1023, "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11"},
		{1024, "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7"},
		{1025, "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444"},
		{2048, "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a"},
		{2049, "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030"},
		{3072, "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd2"},
		{3073, "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd3"},
		{4096, "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e969"},
		{4097, "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995"},
		{8193, "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b"},
		{31744, "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47"},
		{102400, "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"},
	}
	for _, tt := range tests {
		for name, sum := range map[string]func([]byte) [32]byte{"Sum256": Sum256, "portable": sumPortable} {
			got := sum(input(tt.n))
			if hex.EncodeToString(got[:]) != tt.want {
				t.Errorf("%s, len %d: have %x, want %s", name, tt.n, got, tt.want)
			}
		}
	}
}

// TestPortable checks that [Hasher] (the assembly one on amd64) agrees with
// the portable code on every length up to a few chunks and on larger inputs
// around the tree's power-of-two boundaries, with one write and with split
// writes.
func TestPortable(t *testing.T) {
	var lengths []int
	for n := 0; n <= 5000; n++ {
		lengths = append(lengths, n)
	}
	for _, k := range []int{8, 16, 17, 32, 64, 65, 128, 1000} {
		lengths = append(lengths, k*chunkLen-1, k*chunkLen, k*chunkLen+1)
	}
	data := make([]byte, lengths[len(lengths)-1])
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	for _, n := range lengths {
		want := sumPortable(data[:n])
		if got := Sum256(data[:n]); got != want {
			t.Fatalf("Sum256 len %d: have %x, want %x", n, got, want)
		}
		h := New()
		step := n/3 + 1
		for i := 0; i < n; i += step {
			h.Write(data[i:min(i+step, n)])
		}
		if got := h.Sum256(); got != want {
			t.Fatalf("Hasher len %d in writes of %d: have %x, want %x", n, step, got, want)
		}
	}
}

// TestIncremental checks that split writes give the same hash as one write,
// across chunk and block boundaries.
func TestIncremental(t *testing.T) {
	data := input(9000)
	want := Sum256(data)
	p := newPortable()
	for i := 0; i < len(data); i += 100 {
		p.Write(data[i:min(i+100, len(data))])
	}
	if got := p.Sum256(); got != want {
		t.Errorf("portable, step 100: have %x, want %x", got, want)
	}
	h := New()
	for _, step := range []int{1, 63, 64, 65, 1023, 1024, 1025, 4096} {
		h.Reset()
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

func BenchmarkPortable(b *testing.B) {
	data := input(1 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sumPortable(data)
	}
}
