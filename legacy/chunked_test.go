package legacy

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// multiChunkFiles are the corpus packages stored in several compressed
// chunks (read through chunkedImage).
var multiChunkFiles = []string{
	"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME3/biod_nor.xxx",
	"ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME1/BIOA_END70_00_ART.xxx",
}

// chunkedAlways makes every multi-chunk package read chunk by chunk until
// the test ends (the corpus's are smaller than chunkedMinImage).
func chunkedAlways(tb testing.TB) {
	old := chunkedMinImage
	chunkedMinImage = 0
	tb.Cleanup(func() { chunkedMinImage = old })
}

// openMultiChunk opens a multi-chunk corpus package from memory and
// returns it with its bytes and its image expanded whole (as
// decompressChunks builds it) to compare with.
func openMultiChunk(t *testing.T, rel string) (*File, []byte, binread.Mem) {
	t.Helper()
	chunkedAlways(t)
	b, err := os.ReadFile(filepath.Join(corpus.Path(t, "legacy_ue123"), rel))
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(binread.Mem(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.img.(*chunkedImage); !ok {
		t.Fatalf("%s: image is %T, want *chunkedImage (%d chunks)", rel, f.img, len(f.Summary.CompressedChunks))
	}
	whole, size, _, err := decompressChunks(binread.Mem(b), int64(len(b)), f.order, &f.Summary, f.game)
	if err != nil {
		t.Fatal(err)
	}
	if size != f.size {
		t.Fatalf("%s: chunked image of %d bytes, whole one of %d", rel, f.size, size)
	}
	return f, b, whole
}

// sameExports checks that every export of f (read chunk by chunk) gives
// the view and the decoded object it gives read from whole, its image
// expanded whole.
func sameExports(t *testing.T, rel string, f *File, whole binread.Mem) {
	t.Helper()
	ref := *f
	ref.img, ref.pooled = whole, nil
	for i := range f.Exports {
		got, pin, err := f.view(i)
		want, _, werr := ref.view(i)
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: export %d: view differs from the whole image's (%v, %v)", rel, i, err, werr)
		}
		f.unpin(pin)
		gs, gerr := f.CheckObject(i)
		ws, werr := ref.CheckObject(i)
		if gs != ws || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%s: export %d: CheckObject %d, %v; whole image: %d, %v", rel, i, gs, gerr, ws, werr)
		}
	}
}

// TestChunkedImageReads compares reads of a chunk-by-chunk image with the
// image expanded whole: opening expands only the first chunk; export views
// and decoded objects are the same, read in order they expand each chunk
// once, and CheckChunks expands none left; reads of any range are the same.
func TestChunkedImageReads(t *testing.T) {
	for _, rel := range multiChunkFiles {
		f, _, whole := openMultiChunk(t, rel)
		ci := f.img.(*chunkedImage)
		for i, ok := range ci.checked {
			if ok != (i == 0) {
				t.Errorf("%s: after open, chunk %d expanded = %v (only the first should be)", rel, i, ok)
			}
		}
		sameExports(t, rel, f, whole)
		if err := f.CheckChunks(); err != nil {
			t.Fatalf("%s: CheckChunks: %v", rel, err)
		}
		for i, ok := range ci.checked {
			if !ok {
				t.Errorf("%s: chunk %d not expanded after CheckChunks", rel, i)
			}
		}
		// In order, each chunk expanded once.
		if ci.whole != nil || ci.expanded != ci.end-int64(len(ci.head)) {
			t.Errorf("%s: reading the exports in order expanded %d bytes of %d in chunks (whole: %v)", rel, ci.expanded, ci.end-int64(len(ci.head)), ci.whole != nil)
		}
		// Ranges: random ones, and ones across every chunk boundary.
		rng := rand.New(rand.NewPCG(1, 2))
		type span struct{ off, n int64 }
		var spans []span
		for range 300 {
			off := rng.Int64N(f.size + 16)
			spans = append(spans, span{off, 1 + rng.Int64N(300<<10)})
		}
		for _, c := range ci.units {
			spans = append(spans, span{c.UncompressedOffset - 3, 7}, span{c.UncompressedOffset, 1})
		}
		spans = append(spans, span{0, f.size}, span{f.size - 5, 10})
		for _, s := range spans {
			got := make([]byte, s.n)
			want := make([]byte, s.n)
			gn, gerr := f.ReadAt(got, s.off)
			wn, werr := whole.ReadAt(want, s.off)
			if gn != wn || (gerr == nil) != (werr == nil) || !bytes.Equal(got[:gn], want[:wn]) {
				t.Fatalf("%s: ReadAt(%d bytes at %d) = %d, %v; whole image: %d, %v", rel, s.n, s.off, gn, gerr, wn, werr)
			}
		}
		f.Release()
		if n, err := f.ReadAt(make([]byte, 4), 0); n != 0 || err == nil {
			t.Errorf("%s: ReadAt after Release = %d, %v; want nothing", rel, n, err)
		}
	}
}

// TestChunkedImagePins checks that a view stays valid while chunk after
// chunk is expanded past it (its chunk falls out of the cache pinned, so
// its buffer is not reused), and that the buffers of unpinned chunks are.
func TestChunkedImagePins(t *testing.T) {
	f, _, whole := openMultiChunk(t, multiChunkFiles[0])
	ci := f.img.(*chunkedImage)
	if len(ci.units) < chunkCacheLen+2 {
		t.Fatalf("%d chunks: too few to push the first out of the cache", len(ci.units))
	}
	c0 := ci.units[0]
	v, pin, ok, err := ci.view(c0.UncompressedOffset, int64(c0.UncompressedSize))
	if err != nil || !ok {
		t.Fatalf("view of chunk 0: %v, %v", ok, err)
	}
	want := bytes.Clone(whole[c0.UncompressedOffset : c0.UncompressedOffset+int64(c0.UncompressedSize)])
	// Read every other chunk: chunk 0 falls out of the cache.
	b := make([]byte, 64)
	for _, c := range ci.units[1:] {
		if _, err := ci.ReadAt(b, c.UncompressedOffset); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(v, want) {
		t.Fatal("a pinned view changed after its chunk fell out of the cache")
	}
	ci.unpin(pin)
	if pin.pins != 0 {
		t.Fatalf("pins = %d after unpin", pin.pins)
	}
	if ci.spare == nil {
		t.Error("no spare buffer: the chunks that fell out unpinned were not kept for reuse")
	}
}

// TestChunkedImageDamage damages the last chunk of a multi-chunk package:
// it still opens (its tables are in the first chunk), the exports stored
// in that chunk fail cleanly, and CheckChunks names the chunk.
func TestChunkedImageDamage(t *testing.T) {
	f0, b, _ := openMultiChunk(t, multiChunkFiles[0])
	chunks := f0.Summary.CompressedChunks
	last := len(chunks) - 1
	c := chunks[last]
	bad := bytes.Clone(b)
	// The chunk's header no longer starts with the package tag.
	bad[c.CompressedOffset] ^= 0x5A
	f, err := NewFile(binread.Mem(bad), int64(len(bad)))
	if err != nil {
		t.Fatalf("open with the last chunk damaged: %v", err)
	}
	failed := 0
	for i := range f.Exports {
		e := &f.Exports[i]
		_, err := f.CheckObject(i)
		inLast := e.SerialOffset >= c.UncompressedOffset && e.SerialSize > 0
		if inLast && err == nil {
			t.Fatalf("export %d in the damaged chunk decoded", i)
		}
		if inLast {
			failed++
		}
	}
	err = f.CheckChunks()
	if err == nil || !strings.Contains(err.Error(), "compressed chunk "+strconv.Itoa(last)+":") {
		t.Fatalf("CheckChunks = %v, want an error naming chunk %d", err, last)
	}
	if _, err := f.ReadAt(make([]byte, 8), c.UncompressedOffset); err == nil {
		t.Fatal("ReadAt in the damaged chunk did not fail")
	}
	t.Logf("%d exports in the damaged chunk failed; CheckChunks: %v", failed, err)
}

// TestChunkedImageTruncation opens prefixes of a multi-chunk package, read
// chunk by chunk and block by block: each fails cleanly or reads, and what
// reads decodes or fails cleanly, the chunks past the prefix included.
func TestChunkedImageTruncation(t *testing.T) {
	t.Run("chunks", testChunkedTruncation)
	t.Run("blocks", func(t *testing.T) {
		blocksAlways(t)
		testChunkedTruncation(t)
	})
}

func testChunkedTruncation(t *testing.T) {
	_, b, _ := openMultiChunk(t, multiChunkFiles[1])
	step := max(1, len(b)/300)
	opened, failedChunks := 0, 0
	for n := 0; n < len(b); n += step {
		f, err := NewFile(binread.Mem(b[:n]), int64(n))
		if err != nil {
			continue
		}
		opened++
		for i := range f.Exports {
			f.CheckObject(i)
		}
		if err := f.CheckChunks(); err != nil {
			failedChunks++
		}
		f.Release()
	}
	t.Logf("%d of %d prefixes opened, %d of those with a chunk that does not expand", opened, (len(b)+step-1)/step, failedChunks)
	if failedChunks == 0 {
		t.Error("no prefix opened with its later chunks cut off: nothing was read chunk by chunk")
	}
}

// TestChunkedImageOutOfOrder reads the chunks of a package round and round
// (more than the cache holds): past maxReexpansion image sizes of
// expansion the image is expanded whole, and reads stay right.
func TestChunkedImageOutOfOrder(t *testing.T) {
	f, _, whole := openMultiChunk(t, multiChunkFiles[0])
	ci := f.img.(*chunkedImage)
	if len(ci.units) <= chunkCacheLen {
		t.Fatalf("%d chunks: the cache holds them all", len(ci.units))
	}
	b := make([]byte, 100)
	for round := 0; round < maxReexpansion+2; round++ {
		for _, c := range ci.units {
			off := c.UncompressedOffset + int64(c.UncompressedSize)/2
			if _, err := ci.ReadAt(b, off); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, whole[off:off+100]) {
				t.Fatalf("round %d: read at %d differs", round, off)
			}
		}
	}
	if ci.whole == nil {
		t.Fatalf("expanded %d bytes of a %d-byte image, still chunk by chunk", ci.expanded, ci.end)
	}
	if ci.expanded > (maxReexpansion+1)*ci.end+int64(ci.units[0].UncompressedSize) {
		t.Errorf("expanded %d bytes of a %d-byte image", ci.expanded, ci.end)
	}
	if !bytes.Equal(ci.whole, whole) {
		t.Error("the image expanded whole differs from decompressChunks'")
	}
	for i := range f.Exports {
		got, pin, err := f.view(i)
		if err != nil || pin != nil {
			t.Fatalf("export %d: view from the whole image: %v, pin %v", i, err, pin)
		}
		e := &f.Exports[i]
		if e.SerialSize > 0 && !bytes.Equal(got, whole[e.SerialOffset:e.SerialOffset+e.SerialSize]) {
			t.Fatalf("export %d: view differs", i)
		}
	}
}

// FuzzChunkedImage builds a package body of zlib chunks from the input
// (chunk sizes, gaps and contents), damages it where the input says, and
// reads it chunk by chunk, or block by block when the input's first byte
// has its top bit set: wherever the body expands whole (decompressChunks),
// every read must give the same bytes, and where it does not, CheckChunks
// must fail too.
func FuzzChunkedImage(f *testing.F) {
	chunkedAlways(f)
	f.Add([]byte{3, 1, 200, 7, 0, 90, 3, 0, 0, 0})
	f.Add([]byte{8, 4, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{2, 0, 255, 255, 0, 0, 1, 40, 2})
	f.Add([]byte{0x82, 0, 255, 3, 0, 200, 1, 9, 0, 60, 0})
	f.Add([]byte{0x80, 1, 250, 0, 17, 0, 0})
	split, run, share := blockSplitMin, unitBlocksBytes, parallelMinShare
	f.Cleanup(func() { blockSplitMin, unitBlocksBytes, parallelMinShare = split, run, share })
	f.Fuzz(func(t *testing.T, spec []byte) {
		if len(spec) < 2 || len(spec) > 256 {
			return
		}
		blockSplitMin = split
		if spec[0]&0x80 != 0 {
			// Split into runs of one block or more.
			blockSplitMin, unitBlocksBytes = 0, int64(spec[0]>>4&3)*512
		}
		file, sum := synthChunks(spec)
		// Expanded one block after the other, then by goroutines sharing
		// the blocks however small: the same image, or the same error.
		parallelMinShare = math.MaxInt64
		seq, _, _, serr := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		seq = bytes.Clone(seq)
		parallelMinShare = 1
		whole, size, _, werr := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if (serr == nil) != (werr == nil) || serr != nil && serr.Error() != werr.Error() || !bytes.Equal(seq, whole) {
			t.Fatalf("blocks expanded in parallel: %v, image equal %v; one after the other: %v", werr, bytes.Equal(seq, whole), serr)
		}
		ci, end, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if err != nil || ci == nil {
			if werr == nil && err != nil {
				t.Fatalf("chunk table refused (%v) where the whole image expands", err)
			}
			return
		}
		if werr != nil {
			if ci.check() == nil {
				t.Fatalf("every chunk expands one by one, but not whole: %v", werr)
			}
			return
		}
		if end != size {
			t.Fatalf("chunked image of %d bytes, whole one of %d", end, size)
		}
		// Reads chosen by the input, then views, then everything.
		for k := 0; k+1 < len(spec); k += 2 {
			off := int64(spec[k]) * (size + 1) / 256
			n := 1 + int64(spec[k+1])*int64(spec[k+1])
			got, want := make([]byte, n), make([]byte, n)
			gn, gerr := ci.ReadAt(got, off)
			wn, wErr := whole.ReadAt(want, off)
			if gn != wn || (gerr == nil) != (wErr == nil) || !bytes.Equal(got[:gn], want[:wn]) {
				t.Fatalf("ReadAt(%d bytes at %d) = %d, %v; whole image: %d, %v", n, off, gn, gerr, wn, wErr)
			}
			if v, pin, ok, err := ci.view(off, n); err != nil {
				t.Fatalf("view(%d, %d): %v", off, n, err)
			} else if ok {
				if !bytes.Equal(v, want) {
					t.Fatalf("view(%d, %d) differs", off, n)
				}
				ci.unpin(pin)
			}
		}
		if err := ci.check(); err != nil {
			t.Fatalf("CheckChunks: %v, though the whole image expands", err)
		}
		all := make([]byte, size)
		if n, _ := ci.ReadAt(all, 0); int64(n) != size || !bytes.Equal(all, whole) {
			t.Fatal("the image read whole differs")
		}
		ci.release()
	})
}

// synthChunks builds, from spec, a file holding zlib chunks in UE3's
// FCompressedChunkInfo layout (header, block sizes, blocks) after a small
// head, and the summary that lists them. spec[0] is the chunk count,
// spec[1] the block size (in 256-byte units), then per chunk a size byte
// and a gap byte; the rest seeds the contents and, past them, damage.
func synthChunks(spec []byte) ([]byte, *Summary) {
	nChunks := 1 + int(spec[0])%6
	blockSize := 256 * (1 + int(spec[1])%16)
	rest := spec[2:]
	next := func() byte {
		if len(rest) == 0 {
			return 0
		}
		b := rest[0]
		rest = rest[1:]
		return b
	}
	const headLen = 64
	file := make([]byte, headLen)
	copy(file, "synthetic head")
	s := &Summary{CompressionFlags: CompressZlib}
	var z zlibChunks
	uoff := int64(headLen)
	for range nChunks {
		size := 1 + int(next())*17
		uoff += int64(next()) % 5 * 13 // a gap before the chunk, sometimes
		data := make([]byte, size)
		seed := next()
		for i := range data {
			data[i] = byte(i/7) ^ seed
		}
		var c CompressedChunk
		file, c = z.add(file, data, blockSize)
		c.UncompressedOffset = uoff
		s.CompressedChunks = append(s.CompressedChunks, c)
		uoff += int64(size)
	}
	// Damage: pairs of (position, xor) over the file.
	for len(rest) >= 2 {
		pos, x := int(next())*len(file)/256, next()
		file[pos] ^= x
	}
	return file, s
}

// TestChunkedMinImage checks that the corpus's multi-chunk packages, being
// smaller than chunkedMinImage, are expanded whole as before.
func TestChunkedMinImage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpus.Path(t, "legacy_ue123"), multiChunkFiles[0]))
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(binread.Mem(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.img.(binread.Mem); !ok || f.size >= chunkedMinImage {
		t.Fatalf("image of %d bytes is %T, want it expanded whole (under %d bytes)", f.size, f.img, chunkedMinImage)
	}
}

// TestChunkedImageMemory reads a 48 MiB image of 1 MiB zlib chunks through
// from start to end, as verify reads a package's exports: chunk by chunk
// it allocates a few chunks' worth, where expanding it whole allocates all
// of it.
func TestChunkedImageMemory(t *testing.T) {
	const nChunks, chunkSize = 48, 1 << 20
	file, sum := bigChunks(nChunks, chunkSize)
	var whole, chunked uint64
	whole = allocated(func() {
		img, size, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if err != nil {
			t.Fatal(err)
		}
		readThrough(t, img, size)
	})
	chunked = allocated(func() {
		ci, size, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if err != nil || ci == nil {
			t.Fatalf("not read chunk by chunk: %v", err)
		}
		readThrough(t, ci, size)
		if ci.whole != nil {
			t.Fatal("reading in order expanded the image whole")
		}
	})
	t.Logf("reading a %d MiB image through: %.1f MiB allocated expanded whole, %.1f MiB chunk by chunk", nChunks*chunkSize>>20, float64(whole)/(1<<20), float64(chunked)/(1<<20))
	if chunked > (chunkCacheLen+2)*chunkSize && !raceEnabled {
		t.Errorf("chunk by chunk allocated %d bytes, more than %d chunks", chunked, chunkCacheLen+2)
	}
}

// readThrough reads size bytes of r from start to end, 64 KiB at a time.
func readThrough(t *testing.T, r io.ReaderAt, size int64) {
	b := make([]byte, 64<<10)
	for off := int64(0); off < size; off += int64(len(b)) {
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			t.Fatal(err)
		}
	}
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// bigChunks is a file of n zlib chunks of size bytes each (after a small
// head) and the summary listing them.
func bigChunks(n, size int) ([]byte, *Summary) {
	const headLen, blockSize = 64, 0x20000
	file := make([]byte, headLen)
	s := &Summary{CompressionFlags: CompressZlib}
	data := make([]byte, size)
	var z zlibChunks
	for c := range n {
		for i := range data {
			data[i] = byte(i>>9) ^ byte(c)
		}
		var ch CompressedChunk
		file, ch = z.add(file, data, blockSize)
		ch.UncompressedOffset = int64(headLen + c*size)
		s.CompressedChunks = append(s.CompressedChunks, ch)
	}
	return file, s
}

// zlibChunks writes chunks in UE3's FCompressedChunkInfo layout (header,
// block sizes, then the blocks), each block compressed alone with zlib.
type zlibChunks struct {
	buf bytes.Buffer
	w   *zlib.Writer
}

// add appends data to file as a chunk of blocks of blockSize bytes and
// returns the chunk's entry (its UncompressedOffset left for the caller).
func (z *zlibChunks) add(file, data []byte, blockSize int) ([]byte, CompressedChunk) {
	le := binary.LittleEndian
	if z.w == nil {
		z.w, _ = zlib.NewWriterLevel(&z.buf, zlib.BestSpeed)
	}
	var sizes []uint32
	var comp []byte
	for p := 0; p < len(data); p += blockSize {
		z.buf.Reset()
		z.w.Reset(&z.buf)
		z.w.Write(data[p:min(p+blockSize, len(data))])
		z.w.Close()
		sizes = append(sizes, uint32(z.buf.Len()), uint32(min(blockSize, len(data)-p)))
		comp = append(comp, z.buf.Bytes()...)
	}
	at := int64(len(file))
	for _, v := range []uint32{PackageTag, uint32(blockSize), uint32(len(comp)), uint32(len(data))} {
		file = le.AppendUint32(file, v)
	}
	for _, v := range sizes {
		file = le.AppendUint32(file, v)
	}
	file = append(file, comp...)
	return file, CompressedChunk{UncompressedSize: int32(len(data)), CompressedOffset: at, CompressedSize: int32(int64(len(file)) - at)}
}

// blocksAlways makes every chunk of a chunk-by-chunk image split into its
// blocks, one unit each, until the test ends.
func blocksAlways(tb testing.TB) {
	split, run := blockSplitMin, unitBlocksBytes
	blockSplitMin, unitBlocksBytes = 0, 0
	tb.Cleanup(func() { blockSplitMin, unitBlocksBytes = split, run })
}

// TestChunkedImageBlocks reads the corpus's multi-chunk packages with
// their chunks split into blocks: the units are the blocks, and export
// views, objects and reads are those of the image expanded whole.
func TestChunkedImageBlocks(t *testing.T) {
	blocksAlways(t)
	for _, rel := range multiChunkFiles {
		f, _, whole := openMultiChunk(t, rel)
		ci := f.img.(*chunkedImage)
		if len(ci.units) <= len(f.Summary.CompressedChunks) {
			t.Fatalf("%s: %d units for %d chunks: not split into blocks", rel, len(ci.units), len(f.Summary.CompressedChunks))
		}
		sameExports(t, rel, f, whole)
		if err := f.CheckChunks(); err != nil {
			t.Fatal(err)
		}
		all := make([]byte, f.size)
		if n, err := f.ReadAt(all, 0); int64(n) != f.size || err != nil || !bytes.Equal(all, whole) {
			t.Fatalf("%s: the image read whole differs (%d bytes, %v)", rel, n, err)
		}
		t.Logf("%s: %d chunks, %d units", rel, len(f.Summary.CompressedChunks), len(ci.units))
	}
}

// TestFullyCompressedBlocks wraps a real package (UT2004's Entry.ut2,
// 336 KB) as a fully compressed one of 64 KiB zlib blocks and reads it
// block by block: the same package as the file itself. The corpus's one
// fully compressed package (PS3 SFXTEST.XXX) is a single block, which
// stays expanded whole.
func TestFullyCompressedBlocks(t *testing.T) {
	dir := corpus.Path(t, "legacy_ue123")
	b, err := os.ReadFile(filepath.Join(dir, "ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PS3/ME2/SFXTEST.XXX"))
	if err != nil {
		t.Fatal(err)
	}
	chunkedAlways(t)
	blocksAlways(t)
	if f, err := NewFile(binread.Mem(b), int64(len(b))); err != nil {
		t.Fatal(err)
	} else if _, ok := f.img.(binread.Mem); !ok || !strings.HasPrefix(f.Wrapper, "fully compressed (LZMA)") {
		t.Fatalf("SFXTEST.XXX: image %T (%s), want one block expanded whole", f.img, f.Wrapper)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "HeffersonMan+UT2004/Maps/Entry.ut2"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewFile(binread.Mem(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var z zlibChunks
	wrapped, _ := z.add(nil, raw, 0x10000)
	got, err := NewFile(binread.Mem(wrapped), int64(len(wrapped)))
	if err != nil {
		t.Fatal(err)
	}
	ci, ok := got.img.(*chunkedImage)
	if !ok || got.Wrapper != "fully compressed (Zlib)" {
		t.Fatalf("image %T (%s), want it read block by block", got.img, got.Wrapper)
	}
	if got.size != want.size || len(got.Exports) != len(want.Exports) || len(got.Names) != len(want.Names) || len(got.Imports) != len(want.Imports) {
		t.Fatalf("block by block: %d bytes, %d names, %d imports, %d exports; the file: %d bytes, %d, %d, %d",
			got.size, len(got.Names), len(got.Imports), len(got.Exports), want.size, len(want.Names), len(want.Imports), len(want.Exports))
	}
	for i := range want.Exports {
		gs, gerr := got.CheckObject(i)
		ws, werr := want.CheckObject(i)
		if gs != ws || (gerr == nil) != (werr == nil) {
			t.Fatalf("export %d: CheckObject %d, %v; the file: %d, %v", i, gs, gerr, ws, werr)
		}
	}
	if err := got.CheckChunks(); err != nil {
		t.Fatal(err)
	}
	// A damaged block: the package still opens when its tables are
	// elsewhere, and CheckChunks names the block.
	u := ci.units[len(ci.units)/2]
	bad := bytes.Clone(wrapped)
	bad[u.blks[0].off+u.blks[0].comp/2] ^= 0x5A
	f, err := NewFile(binread.Mem(bad), int64(len(bad)))
	if err == nil {
		err = f.CheckChunks()
	}
	if err == nil || !strings.Contains(err.Error(), "block "+strconv.Itoa(u.block)+" (Zlib)") {
		t.Fatalf("block %d damaged: %v, want an error naming it", u.block, err)
	}
	t.Logf("%d units; damaged: %v", len(ci.units), err)
}

// TestBlocksMemory reads a package of one 24 MiB chunk and a fully
// compressed 24 MiB package through from start to end: a few blocks at a
// time each allocates a few units' worth (of unitBlocksBytes), where
// expanding it whole allocates all of it.
func TestBlocksMemory(t *testing.T) {
	const size = 24 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i>>9) ^ byte(i>>17)
	}
	binary.LittleEndian.PutUint32(data, PackageTag)
	var z zlibChunks
	file, ch := z.add(make([]byte, 64), data, 0x20000)
	ch.UncompressedOffset = 64
	sum := &Summary{CompressionFlags: CompressZlib, CompressedChunks: []CompressedChunk{ch}}
	full, _ := z.add(nil, data, 0x20000)
	whole := allocated(func() {
		img, n, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if err != nil {
			t.Fatal(err)
		}
		readThrough(t, img, n)
	})
	oneChunk := allocated(func() {
		ci, n, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
		if err != nil || ci == nil {
			t.Fatalf("one big chunk not read block by block: %v", err)
		}
		readThrough(t, ci, n)
	})
	fully := allocated(func() {
		img, n, desc, err := fullyCompressedImage(binread.Mem(full), int64(len(full)), binary.LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := img.(*chunkedImage); !ok {
			t.Fatalf("fully compressed package read as %T (%s)", img, desc)
		}
		readThrough(t, img, n)
	})
	t.Logf("reading a %d MiB image through: %.1f MiB allocated expanded whole, %.2f MiB block by block (one chunk), %.2f MiB (fully compressed)", size>>20, float64(whole)/(1<<20), float64(oneChunk)/(1<<20), float64(fully)/(1<<20))
	limit := uint64((chunkCacheLen+1)*unitBlocksBytes + 1<<20)
	for _, got := range []uint64{oneChunk, fully} {
		if got > limit && !raceEnabled {
			t.Errorf("block by block allocated %d bytes, more than %d", got, limit)
		}
	}
}
