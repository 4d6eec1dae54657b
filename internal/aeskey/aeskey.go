// Package aeskey parses the AES-256 keys users give for encrypted containers
// and decrypts in the mode Unreal uses (AES-256-ECB over 16-byte blocks).
package aeskey

import (
	"crypto/aes"
	"crypto/cipher"
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
	return nil, fmt.Errorf("aes key: want 32 bytes as 64 hex digits (0x optional) or base64; got %d characters", len(s))
}

// Cipher is an AES-256 block cipher for in-place ECB decryption.
type Cipher struct{ b cipher.Block }

// New makes a Cipher from a 32-byte key.
func New(key []byte) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("aes key: %d bytes, want %d", len(key), KeySize)
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return &Cipher{b: b}, nil
}

// DecryptECB decrypts buf in place; len(buf) must be a multiple of 16.
func (c *Cipher) DecryptECB(buf []byte) error {
	if len(buf)%aes.BlockSize != 0 {
		return fmt.Errorf("aes: encrypted length %d is not a multiple of %d", len(buf), aes.BlockSize)
	}
	for i := 0; i < len(buf); i += aes.BlockSize {
		c.b.Decrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	return nil
}

// EncryptECB encrypts buf in place (used by tests to build fixtures).
func (c *Cipher) EncryptECB(buf []byte) error {
	if len(buf)%aes.BlockSize != 0 {
		return fmt.Errorf("aes: length %d is not a multiple of %d", len(buf), aes.BlockSize)
	}
	for i := 0; i < len(buf); i += aes.BlockSize {
		c.b.Encrypt(buf[i:i+aes.BlockSize], buf[i:i+aes.BlockSize])
	}
	return nil
}
