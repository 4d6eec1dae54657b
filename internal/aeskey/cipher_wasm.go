//go:build js && wasm

package aeskey

// newBlock returns the package's own AES-256: crypto/aes would add the
// crypto/internal/fips140 module to the WebAssembly.
func newBlock(key []byte) (block, error) { return newAES256(key), nil }

// XORKeyStreamCTR XORs buf in place with the AES-CTR key stream starting at
// the counter block iv (incremented as one 128-bit big-endian number).
func (c *Cipher) XORKeyStreamCTR(iv [BlockSize]byte, buf []byte) { ctr(c.b, iv, buf) }
