package inspect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestVerifyEachOrder checks that results come in walk order whatever the
// workers finish first, that the walk lists what VerifyFiles lists, and
// that a walk error is returned after the results found before it.
func TestVerifyEachOrder(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for _, name := range []string{"a.uasset", "b/c.umap", "b/d.uexp", "e.txt", "f.u", "g/h/i.pak"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("not a package"), 0o644); err != nil {
			t.Fatal(err)
		}
		if ext := filepath.Ext(name); ext != ".uexp" && ext != ".txt" {
			want = append(want, p)
		}
	}
	files, err := VerifyFiles([]string{dir})
	if err != nil || !slices.Equal(files, want) {
		t.Fatalf("VerifyFiles: have %q, %v; want %q", files, err, want)
	}
	for _, workers := range []int{1, 2, 5} {
		var got []string
		err := VerifyEach(func(yield func(string) bool) error { return WalkVerifyFiles([]string{dir}, yield) },
			&Options{}, workers, func(r VerifyResult) { got = append(got, r.Path) })
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%d workers: have %q, %v; want %q", workers, got, err, want)
		}
	}
	boom := errors.New("walk failed")
	var got []string
	err = VerifyEach(func(yield func(string) bool) error {
		yield(want[0])
		return boom
	}, &Options{}, 2, func(r VerifyResult) { got = append(got, r.Path) })
	if !errors.Is(err, boom) || !slices.Equal(got, want[:1]) {
		t.Errorf("walk error: have %q, %v", got, err)
	}
	if _, err := VerifyFiles([]string{dir, filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path was not reported")
	}
}

// TestVerifyManyLines: a file that gives tens of thousands of lines (a
// game's container: one per package) keeps them all, in order. Past 14,330
// lines the size of the next chunk of lines overflowed, and verify
// panicked.
func TestVerifyManyLines(t *testing.T) {
	const n = 40000
	withVerifier(t, ".many", func(path string, emit func(VerifyResult)) {
		for i := range n {
			emit(VerifyResult{Path: path, Names: i})
		}
	})
	got := 0
	err := VerifyEach(func(yield func(string) bool) error {
		yield("game.many")
		return nil
	}, &Options{}, 2, func(r VerifyResult) {
		if r.Names != got {
			t.Fatalf("line %d has %d", got, r.Names)
		}
		got++
	})
	if err != nil || got != n {
		t.Errorf("%d lines, %v; want %d", got, err, n)
	}
}

// goroutineID is the number of the calling goroutine (from its stack
// trace's first line, "goroutine 7 [running]:").
func goroutineID() string {
	var b [64]byte
	s := string(b[:runtime.Stack(b[:], false)])
	s = strings.TrimPrefix(s, "goroutine ")
	return s[:strings.IndexByte(s, ' ')]
}

// TestVerifyEmitOnCaller checks that emit runs on the goroutine that calls
// VerifyEach, also for the lines a container emits while it is still being
// checked, in order; and that a panic in emit reaches that caller rather
// than leaving the workers waiting on each other.
func TestVerifyEmitOnCaller(t *testing.T) {
	withVerifier(t, ".slow", func(path string, emit func(VerifyResult)) {
		for i := range 5 {
			time.Sleep(5 * time.Millisecond)
			emit(VerifyResult{Path: path, Names: i})
		}
	})
	files := func(yield func(string) bool) error {
		for _, p := range []string{"a.slow", "b.slow", "c.slow"} {
			if !yield(p) {
				break
			}
		}
		return nil
	}
	caller := goroutineID()
	var lines []string
	err := VerifyEach(files, &Options{}, 3, func(r VerifyResult) {
		if id := goroutineID(); id != caller {
			t.Errorf("%s line %d emitted on goroutine %s, not the caller's %s", r.Path, r.Names, id, caller)
		}
		lines = append(lines, fmt.Sprint(r.Path, r.Names))
	})
	want := []string{"a.slow0", "a.slow1", "a.slow2", "a.slow3", "a.slow4", "b.slow0", "b.slow1", "b.slow2", "b.slow3", "b.slow4", "c.slow0", "c.slow1", "c.slow2", "c.slow3", "c.slow4"}
	if err != nil || !slices.Equal(lines, want) {
		t.Errorf("lines %q, %v; want %q", lines, err, want)
	}

	done := make(chan any)
	go func() {
		defer func() { done <- recover() }()
		n := 0
		VerifyEach(files, &Options{}, 3, func(r VerifyResult) {
			if n++; n == 3 {
				panic("emit failed")
			}
		})
	}()
	select {
	case x := <-done:
		if x != "emit failed" {
			t.Errorf("recovered %v, want the emit's panic", x)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a panic in emit did not reach VerifyEach's caller")
	}
}

// withVerifier registers check as the verifier of files with extension ext
// until the test ends.
func withVerifier(t *testing.T, ext string, check func(path string, emit func(VerifyResult))) {
	mu.Lock()
	saved := verifiers
	verifiers = append(slices.Clip(verifiers), func(path string, _ *Options, emit func(VerifyResult)) bool {
		if filepath.Ext(path) != ext {
			return false
		}
		check(path, emit)
		return true
	})
	mu.Unlock()
	t.Cleanup(func() {
		mu.Lock()
		verifiers = saved
		mu.Unlock()
	})
}
