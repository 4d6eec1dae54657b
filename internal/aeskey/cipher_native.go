//go:build !(js && wasm)

package aeskey

import (
	"crypto/aes"
	"crypto/cipher"
)

// newBlock returns crypto/aes's cipher (hardware AES where there is one).
func newBlock(key []byte) (block, error) { return aes.NewCipher(key) }

// XORKeyStreamCTR XORs buf in place with the AES-CTR key stream starting at
// the counter block iv (incremented as one 128-bit big-endian number).
func (c *Cipher) XORKeyStreamCTR(iv [BlockSize]byte, buf []byte) {
	cipher.NewCTR(c.b.(cipher.Block), iv[:]).XORKeyStream(buf, buf)
}
