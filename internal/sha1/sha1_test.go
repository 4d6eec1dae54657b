package sha1

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRFC3174 checks the own SHA-1 with the test vectors of RFC 3174
// section 7.3.
func TestRFC3174(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"a", 1000000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
		{"0123456701234567012345670123456701234567012345670123456701234567", 10, "dea356a2cddd90c7a7ecedc5ebb563934f460452"},
	} {
		d := newDigest()
		for range tc.n {
			d.Write([]byte(tc.in))
		}
		if got := hex.EncodeToString(d.Sum(nil)); got != tc.want {
			t.Errorf("%.10q x %d: have %s, want %s", tc.in, tc.n, got, tc.want)
		}
		if tc.n == 1 {
			s := sumOwn([]byte(tc.in))
			if got := hex.EncodeToString(s[:]); got != tc.want {
				t.Errorf("sumOwn(%.10q): have %s, want %s", tc.in, got, tc.want)
			}
		}
	}
}

// TestMatchesCrypto compares the own SHA-1 with crypto/sha1 for every
// length around the block and padding boundaries and for writes split at
// random points; Sum must not change the running state.
func TestMatchesCrypto(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := range len(data) {
		if sumOwn(data[:n]) != sha1.Sum(data[:n]) {
			t.Fatalf("%d bytes: have %x, want %x", n, sumOwn(data[:n]), sha1.Sum(data[:n]))
		}
	}
	for range 100 {
		n := r.IntN(len(data))
		d, ref := newDigest(), sha1.New()
		for p := data[:n]; len(p) > 0; {
			k := min(len(p), r.IntN(130))
			d.Write(p[:k])
			ref.Write(p[:k])
			p = p[k:]
			if !bytes.Equal(d.Sum(nil), ref.Sum(nil)) {
				t.Fatalf("running sum differs after %d of %d bytes", n-len(p), n)
			}
		}
		d.Reset()
		d.Write([]byte("x"))
		if got, want := d.Sum(nil), sha1.Sum([]byte("x")); !bytes.Equal(got, want[:]) {
			t.Fatal("Reset")
		}
	}
	if New().Size() != Size || newDigest().BlockSize() != BlockSize {
		t.Fatal("sizes")
	}
	if Sum([]byte(strings.Repeat("z", 77))) != sumOwn([]byte(strings.Repeat("z", 77))) {
		t.Fatal("Sum")
	}
}
