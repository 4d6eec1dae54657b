package flate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// readExact is how package compression reads a stream with the standard
// library: exactly len(dst) bytes, then one more must not come.
func readExact(r io.Reader, dst []byte) error {
	if _, err := io.ReadFull(r, dst); err != nil {
		return err
	}
	var one [1]byte
	if n, _ := r.Read(one[:]); n != 0 {
		return ErrTooLong
	}
	return nil
}

// stdZlib reads exactly len(dst) bytes through compress/zlib; then one more
// must not come, and the checksum must match if the reader saw it.
func stdZlib(dst, src []byte) error {
	zr, err := zlib.NewReader(bytes.NewReader(src))
	if err != nil {
		return err
	}
	if err := readExact(zr, dst); err != nil {
		return err
	}
	if _, err := zr.Read(make([]byte, 1)); err == zlib.ErrChecksum {
		return err
	}
	return nil
}

func stdGzip(dst, src []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return err
	}
	return readExact(zr, dst)
}

func stdInflate(dst, src []byte) error {
	return readExact(flate.NewReader(bytes.NewReader(src)), dst)
}

func ownInflate(dst, src []byte) error {
	n, _, err := Inflate(dst, src)
	return finish(dst, n, err)
}

// same runs both decoders into buffers of size n and reports a
// difference: success against failure, too long against other errors, or
// different bytes.
func same(t *testing.T, what string, n int, src []byte, ref, own func(dst, src []byte) error) {
	t.Helper()
	a, b := make([]byte, n), make([]byte, n)
	ea, eb := ref(a, src), own(b, src)
	if (ea == nil) != (eb == nil) || errors.Is(ea, ErrTooLong) != errors.Is(eb, ErrTooLong) {
		t.Fatalf("%s, %d bytes: standard library %v, own %v", what, n, ea, eb)
	}
	if ea == nil && !bytes.Equal(a, b) {
		t.Fatalf("%s: output differs", what)
	}
}

// samples returns test inputs: corpus files when present, text, runs,
// random and mixed data.
func samples(t *testing.T) map[string][]byte {
	r := rand.New(rand.NewPCG(5, 6))
	rnd := make([]byte, 70000)
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	mixed := make([]byte, 0, 200000)
	for len(mixed) < 190000 {
		switch r.IntN(3) {
		case 0:
			mixed = append(mixed, rnd[:r.IntN(300)]...)
		case 1:
			mixed = append(mixed, bytes.Repeat([]byte{byte(r.IntN(4))}, r.IntN(700))...)
		default:
			if len(mixed) > 40000 {
				p := len(mixed) - 1 - r.IntN(40000)
				mixed = append(mixed, mixed[p:p+r.IntN(400)]...)
			}
		}
	}
	s := map[string][]byte{
		"empty":  {},
		"one":    {42},
		"text":   bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 2000),
		"zeros":  make([]byte, 100000),
		"random": rnd,
		"mixed":  mixed,
	}
	files, _ := filepath.Glob("../../../shared/corpus/*/*/*")
	for i, f := range files {
		if i%23 != 0 || len(s) > 16 {
			continue
		}
		if b, err := os.ReadFile(f); err == nil && len(b) > 0 {
			s[filepath.Base(f)] = b[:min(len(b), 1<<20)]
		}
	}
	return s
}

// TestInflateMatchesStd decodes what compress/flate writes at each level
// and compares with compress/flate's reader, including wrong sizes.
func TestInflateMatchesStd(t *testing.T) {
	for name, data := range samples(t) {
		for _, level := range []int{flate.HuffmanOnly, flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.BestCompression} {
			var b bytes.Buffer
			w, _ := flate.NewWriter(&b, level)
			w.Write(data)
			w.Close()
			for _, n := range []int{len(data), len(data) - 1, len(data) + 1} {
				if n >= 0 {
					same(t, name, n, b.Bytes(), stdInflate, ownInflate)
				}
			}
			got := make([]byte, len(data))
			if n, used, err := Inflate(got, b.Bytes()); err != nil || n != len(data) || used != b.Len() {
				t.Fatalf("%s level %d: n %d of %d, used %d of %d, %v", name, level, n, len(data), used, b.Len(), err)
			}
		}
	}
}

// TestDeflateRoundTrip compresses with Deflate and decodes with
// compress/flate (and the own decoder).
func TestDeflateRoundTrip(t *testing.T) {
	for name, data := range samples(t) {
		c := Deflate(nil, data)
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(c)))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s: compress/flate reads back %d bytes of %d: %v", name, len(got), len(data), err)
		}
		own := make([]byte, len(data))
		if err := ownInflate(own, c); err != nil || !bytes.Equal(own, data) {
			t.Fatalf("%s: own decoder: %v", name, err)
		}
		if len(data) > 1000 {
			t.Logf("%s: %d -> %d bytes", name, len(data), len(c))
		}
	}
	var b bytes.Buffer
	zw := NewZlibWriter(&b)
	zw.Write([]byte("hello, "))
	zw.Write([]byte("world"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zlib.NewReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || string(got) != "hello, world" {
		t.Fatalf("zlib round trip: %q %v", got, err)
	}
}

// TestFramingMatchesStd compares zlib and gzip streams, their prefixes
// and damaged copies with compress/zlib and compress/gzip.
func TestFramingMatchesStd(t *testing.T) {
	data := samples(t)["mixed"][:30000]
	var zb, gb bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&zb, zlib.BestSpeed)
	zw.Write(data)
	zw.Close()
	gw := gzip.NewWriter(&gb)
	gw.Name, gw.Comment, gw.Extra = "name.bin", "a comment", []byte{1, 2, 3, 4}
	gw.Write(data[:20000])
	gw.Close()
	gw = gzip.NewWriter(&gb) // a second member
	gw.Write(data[20000:])
	gw.Close()
	streams := []struct {
		name      string
		src       []byte
		ref, own  func(dst, src []byte) error
		fullSizes []int
	}{
		{"zlib", zb.Bytes(), stdZlib, ZlibDecompress, []int{len(data), len(data) - 1, len(data) + 1, 0}},
		{"gzip", gb.Bytes(), stdGzip, GzipDecompress, []int{len(data), 20000, 19999, 20001, len(data) + 1, 0}},
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, s := range streams {
		for _, n := range s.fullSizes {
			same(t, s.name, n, s.src, s.ref, s.own)
		}
		for p := 0; p < len(s.src); p += 1 + p/50 {
			same(t, s.name+" prefix", len(data), s.src[:p], s.ref, s.own)
		}
		for range 300 {
			bad := bytes.Clone(s.src)
			for range 1 + r.IntN(3) {
				i := r.IntN(len(bad))
				bad[i] ^= 1 << r.IntN(8)
			}
			same(t, s.name+" damaged", len(data), bad, s.ref, s.own)
		}
	}
}

// FuzzInflate checks that the own decoder agrees with compress/flate on
// any input.
func FuzzInflate(f *testing.F) {
	for _, level := range []int{0, 1, 9, -2} {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, level)
		w.Write([]byte("hello hello hello, a fuzz seed with some repeats repeats"))
		w.Close()
		f.Add(b.Bytes(), uint16(56))
	}
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		same(t, "fuzz", int(n), src, stdInflate, ownInflate)
	})
}

// FuzzZlib checks that ZlibDecompress agrees with compress/zlib (with the
// checksum checked whenever the reader gets to it) on any input.
func FuzzZlib(f *testing.F) {
	for _, level := range []int{0, 1, 9, -2} {
		var b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&b, level)
		w.Write([]byte("hello hello hello, a fuzz seed with some repeats repeats"))
		w.Close()
		f.Add(b.Bytes(), uint16(56))
	}
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		same(t, "fuzz", int(n), src, stdZlib, ZlibDecompress)
	})
}
