package zstd

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
)

// samples returns inputs that exercise raw, RLE and compressed blocks,
// Huffman literals with one and four streams, and every sequence table mode.
func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	m := map[string][]byte{
		"empty": {},
		"one":   {42},
		"zeros": make([]byte, 300000),
	}
	rnd := make([]byte, 200000)
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	m["random"] = rnd
	var text bytes.Buffer
	words := []string{"Unreal", "Engine", "package", "export", "import", "name", "FName", "UObject", " ", "\n", "/Game/", "Blueprint", "Texture2D"}
	for text.Len() < 400000 {
		text.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(20) == 0 {
			text.WriteByte(byte(rng.Uint32()))
		}
	}
	m["text"] = text.Bytes()
	m["text-small"] = text.Bytes()[:1000]
	m["text-mid"] = text.Bytes()[:70000]
	// Structured binary: little-endian records with slowly varying fields.
	var rec bytes.Buffer
	for i := 0; rec.Len() < 250000; i++ {
		rec.Write([]byte{byte(i), byte(i >> 8), 0, 0, byte(rng.IntN(4)), 0x80, 0x3f, 0, 0, 0, byte(i % 7), 1})
	}
	m["records"] = rec.Bytes()
	skew := make([]byte, 150000)
	for i := range skew {
		if rng.IntN(10) == 0 {
			skew[i] = byte(rng.IntN(200))
		} else {
			skew[i] = byte('a' + rng.IntN(3))
		}
	}
	m["skewed"] = skew
	return m
}

func encode(t testing.TB, b []byte, opts ...kzstd.EOption) []byte {
	e, err := kzstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e.EncodeAll(b, nil)
}

func TestDecodeMatchesKlauspost(t *testing.T) {
	levels := []kzstd.EncoderLevel{kzstd.SpeedFastest, kzstd.SpeedDefault, kzstd.SpeedBetterCompression, kzstd.SpeedBestCompression}
	for name, in := range samples() {
		for _, lvl := range levels {
			for _, crc := range []bool{true, false} {
				for _, single := range []bool{true, false} {
					enc := encode(t, in, kzstd.WithEncoderLevel(lvl), kzstd.WithEncoderCRC(crc), kzstd.WithSingleSegment(single))
					dst := make([]byte, len(in))
					n, err := Decode(dst, enc)
					if err != nil {
						t.Fatalf("%s level %v crc %v single %v: %v", name, lvl, crc, single, err)
					}
					if n != len(in) || !bytes.Equal(dst, in) {
						t.Fatalf("%s level %v crc %v single %v: output differs (%d bytes, want %d)", name, lvl, crc, single, n, len(in))
					}
				}
			}
		}
	}
}

func TestMultipleAndSkippableFrames(t *testing.T) {
	a, b := []byte("first frame, first frame, first frame"), bytes.Repeat([]byte("second "), 1000)
	var src []byte
	src = append(src, encode(t, a)...)
	src = append(src, 0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'x', 'y', 'z') // skippable frame
	src = append(src, encode(t, b)...)
	want := append(append([]byte{}, a...), b...)
	dst := make([]byte, len(want))
	n, err := Decode(dst, src)
	if err != nil || n != len(want) || !bytes.Equal(dst, want) {
		t.Fatalf("got %d bytes, err %v", n, err)
	}
}

func TestErrors(t *testing.T) {
	in := samples()["text-mid"]
	enc := encode(t, in)
	tests := []struct {
		name string
		dst  int
		src  []byte
	}{
		{"empty", 10, nil},
		{"bad magic", 10, []byte{1, 2, 3, 4, 5, 6, 7, 8}},
		{"dst too small", len(in) - 1, enc},
		{"checksum", len(in), append(append([]byte{}, enc[:len(enc)-1]...), enc[len(enc)-1]^1)},
	}
	for _, tt := range tests {
		_, err := Decode(make([]byte, tt.dst), tt.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: err = %v, want *Error", tt.name, err)
		}
	}
}

// TestTruncated decodes every prefix of a few frames: each fails cleanly.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"text-small", "records", "skewed"} {
		in := samples()[name]
		enc := encode(t, in)
		dst := make([]byte, len(in))
		step := max(1, len(enc)/3000)
		for i := 0; i < len(enc); i += step {
			if _, err := Decode(dst, enc[:i]); err == nil {
				t.Fatalf("%s: prefix of %d/%d bytes decoded without error", name, i, len(enc))
			}
		}
	}
}

// FuzzDecode checks that corrupt input never panics and that whatever
// klauspost accepts, this decoder decodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"text-small", "skewed", "one", "empty"} {
		in := samples()[name]
		f.Add(encode(f, in, kzstd.WithEncoderLevel(kzstd.SpeedBestCompression)))
		f.Add(encode(f, in, kzstd.WithEncoderLevel(kzstd.SpeedFastest), kzstd.WithEncoderCRC(false)))
	}
	ref, _ := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1), kzstd.WithDecoderMaxMemory(1<<24))
	f.Fuzz(func(t *testing.T, src []byte) {
		dst := make([]byte, 1<<20)
		n, err := Decode(dst, src)
		want, rerr := ref.DecodeAll(src, nil)
		if err == nil && rerr == nil && !bytes.Equal(dst[:n], want) {
			t.Fatalf("decoded %d bytes, klauspost %d: outputs differ", n, len(want))
		}
		if err != nil && rerr == nil && len(want) <= len(dst) {
			t.Logf("rejected input klauspost accepts: %v", err)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	in := samples()["text"]
	enc := encode(b, in)
	dst := make([]byte, len(in))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Decode(dst, enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKlauspost(b *testing.B) {
	in := samples()["text"]
	enc := encode(b, in)
	d, _ := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1))
	dst := make([]byte, 0, len(in))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := d.DecodeAll(enc, dst[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
