//go:build amd64 && !purego

package blake3

import zeebo "github.com/zeebo/blake3"

// Hasher computes a BLAKE3 hash incrementally. The zero value is not ready;
// use [New].
type Hasher struct{ h *zeebo.Hasher }

// New returns a Hasher in the default hash mode.
func New() *Hasher { return &Hasher{zeebo.New()} }

// Reset returns h to its state after [New], for reuse.
func (h *Hasher) Reset() { h.h.Reset() }

// Write adds p to the hash. It never fails.
func (h *Hasher) Write(p []byte) (int, error) { return h.h.Write(p) }

// Sum256 returns the 32-byte hash of everything written so far.
func (h *Hasher) Sum256() (out [32]byte) {
	h.h.Sum(out[:0])
	return out
}

// Sum256 returns the BLAKE3 hash of data.
func Sum256(data []byte) [32]byte { return zeebo.Sum256(data) }
