package aeskey

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAES256FIPS197 checks the own AES-256 with the example vector of
// FIPS-197 appendix C.3.
func TestAES256FIPS197(t *testing.T) {
	key := unhex(t, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	plain := unhex(t, "00112233445566778899aabbccddeeff")
	want := unhex(t, "8ea2b7ca516745bfeafc49904b496089")
	c := newAES256(key)
	got := make([]byte, 16)
	c.Encrypt(got, plain)
	if !bytes.Equal(got, want) {
		t.Fatalf("encrypt: have %x, want %x", got, want)
	}
	c.Decrypt(got, got)
	if !bytes.Equal(got, plain) {
		t.Fatalf("decrypt: have %x, want %x", got, plain)
	}
}

// TestAES256MatchesCrypto compares the own AES-256 with crypto/aes on
// random keys and blocks, including dst == src.
func TestAES256MatchesCrypto(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	key := make([]byte, KeySize)
	src := make([]byte, 16)
	for i := range 200 {
		for j := range key {
			key[j] = byte(r.Uint32())
		}
		for j := range src {
			src[j] = byte(r.Uint32())
		}
		ref, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		own := newAES256(key)
		want, got := make([]byte, 16), make([]byte, 16)
		ref.Encrypt(want, src)
		own.Encrypt(got, src)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d: encrypt %x with %x: have %x, want %x", i, src, key, got, want)
		}
		ref.Decrypt(want, src)
		copy(got, src)
		own.Decrypt(got, got)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d: decrypt %x with %x: have %x, want %x", i, src, key, got, want)
		}
	}
}

// TestDecryptECBMatchesCrypto compares Cipher.DecryptECB (the AES-NI
// kernel where there is one: eight blocks at a time, then one by one) with
// crypto/aes block by block, for every count of blocks up to 20 and a
// larger one, under random keys.
func TestDecryptECBMatchesCrypto(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	key := make([]byte, KeySize)
	for i := range 20 {
		for j := range key {
			key[j] = byte(r.Uint32())
		}
		ref, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(key)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			t.Logf("ECB kernel: %v", c.dec != nil)
		}
		for _, blocks := range []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 20, 1003} {
			data := make([]byte, blocks*BlockSize)
			for j := range data {
				data[j] = byte(r.Uint32())
			}
			want := bytes.Clone(data)
			for j := 0; j < len(want); j += BlockSize {
				ref.Decrypt(want[j:j+BlockSize], want[j:j+BlockSize])
			}
			if err := c.DecryptECB(data); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, want) {
				t.Fatalf("key %x, %d blocks: the decryptions differ", key, blocks)
			}
		}
	}
}

// TestCTRMatchesCrypto compares the own CTR mode with crypto/cipher's,
// across the 128-bit counter carry and for lengths that are not whole
// blocks.
func TestCTRMatchesCrypto(t *testing.T) {
	key := []byte("CUE4ParseFixtureAESKey0123456789")
	ref, _ := aes.NewCipher(key)
	own := newAES256(key)
	ivs := [][BlockSize]byte{
		{},
		{0: 1, 15: 0xfe},
		{8: 0xff, 9: 0xff, 10: 0xff, 11: 0xff, 12: 0xff, 13: 0xff, 14: 0xff, 15: 0xfd},
		{0: 0xff, 1: 0xff, 2: 0xff, 3: 0xff, 4: 0xff, 5: 0xff, 6: 0xff, 7: 0xff, 8: 0xff, 9: 0xff, 10: 0xff, 11: 0xff, 12: 0xff, 13: 0xff, 14: 0xff, 15: 0xff},
	}
	for _, iv := range ivs {
		for _, n := range []int{0, 1, 15, 16, 17, 100, 4096} {
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(i * 7)
			}
			want := bytes.Clone(data)
			cipher.NewCTR(ref, iv[:]).XORKeyStream(want, want)
			ctr(own, iv, data)
			if !bytes.Equal(data, want) {
				t.Fatalf("iv %x, %d bytes: have %x, want %x", iv, n, data, want)
			}
		}
	}
}

func TestCipherModes(t *testing.T) {
	c, err := New([]byte("CUE4ParseFixtureAESKey0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	plain := bytes.Repeat([]byte("0123456789abcdef"), 4)
	buf := bytes.Clone(plain)
	if err := c.EncryptECB(buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(buf, plain) {
		t.Fatal("EncryptECB did nothing")
	}
	if err := c.DecryptECB(buf); err != nil || !bytes.Equal(buf, plain) {
		t.Fatalf("ECB round trip: %v %q", err, buf)
	}
	if err := c.DecryptECB(buf[:15]); err == nil {
		t.Fatal("DecryptECB accepted 15 bytes")
	}
	var iv [BlockSize]byte
	c.XORKeyStreamCTR(iv, buf[:33])
	c.XORKeyStreamCTR(iv, buf[:33])
	if !bytes.Equal(buf, plain) {
		t.Fatalf("CTR round trip: %q", buf)
	}
	if _, err := New(make([]byte, 16)); err == nil {
		t.Fatal("New accepted a 16-byte key")
	}
}

func BenchmarkDecryptECB(b *testing.B) {
	key := []byte("CUE4ParseFixtureAESKey0123456789")
	buf := make([]byte, 1<<16)
	b.Run("crypto/aes", func(b *testing.B) { // one block per call, as before the kernel
		blk, _ := aes.NewCipher(key)
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			for i := 0; i < len(buf); i += BlockSize {
				blk.Decrypt(buf[i:i+BlockSize], buf[i:i+BlockSize])
			}
		}
	})
	b.Run("New", func(b *testing.B) { // the ECB kernel where there is one, else crypto/aes
		c, _ := New(key)
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			c.DecryptECB(buf)
		}
	})
	b.Run("own", func(b *testing.B) {
		c := &Cipher{b: newAES256(key)}
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			c.DecryptECB(buf)
		}
	})
}
