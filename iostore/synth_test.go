package iostore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/iostoretest"
)

// synthFile is one file of a synthetic container: a directory path, a file
// name and its data.
type synthFile struct {
	dir, name string
	data      []byte
}

// buildToc writes a small uncompressed, unencrypted container of TOC
// version v holding files (with internal/iostoretest, the writer the other
// packages' tests use too) and returns the .utoc and .ucas bytes.
func buildToc(v TocVersion, mount string, files []synthFile) (toc, cas []byte) {
	exportType := ChunkExportBundleData
	if UsesUE4ChunkTypes(v) {
		exportType = ChunkUE4ExportBundleData
	}
	chunks := make([]iostoretest.Chunk, len(files))
	for i, f := range files {
		p := f.name
		if f.dir != "" {
			p = f.dir + "/" + f.name
		}
		chunks[i] = iostoretest.Chunk{ID: NewChunkID(uint64(i+1)*0x1111, 0, exportType), Path: p, Data: f.data}
	}
	return iostoretest.Build(uint8(v), 0xC0FFEE, mount, chunks)
}

func openSynth(t testing.TB, toc, cas []byte) *File {
	t.Helper()
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) {
		return bytes.NewReader(cas), int64(len(cas)), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSynthVersions builds a container of every TOC version and reads it
// back: chunk types per the version's enum, SHA-1 or BLAKE3 hashes, the
// directory index from version 2.
func TestSynthVersions(t *testing.T) {
	files := []synthFile{
		{"Content", "A.uasset", bytes.Repeat([]byte("abc"), 300)},
		{"Content", "B.uasset", []byte("tiny")},
		{"", "Root.bin", bytes.Repeat([]byte{1, 2, 3, 4, 5}, 200)},
	}
	for v := TocInitial; v <= TocLatest; v++ {
		toc, cas := buildToc(v, "../../../", files)
		f := openSynth(t, toc, cas)
		if got := f.ChunkIDs[0].Type().Name(v); got != "ExportBundleData" {
			t.Errorf("v%d: chunk type %s", v, got)
		}
		for i := range files {
			data, err := f.ReadChunkVerified(i)
			if err != nil || !bytes.Equal(data, files[i].data) {
				t.Errorf("v%d chunk %d: %v", v, i, err)
			}
		}
		if v >= TocDirectoryIndex {
			fsys, err := f.FS()
			if err != nil {
				t.Fatal(err)
			}
			got, err := fs.ReadFile(fsys, "Content/A.uasset")
			if err != nil || !bytes.Equal(got, files[0].data) {
				t.Errorf("v%d: %v", v, err)
			}
		} else if f.DirectoryIndex != nil {
			t.Errorf("v%d has a directory index", v)
		}
		if v < TocPartitionSize && f.Header.PartitionSize != ^uint64(0) {
			t.Errorf("v%d: partition size %d", v, f.Header.PartitionSize)
		}
	}
}

// TestIssuePathTraversal puts "..", "." and names with slashes in a
// directory index: the files are listed but io/fs never serves them, so an
// extractor walking the FS cannot write outside its folder.
func TestIssuePathTraversal(t *testing.T) {
	files := []synthFile{
		{"..", "escape.txt", []byte("x")},
		{"Game", "../../etc/passwd", []byte("y")},
		{"Game", "ok.txt", []byte("z")},
		{".", "dot.txt", []byte("w")},
	}
	toc, cas := buildToc(TocLatest, "../../../", files)
	f := openSynth(t, toc, cas)
	valid := 0
	for _, fe := range f.DirectoryIndex.Files() {
		if fe.Valid {
			valid++
			if fe.Path != "Game/ok.txt" {
				t.Errorf("unsafe path %q marked valid", fe.Path)
			}
		}
	}
	if valid != 1 || f.DirectoryIndex.NumFiles() != 4 {
		t.Errorf("%d valid of %d files", valid, f.DirectoryIndex.NumFiles())
	}
	fsys, _ := f.FS()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !fs.ValidPath(p) || (!d.IsDir() && p != "Game/ok.txt") {
			t.Errorf("served %q", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Open("../escape.txt"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("open ../escape.txt: %v", err)
	}
}

// TestIssueDirectoryCycle links a directory to itself: refused, no hang.
func TestIssueDirectoryCycle(t *testing.T) {
	toc, _ := buildToc(TocLatest, "", []synthFile{{"A", "f", []byte("1")}})
	// Make the root's first child (directory 1) its own next sibling.
	i := bytes.Index(toc, []byte{1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF})
	if i < 0 {
		t.Fatal("directory entry not found")
	}
	// The entry of directory 1 is {name, child, sibling, file}; set sibling = 1.
	binary.LittleEndian.PutUint32(toc[i+8:], 1)
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)))
	if err != nil {
		t.Fatal(err)
	}
	if f.DirectoryIndexErr == nil {
		t.Fatal("cycle accepted")
	}
}

// TestSignedBlocks signs a synthetic container the way FIoStoreWriter does
// (SHA-1 of each block as stored, padded to 16 bytes) and checks that a
// changed byte is caught by the block signature.
func TestSignedBlocks(t *testing.T) {
	files := []synthFile{{"Content", "A.uasset", bytes.Repeat([]byte("signed"), 100)}}
	toc, cas := buildToc(TocLatest, "../../../", files)
	f := openSynth(t, toc, cas)
	var sigs [][20]byte
	for i := 0; i < f.NumBlocks(); i++ {
		blk := f.Block(i)
		n := (uint64(blk.CompressedSize) + 15) &^ 15
		sigs = append(sigs, sha1.Sum(cas[blk.Offset:blk.Offset+n]))
	}
	f.Signature = &Signature{ChunkBlockSignature: sigs}
	if err := f.VerifyChunk(0); err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), cas...)
	bad[3] ^= 1
	g := openSynth(t, toc, bad)
	g.Signature = f.Signature
	if err := g.VerifyChunk(0); !errors.Is(err, ErrSignature) {
		t.Fatalf("tampered block: %v", err)
	}
}

// TestStoredRuns reads every sub-range of a chunk of stored blocks, in one
// partition (one read for the whole range) and split over partitions of
// two blocks each (the run breaks at each partition), and checks the bytes.
func TestStoredRuns(t *testing.T) {
	data := make([]byte, 0x100*5+0x37)
	for i := range data {
		data[i] = byte(i*7 + i>>8)
	}
	toc, cas := buildToc(TocLatest, "../../../", []synthFile{{"Content", "Big.uasset", data}})
	for _, tc := range []struct {
		partSize int
		mem      bool // partitions are a binread.Mem (read in place)
	}{{0, false}, {0, true}, {0x200, false}, {0x200, true}} {
		partSize := tc.partSize
		wrap := func(b []byte) io.ReaderAt {
			if tc.mem {
				return binread.Mem(b)
			}
			return bytes.NewReader(b)
		}
		var opt Option
		if partSize == 0 {
			opt = WithPartitions(func(int) (io.ReaderAt, int64, error) { return wrap(cas), int64(len(cas)), nil })
		} else {
			binary.LittleEndian.PutUint64(toc[88:], uint64(partSize))
			opt = WithPartitions(func(p int) (io.ReaderAt, int64, error) {
				if p*partSize >= len(cas) {
					return nil, 0, fs.ErrNotExist
				}
				part := cas[p*partSize : min((p+1)*partSize, len(cas))]
				return wrap(part), int64(len(part)), nil
			})
		}
		f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), opt)
		if err != nil {
			t.Fatal(err)
		}
		if partSize == 0 {
			if r := f.storedRun(0, 5, 0, uint64(len(data)), math.MaxUint64); r.blocks != 6 || r.n != uint64(len(data)) {
				t.Errorf("run over the whole chunk: %+v", r)
			}
		} else if r := f.storedRun(0, 5, 0x10, uint64(len(data))-0x10, math.MaxUint64); r.blocks != 2 || r.n != 0x200-0x10 {
			t.Errorf("run in partition 0: %+v", r)
		}
		for off := 0; off < len(data); off += 0x3b {
			for n := 1; off+n <= len(data); n += 0x95 {
				got, err := f.readRange(uint64(off), uint64(n), nil)
				if err != nil || !bytes.Equal(got, data[off:off+n]) {
					t.Fatalf("partition size %#x: [%#x, +%#x): %v", partSize, off, n, err)
				}
				// Into a reused buffer holding other bytes.
				scratch := bytes.Repeat([]byte{0xAA}, len(data))
				got, err = f.readRange(uint64(off), uint64(n), scratch)
				if err != nil || !bytes.Equal(got, data[off:off+n]) || &got[0] != &scratch[0] {
					t.Fatalf("partition size %#x: [%#x, +%#x) into a buffer: %v", partSize, off, n, err)
				}
				// The same bytes handed to a sink, with runs of stored
				// blocks cut at 0x180 bytes.
				sinkRunLimit = 0x180
				var streamed []byte
				err = f.walkRange(uint64(off), uint64(n), nil, func(p []byte) { streamed = append(streamed, p...) })
				sinkRunLimit = maxPooledBlock
				if err != nil || !bytes.Equal(streamed, data[off:off+n]) {
					t.Fatalf("partition size %#x: [%#x, +%#x) to a sink: %v", partSize, off, n, err)
				}
			}
		}
		if r := f.storedRun(0, 5, 0, uint64(len(data)), 0x100); r.blocks != 1 {
			t.Errorf("run cut at 0x100 bytes: %+v", r)
		}
		// In place only when one run of a partition in memory holds it.
		if got, ok := f.ChunkInPlace(0); ok != (tc.mem && partSize == 0) || ok && (!bytes.Equal(got, data) || &got[0] != &cas[f.Block(0).Offset]) {
			t.Errorf("partition size %#x, in memory %v: ChunkInPlace gave %d bytes, %v", partSize, tc.mem, len(got), ok)
		}
		if err := f.VerifyChunk(0); err != nil {
			t.Errorf("partition size %#x: VerifyChunk: %v", partSize, err)
		}
		if _, err := f.ReadChunkVerified(0); err != nil {
			t.Errorf("partition size %#x: %v", partSize, err)
		}
	}
}

// failingReader fails every read once fail is set.
type failingReader struct {
	r    io.ReaderAt
	fail bool
}

func (f *failingReader) ReadAt(p []byte, off int64) (int, error) {
	if f.fail {
		return 0, errors.New("disk gone")
	}
	return f.r.ReadAt(p, off)
}

// TestLazyMetas checks that the chunk metas, read on first use, give the
// same hashes as an eager read, and that a failed read is reported by the
// hash check instead of passing as "no hash".
func TestLazyMetas(t *testing.T) {
	toc, cas := buildToc(TocLatest, "../../../", []synthFile{{"Content", "A.uasset", []byte("hello")}, {"", "B", []byte("world!")}})
	parts := WithPartitions(func(int) (io.ReaderAt, int64, error) { return bytes.NewReader(cas), int64(len(cas)), nil })
	fr := &failingReader{r: bytes.NewReader(toc)}
	f, err := NewReader(fr, int64(len(toc)), parts)
	if err != nil {
		t.Fatal(err)
	}
	if f.metas != nil {
		t.Error("metas read at open")
	}
	for i := range f.ChunkIDs {
		if _, err := f.ReadChunkVerified(i); err != nil || !f.HasHash(i) {
			t.Errorf("chunk %d: %v (has hash %v)", i, err, f.HasHash(i))
		}
	}
	fr2 := &failingReader{r: bytes.NewReader(toc)}
	g, err := NewReader(fr2, int64(len(toc)), parts)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.loadBlocks(); err != nil {
		t.Fatal(err)
	}
	fr2.fail = true
	if _, err := g.ReadChunkVerified(0); err == nil || !strings.Contains(err.Error(), "chunk metas") {
		t.Errorf("unreadable metas: %v", err)
	}
	if g.MetasErr() == nil || g.Hash(0) != ([20]byte{}) {
		t.Errorf("MetasErr %v, hash %x", g.MetasErr(), g.Hash(0))
	}
}

// TestMethodNamesWithoutLength: method names of length 0 take no bytes, so
// the file size cannot bound their count; the header is refused before
// anything is sized by that count (a fuzzed TOC with 2^31 of them made the
// reader allocate gigabytes).
func TestMethodNamesWithoutLength(t *testing.T) {
	toc, _ := buildToc(TocLatest, "../../../", []synthFile{{"Content", "A.uasset", []byte("abc")}})
	binary.LittleEndian.PutUint32(toc[36:], 1<<31) // CompressionMethodNameCount
	binary.LittleEndian.PutUint32(toc[40:], 0)     // CompressionMethodNameLength
	_, err := NewReader(bytes.NewReader(toc), int64(len(toc)))
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != 40 || !strings.Contains(err.Error(), "CompressionMethodNameLength is 0") {
		t.Fatalf("have %v, want a FormatError at offset 40 about the name length", err)
	}
}
