//go:build unix

package mapfile_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/bigfiletest"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/mapfile"
	"github.com/upkg/upkg/internal/osfile"
	"github.com/upkg/upkg/pak/paktest"
)

// writeFile writes n bytes starting with the package tag to a temp file.
func writeFile(t *testing.T, n int) (string, []byte) {
	t.Helper()
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i * 7)
	}
	copy(b, []byte{0xC1, 0x83, 0x2A, 0x9E})
	name := filepath.Join(t.TempDir(), "Test.uasset")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return name, b
}

// truncateOnMap returns verify options whose OpenWhole maps files as the
// CLI does and, once one for which cuts(name) holds is mapped, cuts it to
// cut bytes and sets *mapped.
func truncateOnMap(t *testing.T, cut int64, mapped *bool, cuts func(name string) bool) *inspect.Options {
	return &inspect.Options{OpenWhole: func(name string) (io.ReaderAt, int64, io.Closer, error) {
		r, size, c, err := mapfile.OpenWhole(name)
		if c != nil && cuts(name) {
			*mapped = true
			if err := os.Truncate(name, cut); err != nil {
				t.Error(err)
			}
		}
		return r, size, c, err
	}}
}

// TestOpenWhole reads files of every size class (read into a reused
// buffer, mapped into an arena, mapped on their own) through both openers:
// making the calls directly changes nothing of what is read.
func TestOpenWhole(t *testing.T) {
	for _, open := range []struct {
		name string
		fn   func(string) (io.ReaderAt, int64, io.Closer, error)
	}{{"OpenWhole", mapfile.OpenWhole}, {"OpenWholeDirect", mapfile.OpenWholeDirect}} {
		for _, tc := range []int{0, 100, mapfile.MinSize - 1, mapfile.MinSize, 300 << 10, 3 << 20} {
			name, want := writeFile(t, tc)
			r, size, c, err := open.fn(name)
			if err != nil {
				t.Fatal(err)
			}
			if size != int64(tc) || c == nil {
				t.Errorf("%s, %d bytes: size %d, closer %v", open.name, tc, size, c)
			}
			got := make([]byte, size)
			if n, err := r.ReadAt(got, 0); n != len(got) || (err != nil && err != io.EOF) || !bytes.Equal(got, want) {
				t.Errorf("%s, %d bytes: read %d, %v, same %v", open.name, tc, n, err, bytes.Equal(got, want))
			}
			if c != nil {
				if err := c.Close(); err != nil {
					t.Error(err)
				}
				if err := c.Close(); err != nil {
					t.Errorf("%s: second Close: %v", open.name, err)
				}
			}
		}
		missing := filepath.Join(t.TempDir(), "None.uasset")
		if _, _, _, err := open.fn(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
			t.Errorf("%s of a missing file: %v", open.name, err)
		}
	}
}

// TestTruncatedWhileMapped cuts a mapped package file short before it is
// read: verify must report that file, not die of SIGBUS.
func TestTruncatedWhileMapped(t *testing.T) {
	name, _ := writeFile(t, 256<<10)
	opts := &inspect.Options{OpenWhole: func(name string) (io.ReaderAt, int64, io.Closer, error) {
		r, size, c, err := mapfile.OpenWhole(name)
		if c == nil {
			t.Fatalf("%s not mapped", name)
		}
		if err := os.Truncate(name, 0); err != nil {
			t.Fatal(err)
		}
		return r, size, c, err
	}}
	res := inspect.VerifyPackage(name, opts)
	if res.OK || !strings.Contains(res.Error, "file changed while being read") {
		t.Errorf("verify of a file truncated while mapped: ok %v, error %q", res.OK, res.Error)
	}
}

// minimalUncompressed is the base name of the UE 5.8 uncompressed IoStore
// fixture container (copyMinimalUncompressed).
const minimalUncompressed = "CUE4ParseFixtures-Minimal-Uncompressed-Windows"

// copyMinimalUncompressed copies the UE 5.8 uncompressed fixture container
// (.utoc and .ucas) into a new folder, which it returns.
func copyMinimalUncompressed(t *testing.T) string {
	t.Helper()
	src := corpus.Path(t, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/Uncompressed")
	dir := t.TempDir()
	for _, ext := range []string{".utoc", ".ucas"} {
		b, err := os.ReadFile(filepath.Join(src, minimalUncompressed+ext))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, minimalUncompressed+ext), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTruncatedPartitionWhileMapped cuts a container's mapped .ucas short
// before its chunks are read: reading its container header faults, and the
// container's line reports it, also when idle verify workers share the
// container's checks (a helper's fault outside a package's read reaches the
// container's line too).
func TestTruncatedPartitionWhileMapped(t *testing.T) {
	const base = minimalUncompressed
	for _, workers := range []int{0, 4} { // 0: VerifyOne
		dir := copyMinimalUncompressed(t)
		mapped := false
		opts := truncateOnMap(t, 0, &mapped, func(name string) bool { return strings.HasSuffix(name, ".ucas") })
		var results []inspect.VerifyResult
		emit := func(r inspect.VerifyResult) { results = append(results, r) }
		if workers == 0 {
			inspect.VerifyOne(filepath.Join(dir, base+".utoc"), opts, emit)
		} else if err := inspect.VerifyPaths([]string{dir}, opts, workers, emit); err != nil {
			t.Fatal(err)
		}
		if !mapped {
			t.Fatal("the .ucas was not mapped")
		}
		if len(results) != 1 || results[0].OK || !strings.Contains(results[0].Error, "file changed while being read") {
			t.Errorf("%d workers: verify of a container whose .ucas was truncated while mapped: %+v", workers, results)
		}
	}
}

// TestPartitionTruncatedMidVerify cuts a container's mapped .ucas short once
// some of its package lines are out: each package still gets one line, the
// packages read after the cut fail with the fault, and the container's line
// comes last, failed (its other chunks fault too).
//
// With several workers, which reads come after the cut depends on the
// scheduler: the workers may check every package before the emitting
// goroutine takes the container's first line (CI saw that once, on a
// loaded machine). Each run must still give each package one line and the
// container's line last; the run is repeated until one of them cuts before
// some package is read, as VerifyOne's runs always do.
func TestPartitionTruncatedMidVerify(t *testing.T) {
	const base = minimalUncompressed
	run := func(workers int) (faulted int, last inspect.VerifyResult) {
		dir := copyMinimalUncompressed(t)
		var results []inspect.VerifyResult
		emit := func(r inspect.VerifyResult) {
			results = append(results, r)
			if len(results) == 3 {
				if err := os.Truncate(filepath.Join(dir, base+".ucas"), 0); err != nil {
					t.Error(err)
				}
			}
		}
		opts := &inspect.Options{OpenWhole: mapfile.OpenWhole}
		if workers == 0 {
			inspect.VerifyOne(filepath.Join(dir, base+".utoc"), opts, emit)
		} else if err := inspect.VerifyPaths([]string{dir}, opts, workers, emit); err != nil {
			t.Fatal(err)
		}
		if len(results) != 98 {
			t.Fatalf("%d workers: %d lines, want 98: %+v", workers, len(results), results)
		}
		seen := map[string]int{}
		for _, r := range results[:len(results)-1] {
			seen[r.Path]++
			if r.Format != "zen" || seen[r.Path] > 1 {
				t.Errorf("%d workers: package line %+v (seen %d times)", workers, r, seen[r.Path])
			}
			if strings.Contains(r.Error, "file changed while being read") {
				faulted++
			}
		}
		last = results[len(results)-1]
		if last.Format != "utoc" {
			t.Errorf("%d workers: last line %+v, want the container's", workers, last)
		}
		return faulted, last
	}
	if faulted, last := run(0); faulted == 0 || last.OK {
		t.Errorf("VerifyOne: %d packages faulted, last %+v", faulted, last)
	}
	const tries = 20
	for i := range tries {
		faulted, last := run(4)
		if faulted > 0 && !last.OK {
			break
		}
		if i == tries-1 {
			t.Errorf("4 workers: in none of %d runs did a package read after the cut fault with the container failed (last run: %d faulted, last %+v)", tries, faulted, last)
		}
	}
}

// TestTruncatedPakWhileMapped cuts a mapped .pak short before its index is
// read: the container's line reports it.
func TestTruncatedPakWhileMapped(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "pak/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Pak/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed.pak"))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "Test.pak")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mapped := false
	opts := truncateOnMap(t, 0, &mapped, func(string) bool { return true })
	var results []inspect.VerifyResult
	inspect.VerifyOne(name, opts, func(r inspect.VerifyResult) { results = append(results, r) })
	if !mapped {
		t.Fatal("the .pak was not mapped")
	}
	if len(results) != 1 || results[0].OK || results[0].Format != "pak" || !strings.Contains(results[0].Error, "file changed while being read") {
		t.Errorf("verify of a pak truncated while mapped: %+v", results)
	}
}

// TestTruncatedLegacyWhileMapped cuts a mapped UE3 package (Mass Effect 3
// for Xbox 360: four LZX chunks, 4.4 MB expanded by goroutines sharing its
// blocks) short inside its last chunk's first block: the package's line
// reports it, whichever goroutine met the fault.
func TestTruncatedLegacyWhileMapped(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/Xenon/ME3/biod_nor.xxx"))
	if err != nil {
		t.Fatal(err)
	}
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	const cut = 0x85000 // inside chunk 3's first block, at a page boundary
	for range 5 {
		name := filepath.Join(t.TempDir(), "biod_nor.xxx")
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		mapped := false
		res := inspect.VerifyPackage(name, truncateOnMap(t, cut, &mapped, func(string) bool { return true }))
		if !mapped {
			t.Fatal("the package was not mapped")
		}
		if res.OK || !strings.Contains(res.Error, "file changed while being read") {
			t.Fatalf("verify of a UE3 package truncated while mapped: ok %v, error %q", res.OK, res.Error)
		}
	}
}

// TestOpenWholeSpecial checks that both openers, and osfile.OpenWhole
// (what other platforms and commands read files with), refuse what is not
// a regular file, saying what it is, without waiting for a writer on a
// named pipe.
func TestOpenWholeSpecial(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.uasset")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	for name, want := range map[string]string{
		pipe:        "not a regular file (a named pipe)",
		"/dev/null": "not a regular file (a character device)",
		dir:         "is a directory",
	} {
		for _, open := range []func(string) (io.ReaderAt, int64, io.Closer, error){mapfile.OpenWhole, mapfile.OpenWholeDirect, osfile.OpenWhole} {
			done := make(chan error, 1)
			go func() {
				_, _, _, err := open(name)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != name+": "+want {
					t.Errorf("OpenWhole(%s): %v, want %q", name, err, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("OpenWhole(%s) still waiting after 10 s", name)
			}
		}
	}
}

// TestBigFileSlice: a file too big to read whole is read with ReadAt and
// hands out slices of a mapping of itself, the same bytes; ranges outside
// it are refused, and Close unmaps and closes it.
func TestBigFileSlice(t *testing.T) {
	name, want := writeFile(t, osfile.MaxWhole+12345)
	r, size, c, err := mapfile.OpenWhole(name)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := r.(binread.Slicer)
	if !ok || size != int64(len(want)) || c == nil {
		t.Fatalf("%T, size %d, closer %v: not a slicer of the whole file", r, size, c)
	}
	got := make([]byte, 1000)
	if n, err := r.ReadAt(got, size-1000); n != 1000 || err != nil || !bytes.Equal(got, want[len(want)-1000:]) {
		t.Errorf("ReadAt: %d, %v", n, err)
	}
	for _, rg := range [][2]int64{{0, size}, {size - 7, 7}, {1 << 20, 3 << 20}, {size, 0}} {
		b, ok := s.Slice(rg[0], rg[1])
		if !ok || !bytes.Equal(b, want[rg[0]:rg[0]+rg[1]]) || int64(cap(b)) != rg[1] {
			t.Errorf("Slice(%d, %d): ok %v, %d bytes (cap %d), same %v", rg[0], rg[1], ok, len(b), cap(b), bytes.Equal(b, want[rg[0]:rg[0]+rg[1]]))
		}
	}
	for _, rg := range [][2]int64{{-1, 2}, {0, size + 1}, {size, 1}, {1, -1}} {
		if _, ok := s.Slice(rg[0], rg[1]); ok {
			t.Errorf("Slice(%d, %d) outside the file: given", rg[0], rg[1])
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadAt(got, 0); err == nil {
		t.Error("ReadAt after Close: no error")
	}
	if _, ok := s.Slice(0, 1); ok {
		t.Error("Slice after Close: given")
	}
}

// TestVerifyBigExport: a package file too big to read whole (a .uexp, an
// uncompressed UE3 package) is mapped for its exports' data, which gives
// the line reading it gives (a 9 MiB export), and verifies a 600 MiB
// export in a few MiB of memory (read whole, it took 1.2 GB for the .uexp
// and 0.6 GB for the UE3 package; past 1 GiB it failed as too big).
func TestVerifyBigExport(t *testing.T) {
	verify := func(name string, open osfile.WholeOpener) (res inspect.VerifyResult) {
		inspect.VerifyOne(name, &inspect.Options{OpenWhole: open}, func(r inspect.VerifyResult) { res = r })
		return res
	}
	for _, tc := range bigfiletest.Cases {
		name := tc.Make(t, 9<<20)
		mapped, read := verify(name, mapfile.OpenWhole), verify(name, osfile.OpenWhole)
		if !mapped.OK || mapped.PropertiesOK == nil || *mapped.PropertiesOK != 1 || !reflect.DeepEqual(mapped, read) {
			t.Errorf("%s, 9 MiB export: mapped %+v\nread %+v", tc.Name, mapped, read)
		}
		name = tc.Make(t, 600<<20)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := verify(name, mapfile.OpenWhole)
		runtime.ReadMemStats(&after)
		if !res.OK || res.PropertiesOK == nil || *res.PropertiesOK != 1 {
			t.Errorf("%s, 600 MiB export: %+v", tc.Name, res)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("%s, 600 MiB export: verify allocated %d bytes", tc.Name, alloc)
		}
	}
}

// TestTruncatedBigFileWhileMapped cuts a .uexp too big to read whole, and
// an uncompressed UE3 package, to nothing when an export's data is first
// asked for as a slice of their mapping: the package's line reports it.
func TestTruncatedBigFileWhileMapped(t *testing.T) {
	for _, tc := range bigfiletest.Cases {
		name := tc.Make(t, 9<<20)
		cut := false
		opts := &inspect.Options{OpenWhole: bigfiletest.CutOnSlice(mapfile.OpenWhole, tc.Ext, &cut)}
		var res inspect.VerifyResult
		inspect.VerifyOne(name, opts, func(r inspect.VerifyResult) { res = r })
		if !cut {
			t.Fatalf("%s: no slice of the %s file was asked for", tc.Name, tc.Ext)
		}
		if res.OK || !strings.Contains(res.Error, "file changed while being read") {
			t.Errorf("%s: verify of a big file cut while mapped: %+v", tc.Name, res)
		}
	}
}

// TestVerifyBigExportInPak: the .uexp of a package stored plain (neither
// compressed nor encrypted) in a .pak too big to read whole hands out its
// exports' data as slices of the pak's mapping, with the line that
// reading the export gives.
func TestVerifyBigExportInPak(t *testing.T) {
	const extra = 20 << 20
	name := bigfiletest.Export(t, extra)
	uasset, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	uexp, err := os.ReadFile(strings.TrimSuffix(name, ".uasset") + ".uexp")
	if err != nil {
		t.Fatal(err)
	}
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, []paktest.File{
		{Path: "Game/Content/Big.uasset", Data: uasset},
		{Path: "Game/Content/Big.uexp", Data: uexp},
	})
	if err != nil {
		t.Fatal(err)
	}
	pakName := filepath.Join(t.TempDir(), "Big.pak")
	if err := os.WriteFile(pakName, b, 0o644); err != nil {
		t.Fatal(err)
	}
	b, uasset, uexp = nil, nil, nil
	verify := func(open osfile.WholeOpener) (res []inspect.VerifyResult, alloc uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		inspect.VerifyOne(pakName, &inspect.Options{OpenWhole: open}, func(r inspect.VerifyResult) { res = append(res, r) })
		runtime.ReadMemStats(&after)
		return res, after.TotalAlloc - before.TotalAlloc
	}
	mapped, mappedAlloc := verify(mapfile.OpenWhole)
	read, readAlloc := verify(osfile.OpenWhole)
	if len(mapped) != 2 || !mapped[0].OK || mapped[0].PropertiesOK == nil || *mapped[0].PropertiesOK != 1 || !reflect.DeepEqual(mapped, read) {
		t.Errorf("mapped %+v\nread %+v", mapped, read)
	}
	if mappedAlloc > extra/2 {
		t.Errorf("verify allocated %d bytes with the pak mapped (%d read)", mappedAlloc, readAlloc)
	}
}
