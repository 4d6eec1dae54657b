package inspect

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
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
	mu.Lock()
	saved := verifiers
	verifiers = append(slices.Clip(verifiers), func(path string, _ *Options, emit func(VerifyResult)) bool {
		if filepath.Ext(path) != ".many" {
			return false
		}
		for i := range n {
			emit(VerifyResult{Path: path, Names: i})
		}
		return true
	})
	mu.Unlock()
	defer func() {
		mu.Lock()
		verifiers = saved
		mu.Unlock()
	}()
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
