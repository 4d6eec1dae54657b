package aeskey

// A small AES-256 (FIPS-197) for the WebAssembly build, where crypto/aes
// would bring in the whole crypto/internal/fips140 module (self-tests, DRBG,
// os). It decrypts game data, not secrets: it uses lookup tables and makes
// no attempt at constant time. The native build keeps crypto/aes; the tests
// compare the two.

import "encoding/binary"

const rounds256 = 14 // Nr for a 256-bit key

// sbox and invSbox are SubBytes and its inverse; te and td are the first
// columns of the round tables (SubBytes and MixColumns, or their inverses,
// of one byte): the other three columns are byte rotations of them.
var (
	sbox, invSbox [256]byte
	te, td        [256]uint32
)

func init() {
	// Walk the multiplicative group of GF(2^8) with the generator 3: p runs
	// over 3^i and q over its inverse 3^-i, so q is the inverse of p.
	p, q := byte(1), byte(1)
	for {
		p ^= p<<1 ^ byte(int8(p)>>7)&0x1b
		q ^= q << 1
		q ^= q << 2
		q ^= q << 4
		q ^= byte(int8(q)>>7) & 0x09
		s := q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63
		sbox[p] = s
		if p == 1 {
			break
		}
	}
	sbox[0] = 0x63
	for i := range 256 {
		s := sbox[i]
		invSbox[s] = byte(i)
		te[i] = uint32(mul(s, 2))<<24 | uint32(s)<<16 | uint32(s)<<8 | uint32(mul(s, 3))
	}
	for i := range 256 {
		s := invSbox[i]
		td[i] = uint32(mul(s, 14))<<24 | uint32(mul(s, 9))<<16 | uint32(mul(s, 13))<<8 | uint32(mul(s, 11))
	}
}

func rotl8(b byte, n uint) byte { return b<<n | b>>(8-n) }

func ror(w uint32, n uint) uint32 { return w>>n | w<<(32-n) }

// mul multiplies a and b in GF(2^8) modulo x^8+x^4+x^3+x+1.
func mul(a, b byte) byte {
	var r byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			r ^= a
		}
		a = a<<1 ^ byte(int8(a)>>7)&0x1b
	}
	return r
}

func subWord(w uint32) uint32 {
	return uint32(sbox[w>>24])<<24 | uint32(sbox[w>>16&0xff])<<16 | uint32(sbox[w>>8&0xff])<<8 | uint32(sbox[w&0xff])
}

// aes256 holds the expanded encryption and decryption keys (the decryption
// schedule is the one of the equivalent inverse cipher, FIPS-197 5.3.5).
type aes256 struct {
	enc, dec [4 * (rounds256 + 1)]uint32
}

// newAES256 expands a 32-byte key (KeyExpansion, FIPS-197 5.2).
func newAES256(key []byte) *aes256 {
	c := new(aes256)
	const nk = 8
	for i := range nk {
		c.enc[i] = binary.BigEndian.Uint32(key[4*i:])
	}
	rcon := byte(1)
	for i := nk; i < len(c.enc); i++ {
		t := c.enc[i-1]
		switch i % nk {
		case 0:
			t = subWord(t<<8|t>>24) ^ uint32(rcon)<<24
			rcon = mul(rcon, 2)
		case 4:
			t = subWord(t)
		}
		c.enc[i] = c.enc[i-nk] ^ t
	}
	// Round keys in reverse order, InvMixColumns applied to all but the
	// first and last.
	n := len(c.enc)
	for i := 0; i < n; i += 4 {
		for j := range 4 {
			w := c.enc[n-4-i+j]
			if i > 0 && i < n-4 {
				w = td[sbox[w>>24]] ^ ror(td[sbox[w>>16&0xff]], 8) ^ ror(td[sbox[w>>8&0xff]], 16) ^ ror(td[sbox[w&0xff]], 24)
			}
			c.dec[i+j] = w
		}
	}
	return c
}

// Encrypt encrypts the 16-byte block src into dst.
func (c *aes256) Encrypt(dst, src []byte) {
	c.crypt(&c.enc, &te, &sbox, dst, src, false)
}

// Decrypt decrypts the 16-byte block src into dst.
func (c *aes256) Decrypt(dst, src []byte) {
	c.crypt(&c.dec, &td, &invSbox, dst, src, true)
}

// crypt runs the cipher (or, with inv, the equivalent inverse cipher): the
// inverse reads the columns of the state in the opposite rotation.
func (c *aes256) crypt(rk *[4 * (rounds256 + 1)]uint32, t *[256]uint32, s *[256]byte, dst, src []byte, inv bool) {
	_, _ = src[15], dst[15]
	s0 := binary.BigEndian.Uint32(src[0:]) ^ rk[0]
	s1 := binary.BigEndian.Uint32(src[4:]) ^ rk[1]
	s2 := binary.BigEndian.Uint32(src[8:]) ^ rk[2]
	s3 := binary.BigEndian.Uint32(src[12:]) ^ rk[3]
	// round(a, b, c, d) is one column of (Inv)SubBytes, (Inv)ShiftRows and
	// (Inv)MixColumns, taking its four bytes from the columns a, b, c, d.
	round := func(a, b, c, d uint32) uint32 {
		return t[a>>24] ^ ror(t[b>>16&0xff], 8) ^ ror(t[c>>8&0xff], 16) ^ ror(t[d&0xff], 24)
	}
	last := func(a, b, c, d uint32) uint32 {
		return uint32(s[a>>24])<<24 | uint32(s[b>>16&0xff])<<16 | uint32(s[c>>8&0xff])<<8 | uint32(s[d&0xff])
	}
	// The inverse cipher is the same loop over the columns with s1 and s3
	// (and their round keys) swapped.
	k1, k3 := 1, 3
	if inv {
		s1, s3 = s3, s1
		k1, k3 = 3, 1
	}
	for r := 1; r < rounds256; r++ {
		k := rk[4*r : 4*r+4]
		s0, s1, s2, s3 = round(s0, s1, s2, s3)^k[0], round(s1, s2, s3, s0)^k[k1], round(s2, s3, s0, s1)^k[2], round(s3, s0, s1, s2)^k[k3]
	}
	k := rk[4*rounds256:]
	o0, o1, o2, o3 := last(s0, s1, s2, s3)^k[0], last(s1, s2, s3, s0)^k[k1], last(s2, s3, s0, s1)^k[2], last(s3, s0, s1, s2)^k[k3]
	if inv {
		o1, o3 = o3, o1
	}
	binary.BigEndian.PutUint32(dst[0:], o0)
	binary.BigEndian.PutUint32(dst[4:], o1)
	binary.BigEndian.PutUint32(dst[8:], o2)
	binary.BigEndian.PutUint32(dst[12:], o3)
}
