package iostore

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/readertest"
)

// checkChunkReader reads chunk i through a ChunkReader in several patterns
// (readertest.Check): every read gives the bytes of want, what ReadChunk
// gave.
func checkChunkReader(t *testing.T, f *File, i int, want []byte) {
	t.Helper()
	cr, err := f.ChunkReader(i)
	if err != nil {
		t.Fatalf("%s chunk %d: ReadChunk read, ChunkReader: %v", f.Name, i, err)
	}
	if cr.Size() != int64(len(want)) {
		t.Fatalf("%s chunk %d: ChunkReader size %d, ReadChunk %d bytes", f.Name, i, cr.Size(), len(want))
	}
	readertest.Check(t, fmt.Sprintf("%s chunk %d", f.Name, i), cr, want)
}

// TestChunkReaderCorpus reads every chunk of the corpus containers through
// a ChunkReader and compares it with ReadChunk.
func TestChunkReaderCorpus(t *testing.T) {
	n := 0
	eachCorpusContainer(t, func(f *File) {
		for i := range f.ChunkIDs {
			want, err := f.ReadChunk(i)
			if err != nil {
				continue // TestChunkHashes says which do not read
			}
			checkChunkReader(t, f, i, want)
			n++
		}
	})
	if n < 1695 {
		t.Errorf("only %d chunks read", n)
	}
	t.Logf("%d chunks read through a ChunkReader", n)
}

// TestChunkReaderSynthetic reads a 2 MiB chunk of 256-byte blocks from a
// synthetic container, its partition read (stored blocks copied) and
// mapped (in place): the same bytes, and reading it all allocates a small
// fraction of it (two blocks are kept).
func TestChunkReaderSynthetic(t *testing.T) {
	data := make([]byte, 2<<20)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	toc, cas := buildToc(TocLatest, "../../../", []synthFile{{"Content", "Big.uasset", data}, {"Content", "Small.uasset", []byte("small")}})
	for _, mem := range []bool{false, true} {
		f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) {
			if mem {
				return binread.Mem(cas), int64(len(cas)), nil
			}
			return bytes.NewReader(cas), int64(len(cas)), nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.ChunkIDs {
			want, err := f.ReadChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			checkChunkReader(t, f, i, want)
		}
		i, ok := f.ChunkIndex(NewChunkID(0x1111, 0, ChunkExportBundleData))
		if !ok {
			t.Fatal("no Big.uasset chunk")
		}
		cr, err := f.ChunkReader(i)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1000)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for off := int64(0); off < cr.Size(); off += int64(len(buf)) {
			if _, err := cr.ReadAt(buf[:min(int64(len(buf)), cr.Size()-off)], off); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 256<<10 {
			t.Errorf("mem=%v: reading %d bytes allocated %d", mem, cr.Size(), got)
		}
	}
}

// readInSteps reads chunk i through a ChunkReader from start to end, 40000
// bytes at a time, up to the first error (readertest.Steps).
func readInSteps(f *File, i int) ([]byte, error) {
	r, err := f.ChunkReader(i)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readertest.StepsAll(r, r.Size(), 40000)
}
