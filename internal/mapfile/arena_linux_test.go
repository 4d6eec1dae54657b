//go:build linux

package mapfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestArenaReuse maps more files than an arena holds, closing them in
// several orders, and checks that each read gives its own file's bytes,
// also from addresses an earlier, closed file had.
func TestArenaReuse(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{MinSize, MinSize + 1, 3 * MinSize, arenaMaxFile, 700 << 10, arenaMaxFile + 1}
	var names []string
	var want [][]byte
	for i := range 3 * arenaSize / MinSize / 4 {
		n := sizes[i%len(sizes)]
		b := bytes.Repeat([]byte(fmt.Sprintf("%07d|", i)), n/8+1)[:n]
		name := filepath.Join(dir, fmt.Sprintf("f%d.bin", i))
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		names, want = append(names, name), append(want, b)
	}
	type open struct {
		i int
		r io.ReaderAt
		c io.Closer
	}
	// check reads an open file's mapping again: later files, and resets of
	// the arena, must have left it alone.
	check := func(o open) {
		t.Helper()
		b := make([]byte, len(want[o.i]))
		if _, err := o.r.ReadAt(b, 0); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want[o.i]) {
			t.Fatalf("file %d: mapped bytes differ", o.i)
		}
	}
	for _, keep := range []int{1, 2, 5} { // files open at once
		var live []open
		for i, name := range names {
			r, size, c, err := OpenWhole(name)
			if err != nil {
				t.Fatal(err)
			}
			if size != int64(len(want[i])) {
				t.Fatalf("file %d: size %d", i, size)
			}
			live = append(live, open{i, r, c})
			for _, o := range live {
				check(o)
			}
			if len(live) > keep {
				// Close the oldest or the newest but one, by turns.
				j := 0
				if i%2 == 1 {
					j = len(live) - 2
				}
				if err := live[j].c.Close(); err != nil {
					t.Fatal(err)
				}
				live = append(live[:j], live[j+1:]...)
			}
		}
		for _, o := range live {
			check(o)
			o.c.Close()
		}
	}
	arenas.mu.Lock()
	defer arenas.mu.Unlock()
	if arenas.bad || arenas.a[0] == nil || arenas.a[1] == nil {
		t.Fatalf("arenas not used: %+v", arenas.a)
	}
	for i, a := range arenas.a {
		if a.live != 0 {
			t.Errorf("arena %d: %d files still counted open", i, a.live)
		}
	}
}
