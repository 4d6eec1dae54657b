//go:build !(js && wasm)

package sha1

import (
	"crypto/sha1"
	"hash"
)

// New returns a new hash.Hash computing the SHA-1 checksum.
func New() hash.Hash { return sha1.New() }

// Sum returns the SHA-1 checksum of data.
func Sum(data []byte) [Size]byte { return sha1.Sum(data) }
