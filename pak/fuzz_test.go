package pak_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/readertest"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

// fuzzLimits keep one fuzz input cheap: small blocks, few entries read.
const (
	fuzzMaxBlock   = 1 << 20
	fuzzMaxEntries = 64
)

// addPakSeeds adds the small corpus paks and synthetic ones.
func addPakSeeds(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, name := range []string{"pack_v5_compress.pak", "pack_v7_encrypt.pak", "pack_v8a_compress_encryptindex.pak", "pack_v8b.pak", "pack_v9_compress_encrypt.pak", "pack_v11_compress.pak", "pack_v11_encrypt_encryptindex.pak"} {
			b, err := os.ReadFile(filepath.Join(dir, "pak", "trumank+repak", "repak", "tests", "packs", name))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
		for _, rel := range []string{"UE5_8/Patch/Pak/CUE4ParseFixtures-PatchBase_0_P.pak", "UE6_0/Patch/Pak/CUE4ParseFixtures-PatchBase_0_P.pak", "UE6_0/LegacyPak/Unversioned/Oodle/CUE4ParseFixtures-Legacy-Unversioned-Oodle.pak"} {
			b, err := os.ReadFile(filepath.Join(dir, "pak", "FabianFG+CUE4Parse", "CUE4Parse.Tests", "Fixtures", rel))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, v := range []int{3, 8, 11} {
		files := synthFiles(true, v > 8)
		b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../G/", Key: testKey}, []paktest.File{files[0], files[2], files[4]})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// readSome opens a pak and reads its entries with the fuzz limits. A pak
// that opens must give entries whose data, when it reads, has the recorded
// size.
func readSome(t *testing.T, b []byte, key []byte) {
	opts := []pak.Option{pak.WithMaxBlockSize(fuzzMaxBlock)}
	if key != nil {
		opts = append(opts, pak.WithKey(key))
	}
	p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return
	}
	var scratch []byte // DataInto's memory, reused from entry to entry
	for i, e := range p.All() {
		if i >= fuzzMaxEntries {
			break
		}
		e.Verify()
		d, err := e.Data()
		// DataInto reads the same bytes into reused memory.
		into, errInto := e.DataInto(scratch)
		if (err == nil) != (errInto == nil) || err == nil && !bytes.Equal(d, into) {
			t.Fatalf("%s: Data gave %d bytes, %v; DataInto %d bytes, %v", e.Name, len(d), err, len(into), errInto)
		}
		if errInto == nil {
			scratch = into
		}
		if err == nil && int64(len(d)) != e.UncompressedSize {
			t.Fatalf("%s: %d bytes, recorded %d", e.Name, len(d), e.UncompressedSize)
		}
		// Data reads the way Open's reader does: the same bytes, or an
		// error for both.
		var streamed []byte
		rc, err2 := e.Open()
		if err2 == nil {
			streamed, err2 = io.ReadAll(rc)
		}
		if (err == nil) != (err2 == nil) || err == nil && !bytes.Equal(d, streamed) {
			t.Fatalf("%s: Data gave %d bytes, %v; Open %d bytes, %v", e.Name, len(d), err, len(streamed), err2)
		}
		// Decoded ahead, the entry reads as one block after the other.
		pak.WithAhead(0x300, func() {
			da, errA := e.Data()
			var sa []byte
			rc, errS := e.Open()
			if errS == nil {
				sa, errS = io.ReadAll(rc)
				rc.Close()
			}
			if fmt.Sprint(errA) != fmt.Sprint(err) || !bytes.Equal(da, d) || fmt.Sprint(errS) != fmt.Sprint(err2) || !bytes.Equal(sa, streamed) {
				t.Fatalf("%s: decoded ahead %d bytes, %v, streamed %d bytes, %v; one by one %d bytes, %v, streamed %d bytes, %v", e.Name, len(da), errA, len(sa), errS, len(d), err, len(streamed), err2)
			}
		})
		// And so through a BlockReader read in order.
		var n, nAhead int64
		var stepsErr, stepsAheadErr error
		pak.WithoutAhead(func() { n, stepsErr = stepsAgainst(e, d, err) })
		pak.WithAhead(0x300, func() { nAhead, stepsAheadErr = stepsAgainst(e, d, err) })
		if fmt.Sprint(stepsAheadErr) != fmt.Sprint(stepsErr) || nAhead != n {
			t.Fatalf("%s, BlockReader in order: decoded ahead %d bytes, %v; one by one %d bytes, %v", e.Name, nAhead, stepsAheadErr, n, stepsErr)
		}
		checkBlockReader(t, e, d, err)
	}
	p.Names()
	p.ReadDir(".")
}

// FuzzReader feeds whole files (footer, index, entries) to the reader.
func FuzzReader(f *testing.F) {
	addPakSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		alloctest.Check(t, len(b), func() {
			readSome(t, b, nil)
			readSome(t, b, testKey)
		})
	})
}

// FuzzIndex wraps fuzzed bytes as the (unhashed, unencrypted) index of a
// pak of each index layout, so that mutations reach the index parsers
// instead of failing the index SHA-1 check.
func FuzzIndex(f *testing.F) {
	for _, v := range []int{5, 8, 11} {
		b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../G/"}, synthFiles(v == 11, false)[:4])
		if err != nil {
			f.Fatal(err)
		}
		// Seed with the pak's real index (primary index and what follows).
		off := int64(binary.LittleEndian.Uint64(b[len(b)-footerSize(v)+footerMagicPos(v)+8:]))
		f.Add(uint8(v), b[off:len(b)-footerSize(v)])
	}
	f.Fuzz(func(t *testing.T, version uint8, index []byte) {
		v := []int{5, 8, 10, 11, 12}[int(version)%5]
		b := wrapIndex(v, index)
		alloctest.Check(t, len(b), func() { readSome(t, b, nil) })
		// The index parsed as it is read gives what the index read whole
		// gives (the corpus can only show it for big indexes).
		var whole, streamed string
		pak.WithIndexStreamed(false, func() { whole = describePak(b, "") })
		pak.WithIndexStreamed(true, func() { streamed = describePak(b, "") })
		if whole != streamed {
			t.Fatalf("read whole:\n%.2000s\nstreamed:\n%.2000s", whole, streamed)
		}
	})
}

func footerMagicPos(v int) int {
	if v >= 7 {
		return 17
	}
	return 1
}

func footerSize(v int) int {
	n := footerMagicPos(v) + 44
	if v == 9 {
		n++
	}
	if v >= 8 {
		n += 5 * 32
	}
	return n
}

// wrapIndex builds a file of 64 bytes of data, the index and a footer of
// version v with a zero index hash (no check).
func wrapIndex(v int, index []byte) []byte {
	b := make([]byte, 64, 64+len(index)+300)
	b = append(b, index...)
	if v >= 7 {
		b = append(b, make([]byte, 16)...)
	}
	b = append(b, 0) // not encrypted
	b = binary.LittleEndian.AppendUint32(b, pak.Magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(v))
	b = binary.LittleEndian.AppendUint64(b, 64)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(index)))
	b = append(b, make([]byte, 20)...)
	if v >= 8 {
		names := make([]byte, 5*32)
		copy(names, "Zlib")
		copy(names[32:], "Gzip")
		b = append(b, names...)
	}
	return b
}

// TestTruncated: every prefix of real paks fails cleanly (the footer is at
// the end, so each prefix exercises the footer search on other bytes).
func TestTruncated(t *testing.T) {
	dir := corpus.Path(t, "pak")
	for _, rel := range []string{
		"trumank+repak/repak/tests/packs/pack_v5_compress_encrypt.pak",
		"trumank+repak/repak/tests/packs/pack_v8a_compress.pak",
		"trumank+repak/repak/tests/packs/pack_v11_compress_encrypt_encryptindex.pak",
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Patch/Pak/CUE4ParseFixtures-PatchBase.pak",
	} {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(b) {
			p, err := pak.NewReader(bytes.NewReader(b[:n]), int64(n), pak.WithKeyString(keyFor(rel)))
			if err == nil {
				t.Fatalf("%s: prefix of %d bytes opened (%d entries)", rel, n, p.Len())
			}
		}
	}
}

// TestCorruptIndex flips every byte of a v11 index (hash check disabled):
// the reader never panics, and a pak that still opens reads cleanly.
func TestCorruptIndex(t *testing.T) {
	src, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../G/"}, synthFiles(true, false)[:4])
	if err != nil {
		t.Fatal(err)
	}
	off := int64(binary.LittleEndian.Uint64(src[len(src)-footerSize(11)+17+8:]))
	index := src[off : len(src)-footerSize(11)]
	for i := range index {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			mut := append([]byte(nil), index...)
			mut[i] ^= x
			readSome(t, wrapIndex(11, mut), nil)
		}
	}
}

// stepsAgainst reads e through a BlockReader from start to end in steps
// of 40000 bytes, up to the first error (readertest.Steps), and returns
// how many bytes it read; when Data read e (dataErr nil), they must be
// d's.
func stepsAgainst(e *pak.Entry, d []byte, dataErr error) (int64, error) {
	br, err := e.BlockReader()
	if err != nil {
		return 0, err
	}
	defer br.Close()
	return readertest.Steps(br, br.Size(), 40000, func(off int64, b []byte) error {
		if dataErr == nil && (off+int64(len(b)) > int64(len(d)) || !bytes.Equal(b, d[off:off+int64(len(b))])) {
			return fmt.Errorf("the %d bytes read at %d are not Data's", len(b), off)
		}
		return nil
	})
}

// TestLyingEntryCount opens a v11 pak whose index claims 2^31-1 entries
// for one file with a 4 MiB name (its hash zeroed, so the index is not
// checked against it): what opening it allocates stays within alloctest's
// bound of its size, however the claimed count sizes the entry list.
func TestLyingEntryCount(t *testing.T) {
	name := "Game/" + string(bytes.Repeat([]byte{'a'}, 4<<20)) + ".txt"
	b, r := buildPak(t, paktest.Options{Version: 11, Mount: "../../../"}, []paktest.File{{Path: name, Data: []byte("x")}})
	f := r.Footer
	r.Close()
	// Zero the index hash in the footer, and set Index.NumEntries (after
	// the mount point's FString) to the largest int32.
	h := bytes.LastIndex(b, f.IndexHash[:])
	if h < 0 {
		t.Fatal("index hash not found in the footer")
	}
	clear(b[h : h+len(f.IndexHash)])
	mountLen := int64(binary.LittleEndian.Uint32(b[f.IndexOffset:]))
	binary.LittleEndian.PutUint32(b[f.IndexOffset+4+mountLen:], 0x7fffffff)
	alloctest.Check(t, len(b), func() {
		r, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Logf("refused: %v", err)
			return
		}
		if r.Len() != 1 {
			t.Errorf("%d entries", r.Len())
		}
		r.Close()
	})
}

// TestLongDirectoryName opens a v11 pak of 300 files in one folder whose
// name is 100 KB: each file's path repeats the name, so the paths would
// take 300 times what the index stores of them (30 MB from 100 KB; a
// crafted index of 1 GiB could ask for terabytes of those who list or look
// up its files). Opening it is refused, within alloctest's bound.
func TestLongDirectoryName(t *testing.T) {
	dir := "Game/" + string(bytes.Repeat([]byte{'d'}, 100<<10)) + "/"
	var files []paktest.File
	for i := range 300 {
		files = append(files, paktest.File{Path: fmt.Sprintf("%s%d", dir, i), Data: []byte{1}})
	}
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, files)
	if err != nil {
		t.Fatal(err)
	}
	alloctest.Check(t, len(b), func() {
		r, err := pak.NewReader(bytes.NewReader(b), int64(len(b)))
		if err == nil {
			r.Close()
			t.Fatalf("opened, %d entries", r.Len())
		}
		if !strings.Contains(err.Error(), "more than 24 times the index") {
			t.Errorf("refused with %v", err)
		}
	})
}
