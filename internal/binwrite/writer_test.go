package binwrite

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unicode/utf16"

	"github.com/upkg/upkg/internal/binread"
)

// refFStringEnc is FStringEnc written the plain way (through []rune).
func refFStringEnc(w *Writer, s string, enc binread.StrEnc) {
	switch enc {
	case binread.StrANSI, binread.StrNoNul:
		rs := []rune(s)
		n := len(rs)
		if enc == binread.StrANSI {
			n++
		}
		w.I32(int32(n))
		for _, c := range rs {
			w.U8(uint8(c))
		}
		if enc == binread.StrANSI {
			w.U8(0)
		}
	default:
		u := utf16.Encode([]rune(s))
		if enc == binread.StrUTF16 {
			u = append(u, 0)
		}
		w.I32(-int32(len(u)))
		for _, c := range u {
			w.U16(c)
		}
	}
}

func TestFStringEnc(t *testing.T) {
	strs := []string{"", "a", "Name", "héllo", "中文", "emoji 😀!", "bad \xff\xfe utf8", "\x00",
		"/Script/CoreUObject.ObjectRedirector", "eight by", "eight byé", "sixteen bytes ok", "sixteen bytes okà", "é at the front of a long one"}
	encs := []binread.StrEnc{binread.StrANSI, binread.StrNoNul, binread.StrUTF16, binread.StrUTF16NoNul}
	for _, s := range strs {
		for _, enc := range encs {
			for _, big := range []bool{false, true} {
				have, want := New(), New()
				have.Raw([]byte("pre")) // strings written after other fields
				want.Raw([]byte("pre"))
				if big {
					have.SetOrder(binary.BigEndian)
					want.SetOrder(binary.BigEndian)
				}
				have.FStringEnc(s, enc)
				refFStringEnc(want, s, enc)
				if !bytes.Equal(have.Bytes(), want.Bytes()) {
					t.Errorf("%q enc %d big %v: have % x, want % x", s, enc, big, have.Bytes(), want.Bytes())
				}
			}
		}
	}
}

// TestFStringUTF16RoundTrip reads UTF-16 FStrings of random units (unpaired
// surrogates included) and writes them back: the bytes must be the same.
func TestFStringUTF16RoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	pick := []uint16{'a', 0x7F, 0x80, 0xE9, 0x800, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF}
	for n := 0; n < 3000; n++ {
		units := make([]uint16, 1+rnd.IntN(16))
		for i := range units {
			if rnd.IntN(2) == 0 {
				units[i] = pick[rnd.IntN(len(pick))]
			} else {
				units[i] = uint16(1 + rnd.IntN(0xFFFF))
			}
		}
		for _, big := range []bool{false, true} {
			orig := New()
			if big {
				orig.SetOrder(binary.BigEndian)
			}
			orig.I32(-int32(len(units) + 1))
			for _, u := range units {
				orig.U16(u)
			}
			orig.U16(0)
			r := binread.FromBytes(orig.Bytes())
			if big {
				r.SetOrder(binary.BigEndian)
			}
			s, enc := r.FStringEnc("s")
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			w := New()
			if big {
				w.SetOrder(binary.BigEndian)
			}
			w.FStringEnc(s, enc)
			if !bytes.Equal(w.Bytes(), orig.Bytes()) {
				t.Fatalf("units %x big %v: wrote % x, read % x", units, big, w.Bytes(), orig.Bytes())
			}
		}
	}
}
