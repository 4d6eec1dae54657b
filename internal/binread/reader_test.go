package binread

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }

func TestFString(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      []byte
		want    string
		enc     StrEnc
		wantErr bool
	}{
		{"empty", le32(0), "", StrEmpty, false},
		{"ansi", append(le32(4), "abc\x00"...), "abc", StrANSI, false},
		{"latin1", append(le32(3), 'x', 0xE9, 0), "xé", StrANSI, false},
		{"no nul", append(le32(3), "abc"...), "abc", StrNoNul, false},
		{"utf16", append(le32(-3), 'h', 0, 0xFF, 0x00, 0, 0), "hÿ", StrUTF16, false},
		{"utf16 surrogate", append(le32(-3), 0x3D, 0xD8, 0x00, 0xDE, 0, 0), "😀", StrUTF16, false},
		{"too long", append(le32(100), "abc\x00"...), "", StrEmpty, true},
		{"utf16 too long", append(le32(-100), 0, 0), "", StrEmpty, true},
		{"min int32", le32(math.MinInt32), "", StrEmpty, true},
		{"truncated length", []byte{1, 0}, "", StrEmpty, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := FromBytes(tc.in)
			got, enc := r.FStringEnc("Test.Str")
			if (r.Err() != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", r.Err(), tc.wantErr)
			}
			if got != tc.want || enc != tc.enc {
				t.Fatalf("have %q/%d, want %q/%d", got, enc, tc.want, tc.enc)
			}
			// The same through an io.ReaderAt.
			r2 := New(bytes.NewReader(tc.in), int64(len(tc.in)))
			got2, _ := r2.FStringEnc("Test.Str")
			if got2 != got || (r2.Err() != nil) != tc.wantErr {
				t.Fatalf("ReaderAt path: have %q/%v", got2, r2.Err())
			}
		})
	}
}

func TestErrorCarriesOffsetAndField(t *testing.T) {
	r := New(bytes.NewReader([]byte{1, 2, 3, 4, 5, 6}), 6)
	r.U32("A")
	r.U32("B")
	var e *Error
	if !errors.As(r.Err(), &e) {
		t.Fatalf("error %T %v is not *Error", r.Err(), r.Err())
	}
	if e.Offset != 4 || e.Field != "B" || !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Fatalf("have %+v", e)
	}
	if got := e.Error(); got != "B at offset 0x4: unexpected EOF" {
		t.Fatalf("message %q", got)
	}
	// Sticky: later reads return zero and keep the first error.
	if v := r.U8("C"); v != 0 || r.Err() != e {
		t.Fatalf("not sticky: %v %v", v, r.Err())
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		name  string
		count int32
		rest  int
		elem  int64
		want  int
		err   bool
	}{
		{"fits", 3, 12, 4, 3, false},
		{"exact zero", 0, 0, 4, 0, false},
		{"too many", 4, 12, 4, 0, true},
		{"negative", -1, 12, 4, 0, true},
		{"huge", math.MaxInt32, 8, 1, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := append(le32(tc.count), make([]byte, tc.rest)...)
			r := FromBytes(b)
			got := r.Count("N", tc.elem)
			if got != tc.want || (r.Err() != nil) != tc.err {
				t.Fatalf("have %d, %v", got, r.Err())
			}
			if tc.err {
				var e *Error
				if !errors.As(r.Err(), &e) || e.Offset != 0 {
					t.Fatalf("error should point at the count: %v", r.Err())
				}
			}
		})
	}
}

func TestSectionAndWindow(t *testing.T) {
	data := make([]byte, 3*windowSize+10)
	for i := range data {
		data[i] = byte(i)
	}
	r := New(bytes.NewReader(data), int64(len(data)))
	s := r.Section(windowSize-2, 8, "Sec")
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if got := s.U32("x"); got != binary.LittleEndian.Uint32(data[windowSize-2:]) {
		t.Fatalf("across window: %x", got)
	}
	if s.Abs() != windowSize+2 {
		t.Fatalf("Abs = %d", s.Abs())
	}
	s.U64("y")
	var e *Error
	if !errors.As(s.Err(), &e) || e.Offset != windowSize+2 {
		t.Fatalf("section bound: %v", s.Err())
	}
	big := r.Bytes(2*windowSize, "Big")
	if !bytes.Equal(big, data[:2*windowSize]) {
		t.Fatal("Bytes over window size differ")
	}
	if bad := r.Section(-1, 4, "Neg"); bad.Err() == nil {
		t.Fatal("negative section accepted")
	}
	if bad := r.Section(10, int64(len(data)), "Long"); bad.Err() == nil {
		t.Fatal("overlong section accepted")
	}
	r.SeekTo(int64(len(data))+1, "Seek")
	if r.Err() == nil {
		t.Fatal("seek past end accepted")
	}
}

func TestBigEndian(t *testing.T) {
	r := FromBytes([]byte{0x9E, 0x2A, 0x83, 0xC1, 0xFF, 0xFF, 0xFF, 0xFD, 'a', 0, 0, 0})
	r.SetOrder(binary.BigEndian)
	if v := r.U32("Tag"); v != 0x9E2A83C1 {
		t.Fatalf("tag %x", v)
	}
	if v := r.I32("n"); v != -3 {
		t.Fatalf("n %d", v)
	}
}

func FuzzReader(f *testing.F) {
	f.Add(append(le32(4), "abc\x00"...))
	f.Add(append(le32(-2), 'a', 0, 0, 0))
	f.Add(le32(math.MinInt32))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := New(bytes.NewReader(b), int64(len(b)))
		for r.Err() == nil && r.Remaining() > 0 {
			before := r.Offset()
			r.FString("S")
			n := r.Count("N", 2)
			r.Skip(int64(n), "Skip")
			if r.Err() == nil && r.Offset() <= before {
				t.Fatal("no progress")
			}
		}
	})
}

// TestMem checks that a Reader over a Mem reads in place like FromBytes,
// and that Mem.ReadAt follows io.ReaderAt at the edges.
func TestMem(t *testing.T) {
	m := Mem{1, 0, 0, 0, 2, 0}
	r := New(m, 5)
	if v := r.U32("a"); v != 1 || !r.whole {
		t.Fatalf("have %d (whole %v), want 1 read in place", v, r.whole)
	}
	if r.U16("b"); r.Err() == nil {
		t.Fatal("read past the size given to New")
	}
	var b [4]byte
	if n, err := m.ReadAt(b[:], 4); n != 2 || err != io.EOF {
		t.Errorf("ReadAt at 4: %d, %v; want 2, EOF", n, err)
	}
	if n, err := m.ReadAt(b[:], 6); n != 0 || err != io.EOF {
		t.Errorf("ReadAt at the end: %d, %v; want 0, EOF", n, err)
	}
	if _, err := m.ReadAt(b[:], -1); err == nil {
		t.Error("ReadAt at -1: no error")
	}
}

// TestUTF16String compares the in-place decoder with wtf16Decode (utf16.Decode
// keeping unpaired surrogates) on pairs, unpaired surrogates at every
// position, and both byte orders.
func TestUTF16String(t *testing.T) {
	cases := [][]uint16{
		{}, {'a'}, {'h', 0xE9, 0x4E2D}, {0xD83D, 0xDE00}, {0xD83D}, {0xDE00}, {'x', 0xD83D},
		{0xD83D, 'x'}, {0xDE00, 0xD83D}, {0xD83D, 0xD83D, 0xDE00}, {0xFFFF, 0xDBFF, 0xDFFF},
	}
	for _, u := range cases {
		want := wtf16Decode(u)
		for _, big := range []bool{false, true} {
			b := make([]byte, 2*len(u))
			for i, c := range u {
				if big {
					binary.BigEndian.PutUint16(b[2*i:], c)
				} else {
					binary.LittleEndian.PutUint16(b[2*i:], c)
				}
			}
			r := FromBytes(b)
			if big {
				r.SetOrder(binary.BigEndian)
			}
			if got := r.utf16String(b); got != want {
				t.Errorf("%x (big %v): have %q, want %q", u, big, got, want)
			}
		}
	}
}

func TestSetText(t *testing.T) {
	// "abc" (ANSI), "é" (Latin-1), "xy" without NUL, then 3 bytes more.
	b := []byte{4, 0, 0, 0, 'a', 'b', 'c', 0, 2, 0, 0, 0, 0xE9, 0, 2, 0, 0, 0, 'x', 'y', 5, 0, 0, 0, 'd'}
	r := FromBytes(b)
	r.SetText(string(b[:len(b)-5])) // the last string lies outside the shared text
	for _, want := range []string{"abc", "é", "xy"} {
		if got := r.FString("s"); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	r.FString("s")
	if r.Err() == nil {
		t.Errorf("truncated string read without error")
	}
	// Too long a text is not used and fails nothing.
	r = FromBytes(b)
	r.SetText(string(b) + "x")
	if got := r.FString("s"); got != "abc" || r.Err() != nil {
		t.Errorf("got %q, %v", got, r.Err())
	}
}

func TestLatin1(t *testing.T) {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	if got, want := Latin1(b), string(r); got != want {
		t.Errorf("latin1 = %q, want %q", got, want)
	}
}

func TestShareText(t *testing.T) {
	b := []byte{4, 0, 0, 0, 'a', 'b', 'c', 0, 2, 0, 0, 0, 0xE9, 0, 3, 0, 0, 0, 'x', 'y', 0}
	r := FromBytes(b)
	r.Skip(4, "")
	r.SeekTo(0, "")
	r.ShareText(int64(len(b) - 1)) // the last string ends outside the shared text
	for _, want := range []string{"abc", "é", "xy"} {
		if got := r.FString("s"); got != want || r.Err() != nil {
			t.Errorf("got %q (%v), want %q", got, r.Err(), want)
		}
	}
	r = FromBytes(b)
	r.ShareText(int64(len(b) + 1)) // more than there is: nothing shared, nothing failed
	if got := r.FString("s"); got != "abc" || r.Err() != nil {
		t.Errorf("got %q, %v", got, r.Err())
	}
}

// TestUTF16StringRandom compares the decoder with wtf16Decode on random
// units drawn mostly from the awkward ranges (surrogates, ASCII, Latin-1), in
// both byte orders.
func TestUTF16StringRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	pick := []uint16{0, 'a', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF}
	for n := 0; n < 4000; n++ {
		units := make([]uint16, rnd.IntN(12))
		ascii := n >= 2000 // longer strings, mostly ASCII (runs read four units at a time)
		if ascii {
			units = make([]uint16, rnd.IntN(40))
		}
		for i := range units {
			if ascii && rnd.IntN(8) != 0 {
				units[i] = uint16(rnd.IntN(0x80))
			} else if rnd.IntN(2) == 0 {
				units[i] = pick[rnd.IntN(len(pick))]
			} else {
				units[i] = uint16(rnd.Uint32())
			}
		}
		want := wtf16Decode(units)
		for _, big := range []bool{false, true} {
			b := make([]byte, 0, 2*len(units))
			for _, u := range units {
				if big {
					b = binary.BigEndian.AppendUint16(b, u)
				} else {
					b = binary.LittleEndian.AppendUint16(b, u)
				}
			}
			r := FromBytes(nil)
			if big {
				r.SetOrder(binary.BigEndian)
			}
			if got := r.utf16String(b); got != want {
				t.Fatalf("units %x big %v: got %q, want %q", units, big, got, want)
			}
		}
	}
}

// wtf16Decode is string(utf16.Decode(units)) except that an unpaired
// surrogate becomes its three-byte generalized UTF-8 form, not U+FFFD.
func wtf16Decode(units []uint16) string {
	var out []byte
	for i := 0; i < len(units); i++ {
		c := rune(units[i])
		if utf16.IsSurrogate(c) {
			if c < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000 {
				out = utf8.AppendRune(out, utf16.DecodeRune(c, rune(units[i+1])))
				i++
				continue
			}
			out = append(out, 0xE0|byte(c>>12), 0x80|byte(c>>6)&0x3F, 0x80|byte(c)&0x3F)
			continue
		}
		out = utf8.AppendRune(out, c)
	}
	return string(out)
}

// TestSectionIntoUsed sets up a Reader that held another range (with an
// error, a window, a text copy and big-endian order) and compares it with a
// fresh one over the same range: nothing of the old state may remain.
func TestSectionIntoUsed(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	for _, whole := range []bool{true, false} {
		var r *Reader
		if whole {
			r = FromBytes(data)
		} else {
			r = New(bytes.NewReader(data), int64(len(data)))
		}
		used := FromBytes(data)
		used.SetOrder(binary.BigEndian)
		used.U32("x")
		used.ShareText(8)
		used.Skip(100, "past the end")
		for _, c := range [][2]int64{{4, 8}, {0, 0}, {36, 0}, {30, 10}, {-1, 2}} {
			var fresh Reader
			r.SectionInto(&fresh, c[0], c[1], "Section")
			r.SectionInto(used, c[0], c[1], "Section")
			if !reflect.DeepEqual(&fresh, used) {
				t.Errorf("whole=%v range %v: used reader %+v, fresh %+v", whole, c, used, &fresh)
			}
			used.U16("y")
			used.SetOrder(binary.BigEndian)
		}
	}
}

// TestFixedReadsAgree runs random sequences of fixed-size reads, byte-order
// switches, failures, ClearErr, seeks and sections through fixedReadsAgree.
func TestFixedReadsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 64)
	for i := range data {
		data[i] = byte(rng.IntN(256))
	}
	ops := make([]byte, 80)
	for range 2000 {
		for i := range ops {
			ops[i] = byte(rng.IntN(256))
		}
		fixedReadsAgree(t, data, ops)
	}
}

// FuzzFixedReadsAgree is TestFixedReadsAgree on arbitrary data and steps:
// the first byte says how many of the next bytes are the data.
func FuzzFixedReadsAgree(f *testing.F) {
	f.Add([]byte{8, 1, 2, 3, 4, 5, 6, 7, 8, 2, 0, 4, 1, 2, 0, 5, 0, 6, 0, 3, 0})
	f.Add([]byte{4, 0xFF, 0, 0, 0, 8, 2, 9, 3, 1, 0, 7, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		n := min(int(b[0]), len(b)-1)
		fixedReadsAgree(t, b[1:1+n], b[1+n:])
	})
}

// fixedReadsAgree runs the steps ops codes (a step byte and its argument
// byte each) on a Reader over data in memory, whose little-endian reads
// take the quick path while it has no error, and on one over an
// io.ReaderAt, which never does: values, offsets and errors must agree
// after every step.
func fixedReadsAgree(t *testing.T, data, ops []byte) {
	t.Helper()
	mem := FromBytes(data)
	win := New(bytes.NewReader(data), int64(len(data)))
	for step := 0; step+1 < len(ops); step += 2 {
		arg := int64(ops[step+1])
		var a, b uint64
		switch ops[step] % 10 {
		case 0:
			a, b = uint64(mem.U8("f")), uint64(win.U8("f"))
		case 1:
			a, b = uint64(mem.U16("f")), uint64(win.U16("f"))
		case 2:
			a, b = uint64(mem.U32("f")), uint64(win.U32("f"))
		case 3:
			a, b = mem.U64("f"), win.U64("f")
		case 4:
			o := binary.ByteOrder(binary.LittleEndian)
			if arg&1 != 0 {
				o = binary.BigEndian
			}
			mem.SetOrder(o)
			win.SetOrder(o)
		case 5:
			if arg&3 == 0 {
				mem.Fail("f", ErrCount)
				win.Fail("f", ErrCount)
			}
		case 6:
			mem.ClearErr()
			win.ClearErr()
		case 7:
			off := arg % int64(len(data)+8)
			mem.SeekTo(off, "f")
			win.SeekTo(off, "f")
		case 8:
			off, n := arg%int64(len(data)+4), (arg*7)%int64(len(data)+1)
			mem = mem.Section(off, n, "f")
			win = win.Section(off, n, "f")
		case 9:
			mem.Skip(arg%12, "f")
			win.Skip(arg%12, "f")
		}
		if a != b || mem.Offset() != win.Offset() || fmt.Sprint(mem.Err()) != fmt.Sprint(win.Err()) {
			t.Fatalf("step %d (%d %d): in memory %#x at %d (%v), through ReadAt %#x at %d (%v)",
				step/2, ops[step], ops[step+1], a, mem.Offset(), mem.Err(), b, win.Offset(), win.Err())
		}
	}
}
