//go:build js && wasm

package sha1

import "hash"

// New returns a new hash.Hash computing the SHA-1 checksum.
func New() hash.Hash { return newDigest() }

// Sum returns the SHA-1 checksum of data.
func Sum(data []byte) [Size]byte { return sumOwn(data) }
