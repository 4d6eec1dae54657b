package pak_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

// checkBlockReader reads entry e through its BlockReader in several
// patterns (forwards in odd steps, backwards, across block boundaries, past
// the end). When Data gave d (dataErr nil), every read must give the same
// bytes; otherwise reads may fail but must not panic.
func checkBlockReader(t *testing.T, e *pak.Entry, d []byte, dataErr error) {
	t.Helper()
	br, err := e.BlockReader()
	if err != nil {
		if dataErr == nil {
			t.Fatalf("%s: Data read, BlockReader: %v", e.Name, err)
		}
		return
	}
	if dataErr == nil && br.Size() != int64(len(d)) {
		t.Fatalf("%s: BlockReader size %d, Data %d bytes", e.Name, br.Size(), len(d))
	}
	size := br.Size()
	check := func(off, n int64) {
		buf := make([]byte, n)
		got, err := br.ReadAt(buf, off)
		if dataErr != nil {
			return
		}
		want := max(0, min(n, size-off))
		switch {
		case int64(got) != want:
			t.Fatalf("%s: ReadAt(%d bytes at %d) read %d, want %d (%v)", e.Name, n, off, got, want, err)
		case want < n && err != io.EOF:
			t.Fatalf("%s: ReadAt(%d bytes at %d) past the end: %v, want io.EOF", e.Name, n, off, err)
		case want == n && err != nil:
			t.Fatalf("%s: ReadAt(%d bytes at %d): %v", e.Name, n, off, err)
		case !bytes.Equal(buf[:got], d[off:off+int64(got)]):
			t.Fatalf("%s: ReadAt(%d bytes at %d) differs from Data", e.Name, n, off)
		}
	}
	const step = 7919 // prime: reads straddle every block boundary sooner or later
	for off := int64(0); off < size; off += step {
		check(off, step)
	}
	for off := size - 1; off >= 0; off -= 3 * step {
		check(off, min(2*step, size-off))
	}
	check(0, size)
	check(size, 1)
	check(max(0, size-5), 10)
	if _, err := br.ReadAt(make([]byte, 1), -1); err == nil {
		t.Fatalf("%s: ReadAt at -1 did not fail", e.Name)
	}
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
		for _, e := range p.Entries {
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
				for _, e := range p.Entries {
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
				runtime.ReadMemStats(&before)
				for off := int64(0); off < br.Size(); off += int64(len(buf)) {
					if _, err := br.ReadAt(buf[:min(int64(len(buf)), br.Size()-off)], off); err != nil {
						t.Fatal(name, err)
					}
				}
				runtime.ReadMemStats(&after)
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
