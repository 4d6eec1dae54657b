package oodle

import (
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
// sample in different codecs must decode to the same bytes. Streams of codecs this
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
	}
}
