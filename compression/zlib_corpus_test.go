//go:build !wasm

package compression_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/klauspost/compress/zlib"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// corpusKeys are the AES keys the corpus README lists for its encrypted
// containers.
const corpusKeys = "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=,CUE4ParseFixtureAESKey0123456789"

// zlibBlock is one call of the Zlib decompressor: the compressed block and
// the size its reader asked for.
type zlibBlock struct {
	src  []byte
	size int
}

var (
	zlibBlocksOnce sync.Once
	zlibBlocks     []zlibBlock
)

// corpusZlibBlocks runs verify over the whole corpus with a Zlib decoder
// that records every block it is given (containers, pak entries, legacy
// chunks, bulk data, and the blocks of key checks, good or not).
func corpusZlibBlocks(tb testing.TB) []zlibBlock {
	dir := corpus.Dir(tb)
	zlibBlocksOnce.Do(func() {
		files, err := inspect.VerifyFiles([]string{dir})
		if err != nil {
			tb.Fatal(err)
		}
		orig := compression.Lookup("Zlib")
		var mu sync.Mutex
		compression.Register("Zlib", func(dst, src []byte) error {
			mu.Lock()
			zlibBlocks = append(zlibBlocks, zlibBlock{bytes.Clone(src), len(dst)})
			mu.Unlock()
			return orig(dst, src)
		})
		defer compression.Register("Zlib", orig)
		inspect.Verify(files, &inspect.Options{AESKey: corpusKeys}, runtime.GOMAXPROCS(0), func(inspect.VerifyResult) {})
	})
	if len(zlibBlocks) == 0 {
		tb.Skip("no zlib blocks in the corpus")
	}
	return zlibBlocks
}

// klauspostZlib is how native builds decoded Zlib before internal/flate:
// klauspost/compress's reader (reused through a pool), exactly len(dst)
// bytes, then no more; and the checksum, when the reader got to it.
func klauspostZlib(dst, src []byte) error {
	st, _ := klauspostPool.Get().(*klauspostState)
	if st == nil {
		st = &klauspostState{}
	}
	defer klauspostPool.Put(st)
	st.src.Reset(src)
	if st.zr == nil {
		zr, err := zlib.NewReader(&st.src)
		if err != nil {
			return err
		}
		st.zr = zr
	} else if err := st.zr.(zlib.Resetter).Reset(&st.src, nil); err != nil {
		return err
	}
	if _, err := io.ReadFull(st.zr, dst); err != nil {
		return err
	}
	var one [1]byte
	if n, err := st.zr.Read(one[:]); n != 0 {
		return compression.ErrSize
	} else if errors.Is(err, zlib.ErrChecksum) {
		return err
	}
	return nil
}

type klauspostState struct {
	src bytes.Reader
	zr  io.ReadCloser
}

var klauspostPool sync.Pool // of *klauspostState

// TestZlibCorpus decodes every zlib block verify meets in the corpus with
// klauspost/compress and with the registered decoder, also into buffers one
// byte short and one byte long, and cut or damaged: both succeed with the
// same bytes or both fail (a too-long stream with ErrSize in both).
func TestZlibCorpus(t *testing.T) {
	blocks := corpusZlibBlocks(t)
	zlibDecode := compression.Lookup("Zlib")
	good, total := 0, 0
	for i, b := range blocks {
		for _, n := range []int{b.size, b.size - 1, b.size + 1} {
			if n < 0 {
				continue
			}
			want, got := make([]byte, n), make([]byte, n)
			ew, eg := klauspostZlib(want, b.src), zlibDecode(got, b.src)
			if (ew == nil) != (eg == nil) || errors.Is(ew, compression.ErrSize) != errors.Is(eg, compression.ErrSize) {
				t.Fatalf("block %d (%d bytes into %d): klauspost %v, registered %v", i, len(b.src), n, ew, eg)
			}
			if ew == nil && !bytes.Equal(want, got) {
				t.Fatalf("block %d (%d bytes into %d): output differs", i, len(b.src), n)
			}
			if n == b.size {
				total += n
				if ew == nil {
					good++
				}
			}
		}
	}
	// Cut and damaged copies of every block: the same outcome again, and
	// never a panic.
	r := rand.New(rand.NewPCG(9, 10))
	for i, b := range blocks {
		for k := range 6 {
			src := b.src[:r.IntN(len(b.src)+1)]
			if k >= 2 {
				src = bytes.Clone(b.src)
				for range 1 + r.IntN(3) {
					src[r.IntN(len(src))] ^= 1 << r.IntN(8)
				}
			}
			want, got := make([]byte, b.size), make([]byte, b.size)
			ew, eg := klauspostZlib(want, src), zlibDecode(got, src)
			if (ew == nil) != (eg == nil) || errors.Is(ew, compression.ErrSize) != errors.Is(eg, compression.ErrSize) {
				t.Fatalf("block %d changed (%d of %d bytes): klauspost %v, registered %v", i, len(src), len(b.src), ew, eg)
			}
			if ew == nil && !bytes.Equal(want, got) {
				t.Fatalf("block %d changed: output differs", i)
			}
		}
	}
	t.Logf("%d zlib blocks (%d decode), %d bytes", len(blocks), good, total)
	if testing.Verbose() {
		hist := map[int]int{}
		csize := 0
		for _, b := range blocks {
			hist[b.size>>14]++
			csize += len(b.src)
		}
		t.Logf("compressed %d bytes; sizes by 16 KiB: %v", csize, hist)
	}
}

// BenchmarkZlibCorpus decodes every zlib block of the corpus that
// decodes, with klauspost/compress and with the registered decoder.
func BenchmarkZlibCorpus(b *testing.B) {
	var blocks []zlibBlock
	var size int64
	dst := []byte{}
	for _, z := range corpusZlibBlocks(b) {
		d := make([]byte, z.size)
		if klauspostZlib(d, z.src) == nil {
			blocks = append(blocks, z)
			size += int64(z.size)
			if z.size > len(dst) {
				dst = make([]byte, z.size)
			}
		}
	}
	run := func(name string, dec func(dst, src []byte) error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			c0 := cpuTime()
			for b.Loop() {
				for _, z := range blocks {
					if err := dec(dst[:z.size], z.src); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
	run("klauspost", klauspostZlib)
	run("registered", compression.Lookup("Zlib"))
}
