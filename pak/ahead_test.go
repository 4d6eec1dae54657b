package pak_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/ahead/aheadtest"
	"github.com/upkg/upkg/internal/readertest"
	"github.com/upkg/upkg/pak"
	"github.com/upkg/upkg/pak/paktest"
)

// entryReads is what reading an entry whole, streaming it and reading it
// through a BlockReader in order give, with the errors as text.
type entryReads struct {
	data, streamed, stepped      []byte
	dataErr, readErr, steppedErr string
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// readEntry reads e whole and streams it (each checks the hash: nothing
// verified it before).
func readEntry(e *pak.Entry) entryReads {
	var r entryReads
	var err error
	r.data, err = e.Data()
	r.dataErr = errText(err)
	rc, err := e.Open()
	if err == nil {
		r.streamed, err = io.ReadAll(rc)
		rc.Close()
	}
	r.readErr = errText(err)
	r.stepped, err = readInSteps(e)
	r.steppedErr = errText(err)
	return r
}

// readInSteps reads e through a BlockReader from start to end, 40000
// bytes at a time, up to the first error (readertest.Steps).
func readInSteps(e *pak.Entry) ([]byte, error) {
	br, err := e.BlockReader()
	if err != nil {
		return nil, err
	}
	defer br.Close()
	return readertest.StepsAll(br, br.Size(), 40000)
}

func (r entryReads) same(o entryReads) bool {
	return bytes.Equal(r.data, o.data) && bytes.Equal(r.streamed, o.streamed) && bytes.Equal(r.stepped, o.stepped) &&
		r.dataErr == o.dataErr && r.readErr == o.readErr && r.steppedErr == o.steppedErr
}

func (r entryReads) String() string {
	return fmt.Sprintf("data %d bytes, %q; stream %d bytes, %q; in steps %d bytes, %q", len(r.data), r.dataErr, len(r.streamed), r.readErr, len(r.stepped), r.steppedErr)
}

// TestAheadCorpus reads and streams every entry of the corpus paks with
// their blocks decoded ahead (by one block, 192 KiB, 2 MiB) and one after
// the other: the same bytes and the same errors.
func TestAheadCorpus(t *testing.T) {
	dir, paks := corpusPaks(t)
	var want []entryReads
	for _, rel := range paks {
		p := openCorpus(t, dir, rel)
		for _, e := range p.All() {
			want = append(want, readEntry(e))
		}
	}
	blocks := 0
	for _, size := range []int64{1, 192 << 10, 2 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			pak.DecodeAheadAlways(t, size)
			k := 0
			for _, rel := range paks {
				p := openCorpus(t, dir, rel)
				for _, e := range p.All() {
					if got := readEntry(e); !got.same(want[k]) {
						t.Errorf("%s %s: decoded ahead %v; one by one %v", rel, e.Name, got, want[k])
					}
					if e.Compressed() && len(e.Blocks) > 1 {
						blocks++
					}
					k++
				}
			}
		})
	}
	if blocks == 0 {
		t.Error("no entry of several compressed blocks")
	}
}

// bigPak builds a pak with one 4 MiB text-like entry in zlib-compressed
// 64 KiB blocks, encrypted or not, and returns its bytes, the entry's
// bytes and its path.
func bigPak(t testing.TB, encrypt bool) ([]byte, []byte, string) {
	data := paktest.TextLike(4<<20, 7)
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../G/", Key: testKey}, []paktest.File{{Path: "Content/Big.ubulk", Data: data, Compress: true, Encrypt: encrypt}})
	if err != nil {
		t.Fatal(err)
	}
	return b, data, "G/Content/Big.ubulk"
}

func openBig(t testing.TB, r io.ReaderAt, size int64, path string) *pak.Entry {
	p, err := pak.NewReader(r, size, pak.WithKey(testKey))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := p.Lookup(path)
	if !ok {
		t.Fatalf("%s missing", path)
	}
	return e
}

// TestAheadBigEntry reads and streams a 4 MiB entry of 64 compressed
// blocks, encrypted and not, decoded ahead (default shares, into place)
// and one block after the other: the entry's bytes both ways. With three
// blocks damaged, both ways fail at the first of them, every time.
func TestAheadBigEntry(t *testing.T) {
	for _, encrypt := range []bool{false, true} {
		b, data, path := bigPak(t, encrypt)
		e := openBig(t, bytes.NewReader(b), int64(len(b)), path)
		aheadtest.AllIdle(t)
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.ReadFull(rc, make([]byte, 1))
		if !pak.DecodesAhead(rc) {
			t.Fatal("the entry is not decoded ahead")
		}
		rc.Close()
		if got := readEntry(e); got.dataErr != "" || got.readErr != "" || got.steppedErr != "" || !bytes.Equal(got.data, data) || !bytes.Equal(got.streamed, data) || !bytes.Equal(got.stepped, data) {
			t.Errorf("encrypt %v: %v", encrypt, got)
		}
		// Three blocks damaged.
		bad := bytes.Clone(b)
		for _, k := range []int{9, 20, 21} {
			blk := e.Blocks[k]
			bad[(blk.Start+blk.End)/2] ^= 0x5A
		}
		e = openBig(t, bytes.NewReader(bad), int64(len(bad)), path)
		var want entryReads
		pak.WithoutAhead(func() { want = readEntry(e) })
		if !strings.Contains(want.dataErr, "block 9 of") || !strings.Contains(want.readErr, "block 9 of") {
			t.Fatalf("encrypt %v, one block after the other: %v; want block 9 named", encrypt, want)
		}
		for range 10 {
			if got := readEntry(e); !got.same(want) {
				t.Errorf("encrypt %v, damaged: decoded ahead %v; one by one %v", encrypt, got, want)
			}
		}
	}
}

// TestAheadBigBlocks: an entry of 4 MiB blocks is not decoded ahead (two
// blocks per goroutine would be more than may be ahead), and one of 64 KiB
// blocks is, even one block ahead at a time.
func TestAheadBigBlocks(t *testing.T) {
	aheadtest.AllIdle(t)
	data := paktest.TextLike(12<<20, 9)
	for _, tc := range []struct {
		block int
		ahead int64
		want  bool
	}{{4 << 20, 2 << 20, false}, {64 << 10, 1, true}} {
		b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../G/"}, []paktest.File{{Path: "Big.bin", Data: data, Compress: true, BlockSize: tc.block}})
		if err != nil {
			t.Fatal(err)
		}
		e := openBig(t, bytes.NewReader(b), int64(len(b)), "G/Big.bin")
		pak.WithAhead(tc.ahead, func() {
			rc, err := e.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			if _, err := io.ReadFull(rc, make([]byte, 1)); err != nil {
				t.Fatal(err)
			}
			if got := pak.DecodesAhead(rc); got != tc.want {
				t.Errorf("blocks of %d bytes, %d ahead: decoded ahead %v", tc.block, tc.ahead, got)
			}
		})
	}
}

// panicReader reads b, and panics with with on a read starting at at.
type panicReader struct {
	b    []byte
	at   int64
	with any
	now  atomic.Int32
}

func (r *panicReader) ReadAt(p []byte, off int64) (int, error) {
	r.now.Add(1)
	defer r.now.Add(-1)
	time.Sleep(200 * time.Microsecond)
	if off == r.at {
		panic(r.with)
	}
	return bytes.NewReader(r.b).ReadAt(p, off)
}

// TestAheadPanic: a panic while decoding a block ahead (a memory fault on
// a mapped pak cut short, for one) reaches the reader of the entry, whole
// or streamed, once every goroutine reading the pak has stopped.
func TestAheadPanic(t *testing.T) {
	b, _, path := bigPak(t, false)
	pr := &panicReader{b: b, at: -1, with: errors.New("fault")}
	e := openBig(t, pr, int64(len(b)), path)
	pr.at = e.Blocks[30].Start
	pak.DecodeAheadAlways(t, 1<<20)
	for _, stream := range []bool{false, true} {
		var rc io.ReadCloser
		p := func() (p any) {
			defer func() { p = recover() }()
			if stream {
				var err error
				if rc, err = e.Open(); err == nil {
					io.Copy(io.Discard, rc)
				}
			} else {
				e.Data()
			}
			return nil
		}()
		if p != pr.with {
			t.Errorf("stream %v: panic %v; want the block's", stream, p)
		}
		if stream {
			// The stream stopped: reading on fails, and leaves no
			// goroutine reading the pak.
			if n, err := rc.Read(make([]byte, 100)); err == nil || n != 0 {
				t.Errorf("a read after the panic: %d bytes, %v", n, err)
			}
			rc.Close()
		}
		if pr.now.Load() != 0 {
			t.Errorf("stream %v: %d reads still running after the panic", stream, pr.now.Load())
		}
	}
}

// TestAheadBlockReader reads the big entry, encrypted and not, through a
// BlockReader: read through in order, its blocks are decoded ahead after
// the first few, and no longer once the last is read; read in every
// pattern readertest.Check makes (unencrypted), it gives the entry's
// bytes; a panic decoding a block ahead reaches the reader. Closing the
// reader part way, or dropping it, stops the goroutines decoding ahead
// (aheadtest.CheckStops).
func TestAheadBlockReader(t *testing.T) {
	aheadtest.AllIdle(t)
	for _, encrypt := range []bool{false, true} {
		b, data, path := bigPak(t, encrypt)
		e := openBig(t, bytes.NewReader(b), int64(len(b)), path)
		br, err := e.BlockReader()
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		sawAhead := false
		if _, err := readertest.Steps(br, br.Size(), 40000, func(_ int64, b []byte) error {
			got = append(got, b...)
			sawAhead = sawAhead || pak.DecodesAhead(br)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) || !sawAhead || pak.DecodesAhead(br) {
			t.Fatalf("encrypt %v, read in order: bytes right %v, decoded ahead %v, still after the end %v", encrypt, bytes.Equal(got, data), sawAhead, pak.DecodesAhead(br))
		}
		if !encrypt { // (one is enough: slow under the race detector)
			readertest.Check(t, "BlockReader", br, data)
		}
		br.Close()
		if _, err := br.ReadAt(make([]byte, 10), 0); !errors.Is(err, fs.ErrClosed) {
			t.Errorf("encrypt %v: read after Close: %v", encrypt, err)
		}
	}

	b, data, path := bigPak(t, false)
	pr := &panicReader{b: b, at: -1, with: errors.New("fault")}
	e := openBig(t, pr, int64(len(b)), path)
	br, err := e.BlockReader() // the hash is checked here
	if err != nil {
		t.Fatal(err)
	}
	pr.at = e.Blocks[30].Start
	p := func() (p any) {
		defer func() { p = recover() }()
		readertest.Steps(br, br.Size(), 40000, nil)
		return nil
	}()
	if p != pr.with || pr.now.Load() != 0 || pak.DecodesAhead(br) {
		t.Errorf("panic %v, want the block's; %d reads still running, decoding ahead %v", p, pr.now.Load(), pak.DecodesAhead(br))
	}

	e = openBig(t, bytes.NewReader(b), int64(len(b)), path)
	aheadtest.CheckStops(t, func() (io.ReadCloser, error) {
		br, err := e.BlockReader()
		if err != nil {
			return nil, err
		}
		return aheadtest.NewStream(br, br.Size()), nil
	}, func(r io.Reader) bool { return pak.DecodesAhead(r.(aheadtest.Stream).From) }, data)
}

// TestAheadStreamStops streams the big entry decoded ahead and stops part
// way (aheadtest.CheckStops): closing the reader, or dropping it, stops
// the goroutines decoding ahead.
func TestAheadStreamStops(t *testing.T) {
	b, data, path := bigPak(t, false)
	e := openBig(t, bytes.NewReader(b), int64(len(b)), path)
	aheadtest.AllIdle(t)
	aheadtest.CheckStops(t, e.Open, func(r io.Reader) bool { return pak.DecodesAhead(r) }, data)
}

// BenchmarkBigEntry reads, streams and reads through a BlockReader in
// 40000-byte steps a 4 MiB entry of zlib-compressed 64 KiB blocks,
// decoded one block after the other (serial) and ahead (the default
// settings): wall time, and processor time per op.
func BenchmarkBigEntry(b *testing.B) {
	data, plain, path := bigPak(b, false)
	e := openBig(b, bytes.NewReader(data), int64(len(data)), path)
	e.Verify() // the reads need not hash it again
	for _, mode := range []string{"serial", "ahead"} {
		for _, op := range []string{"Data", "Stream", "Steps"} {
			b.Run(op+"/"+mode, func(b *testing.B) {
				run := func(f func()) { f() }
				if mode == "serial" {
					run = pak.WithoutAhead
				}
				b.SetBytes(int64(len(plain)))
				buf := make([]byte, 0, len(plain))
				run(func() {
					for b.Loop() {
						var err error
						switch op {
						case "Data":
							_, err = e.DataInto(buf)
						case "Stream":
							var rc io.ReadCloser
							if rc, err = e.Open(); err == nil {
								_, err = io.Copy(io.Discard, rc)
								rc.Close()
							}
						default:
							var br *pak.BlockReader
							if br, err = e.BlockReader(); err == nil {
								_, err = readertest.Steps(br, br.Size(), 40000, nil)
								br.Close()
							}
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}
