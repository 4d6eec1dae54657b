//go:build !wasm

package iostore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/upkg/upkg/internal/readertest"
)

// verifyWays checks chunk i of f through a VerifyingChunkReader read in
// steps, read in readertest.Check's patterns, not read at all, and read
// and verified by three goroutines at once: each time Verify gives what
// VerifyChunk gives.
func verifyWays(t *testing.T, f *File, i int) {
	t.Helper()
	want := errText(f.VerifyChunk(i))
	for _, way := range []string{"in steps", "patterns", "unread", "at once"} {
		r, err := f.VerifyingChunkReader(i)
		if err != nil {
			if errText(err) != errText(func() error { _, err := f.ChunkReader(i); return err }()) {
				t.Fatalf("%s chunk %d: VerifyingChunkReader: %v", f.Name, i, err)
			}
			return
		}
		switch way {
		case "in steps":
			readertest.Steps(r, r.Size(), 40000, nil)
		case "patterns":
			if data, err := f.ReadChunk(i); err == nil {
				readertest.Check(t, "VerifyingChunkReader", r, data)
			}
		case "at once":
			var wg sync.WaitGroup
			errs := make([]string, 2)
			for g := range 3 {
				wg.Go(func() {
					if g == 2 {
						readertest.Steps(r, r.Size(), 3000, nil)
						return
					}
					errs[g] = errText(r.Verify())
				})
			}
			wg.Wait()
			if errs[0] != want || errs[1] != want {
				t.Errorf("%s chunk %d, at once: Verify %q and %q, VerifyChunk %q", f.Name, i, errs[0], errs[1], want)
			}
		}
		got := errText(r.Verify())
		if got != want || errText(r.Verify()) != want {
			t.Errorf("%s chunk %d, %s: Verify %q, VerifyChunk %q", f.Name, i, way, got, want)
		}
		r.Close()
	}
}

// TestVerifyingChunkReader verifies every corpus chunk through a
// VerifyingChunkReader, decoded one block at a time and ahead, and chunks
// of damaged fixture containers (a block that does not decode, stored
// bytes that do not hash to the TOC's): the same verdicts and errors as
// VerifyChunk.
func TestVerifyingChunkReader(t *testing.T) {
	n := 0
	eachCorpusContainer(t, func(f *File) {
		for i := range f.ChunkIDs {
			verifyWays(t, f, i)
			n++
		}
	})
	damage := func(f *File, cas []byte, blocks []int) { spoil(f, cas, blocks[3]) }
	t.Run("ahead", func(t *testing.T) {
		aheadAlways(t, 192<<10)
		f, chunk, _ := zlibFixture(t, memReader, nil)
		verifyWays(t, f, chunk)
		f, chunk, _ = zlibFixture(t, memReader, damage)
		verifyWays(t, f, chunk)
	})
	damaged, chunk, blocks := zlibFixture(t, memReader, damage)
	verifyWays(t, damaged, chunk)
	if err := damaged.VerifyChunk(chunk); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("compression block %d ", blocks[3])) {
		t.Errorf("spoiled block %d: VerifyChunk %v", blocks[3], err)
	}
	// Stored bytes changed: they read, and fail the hash.
	utoc := fixtures(t, "UE5_8", "Tagged", "Uncompressed")
	toc, err := os.ReadFile(utoc)
	if err != nil {
		t.Fatal(err)
	}
	cas, err := os.ReadFile(strings.TrimSuffix(utoc, ".utoc") + ".ucas")
	if err != nil {
		t.Fatal(err)
	}
	f := openSynth(t, toc, cas)
	big := 0
	for i := range f.ChunkIDs {
		if f.OffsetLength(i).Length > f.OffsetLength(big).Length {
			big = i
		}
	}
	ol := f.OffsetLength(big)
	cas = bytes.Clone(cas)
	at := f.Block(int((ol.Offset + ol.Length/2) / uint64(f.Header.CompressionBlockSize))).Offset
	cas[at+7] ^= 0x5A
	f = openSynth(t, toc, cas)
	if err := f.VerifyChunk(big); !errors.Is(err, ErrHash) {
		t.Fatalf("changed stored byte: VerifyChunk %v", err)
	}
	verifyWays(t, f, big)
	// Closed before Verify: it fails as reads do.
	r, err := f.VerifyingChunkReader(big)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if err := r.Verify(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Verify after Close: %v", err)
	}
	t.Logf("%d corpus chunks", n)
}
