package pak

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/pak/paktest"
)

// TestLyingBlockSize gives a pak whose compressed entry, one zlib block of
// a few hundred bytes, claims to expand to 60 MiB (under the 64 MiB block
// limit): the index is refused naming the entry, and nothing near the
// claim is allocated (reading it used to make a 60 MiB buffer first).
func TestLyingBlockSize(t *testing.T) {
	const size, claim = 0x12345, 60 << 20
	b, err := paktest.Build(paktest.Options{Version: 8, Mount: "../../../"}, []paktest.File{
		{Path: "Game/A.bin", Data: make([]byte, size), Compress: true, BlockSize: size},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The size is in the entry's header before its data and in the
	// index, and so is the block size (4 bytes, then zeros).
	var from, to [8]byte
	binary.LittleEndian.PutUint64(from[:], size)
	binary.LittleEndian.PutUint64(to[:], claim)
	if n := bytes.Count(b, from[:]); n != 3 {
		t.Fatalf("the uncompressed size is in the pak %d times, want 3", n)
	}
	foot, err := ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, from[:], to[:])
	// The index hash as a writer of such a pak would store it.
	sum := sha1.Sum(b[foot.IndexOffset : foot.IndexOffset+foot.IndexSize])
	if i := bytes.Index(b[foot.IndexOffset+foot.IndexSize:], foot.IndexHash[:]); i < 0 {
		t.Fatal("index hash not found in the footer")
	} else {
		copy(b[foot.IndexOffset+foot.IndexSize+int64(i):], sum[:])
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err == nil {
		for _, e := range r.Entries {
			if _, err = e.DataInto(nil); err != nil {
				break
			}
		}
	}
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "Game/A.bin") {
		t.Errorf("error %v, want one naming the entry", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("%d bytes allocated", grew)
	}
}
