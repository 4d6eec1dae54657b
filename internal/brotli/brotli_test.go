package brotli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	abrotli "github.com/andybalholm/brotli"
)

func TestDictionary(t *testing.T) {
	// RFC 7932 Appendix A gives the dictionary's SHA-256.
	sum := sha256.Sum256([]byte(dictionary))
	if got := hex.EncodeToString(sum[:]); got != "20e42eb1b511c21806d4d227d07e5dd06877d8ce7b3a817f378f313653f35c70" || len(dictionary) != 122784 {
		t.Fatalf("dictionary: %d bytes, SHA-256 %s", len(dictionary), got)
	}
	if dictOffset[25] != len(dictionary) {
		t.Fatalf("dictionary offsets end at %d", dictOffset[25])
	}
	for p1 := range 256 {
		if contextLUT[p1] != byte(p1&63) || contextLUT[512+p1] != byte(p1>>2) {
			t.Fatalf("LSB6/MSB6 context of %d", p1)
		}
	}
}

func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	m := map[string][]byte{"empty": {}, "one": {'x'}, "zeros": make([]byte, 100000)}
	rnd := make([]byte, 50000)
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	m["random"] = rnd
	var text strings.Builder
	words := []string{"the ", "The ", "of ", "and ", "Property", "Struct", "Enum", "Array", "Map", "Name", " ", ".", ", ", "\n", "http://", "life", "time", "world", "ÄÖÜ ", "日本語 "}
	for text.Len() < 300000 {
		text.WriteString(words[rng.IntN(len(words))])
	}
	m["text"] = []byte(text.String())
	m["text-small"] = []byte(text.String()[:2000])
	var bin bytes.Buffer
	for i := 0; bin.Len() < 200000; i++ {
		bin.Write([]byte{byte(i), byte(i >> 8), 0, 0, byte(rng.IntN(3)), 0x80, 0x3f, byte(i % 5)})
		if rng.IntN(8) == 0 {
			bin.WriteString(words[rng.IntN(len(words))])
		}
	}
	m["binary"] = bin.Bytes()
	return m
}

func encode(t testing.TB, b []byte, quality, lgwin int) []byte {
	var buf bytes.Buffer
	w := abrotli.NewWriterOptions(&buf, abrotli.WriterOptions{Quality: quality, LGWin: lgwin})
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeMatchesAndybalholm(t *testing.T) {
	for name, in := range samples() {
		for _, q := range []int{0, 1, 2, 4, 5, 7, 9, 10, 11} {
			for _, lgwin := range []int{10, 16, 22} {
				if q >= 10 && len(in) > 100000 && lgwin != 22 {
					continue // slow to encode
				}
				enc := encode(t, in, q, lgwin)
				dst := make([]byte, len(in))
				n, err := Decode(dst, enc)
				if err != nil {
					t.Fatalf("%s q%d w%d: %v", name, q, lgwin, err)
				}
				if n != len(in) || !bytes.Equal(dst, in) {
					t.Fatalf("%s q%d w%d: output differs (%d bytes, want %d)", name, q, lgwin, n, len(in))
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	in := samples()["text-small"]
	enc := encode(t, in, 11, 22)
	for _, tt := range []struct {
		name string
		dst  int
		src  []byte
	}{
		{"empty", 10, nil},
		{"dst too small", len(in) - 1, enc},
		{"trailing bytes", len(in), append(append([]byte{}, enc...), 0)},
	} {
		if _, err := Decode(make([]byte, tt.dst), tt.src); err == nil {
			t.Errorf("%s: no error", tt.name)
		} else if _, ok := err.(*Error); !ok {
			t.Errorf("%s: error type %T", tt.name, err)
		}
	}
}

func TestTruncated(t *testing.T) {
	for _, name := range []string{"text-small", "binary"} {
		in := samples()[name]
		enc := encode(t, in, 9, 18)
		dst := make([]byte, len(in))
		step := max(1, len(enc)/2000)
		for i := 0; i < len(enc); i += step {
			if _, err := Decode(dst, enc[:i]); err == nil {
				t.Fatalf("%s: prefix of %d/%d bytes decoded without error", name, i, len(enc))
			}
		}
	}
}

// FuzzDecode checks that no input panics or runs away, and that decoding
// stays within dst. (andybalholm/brotli's reader can stall on some corrupt
// inputs, so the comparison with it is TestMutationsMatchAndybalholm.)
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"text-small", "one", "empty"} {
		for _, q := range []int{1, 5, 11} {
			f.Add(encode(f, samples()[name], q, 16))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		dst := make([]byte, 1<<16)
		n, err := Decode(dst, src)
		if n < 0 || n > len(dst) {
			t.Fatalf("n = %d, err = %v", n, err)
		}
	})
}

// TestMutationsMatchAndybalholm flips bits in encoded streams: whenever both
// decoders accept the result, they agree.
func TestMutationsMatchAndybalholm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	seeds := [][]byte{encode(t, samples()["text-small"], 11, 16), encode(t, samples()["text-small"], 4, 12)}
	both := 0
	for it := range 3000 {
		src := append([]byte{}, seeds[it%2]...)
		for range 1 + rng.IntN(3) {
			src[rng.IntN(len(src))] ^= byte(1 << rng.IntN(8))
		}
		dst := make([]byte, 1<<20)
		n, err := Decode(dst, src)
		want, rerr := refDecode(src, 1<<20)
		if err == nil && rerr == nil {
			both++
			if !bytes.Equal(dst[:n], want) {
				t.Fatalf("mutation %d: decoded %d bytes, andybalholm %d: outputs differ", it, n, len(want))
			}
		}
	}
	t.Logf("%d of 3000 mutated streams accepted by both decoders, with equal output", both)
}

// refDecode decodes with andybalholm/brotli, giving up on a reader that
// stops making progress.
func refDecode(src []byte, limit int) ([]byte, error) {
	r := abrotli.NewReader(bytes.NewReader(src))
	out := make([]byte, 0, 4096)
	buf := make([]byte, 4096)
	for stalls := 0; len(out) < limit && stalls < 100; {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n == 0 {
			stalls++
		}
	}
	return out, io.ErrNoProgress
}

func BenchmarkDecode(b *testing.B) {
	in := samples()["text"]
	enc := encode(b, in, 11, 22)
	dst := make([]byte, len(in))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Decode(dst, enc); err != nil {
			b.Fatal(err)
		}
	}
}
