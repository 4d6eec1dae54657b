// Package sha1 is SHA-1 (RFC 3174) for checking the hashes Unreal stores in
// pak and IoStore containers. Natively it is crypto/sha1. The WebAssembly
// build uses the package's own implementation instead, because crypto/sha1
// brings in the crypto/internal/fips140 module; the tests compare the two.
// These hashes detect corruption of game data; nothing here is for
// security.
package sha1

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// Size is the size of a SHA-1 checksum in bytes.
const Size = 20

// BlockSize is the block size of SHA-1 in bytes.
const BlockSize = 64

// digest is the own SHA-1.
type digest struct {
	h   [5]uint32
	buf [BlockSize]byte
	nb  int    // bytes in buf
	len uint64 // bytes written
}

func newDigest() *digest {
	d := new(digest)
	d.Reset()
	return d
}

func (d *digest) Reset() {
	d.h = [5]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}
	d.nb, d.len = 0, 0
}

func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return BlockSize }

func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.nb > 0 {
		c := copy(d.buf[d.nb:], p)
		d.nb += c
		p = p[c:]
		if d.nb < BlockSize {
			return n, nil
		}
		d.block(d.buf[:])
		d.nb = 0
	}
	for len(p) >= BlockSize {
		d.block(p[:BlockSize])
		p = p[BlockSize:]
	}
	d.nb = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the checksum of what was written so far to b; d is unchanged.
func (d *digest) Sum(b []byte) []byte {
	c := *d
	s := c.sum()
	return append(b, s[:]...)
}

func (d *digest) sum() [Size]byte {
	// Padding: 0x80, zeros up to 56 mod 64, then the length in bits.
	n := d.len
	var pad [BlockSize + 8]byte
	pad[0] = 0x80
	k := (55 - n) % BlockSize
	binary.BigEndian.PutUint64(pad[1+k:], n<<3)
	d.Write(pad[:1+k+8])
	var out [Size]byte
	for i, v := range d.h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// block runs the compression function on one 64-byte block.
func (d *digest) block(p []byte) {
	var w [16]uint32
	for i := range w {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	a, b, c, e, f := d.h[0], d.h[1], d.h[2], d.h[3], d.h[4]
	for i := range 80 {
		if i >= 16 {
			x := w[(i-3)&15] ^ w[(i-8)&15] ^ w[(i-14)&15] ^ w[i&15]
			w[i&15] = bits.RotateLeft32(x, 1)
		}
		var fn, k uint32
		switch {
		case i < 20:
			fn, k = b&c|^b&e, 0x5a827999
		case i < 40:
			fn, k = b^c^e, 0x6ed9eba1
		case i < 60:
			fn, k = b&c|b&e|c&e, 0x8f1bbcdc
		default:
			fn, k = b^c^e, 0xca62c1d6
		}
		t := bits.RotateLeft32(a, 5) + fn + f + k + w[i&15]
		a, b, c, e, f = t, a, bits.RotateLeft32(b, 30), c, e
	}
	d.h[0] += a
	d.h[1] += b
	d.h[2] += c
	d.h[3] += e
	d.h[4] += f
}

// sumOwn is the own implementation's one-shot checksum.
func sumOwn(data []byte) [Size]byte {
	d := newDigest()
	d.Write(data)
	return d.sum()
}

var _ hash.Hash = (*digest)(nil)
