package iostore

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/iostoretest"
)

// TestLyingBlockSize gives a container whose one chunk is in compression
// blocks that each store a byte and claim to expand to 16 MiB (the largest
// block a TOC may have). Hashing the chunk block by block and reading it
// whole both fail naming the first block, and allocate far less than the
// claim (reading whole used to preallocate the 64 MiB the blocks claim).
func TestLyingBlockSize(t *testing.T) {
	const blocks = 4
	toc, cas := iostoretest.Build(uint8(TocLatest), 1, "../../../", []iostoretest.Chunk{
		{ID: NewChunkID(1, 0, ChunkExportBundleData), Path: "A.bin", Data: make([]byte, blocks*0x100)},
	})
	// The TOC: header, one chunk ID, its offset and length, the block
	// entries; then Zlib as method 1.
	le := binary.LittleEndian
	ol := tocHeaderSize + chunkIDSize
	entries := ol + offsetLengthSize
	le.PutUint32(toc[44:], maxBlockSize) // CompressionBlockSize
	le.PutUint32(toc[36:], 1)            // CompressionMethodNameCount
	length := uint64(blocks * (maxBlockSize - 1))
	for k := 0; k < 5; k++ {
		toc[ol+9-k] = byte(length >> (8 * k))
	}
	for i := range blocks {
		b := toc[entries+i*blockEntrySize:][:blockEntrySize]
		b[5], b[6], b[7] = 1, 0, 0           // compressed size
		b[8], b[9], b[10] = 0xFF, 0xFF, 0xFF // uncompressed size
		b[11] = 1                            // method index
	}
	name := make([]byte, 32)
	copy(name, "Zlib")
	toc = slices.Insert(toc, entries+blocks*blockEntrySize, name...)
	f := openSynth(t, toc, cas)

	for name, read := range map[string]func() error{
		"VerifyChunk": func() error { return f.VerifyChunk(0) },
		"ReadChunk":   func() error { _, err := f.ReadChunk(0); return err },
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := read()
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "compression block 0") {
			t.Fatalf("%s: error %v, want one naming compression block 0", name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("%s: %d bytes allocated for blocks of 1 stored byte", name, grew)
		}
	}
}

// TestLongDirectoryName reads a TOC of 300 files in one folder whose name
// is 100 KB: each file's path repeats the name, 30 MB of paths from an
// index of 100 KB. The directory index is refused, the TOC read.
func TestLongDirectoryName(t *testing.T) {
	dir := strings.Repeat("d", 100<<10) + "/"
	var chunks []iostoretest.Chunk
	for i := range 300 {
		chunks = append(chunks, iostoretest.Chunk{ID: NewChunkID(uint64(i+1), 0, ChunkExportBundleData), Path: dir + strconv.Itoa(i), Data: []byte{1}})
	}
	toc, _ := iostoretest.Build(uint8(TocLatest), 1, "../../../", chunks)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if f.DirectoryIndex != nil || f.DirectoryIndexErr == nil || !strings.Contains(f.DirectoryIndexErr.Error(), "more than 24 times") {
		t.Errorf("directory index %v, error %v", f.DirectoryIndex != nil, f.DirectoryIndexErr)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("reading the TOC allocated %d bytes", grew)
	}
}
