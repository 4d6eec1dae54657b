// Package aeskey parses the AES-256 keys users give for encrypted containers
// and decrypts in the mode Unreal uses (AES-256-ECB over 16-byte blocks).
package aeskey

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the AES-256 key length Unreal uses for paks and IoStore.
const KeySize = 32

// Parse accepts a key as 64 hex digits (with or without "0x"), as base64 of
// 32 bytes (standard or URL alphabet, padded or not), or as the 32 raw
// characters themselves (some projects use a printable key).
func Parse(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("aes key: empty")
	}
	h := s
	if strings.HasPrefix(h, "0x") || strings.HasPrefix(h, "0X") {
		h = h[2:]
	}
	if len(h) == 2*KeySize {
		if k, err := hex.DecodeString(h); err == nil {
			return k, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil && len(k) == KeySize {
			return k, nil
		}
	}
	if len(s) == KeySize {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("aes key: want 32 bytes as 64 hex digits (0x optional), base64, or the 32 characters themselves; got %d characters", len(s))
}

// CheckList checks a list of keys separated by commas (as --aes-key takes
// them; empty items are ignored): it returns the first key that does not
// parse, with its position when there are several.
func CheckList(s string) error {
	items := strings.Split(s, ",")
	n := 0
	for _, k := range items {
		if strings.TrimSpace(k) != "" {
			n++
		}
	}
	i := 0
	for _, k := range items {
		if strings.TrimSpace(k) == "" {
			continue
		}
		i++
		if _, err := Parse(k); err != nil {
			if n > 1 {
				return fmt.Errorf("key %d of %d: %w", i, n, err)
			}
			return err
		}
	}
	return nil
}

// Cipher is an AES-256 block cipher for the modes Unreal uses: ECB, and
// CTR for IoStore and pak containers that ask for it.
type Cipher struct {
	b block
	// dec is the decryption schedule of the ECB kernel (amd64 with
	// AES-NI; nil elsewhere).
	dec *[decKeyLen]byte
}

// decKeyLen is the size of an AES-256 schedule: 15 round keys.
const decKeyLen = (rounds256 + 1) * BlockSize

// block is the AES block cipher: crypto/aes natively, a small own one in
// the WebAssembly build (see newBlock).
type block interface {
	Encrypt(dst, src []byte)
	Decrypt(dst, src []byte)
}

// BlockSize is the AES block size.
const BlockSize = 16

// New makes a Cipher from a 32-byte key.
func New(key []byte) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("aes key: %d bytes, want %d", len(key), KeySize)
	}
	b, err := newBlock(key)
	if err != nil {
		return nil, err
	}
	return &Cipher{b: b, dec: newDecKey(key)}, nil
}

// DecryptECB decrypts buf in place; len(buf) must be a multiple of 16.
func (c *Cipher) DecryptECB(buf []byte) error {
	if len(buf)%BlockSize != 0 {
		return fmt.Errorf("aes: encrypted length %d is not a multiple of %d", len(buf), BlockSize)
	}
	if c.dec != nil {
		decryptECB(c.dec, buf)
		return nil
	}
	for i := 0; i < len(buf); i += BlockSize {
		c.b.Decrypt(buf[i:i+BlockSize], buf[i:i+BlockSize])
	}
	return nil
}

// EncryptECB encrypts buf in place (used by tests to build fixtures).
func (c *Cipher) EncryptECB(buf []byte) error {
	if len(buf)%BlockSize != 0 {
		return fmt.Errorf("aes: length %d is not a multiple of %d", len(buf), BlockSize)
	}
	for i := 0; i < len(buf); i += BlockSize {
		c.b.Encrypt(buf[i:i+BlockSize], buf[i:i+BlockSize])
	}
	return nil
}

// ctr XORs buf in place with the AES-CTR key stream that starts at the
// counter block iv, incremented as one 128-bit big-endian number (as
// crypto/cipher.NewCTR does).
func ctr(b block, iv [BlockSize]byte, buf []byte) {
	var ks [BlockSize]byte
	for len(buf) > 0 {
		b.Encrypt(ks[:], iv[:])
		n := xorBytes(buf, ks[:])
		buf = buf[n:]
		for i := BlockSize - 1; i >= 0; i-- {
			iv[i]++
			if iv[i] != 0 {
				break
			}
		}
	}
}

// xorBytes XORs the first min(len(dst), len(ks)) bytes of dst with ks and
// returns how many it did.
func xorBytes(dst, ks []byte) int {
	n := min(len(dst), len(ks))
	for i := range n {
		dst[i] ^= ks[i]
	}
	return n
}
