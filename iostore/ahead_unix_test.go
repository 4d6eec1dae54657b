//go:build unix

package iostore

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/mapfile"
)

// TestAheadFaultWhileMapped maps the Zlib fixture's .ucas, cuts the file
// short inside its biggest chunk, and reads that chunk with its blocks
// decoded ahead: the memory fault a decoding goroutine meets reaches the
// reader as a panic on its own goroutine (where verify turns it into "file
// changed while being read"), not a crash of the process. Without the
// caller's fault setting passed to the goroutines, the process dies of
// SIGBUS here.
func TestAheadFaultWhileMapped(t *testing.T) {
	utoc := fixtures(t, "UE5_8", "Tagged", "Zlib")
	dir := t.TempDir()
	var paths [2]string
	for k, ext := range []string{".utoc", ".ucas"} {
		b, err := os.ReadFile(utoc[:len(utoc)-len(".utoc")] + ext)
		if err != nil {
			t.Fatal(err)
		}
		paths[k] = filepath.Join(dir, "c"+ext)
		if err := os.WriteFile(paths[k], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	toc, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	r, size, c, err := mapfile.OpenWhole(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := r.(binread.Mem); !ok {
		t.Skip("the .ucas is not mapped here")
	}
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) { return r, size, nil }))
	if err != nil {
		t.Fatal(err)
	}
	chunk, blocks := biggestChunk(f)
	if len(blocks) < 6 {
		t.Skip("no chunk of 6 or more compressed blocks")
	}
	// Cut at the page holding the fourth block's start: its bytes, and
	// those of the blocks after it, are no longer backed.
	page := int64(os.Getpagesize())
	if err := os.Truncate(paths[1], int64(f.Block(blocks[3]).Offset)/page*page); err != nil {
		t.Fatal(err)
	}
	aheadAlways(t, math.MaxUint64)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for range 5 {
		p := func() (p any) {
			defer func() { p = recover() }()
			f.ReadChunk(chunk)
			return nil
		}()
		if _, ok := p.(runtime.Error); !ok {
			t.Fatalf("reading the cut chunk: panic %v; want a memory fault", p)
		}
	}
}
