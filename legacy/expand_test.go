package legacy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/binread"
)

// withProcs sets GOMAXPROCS to n until the test ends.
func withProcs(tb testing.TB, n int) {
	old := runtime.GOMAXPROCS(n)
	tb.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// countingReader is an io.ReaderAt (not a binread.Mem, so blocks are read
// through ReadAt) that records how many reads overlap at most, and panics
// with panicWith on a read that starts at panicAt (a block's, not the
// block list's).
type countingReader struct {
	b         []byte
	now, most atomic.Int32
	panicAt   int64
	panicWith any
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	if c.panicWith != nil && off == c.panicAt {
		panic(c.panicWith)
	}
	time.Sleep(50 * time.Microsecond) // lets reads of other goroutines overlap
	if off >= int64(len(c.b)) {
		return 0, io.EOF
	}
	k := copy(p, c.b[off:])
	if k < len(p) {
		return k, io.EOF
	}
	return k, nil
}

// blockOffsets returns where each block of each chunk of s starts in file.
func blockOffsets(t *testing.T, file []byte, s *Summary) [][]chunkBlock {
	var all [][]chunkBlock
	for i, c := range s.CompressedChunks {
		blocks, err := readChunkBlocks(binread.Mem(file), int64(len(file)), binary.LittleEndian, c.CompressedOffset, int64(c.UncompressedSize))
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		all = append(all, blocks)
	}
	return all
}

// TestExpandAll expands a package of 6 chunks of eight 128 KiB zlib blocks
// on one goroutine and on four: the same image, read through ReadAt by
// overlapping goroutines with four. With blocks damaged, both report the
// first damaged block in chunk order, whichever goroutine met it, every
// time.
func TestExpandAll(t *testing.T) {
	file, s := bigChunks(6, 1<<20)
	expand := func(procs int, data []byte) ([]byte, error, int32) {
		withProcs(t, procs)
		r := &countingReader{b: data}
		img, _, _, err := decompressChunks(r, int64(len(data)), binary.LittleEndian, s, gameStock)
		return bytes.Clone(img), err, r.most.Load()
	}
	one, err, _ := expand(1, file)
	if err != nil {
		t.Fatal(err)
	}
	four, err, most := expand(4, file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one, four) {
		t.Fatal("the image expanded on four goroutines differs")
	}
	if most < 2 {
		t.Errorf("at most %d reads at once with four goroutines: not parallel", most)
	}

	blocks := blockOffsets(t, file, s)
	bad := bytes.Clone(file)
	for _, at := range [][2]int{{4, 0}, {2, 5}, {5, 7}} { // chunk, block
		b := blocks[at[0]][at[1]]
		bad[b.off] ^= 0xFF // the zlib header
	}
	_, want, _ := expand(1, bad)
	if want == nil {
		t.Fatal("damaged blocks expand without error")
	}
	for range 20 {
		if _, err, _ := expand(4, bad); err == nil || err.Error() != want.Error() {
			t.Fatalf("four goroutines: %v, one: %v", err, want)
		}
	}
	t.Logf("reported: %v", want)
}

// TestExpandAllPanic checks that a panic while a goroutine reads a block
// (as a fault on a mapped file that was cut short raises, where the caller
// recovers it) reaches the caller, once the other goroutines have stopped;
// and that, as when the blocks expand one after the other, only the first
// failure counts, be it a panic or an error.
func TestExpandAllPanic(t *testing.T) {
	withProcs(t, 4)
	file, s := bigChunks(4, 1<<20)
	blocks := blockOffsets(t, file, s)
	type sentinel struct{ n int }
	for _, at := range [][2]int{{0, 0}, {1, 3}, {3, 7}} {
		r := &countingReader{b: file, panicAt: blocks[at[0]][at[1]].off, panicWith: &sentinel{at[0]*8 + at[1]}}
		got := func() (p any) {
			defer func() { p = recover() }()
			decompressChunks(r, int64(len(file)), binary.LittleEndian, s, gameStock)
			return nil
		}()
		if p, ok := got.(*sentinel); !ok || p.n != at[0]*8+at[1] {
			t.Fatalf("block %v: recovered %v", at, got)
		}
		if n := r.now.Load(); n != 0 {
			t.Fatalf("block %v: %d reads still running after the panic reached the caller", at, n)
		}
	}
	for _, tc := range []struct {
		panicAt, badAt [2]int
		wantPanic      bool
	}{
		{[2]int{3, 0}, [2]int{1, 2}, false},
		{[2]int{0, 5}, [2]int{2, 0}, true},
	} {
		bad := bytes.Clone(file)
		bad[blocks[tc.badAt[0]][tc.badAt[1]].off] ^= 0xFF
		for range 10 {
			r := &countingReader{b: bad, panicAt: blocks[tc.panicAt[0]][tc.panicAt[1]].off, panicWith: &sentinel{}}
			var err error
			p := func() (p any) {
				defer func() { p = recover() }()
				_, _, _, err = decompressChunks(r, int64(len(bad)), binary.LittleEndian, s, gameStock)
				return nil
			}()
			if tc.wantPanic && p == nil || !tc.wantPanic && (p != nil || err == nil || !strings.Contains(err.Error(), fmt.Sprintf("chunk %d: ", tc.badAt[0]))) {
				t.Fatalf("panic at block %v, damage at %v: panic %v, error %v", tc.panicAt, tc.badAt, p, err)
			}
		}
	}
}

// TestExpandAllConcurrent expands packages from several goroutines at
// once, each in parallel itself (run under the race detector in CI).
func TestExpandAllConcurrent(t *testing.T) {
	withProcs(t, 4)
	file, s := bigChunks(3, 1<<20)
	want, _, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, s, gameStock)
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.Clone(want)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				img, _, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, s, gameStock)
				if err != nil || !bytes.Equal(img, want) {
					t.Errorf("concurrent expansion: %v, image equal %v", err, bytes.Equal(img, want))
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestExpandAllRawBudget expands a package not in memory whose blocks
// are stored 6 MiB each (incompressible data): the goroutines would each
// hold one such block, so one goroutine reads them all, one after the
// other, and the image is right.
func TestExpandAllRawBudget(t *testing.T) {
	withProcs(t, 4)
	data := make([]byte, 3*(6<<20))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	var z zlibChunks
	file, ch := z.add(make([]byte, 64), data, 6<<20)
	ch.UncompressedOffset = 64
	s := &Summary{CompressionFlags: CompressZlib, CompressedChunks: []CompressedChunk{ch}}
	r := &countingReader{b: file}
	img, _, _, err := decompressChunks(r, int64(len(file)), binary.LittleEndian, s, gameStock)
	if err != nil || !bytes.Equal(img[64:], data) {
		t.Fatalf("image: %v, same %v", err, err == nil && bytes.Equal(img[64:], data))
	}
	if most := r.most.Load(); most != 1 {
		t.Errorf("%d reads of 6 MiB blocks at once; want one at a time", most)
	}
}

// oneBigChunk is a package of one zlib chunk of size bytes in 128 KiB
// blocks (after a 64-byte head), and its image.
func oneBigChunk(size int) ([]byte, *Summary, []byte) {
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i>>9) ^ byte(i>>17) ^ byte(i*7>>3)
	}
	var z zlibChunks
	file, ch := z.add(make([]byte, 64), data, 0x20000)
	ch.UncompressedOffset = 64
	return file, &Summary{CompressionFlags: CompressZlib, CompressedChunks: []CompressedChunk{ch}}, append(make([]byte, 64), data...)
}

// TestChunkedImageRuns reads a package of one 8 MiB chunk through, a run
// of eight blocks at a time, each run expanded by four goroutines: the
// image reads as expanded whole, and a damaged block is named as when the
// blocks are expanded one by one.
func TestChunkedImageRuns(t *testing.T) {
	withProcs(t, 4)
	file, s, want := oneBigChunk(8 << 20)
	open := func(r io.ReaderAt, data []byte) *chunkedImage {
		ci, _, _, err := newChunkedImage(r, int64(len(data)), binary.LittleEndian, s, gameStock)
		if err != nil || ci == nil {
			t.Fatalf("not read a few blocks at a time: %v", err)
		}
		return ci
	}
	r := &countingReader{b: file}
	ci := open(r, file)
	if len(ci.units) != 8 || len(ci.units[0].blks) != 8 {
		t.Fatalf("%d units of %d blocks, want 8 of 8", len(ci.units), len(ci.units[0].blks))
	}
	got := make([]byte, len(want))
	for pos := 0; pos < len(got); pos += 64 << 10 {
		if _, err := ci.ReadAt(got[pos:min(pos+64<<10, len(got))], int64(pos)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the image read a run at a time differs")
	}
	if m := r.most.Load(); m < 2 {
		t.Errorf("at most %d block reads at once: a run's blocks expanded one by one", m)
	}
	ci.release()

	u := ci.units[5]
	bad := bytes.Clone(file)
	bad[u.blks[3].off] ^= 0xFF
	err := open(binread.Mem(bad), bad).check()
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("block %d (Zlib)", u.block+3)) {
		t.Fatalf("block %d damaged: %v, want an error naming it", u.block+3, err)
	}
}
