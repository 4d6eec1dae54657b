package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/mapfile"
	"github.com/upkg/upkg/pak/paktest"
)

// TestShareWork checks shareWork's bookkeeping with idle workers standing
// by: every item is handed out once, helpers join, a helper's panic
// reaches the caller after the others stop, and the caller's own panic
// waits for the helpers it let in.
func TestShareWork(t *testing.T) {
	h := newHelpers(4)
	opts := &Options{helpers: h}
	// Three idle workers, as verifyEach runs them once the walk is done.
	quit := make(chan struct{})
	var idle sync.WaitGroup
	for range 3 {
		idle.Add(1)
		go func() {
			defer idle.Done()
			for {
				if h.help() {
					continue
				}
				select {
				case <-h.wake:
				case <-quit:
					return
				}
			}
		}()
	}
	defer func() {
		close(quit)
		idle.Wait()
	}()

	const n = 2000
	var seen [n]atomic.Int32
	var goroutines sync.Map
	var bodies atomic.Int32
	shareWork(opts, n, func(next func() (int, bool)) {
		bodies.Add(1)
		for i, ok := next(); ok; i, ok = next() {
			seen[i].Add(1)
			goroutines.Store(goroutineTag(), true)
			time.Sleep(10 * time.Microsecond) // room for helpers to join
		}
	})
	for i := range seen {
		if c := seen[i].Load(); c != 1 {
			t.Fatalf("item %d handed out %d times", i, c)
		}
	}
	helped := 0
	goroutines.Range(func(any, any) bool { helped++; return true })
	if bodies.Load() < 2 || helped < 2 {
		t.Errorf("%d bodies ran on %d goroutines: no helper joined", bodies.Load(), helped)
	}
	if len(h.active) != 0 {
		t.Errorf("%d works left registered", len(h.active))
	}

	// A helper's panic is raised on the caller, once no body runs.
	var running atomic.Int32
	var owner atomic.Value
	got := catch(func() {
		owner.Store(goroutineTag())
		shareWork(opts, n, func(next func() (int, bool)) {
			running.Add(1)
			defer running.Add(-1)
			helper := goroutineTag() != owner.Load()
			done := 0
			for _, ok := next(); ok; _, ok = next() {
				if done++; helper && done == 3 {
					panic("helper failed")
				}
				time.Sleep(10 * time.Microsecond)
			}
		})
	})
	if got != "helper failed" {
		t.Errorf("caller got panic %v, want the helper's", got)
	}
	if r := running.Load(); r != 0 {
		t.Errorf("%d bodies still running after shareWork returned", r)
	}

	// The caller's own panic: the helpers stop and are waited for.
	running.Store(0)
	got = catch(func() {
		owner.Store(goroutineTag())
		shareWork(opts, n, func(next func() (int, bool)) {
			running.Add(1)
			defer running.Add(-1)
			for _, ok := next(); ok; _, ok = next() {
				time.Sleep(10 * time.Microsecond)
				if goroutineTag() == owner.Load() {
					panic("owner failed")
				}
			}
		})
	})
	if got != "owner failed" {
		t.Errorf("caller got panic %v, want its own", got)
	}
	if r := running.Load(); r != 0 {
		t.Errorf("%d bodies still running after the caller's panic", r)
	}

	// Without helpers, body runs once on the caller.
	bodies.Store(0)
	count := 0
	shareWork(&Options{}, 10, func(next func() (int, bool)) {
		bodies.Add(1)
		for _, ok := next(); ok; _, ok = next() {
			count++
		}
	})
	if bodies.Load() != 1 || count != 10 {
		t.Errorf("no helpers: %d bodies, %d items", bodies.Load(), count)
	}
}

// catch runs fn and returns what it panicked with.
func catch(fn func()) (p any) {
	defer func() { p = recover() }()
	fn()
	return nil
}

// goroutineTag tells goroutines apart: the ID runtime.Stack's header
// line gives.
func goroutineTag() string {
	var b [64]byte
	n := runtime.Stack(b[:], false)
	// "goroutine 123 [running]:"
	f := bytes.Fields(b[:n])
	if len(f) < 2 {
		return ""
	}
	return string(f[1])
}

// TestVerifySharedContainers verifies every corpus container alone with
// several workers, whose idle ones share its chunks and packages, and with
// one: the lines are the same, in the same order. Run with -race, it is
// the check that the sharing is safe; files are mapped, as by the CLI, so
// helpers read mapped memory too.
func TestVerifySharedContainers(t *testing.T) {
	var containers []string
	containers = append(containers, corpus.Files(t, "iostore", ".utoc")...)
	containers = append(containers, corpus.Files(t, "pak", ".pak")...)
	if testing.Short() {
		containers = containers[:4]
	}
	lines := func(p string, workers int) []byte {
		var b bytes.Buffer
		opts := &Options{AESKey: corpusKeys, OpenWhole: mapfile.OpenWhole}
		err := VerifyPaths([]string{p}, opts, workers, func(r VerifyResult) {
			j, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(j, '\n'))
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	packages := 0
	joins := helpJoins.Load()
	for _, p := range containers {
		one := lines(p, 1)
		many := lines(p, 4)
		if !bytes.Equal(one, many) {
			t.Errorf("%s: one worker:\n%s\nfour:\n%s", p, one, many)
		}
		packages += bytes.Count(one, []byte("\n")) - 1
	}
	joins = helpJoins.Load() - joins
	if joins == 0 {
		t.Error("no helper ever joined a container's checks")
	}
	t.Logf("%d containers, %d package lines; helpers joined %d times", len(containers), packages, joins)
}

// BenchmarkVerifyBigPak verifies one pak of 96 MiB (384 files of 256 KiB,
// zlib, text-like data): with one worker it is checked alone, with more
// the idle workers share its entries. MB/s is of the files' bytes.
func BenchmarkVerifyBigPak(b *testing.B) {
	var files []paktest.File
	const n, size = 384, 256 << 10
	for i := range n {
		files = append(files, paktest.File{Path: fmt.Sprintf("Content/Dir%d/File%d.bin", i%20, i), Data: paktest.TextLike(size, int64(i)), Compress: true})
	}
	p := writePak(b, "big.pak", paktest.Options{Version: 11, Mount: "../../../Game/"}, files)
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(n * size)
			benchVerifyAlone(b, p, workers)
		})
	}
}

// benchVerifyAlone verifies the one file p with workers workers, as the
// CLI does (mapped), each time the benchmark asks; every line must be ok.
func benchVerifyAlone(b *testing.B, p string, workers int) {
	for b.Loop() {
		err := VerifyPaths([]string{p}, &Options{OpenWhole: mapfile.OpenWhole}, workers, func(r VerifyResult) {
			if !r.OK {
				b.Fatalf("%+v", r)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyFixtureContainer verifies CUE4Parse's UE 5.8 fixture
// container (98 packages, 2.5 MB of chunks) alone, zlib and Oodle: with one
// worker, and with more whose idle ones share its packages and chunks;
// and with one worker, every package read through a ChunkReader, as
// package chunks over zenWholeMax are (lazy).
func BenchmarkVerifyFixtureContainer(b *testing.B) {
	for _, variant := range []string{"Zlib", "Oodle"} {
		p := fixtureToc(b, "UE5_8", "Tagged", variant)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", variant, workers), func(b *testing.B) {
				benchVerifyAlone(b, p, workers)
			})
		}
		b.Run(variant+"/lazy", func(b *testing.B) {
			old := zenWholeMax
			zenWholeMax = -1
			defer func() { zenWholeMax = old }()
			benchVerifyAlone(b, p, 1)
		})
	}
}

// TestInOrder: lines given in any order by several goroutines come out in
// index order, each once.
func TestInOrder(t *testing.T) {
	const n = 1000
	var got []string
	o := inOrder{emit: func(r VerifyResult) { got = append(got, r.Path) }}
	perm := rand.Perm(n)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < n; k += 4 {
				i := perm[k]
				o.put(i, VerifyResult{Path: strconv.Itoa(i)})
			}
		}()
	}
	wg.Wait()
	if len(got) != n || len(o.waiting) != 0 {
		t.Fatalf("%d lines, %d waiting", len(got), len(o.waiting))
	}
	for i, p := range got {
		if p != strconv.Itoa(i) {
			t.Fatalf("line %d is %s", i, p)
		}
	}
}
