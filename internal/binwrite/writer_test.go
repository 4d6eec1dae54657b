package binwrite

import (
	"bytes"
	"encoding/binary"
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
