//go:build !amd64 || purego

package blake3

// Hasher computes a BLAKE3 hash incrementally. The zero value is not ready;
// use [New].
type Hasher struct{ portable }

// New returns a Hasher in the default hash mode.
func New() *Hasher { return &Hasher{newPortable()} }

// Sum256 returns the BLAKE3 hash of data.
func Sum256(data []byte) [32]byte { return sumPortable(data) }

// Reset returns h to its state after [New], for reuse.
func (h *Hasher) Reset() { h.portable = newPortable() }

func compress(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) [8]uint32 {
	return compressGeneric(cv, m, counter, n, flags)
}

func compressBlocks(cv *[8]uint32, p []byte, counter uint64, flags uint32) {
	compressBlocksGeneric(cv, p, counter, flags)
}
