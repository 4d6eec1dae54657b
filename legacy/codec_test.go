package legacy

import (
	"bytes"
	"testing"
)

func TestLZO(t *testing.T) {
	// A literal-only stream: first byte 17+n copies n literals, then the
	// end marker (M4 with zero distance).
	src := append([]byte{17 + 5}, "hello"...)
	src = append(src, 0x11, 0x00, 0x00)
	dst := make([]byte, 5)
	if err := decompressLZO(dst, src); err != nil || string(dst) != "hello" {
		t.Fatalf("got %q, %v", dst, err)
	}
	for _, bad := range [][]byte{nil, {0xFF}, {0x11}, {0x40, 0x00}} {
		if err := decompressLZO(make([]byte, 8), bad); err == nil {
			t.Errorf("% x: no error", bad)
		}
	}
}

func TestLZMAErrors(t *testing.T) {
	for _, bad := range [][]byte{nil, {0x5D, 0, 0, 1, 0}, {0xFF, 0, 0, 1, 0, 0, 0, 0, 0, 0}, {0x5D, 0, 0, 1, 0, 1, 0, 0, 0, 0}} {
		if err := decompressLZMA(make([]byte, 16), bad); err == nil {
			t.Errorf("% x: no error", bad)
		}
	}
}

// FuzzLZO and FuzzLZMA feed arbitrary blocks to the decoders: they must
// fail cleanly or fill the output exactly.
func FuzzLZO(f *testing.F) {
	f.Add(append(append([]byte{17 + 5}, "hello"...), 0x11, 0, 0), 5)
	f.Fuzz(func(t *testing.T, src []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		decompressLZO(make([]byte, n), src)
	})
}

func FuzzLZMA(f *testing.F) {
	f.Add(bytes.Repeat([]byte{0x5D, 0, 0, 1, 0, 0}, 4), 16)
	f.Fuzz(func(t *testing.T, src []byte, n int) {
		if n < 0 || n > 1<<16 {
			return
		}
		decompressLZMA(make([]byte, n), src)
	})
}

func FuzzLZX(f *testing.F) {
	f.Add([]byte{0x00, 0x04, 0x0f, 0x20, 0x84, 0x6e}, 64)
	f.Add([]byte{0xFF, 0x00, 0x10, 0x00, 0x04, 0x30, 0x00, 0x00, 0x10}, 16)
	f.Fuzz(func(t *testing.T, src []byte, n int) {
		if n < 0 || n > 1<<17 {
			return
		}
		decompressXMemLZX(make([]byte, n), src)
	})
}

// TestLZXCopy compares lzxCopy with a byte loop for every short distance
// and a range of lengths (nothing past the match may change).
func TestLZXCopy(t *testing.T) {
	for off := 1; off <= 40; off++ {
		for length := 1; length <= 300; length++ {
			want := make([]byte, off+length+16)
			for i := range off {
				want[i] = byte(i*37 + 1)
			}
			got := bytes.Clone(want)
			for k := off; k < off+length; k++ {
				want[k] = want[k-off]
			}
			lzxCopy(got, off, 0, length)
			if !bytes.Equal(got, want) {
				t.Fatalf("distance %d, length %d: got % x, want % x", off, length, got[:off+length], want[:off+length])
			}
		}
	}
}
