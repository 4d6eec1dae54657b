package pak_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/readertest"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

// checkBlockReader reads entry e through its BlockReader in several
// patterns (readertest.Check). When Data gave d (dataErr nil), every read
// must give the same bytes; otherwise reads may fail but must not panic.
func checkBlockReader(t *testing.T, e *pak.Entry, d []byte, dataErr error) {
	t.Helper()
	br, err := e.BlockReader()
	if err != nil {
		if dataErr == nil {
			t.Fatalf("%s: Data read, BlockReader: %v", e.Name, err)
		}
		return
	}
	if dataErr != nil {
		for off := int64(-1); off < br.Size()+2; off += 7919 {
			br.ReadAt(make([]byte, 7919), off)
		}
		return
	}
	if br.Size() != int64(len(d)) {
		t.Fatalf("%s: BlockReader size %d, Data %d bytes", e.Name, br.Size(), len(d))
	}
	readertest.Check(t, e.Name, br, d)
}

// TestBlockReaderCorpus reads every entry of the corpus paks through a
// BlockReader and compares it with Data.
func TestBlockReaderCorpus(t *testing.T) {
	dir := corpus.Path(t, "pak")
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".pak") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		p, err := pak.OpenReader(path, pak.WithKeyString(keyFor(rel)))
		if err != nil {
			return nil // the corpus tests say which do not open and why
		}
		for _, e := range p.All() {
			if e.Deleted() {
				continue
			}
			data, err := e.Data()
			if err != nil {
				continue
			}
			checkBlockReader(t, e, data, nil)
			n++
		}
		return p.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no pak entry read")
	}
	t.Logf("%d entries read through a BlockReader", n)
}

// TestBlockReaderSynthetic covers every combination the test writer makes
// (compression, encryption, block sizes that do and do not divide the
// data) and checks that a BlockReader holds at most two blocks: reading a
// 4 MiB entry of 64 KiB blocks allocates a small fraction of it.
func TestBlockReaderSynthetic(t *testing.T) {
	big := make([]byte, 4<<20)
	for i := range big {
		big[i] = byte(i*7/5) ^ byte(i>>13)
	}
	for _, v := range []int{3, 8, 11} {
		for _, compress := range []bool{false, true} {
			for _, encrypt := range []bool{false, true} {
				name := fmt.Sprintf("v%d compress=%v encrypt=%v", v, compress, encrypt)
				files := append(synthFiles(compress, encrypt), paktest.File{Path: "Content/Huge.uexp", Data: big, Compress: compress, Encrypt: encrypt, BlockSize: 64 << 10})
				b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../G/", Key: testKey}, files)
				if err != nil {
					t.Fatal(name, err)
				}
				p, err := pak.NewReader(bytes.NewReader(b), int64(len(b)), pak.WithKey(testKey))
				if err != nil {
					t.Fatal(name, err)
				}
				for _, e := range p.All() {
					d, err := e.Data()
					if err != nil {
						t.Fatal(name, e.Name, err)
					}
					checkBlockReader(t, e, d, nil)
				}
				e, ok := p.Lookup("G/Content/Huge.uexp")
				if !ok {
					t.Fatal(name, "no Huge.uexp")
				}
				br, err := e.BlockReader()
				if err != nil {
					t.Fatal(name, err)
				}
				buf := make([]byte, 1000)
				var before, after runtime.MemStats
				// Blocks decoded by the reader alone (decoding ahead
				// adds its bounded 2 MiB: TestAheadBigBlocks).
				pak.WithoutAhead(func() {
					runtime.ReadMemStats(&before)
					for off := int64(0); off < br.Size(); off += int64(len(buf)) {
						if _, err := br.ReadAt(buf[:min(int64(len(buf)), br.Size()-off)], off); err != nil {
							t.Fatal(name, err)
						}
					}
					runtime.ReadMemStats(&after)
				})
				// Two 64 KiB blocks and the stored bytes of one, plus what
				// each block's decompression allocates: a small fraction
				// of the 4 MiB entry.
				if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
					t.Errorf("%s: reading %d bytes allocated %d", name, br.Size(), got)
				}
			}
		}
	}
}
