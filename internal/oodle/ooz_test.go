package oodle

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOozTestdata decodes the sample streams of the ooz project (files
// holding a 4- or 8-byte little-endian decoded size, then an Oodle stream) found
// in the directory named by OODLE_OOZ_TESTDATA. They are not part of this
// repository; the test skips without the variable. Streams of the same
// sample in different codecs must decode to the same bytes, and damaged
// copies (truncated, single bytes flipped) must not panic. Streams of codecs this
// package does not decode must fail with *UnsupportedError.
func TestOozTestdata(t *testing.T) {
	dir := os.Getenv("OODLE_OOZ_TESTDATA")
	if dir == "" {
		t.Skip("OODLE_OOZ_TESTDATA not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.*"))
	sums := map[string][32]byte{} // decoded content per sample name
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil || len(b) < 8 {
			continue
		}
		size, hdr := binary.LittleEndian.Uint64(b), 8
		if size >= 1<<40 {
			size, hdr = uint64(binary.LittleEndian.Uint32(b)), 4
		}
		if size > 1<<30 {
			continue
		}
		dst := make([]byte, size)
		err = Decompress(dst, b[hdr:])
		var ue *UnsupportedError
		switch {
		case err == nil:
			t.Logf("%s: %d bytes ok", filepath.Base(name), size)
			base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
			sum := sha256.Sum256(dst)
			if prev, ok := sums[base]; ok && prev != sum {
				t.Errorf("%s: decodes differently from another codec's stream of %s", filepath.Base(name), base)
			}
			sums[base] = sum
		case errors.As(err, &ue) && !strings.HasSuffix(name, ".kraken"):
			t.Logf("%s: %v", filepath.Base(name), err)
		default:
			t.Errorf("%s: %v", filepath.Base(name), err)
		}
		if err == nil {
			damage(t, b[hdr:], int(min(size, 1<<19)))
		}
	}
}

// damage decodes the first n output bytes of a valid stream after
// truncating it and after flipping single bytes: errors are expected, panics
// are not (the test would crash).
func damage(t *testing.T, src []byte, n int) {
	dst := make([]byte, n)
	for i := 0; i < 200; i++ {
		Decompress(dst, src[:len(src)*i/200])
	}
	span := min(len(src), 1<<16)
	buf := bytes.Clone(src)
	for i := 0; i < 400; i++ {
		k := (i * 7919) % span
		old := buf[k]
		buf[k] ^= byte(1 << (i % 8))
		Decompress(dst, buf)
		buf[k] = old
	}
}

// BenchmarkOozTestdata decodes the ooz sample streams named by
// OODLE_OOZ_TESTDATA (see TestOozTestdata), one sub-benchmark per codec;
// MB/s is decompressed bytes per second.
func BenchmarkOozTestdata(b *testing.B) {
	dir := os.Getenv("OODLE_OOZ_TESTDATA")
	if dir == "" {
		b.Skip("OODLE_OOZ_TESTDATA not set")
	}
	for _, ext := range []string{".kraken", ".leviathan"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
		type sample struct {
			src []byte
			dst []byte
		}
		var samples []sample
		total := 0
		for _, name := range files {
			buf, err := os.ReadFile(name)
			if err != nil || len(buf) < 8 {
				continue
			}
			size, hdr := binary.LittleEndian.Uint64(buf), 8
			if size >= 1<<40 {
				size, hdr = uint64(binary.LittleEndian.Uint32(buf)), 4
			}
			if size > 1<<30 {
				continue
			}
			samples = append(samples, sample{buf[hdr:], make([]byte, size)})
			total += int(size)
		}
		if len(samples) == 0 {
			continue
		}
		b.Run(ext[1:], func(b *testing.B) {
			b.SetBytes(int64(total))
			for i := 0; i < b.N; i++ {
				for _, s := range samples {
					if err := Decompress(s.dst, s.src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
