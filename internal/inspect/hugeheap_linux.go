//go:build linux

package inspect

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

// hugeHeapBytes is how much heap prepareHugeHeap asks huge pages for: the
// peak heap of a verify pass over the corpus (32 MB at VerifyGCPercent).
// 24, 40 and 48 MiB measured the same within noise; more than about 48
// MiB keeps free pages past VerifyMemoryLimit's reach, which the
// scavenger then hands back.
const hugeHeapBytes = 32 << 20

// hugePage is the size of a transparent huge page with 4 KiB base pages
// (x86-64, arm64 with 4K granules). With larger base pages huge pages are
// larger too, and the hint below still starts and ends on a page.
const hugePage = 2 << 20

// prepareHugeHeap lets the first hugeHeapBytes of heap that verify fills
// be backed by transparent huge pages on a kernel whose THP mode is
// "madvise" (many distributions' default). There the Go heap gets 4 KiB
// pages only, since the runtime no longer asks for huge ones (Go 1.21.1
// on), and a verify pass over the corpus faults in some 7k pages of fresh
// heap, each a trip into the kernel, some with an interrupt to flush the
// other processors' TLBs. In "always" mode the kernel does this by
// itself; in "never" it cannot.
//
// Measured on a 2-core AMD EPYC VM in "madvise" mode, one `upkg verify`
// of the corpus: page faults 10.4-11.6k -> 2.8-2.9k; processor time
// 211-235 -> 200-211 ms; wall time 0.92-0.95 times as long (3 runs of 31
// alternated rounds, 24-48 MiB). Switching the machine to "always" gave
// 2.1k faults and 0.89 times the wall time (the runtime's own metadata
// gets huge pages then too). Peak RSS grows by 2-4 MB.
//
// The runtime maps its heap in pieces as it grows, each a new mapping
// without the hint, so the hint must come after the mapping and before
// the pages are touched: one allocation of hugeHeapBytes makes the
// runtime map that much heap at once without touching it (fresh memory is
// known to be zero), the hint goes on that range, and a collection frees
// the block, whose pages verify's allocations then reuse, each 2 MiB
// faulted in whole on first touch. That collection, of a heap of well
// under a megabyte before any work starts, is the cost (0.2-0.4 ms).
//
// GODEBUG=disablethp=1 (the runtime's own switch against huge pages)
// turns this off, as does a memory limit too small to hold the range.
func prepareHugeHeap() {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") || !thpMadvise() {
		return
	}
	if debug.SetMemoryLimit(-1) < 2*hugeHeapBytes {
		return
	}
	hintHugeHeap(hugeHeapBytes)
}

// hintHugeHeap allocates n bytes of heap, asks for huge pages over them
// (the range rounded out to whole huge pages), frees them with a
// collection and returns the range the hint covered.
func hintHugeHeap(n uintptr) (lo, hi uintptr, err error) {
	gc := debug.SetGCPercent(-1) // no cycle while the block is live
	b := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo = start &^ (hugePage - 1)
	hi = (start + n + hugePage - 1) &^ (hugePage - 1)
	// Rounding out reaches at most into the heap just below and above
	// the block, or into address space not mapped yet (madvise skips it
	// and returns ENOMEM); the hint changes nothing but the page size.
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
	if e != 0 {
		err = e
	}
	runtime.KeepAlive(b)
	b = nil
	debug.SetGCPercent(gc)
	runtime.GC()
	return lo, hi, err
}

// thpMadvise reports whether the kernel's transparent huge page mode is
// "madvise" (the file lists the modes with the current one in brackets).
func thpMadvise() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(b), "[madvise]")
}
