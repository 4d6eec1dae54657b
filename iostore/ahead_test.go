//go:build !wasm

package iostore

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/ahead"
	"github.com/upkg/upkg/internal/ahead/aheadtest"
	"github.com/upkg/upkg/internal/iostoretest"
	"github.com/upkg/upkg/internal/readertest"
)

// aheadAlways makes every range with a block to decode be decoded ahead,
// up to size bytes ahead, on 4 processors all counted idle, until the test
// ends.
func aheadAlways(tb testing.TB, size uint64) {
	aheadtest.AllIdle(tb)
	aheadtest.Set(tb, &parallelMinShare, 1)
	aheadtest.Set(tb, &aheadBytes, size)
}

// chunkReads is what reading chunk i whole, verifying it (a sink read),
// streaming it and reading it through a ChunkReader in order give, as
// text for the errors.
type chunkReads struct {
	data, streamed, stepped                   []byte
	readErr, verifyErr, streamErr, steppedErr string
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// readWays reads chunk i the three ways with the current settings.
func readWays(f *File, i int) chunkReads {
	var c chunkReads
	var err error
	c.data, err = f.ReadChunk(i)
	c.readErr = errText(err)
	c.verifyErr = errText(f.VerifyChunk(i))
	s, err := f.OpenChunkStream(i)
	if err == nil {
		c.streamed, err = io.ReadAll(s)
		s.Close()
	}
	c.streamErr = errText(err)
	c.stepped, err = readInSteps(f, i)
	c.steppedErr = errText(err)
	return c
}

func (c chunkReads) same(d chunkReads) bool {
	return bytes.Equal(c.data, d.data) && bytes.Equal(c.streamed, d.streamed) && bytes.Equal(c.stepped, d.stepped) &&
		c.readErr == d.readErr && c.verifyErr == d.verifyErr && c.streamErr == d.streamErr && c.steppedErr == d.steppedErr
}

func (c chunkReads) String() string {
	return fmt.Sprintf("read %d bytes, %q; verify %q; stream %d bytes, %q; in steps %d bytes, %q", len(c.data), c.readErr, c.verifyErr, len(c.streamed), c.streamErr, len(c.stepped), c.steppedErr)
}

// TestAheadCorpus reads, verifies and streams every chunk of the corpus
// containers with the blocks decoded ahead (by one block, 192 KiB, 2 MiB)
// and one after the other: the same bytes and the same errors.
func TestAheadCorpus(t *testing.T) {
	var want []chunkReads
	eachCorpusContainer(t, func(f *File) {
		for i := range f.ChunkIDs {
			want = append(want, readWays(f, i))
		}
	})
	n := 0
	for _, size := range []uint64{1, 192 << 10, 2 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			aheadAlways(t, size)
			k := 0
			eachCorpusContainer(t, func(f *File) {
				for i := range f.ChunkIDs {
					got := readWays(f, i)
					if !got.same(want[k]) {
						t.Errorf("%s chunk %d: decoded ahead %v; one by one %v", f.Name, i, got, want[k])
					}
					if got.readErr == "" && f.chunkBlocks(i) > 1 {
						n++
					}
					k++
				}
			})
		})
	}
	if n == 0 {
		t.Error("no chunk of more than one block was read")
	}
}

// chunkBlocks returns how many compression blocks chunk i spans.
func (f *File) chunkBlocks(i int) int {
	ol := f.OffsetLength(i)
	if ol.Length == 0 {
		return 0
	}
	bs := uint64(f.Header.CompressionBlockSize)
	return int((ol.Offset+ol.Length-1)/bs - ol.Offset/bs + 1)
}

// zlibFixture opens the UE 5.8 Zlib fixture container with its partition
// in memory, the bytes changed by damage first, and returns it with the
// chunk that spans the most compressed blocks and those blocks.
func zlibFixture(t *testing.T, r func(cas []byte) io.ReaderAt, damage func(f *File, cas []byte, blocks []int)) (*File, int, []int) {
	t.Helper()
	utoc := fixtures(t, "UE5_8", "Tagged", "Zlib")
	toc, err := os.ReadFile(utoc)
	if err != nil {
		t.Fatal(err)
	}
	cas, err := os.ReadFile(utoc[:len(utoc)-len(".utoc")] + ".ucas")
	if err != nil {
		t.Fatal(err)
	}
	open := func(cas []byte) *File {
		f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) {
			return r(cas), int64(len(cas)), nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := open(cas)
	best, blocks := biggestChunk(f)
	if len(blocks) < 6 {
		t.Skipf("%s: no chunk of 6 or more compressed blocks", utoc)
	}
	if damage != nil {
		cas = bytes.Clone(cas)
		damage(f, cas, blocks)
		f = open(cas)
	}
	return f, best, blocks
}

// biggestChunk returns the chunk of f that spans the most compressed
// blocks, and those blocks.
func biggestChunk(f *File) (int, []int) {
	best, blocks := -1, []int(nil)
	for i := range f.ChunkIDs {
		ol := f.OffsetLength(i)
		if ol.Length == 0 {
			continue
		}
		bs := uint64(f.Header.CompressionBlockSize)
		var bl []int
		for b := ol.Offset / bs; b <= (ol.Offset+ol.Length-1)/bs; b++ {
			if f.Block(int(b)).MethodIndex != 0 {
				bl = append(bl, int(b))
			}
		}
		if len(bl) > len(blocks) {
			best, blocks = i, bl
		}
	}
	return best, blocks
}

// spoil overwrites the middle of block b's stored bytes.
func spoil(f *File, cas []byte, b int) {
	blk := f.Block(b)
	mid := blk.Offset + uint64(blk.CompressedSize)/2
	for k := range uint64(8) {
		cas[mid+k] ^= 0xA5
	}
}

func memReader(cas []byte) io.ReaderAt { return bytes.NewReader(cas) }

// TestAheadFirstError damages three blocks of a chunk: read, verified and
// streamed with its blocks decoded ahead, the chunk fails at the first of
// them in block order, every time, as it does one block after the other.
func TestAheadFirstError(t *testing.T) {
	f, chunk, blocks := zlibFixture(t, memReader, func(f *File, cas []byte, blocks []int) {
		for _, k := range []int{2, 4, 5} {
			spoil(f, cas, blocks[k])
		}
	})
	want := readWays(f, chunk)
	wantBlock := fmt.Sprintf("compression block %d ", blocks[2])
	for _, e := range []string{want.readErr, want.verifyErr, want.streamErr, want.steppedErr} {
		if !strings.Contains(e, wantBlock) {
			t.Fatalf("one block after the other: %v; want every error to name %q", want, wantBlock)
		}
	}
	aheadAlways(t, 1<<20)
	for range 20 {
		if got := readWays(f, chunk); !got.same(want) {
			t.Fatalf("decoded ahead: %v; one after the other: %v", got, want)
		}
	}
}

// panickingReader reads cas, and panics with the value it holds on a read
// that starts at at (a block's stored bytes). Each read takes at least a
// millisecond, and it counts the reads that overlap at most.
type panickingReader struct {
	cas       []byte
	at        int64
	with      any
	now, most atomic.Int32
}

func (r *panickingReader) ReadAt(p []byte, off int64) (int, error) {
	n := r.now.Add(1)
	defer r.now.Add(-1)
	for {
		m := r.most.Load()
		if n <= m || r.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(time.Millisecond)
	if off == r.at {
		panic(r.with)
	}
	return bytes.NewReader(r.cas).ReadAt(p, off)
}

// TestAheadPanic checks what a panic while decoding a block ahead (a
// memory fault on a mapped partition cut short, for one) does: it is
// raised on the caller, when the read reaches the block and not before
// (a damaged block before it fails the read with its error instead), and
// every decoding goroutine has stopped by then.
func TestAheadPanic(t *testing.T) {
	fault := errors.New("fault")
	for _, spoilFirst := range []bool{false, true} {
		pr := &panickingReader{at: -1, with: fault}
		f, chunk, blocks := zlibFixture(t, func(cas []byte) io.ReaderAt {
			pr.cas = cas // the partition is opened at the first read
			return pr
		}, func(f *File, cas []byte, blocks []int) {
			if spoilFirst {
				spoil(f, cas, blocks[1])
			}
		})
		pr.at = int64(f.Block(blocks[4]).Offset)
		aheadAlways(t, math.MaxUint64)
		for _, way := range []string{"read", "verify", "in steps"} {
			var err error
			p := func() (p any) {
				defer func() { p = recover() }()
				switch way {
				case "read":
					_, err = f.ReadChunk(chunk)
				case "verify":
					err = f.VerifyChunk(chunk)
				default:
					_, err = readInSteps(f, chunk)
				}
				return nil
			}()
			switch {
			case spoilFirst && (p != nil || err == nil || !bytes.Contains([]byte(err.Error()), []byte(fmt.Sprintf("compression block %d ", blocks[1])))):
				t.Errorf("%s: damaged block %d before the panicking one: panic %v, error %v", way, blocks[1], p, err)
			case !spoilFirst && p != fault:
				t.Errorf("%s: panic %v, error %v; want the block's panic", way, p, err)
			}
			if n := pr.now.Load(); n != 0 {
				t.Errorf("%s: %d reads still running after the read returned", way, n)
			}
		}
		if pr.most.Load() < 2 {
			t.Errorf("blocks were not read in parallel (at most %d reads at once)", pr.most.Load())
		}
	}
}

// TestAheadNotStarted: nothing is decoded ahead on one processor, when
// every other processor is busy, or for a range holding less than two
// goroutines' share.
func TestAheadNotStarted(t *testing.T) {
	f, chunk, _ := zlibFixture(t, memReader, nil)
	ol := f.OffsetLength(chunk)
	bs := uint64(f.Header.CompressionBlockSize)
	start := func() bool {
		a := f.startAhead(int(ol.Offset/bs), int((ol.Offset+ol.Length-1)/bs), ol.Offset%bs, ol.Length, nil)
		if a != nil {
			a.close()
		}
		return a != nil
	}
	old := runtime.GOMAXPROCS(1)
	if start() {
		t.Error("decoding ahead on one processor")
	}
	runtime.GOMAXPROCS(old)
	aheadtest.AllIdle(t)
	oldShare := parallelMinShare
	defer func() { parallelMinShare = oldShare }()
	parallelMinShare = 1
	if !start() {
		t.Error("nothing decoded ahead, every processor idle")
	}
	ahead.IdleProcs = func(int) int { return 0 } // allIdle puts it back
	if start() {
		t.Error("decoding ahead, every other processor busy")
	}
	ahead.IdleProcs = func(procs int) int { return procs - 1 }
	oldBytes := aheadBytes
	defer func() { aheadBytes = oldBytes }()
	aheadBytes = 1 // one block ahead at a time: still decoded ahead
	if !start() {
		t.Error("nothing decoded ahead one block at a time")
	}
	aheadBytes = oldBytes
	parallelMinShare = ol.Length // half the chunk's share would be needed
	if start() {
		t.Error("decoding ahead a range of less than two shares")
	}
	// Blocks of 4 MiB: two per goroutine would be more than aheadBytes.
	parallelMinShare = oldShare
	big, _ := bigZlibContainer(t, 16<<20, 4<<20)
	if a := big.startAhead(0, 3, 0, 16<<20, nil); a != nil {
		a.close()
		t.Error("decoding ahead blocks of 4 MiB")
	}
}

// bigZlibContainer builds a container holding one chunk of n bytes of
// text-like data in zlib-compressed blocks of bs bytes, and returns it
// open (partition in memory) with the data.
func bigZlibContainer(tb testing.TB, n, bs int) (*File, []byte) {
	data := make([]byte, n)
	words := []string{"Actor ", "Mesh ", "Texture2D ", "/Game/Maps/", "Material ", "0.5 ", "1024 ", "\n"}
	seed := uint32(1)
	for i := 0; i < n; {
		seed = seed*1664525 + 1013904223
		i += copy(data[i:], words[seed>>29])
	}
	compress := func(b []byte) []byte {
		var out bytes.Buffer
		w := zlib.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	toc, cas := iostoretest.BuildCompressed(uint8(TocLatest), 0xB16, "../../../", []iostoretest.Chunk{
		{ID: NewChunkID(0x1111, 0, ChunkBulkData), Path: "Content/Big.ubulk", Data: data},
	}, bs, "Zlib", compress)
	return openSynth(tb, toc, cas), data
}

// TestAheadBigChunk reads and verifies a 4 MiB chunk of 64 compressed
// blocks decoded ahead (default settings, four processors, the blocks
// decoded into place) and one block after the other: the chunk's bytes
// and hash, both ways.
func TestAheadBigChunk(t *testing.T) {
	f, data := bigZlibContainer(t, 4<<20, 64<<10)
	aheadtest.AllIdle(t)
	for _, share := range []uint64{parallelMinShare, math.MaxUint64 / 4} {
		oldShare := parallelMinShare
		parallelMinShare = share
		got, err := f.ReadChunk(0)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("share %d: read %d bytes, %v; want the chunk's %d", share, len(got), err, len(data))
		}
		if err := f.VerifyChunk(0); err != nil {
			t.Errorf("share %d: %v", share, err)
		}
		parallelMinShare = oldShare
	}
}

// TestAheadStreamStops streams a 4 MiB chunk decoded ahead and stops part
// way (aheadtest.CheckStops): closing the stream, or dropping it, stops
// the goroutines decoding ahead.
func TestAheadStreamStops(t *testing.T) {
	f, data := bigZlibContainer(t, 4<<20, 64<<10)
	aheadtest.AllIdle(t)
	aheadtest.CheckStops(t, func() (io.ReadCloser, error) { return f.OpenChunkStream(0) },
		func(s io.Reader) bool { return s.(*chunkStream).ah != nil }, data)
}

// TestAheadInPlace decodes the blocks of a 1 MiB chunk ahead into a
// buffer with room for the chunk: each lands in its place there. With a
// buffer too small for the chunk (a TOC whose sizes capped it), each is
// decoded into a buffer of its own.
func TestAheadInPlace(t *testing.T) {
	f, data := bigZlibContainer(t, 1<<20, 64<<10)
	aheadAlways(t, 256<<10)
	last := f.chunkBlocks(0) - 1
	for _, room := range []int{len(data), len(data) - 1} {
		buf := make([]byte, 0, room)
		a := f.startAhead(0, last, 0, uint64(len(data)), buf)
		if a == nil {
			t.Fatal("nothing decoded ahead")
		}
		for b := 0; b <= last; b++ {
			a.at(b)
			plain, inPlace, err, ok := a.get(b)
			at := b * int(f.Header.CompressionBlockSize)
			switch {
			case !ok || err != nil:
				t.Fatalf("room %d, block %d: %v, %v", room, b, ok, err)
			case !bytes.Equal(plain, data[at:at+len(plain)]):
				t.Fatalf("room %d, block %d: wrong bytes", room, b)
			case inPlace != (room == len(data)):
				t.Fatalf("room %d, block %d: in place %v", room, b, inPlace)
			case inPlace && &plain[0] != &buf[:room][at]:
				t.Fatalf("room %d, block %d: not at its place", room, b)
			}
		}
		a.close()
	}
}

// BenchmarkBigChunk reads, verifies and streams a 16 MiB chunk of
// zlib-compressed 64 KiB blocks (bigZlibContainer), its blocks decoded one
// after the other (serial) and ahead (the default settings): wall time,
// and processor time per op.
func BenchmarkBigChunk(b *testing.B) {
	f, data := bigZlibContainer(b, 16<<20, 64<<10)
	size := int64(len(data))
	for _, mode := range []string{"serial", "ahead"} {
		for _, op := range []string{"Read", "Verify", "Stream", "Steps"} {
			b.Run(op+"/"+mode, func(b *testing.B) {
				if mode == "serial" {
					old := parallelMinShare
					defer func() { parallelMinShare = old }()
					parallelMinShare = math.MaxUint64 / 4
				}
				b.SetBytes(size)
				start := cpuNow()
				defer func() { reportCPUThroughput(b, start, size) }()
				for b.Loop() {
					var err error
					switch op {
					case "Read":
						_, err = f.ReadChunk(0)
					case "Verify":
						err = f.VerifyChunk(0)
					case "Stream":
						var s io.ReadCloser
						if s, err = f.OpenChunkStream(0); err == nil {
							_, err = io.Copy(io.Discard, s)
						}
					case "Steps":
						var r *ChunkReader
						if r, err = f.ChunkReader(0); err == nil {
							_, err = readertest.Steps(r, r.Size(), 40000, nil)
							r.Close()
						}
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFixtureChunk reads and verifies the biggest chunk of the UE 5.8
// Zlib and Oodle fixture containers (about 340 KB in six 64 KiB blocks),
// its blocks decoded one after the other (serial) and ahead with a share
// of one block per goroutine (the corpus has no chunk of the two default
// shares, 512 KiB): wall time, and processor time per op.
func BenchmarkFixtureChunk(b *testing.B) {
	for _, variant := range []string{"Zlib", "Oodle"} {
		f, err := Open(fixtures(b, "UE5_8", "Tagged", variant))
		if err != nil {
			b.Fatal(err)
		}
		big := 0
		for i := range f.ChunkIDs {
			if f.OffsetLength(i).Length > f.OffsetLength(big).Length {
				big = i
			}
		}
		size := int64(f.OffsetLength(big).Length)
		for _, mode := range []string{"serial", "ahead"} {
			for _, op := range []string{"Read", "Verify"} {
				b.Run(variant+"/"+op+"/"+mode, func(b *testing.B) {
					old := parallelMinShare
					defer func() { parallelMinShare = old }()
					parallelMinShare = 64 << 10
					if mode == "serial" {
						parallelMinShare = math.MaxUint64 / 4
					}
					b.SetBytes(size)
					start := cpuNow()
					defer func() { reportCPUThroughput(b, start, size) }()
					for b.Loop() {
						if op == "Read" {
							_, err = f.ReadChunk(big)
						} else {
							err = f.VerifyChunk(big)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
		f.Close()
	}
}

// TestAheadChunkReader reads a 4 MiB chunk through a ChunkReader: read
// through in order, its blocks are decoded ahead after the first few, and
// no longer once the last is read; read in every pattern readertest.Check
// makes (decoding ahead starting and stopping as the reads go in order or
// jump), it gives the chunk's bytes. Closing the reader part way, or
// dropping it, stops the goroutines decoding ahead
// (aheadtest.CheckStops).
func TestAheadChunkReader(t *testing.T) {
	f, data := bigZlibContainer(t, 4<<20, 64<<10)
	aheadtest.AllIdle(t)
	r, err := f.ChunkReader(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	sawAhead := false
	if _, err := readertest.Steps(r, r.Size(), 40000, func(_ int64, b []byte) error {
		got = append(got, b...)
		sawAhead = sawAhead || r.blocks.DecodingAhead()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("read in order: wrong bytes")
	}
	if !sawAhead {
		t.Error("read in order: nothing decoded ahead")
	}
	if r.blocks.DecodingAhead() {
		t.Error("still decoding ahead after the last block")
	}
	readertest.Check(t, "ChunkReader", r, data)
	r.Close()
	if _, err := r.ReadAt(make([]byte, 10), 0); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
	aheadtest.CheckStops(t, func() (io.ReadCloser, error) {
		r, err := f.ChunkReader(0)
		if err != nil {
			return nil, err
		}
		return aheadtest.NewStream(r, r.Size()), nil
	}, func(s io.Reader) bool { return s.(aheadtest.Stream).From.(*ChunkReader).blocks.DecodingAhead() }, data)
}
