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
// 24, 40 and 48 MiB measured the same within noise.
const hugeHeapBytes = 32 << 20

// hugePage is the size of a transparent huge page with 4 KiB base pages
// (x86-64, arm64 with 4K granules). With larger base pages huge pages are
// larger too, and the hint below still starts and ends on a page.
const hugePage = 2 << 20

// prepareHugeHeap lets the next hugeHeapBytes of heap verify fills be
// backed by transparent huge pages on a kernel whose THP mode is
// "madvise" (many distributions' default). There the Go heap gets 4 KiB
// pages only, since the runtime no longer asks for huge ones (Go 1.21.1
// on), and a verify pass over the corpus faults in some 7k pages of fresh
// heap, each a trip into the kernel, some with an interrupt to flush the
// other processor's TLB. In "always" mode the kernel does this by itself;
// in "never" it cannot.
//
// The runtime maps its heap in pieces as it grows, each a new mapping
// without the hint, so the hint must come after the mapping and before
// the pages are touched: one allocation of hugeHeapBytes makes the
// runtime map that much heap at once without touching it (fresh memory is
// known to be zero), and the hint goes on that range. The block is dropped
// with collection off, so that the cycle its size sets off at once finds
// it dead; verify's allocations then reuse its pages, each 2 MiB faulted
// in whole on first touch.
//
// Measured on a 2-core AMD EPYC VM in "madvise" mode, `upkg verify` of
// the corpus against the same without the hint, 41 alternated rounds:
// 0.946 times the wall time asking at the start, 0.964 asking after 8 MiB
// of files (HugeHeapAfter); 31 rounds, 0.93 and 0.97. Switching the
// machine to "always" gave 0.89 (the runtime's own metadata gets huge
// pages then too). Peak RSS grows by 2-4 MB.
//
// GODEBUG=disablethp=1 (the runtime's own switch against huge pages)
// turns this off, as does a memory limit below VerifyMemoryLimit.
func prepareHugeHeap() {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") || !thpMadvise() {
		return
	}
	if debug.SetMemoryLimit(-1) < VerifyMemoryLimit {
		return
	}
	hintHugeHeap(hugeHeapBytes)
}

// hintHugeHeap allocates n bytes of heap, asks for huge pages over them
// (the range rounded out to whole huge pages) and drops them, and returns
// the range the hint covered. The next collection, which the block's size
// sets off unless collection is off, frees them.
func hintHugeHeap(n uintptr) (lo, hi uintptr, err error) {
	gc := debug.SetGCPercent(-1) // no cycle while the block is live
	defer debug.SetGCPercent(gc)
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
	return lo, hi, err
}

// thpMadvise reports whether the kernel's transparent huge page mode is
// "madvise" (the file lists the modes with the current one in brackets).
func thpMadvise() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(b), "[madvise]")
}
