//go:build linux

package inspect

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestHintHugeHeap checks that the huge page hint lands on the heap range
// hintHugeHeap reports: every mapping of it is marked "hg" (VM_HUGEPAGE)
// in /proc/self/smaps, and mappings there add up to at least the block.
func TestHintHugeHeap(t *testing.T) {
	if !thpMadvise() {
		t.Skip("transparent huge pages are not in madvise mode here: nothing to hint")
	}
	const n = 8 << 20
	lo, hi, err := hintHugeHeap(n)
	if err != nil && !errors.Is(err, syscall.ENOMEM) { // ENOMEM: a hole in the rounded range
		t.Fatalf("madvise: %v", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	var covered uintptr
	var cur struct {
		lo, hi uintptr
		in     bool
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if r, _, ok := strings.Cut(line, " "); ok && strings.Contains(r, "-") && !strings.HasSuffix(r, ":") {
			a, b, _ := strings.Cut(r, "-")
			x, err1 := strconv.ParseUint(a, 16, 64)
			y, err2 := strconv.ParseUint(b, 16, 64)
			if err1 == nil && err2 == nil {
				cur.lo, cur.hi = max(uintptr(x), lo), min(uintptr(y), hi)
				cur.in = cur.lo < cur.hi
				continue
			}
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && cur.in {
			if !strings.Contains(" "+flags+" ", " hg ") {
				t.Errorf("mapping %#x-%#x of the hinted range %#x-%#x has no hg flag: %s", cur.lo, cur.hi, lo, hi, flags)
			}
			covered += cur.hi - cur.lo
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if covered < n {
		t.Errorf("hinted mappings cover %d bytes of %#x-%#x, want at least %d", covered, lo, hi, n)
	}
}
