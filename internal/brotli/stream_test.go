package brotli

import (
	"testing"
)

// bitWriter writes bits least significant first, as Brotli streams are
// packed.
type bitWriter struct {
	b []byte
	n uint
}

func (w *bitWriter) bits(v uint64, k uint) {
	for i := range k {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		if v>>i&1 != 0 {
			w.b[len(w.b)-1] |= 1 << (w.n % 8)
		}
		w.n++
	}
}

func (w *bitWriter) align() { w.n = (w.n + 7) &^ 7 }

func (w *bitWriter) bytes(p []byte) {
	w.align()
	w.b = append(w.b, p...)
	w.n += 8 * uint(len(p))
}

// TestHandMadeStream decodes a stream built bit by bit: a metadata block,
// an uncompressed meta-block, a compressed one with simple prefix codes and
// a static dictionary reference, and an empty last meta-block.
func TestHandMadeStream(t *testing.T) {
	// Distance code 16 (NPOSTFIX 0, NDIRECT 0): one extra bit, distances
	// 1-2; with extra 1, distance 2 copies "o " from "hello ". Code 18: two
	// extra bits, distances 5-8; 7 is past the 6 bytes written, so it is
	// dictionary word 0 of length 5 with transform 0 (identity).
	word := dictionary[dictOffset[5] : dictOffset[5]+5]
	for _, tc := range []struct {
		dcode, extra, nextra uint64
		want                 string
	}{
		{16, 1, 1, "hello o o o"},
		{18, 2, 2, "hello " + word},
	} {
		src := handMade(tc.dcode, tc.extra, uint(tc.nextra))
		dst := make([]byte, len(tc.want))
		n, err := Decode(dst, src)
		if err != nil {
			t.Fatalf("distance code %d: %v", tc.dcode, err)
		}
		if string(dst[:n]) != tc.want {
			t.Fatalf("distance code %d: got %q, want %q", tc.dcode, dst[:n], tc.want)
		}
		if ref, err := refDecode(src, 1<<10); err != nil || string(ref) != tc.want {
			t.Fatalf("distance code %d: andybalholm: %q, %v", tc.dcode, ref, err)
		}
	}
}

func handMade(dcode, extra uint64, nextra uint) []byte {
	var w bitWriter
	w.bits(0, 1) // WBITS 16
	// Metadata: ISLAST 0, MNIBBLES code 3, reserved 0, MSKIPBYTES 1, MSKIPLEN-1 2.
	w.bits(0, 1)
	w.bits(3, 2)
	w.bits(0, 1)
	w.bits(1, 2)
	w.bits(2, 8)
	w.bytes([]byte("xyz"))
	// Uncompressed: ISLAST 0, MNIBBLES 4, MLEN-1 4, ISUNCOMPRESSED 1.
	w.bits(0, 1)
	w.bits(0, 2)
	w.bits(4, 16)
	w.bits(1, 1)
	w.bytes([]byte("hello"))
	// Compressed: ISLAST 0, MNIBBLES 4, MLEN-1 = 1+5-1 (one literal and a
	// 5-byte dictionary word), ISUNCOMPRESSED 0.
	w.bits(0, 1)
	w.bits(0, 2)
	w.bits(5, 16)
	w.bits(0, 1)
	w.bits(0, 1) // NBLTYPESL 1
	w.bits(0, 1) // NBLTYPESI 1
	w.bits(0, 1) // NBLTYPESD 1
	w.bits(0, 2) // NPOSTFIX 0
	w.bits(0, 4) // NDIRECT 0
	w.bits(0, 2) // context mode LSB6
	w.bits(0, 1) // NTREESL 1
	w.bits(0, 1) // NTREESD 1
	// Literal code: simple, one symbol ' '.
	w.bits(1, 2)
	w.bits(0, 2)
	w.bits(' ', 8)
	// Insert-and-copy code: simple, one symbol: insert code 1 (1 literal),
	// copy code 3 (5 bytes), explicit distance: cell 2 (128..191) gives
	// insert 0-7 and copy 0-7, symbol 128 + 1<<3 + 3.
	w.bits(1, 2)
	w.bits(0, 2)
	w.bits(128+1<<3+3, 10)
	// Distance code: simple, one symbol 16 (first direct... none: NDIRECT 0,
	// so 16 is the first long code: 1 extra bit, distance 1 + extra).
	w.bits(1, 2)
	w.bits(0, 2)
	w.bits(dcode, 6)
	// The command: every code has one symbol (zero bits), then the
	// distance's extra bits.
	w.bits(extra, nextra)
	// Last: ISLAST 1, ISLASTEMPTY 1.
	w.bits(1, 1)
	w.bits(1, 1)
	return w.b
}
