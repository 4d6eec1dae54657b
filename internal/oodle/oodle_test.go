package oodle

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBlocks decodes hand-made blocks that exercise the framing: stored
// blocks, memset quanta, raw quanta, several 256 KiB quanta, and the errors
// for bad headers, short input and codecs without a decoder.
func TestBlocks(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 0x40000/16+4) // 256 KiB + 64
	raw := func(data []byte) []byte {
		// One Kraken block header, then a quantum stored as its own size.
		n := len(data) - 1
		return append([]byte{0x8C, 0x06, byte(n >> 16), byte(n >> 8), byte(n)}, data...)
	}
	tests := []struct {
		name string
		src  []byte
		want []byte
		err  string
	}{
		{"empty", nil, []byte{}, ""},
		{"stored block", []byte{0x4C, 0x06, 'a', 'b', 'c'}, []byte("abc"), ""},
		{"memset", []byte{0x8C, 0x06, 0x07, 0xFF, 0xFF, 'x'}, []byte("xxxx"), ""},
		{"raw quantum", raw([]byte("hello")), []byte("hello"), ""},
		{"trailing bytes ignored", append(raw([]byte("hi")), 0, 0), []byte("hi"), ""},
		{"two quanta", append(append([]byte{0x4C, 0x06}, big[:0x40000]...), append([]byte{0x4C, 0x06}, big[0x40000:]...)...), big, ""},
		{"leviathan memset", []byte{0x8C, 0x0C, 0x07, 0xFF, 0xFF, 0}, make([]byte, 3), ""},
		{"bad header", []byte{0x12, 0x06, 0, 0, 0}, make([]byte, 3), "bad block header byte 0x12"},
		{"unknown codec", []byte{0x8C, 0x20, 0, 0, 0}, make([]byte, 3), "unknown codec 32"},
		{"mermaid garbage", []byte{0x8C, 0x0A, 0, 0, 0}, make([]byte, 3), "corrupt block"},
		{"lzna", []byte{0x8C, 0x05, 0, 0, 0}, make([]byte, 3), "LZNA-compressed block (codec 5 at compressed offset 0): codec not supported"},
		{"bitknit", []byte{0x8C, 0x0B, 0, 0, 0}, make([]byte, 3), "BitKnit"},
		{"truncated header", []byte{0x8C}, make([]byte, 3), "truncated block header"},
		{"truncated stored", []byte{0x4C, 0x06, 'a'}, make([]byte, 3), "truncated stored quantum"},
		{"quantum past block", []byte{0x8C, 0x06, 0, 0, 9, 1, 2}, make([]byte, 20), "runs past the 7-byte block"},
		{"quantum above output", raw([]byte("hello")), make([]byte, 3), "quantum larger than its output"},
		{"short input for output", raw([]byte("hello")), make([]byte, 8), "corrupt block at compressed offset 2 (output offset 0)"},
		{"bad special quantum", []byte{0x8C, 0x06, 0x0F, 0xFF, 0xFF, 0}, make([]byte, 3), "bad special quantum header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := make([]byte, len(tt.want))
			err := Decompress(dst, tt.src)
			if tt.err == "" {
				if err != nil || !bytes.Equal(dst, tt.want) {
					t.Fatalf("have %q %v", dst, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("have %v, want an error containing %q", err, tt.err)
			}
			var ue *UnsupportedError
			if errors.As(err, &ue) == errors.Is(err, ErrCorrupt) {
				t.Errorf("%v: unsupported and corrupt must be told apart", err)
			}
		})
	}
}

// TestByteArrays checks the entropy layer's framing on small arrays: stored
// arrays of both header sizes, RLE arrays and malformed headers.
func TestByteArrays(t *testing.T) {
	d := new(decoder)
	// Stored, short header (12-bit size).
	out, n, err := d.decodeBytes([]byte{0x80, 3, 'a', 'b', 'c', 'z'}, 10, 0)
	if err != nil || string(out) != "abc" || n != 5 {
		t.Fatalf("short stored: %q %d %v", out, n, err)
	}
	// Stored, long header (18-bit size).
	out, n, err = d.decodeBytes([]byte{0, 0, 2, 'h', 'i'}, 10, 0)
	if err != nil || string(out) != "hi" || n != 5 {
		t.Fatalf("long stored: %q %d %v", out, n, err)
	}
	if _, _, err := d.decodeBytes([]byte{0x80, 3, 'a', 'b', 'c'}, 2, 0); err == nil {
		t.Error("array larger than its destination accepted")
	}
	if _, _, err := d.decodeBytes([]byte{0x80, 9, 'a'}, 20, 0); err == nil {
		t.Error("array past its input accepted")
	}
	// RLE (type 3), short header: packed 1 byte, decoded 6: a memset.
	out, _, err = d.decodeBytes([]byte{0xB0, 0x10, 0x01, 'q'}, 10, 0)
	if err != nil || string(out) != "qqqqqq" {
		t.Fatalf("RLE memset: %q %v", out, err)
	}
	// Huffman, new code-length format, a one-symbol alphabet (symbol 0,
	// nominal length 8): the array repeats the symbol.
	out, _, err = d.decodeBytes([]byte{0xA0, 0x08, 0x02, 0x80, 0x04}, 10, 0)
	if err != nil || string(out) != "\x00\x00\x00\x00\x00" {
		t.Fatalf("one-symbol Huffman: %q %v", out, err)
	}
	// RLE commands: cmd byte 1 sets the run byte from the literal area;
	// 0x2F..: cmd>>4 run bytes after (^cmd)&15 literals.
	// Literals "ab", command 0xDD: 2 literals ("ab"), 13 run bytes.
	// Preceded by the 1 command (run byte '-' from the front).
	src := []byte{0, '-', 'a', 'b', 0xDD, 1}
	rle := make([]byte, 15)
	if err := d.decodeRLE(src, rle, 0); err != nil || string(rle) != "ab-------------" {
		t.Fatalf("RLE commands: %q %v", rle, err)
	}
	if err := d.decodeRLE(src, make([]byte, 14), 0); err == nil {
		t.Error("RLE overrun accepted")
	}
}

// TestAddLits checks the word-at-a-time delta literals (whose last word
// adds some bytes again) against a byte loop, for every short run length
// and distance, overlapping ones included.
func TestAddLits(t *testing.T) {
	lits := make([]byte, 80)
	for i := range lits {
		lits[i] = byte(i*37 + 11)
	}
	for dist := 1; dist <= 24; dist++ {
		for n := 0; n <= 70; n++ {
			got := make([]byte, 128)
			for i := range got {
				got[i] = byte(i*91 + 5)
			}
			want := bytes.Clone(got)
			const dst = 40
			for i := range n {
				want[dst+i] = lits[i] + want[dst-dist+i]
			}
			addLits(got, dst, dst-dist, n, lits)
			if !bytes.Equal(got, want) {
				t.Fatalf("distance %d, %d literals: got %x, want %x", dist, n, got, want)
			}
		}
	}
}

// TestHuffTwoTriples checks that decoding two triples together gives what
// decoding them one after the other gives, output and error, on random
// streams and splits.
func TestHuffTwoTriples(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h huffCodes
	// A complete code: lengths 1, 2, 3, 4, then 128 codes of 11 bits.
	for l := 1; l <= 4; l++ {
		h.add(l*7, l)
	}
	for sym := 100; sym < 228; sym++ {
		h.add(sym, 11)
	}
	var lut huffLUT
	if err := h.buildLUT(&lut); err != nil {
		t.Fatal(err)
	}
	for round := range 2000 {
		buf1 := make([]byte, r.IntN(300))
		buf2 := make([]byte, r.IntN(300))
		for i := range buf1 {
			buf1[i] = byte(r.Uint32())
		}
		for i := range buf2 {
			buf2[i] = byte(r.Uint32())
		}
		mid1, mid2 := r.IntN(len(buf1)+2), r.IntN(len(buf2)+2)
		n1 := r.IntN(400)
		n2 := n1 - r.IntN(2)
		if n2 < 0 {
			n2 = 0
		}
		want := make([]byte, n1+n2)
		err1 := huffTriple(buf1, mid1, want[:n1], &lut)
		var wantErr error = err1
		if err1 == nil {
			wantErr = huffTriple(buf2, mid2, want[n1:], &lut)
		}
		got := make([]byte, n1+n2)
		gotErr := huffTwoTriples(buf1, mid1, got[:n1], buf2, mid2, got[n1:], &lut)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("round %d: error %v, want %v", round, gotErr, wantErr)
		}
		// The symbols decoded do not depend on where the streams end:
		// compare them all when both triples were decoded.
		if !bytes.Equal(got[:n1], want[:n1]) || err1 == nil && !bytes.Equal(got, want) {
			t.Fatalf("round %d: output differs", round)
		}
	}
}
