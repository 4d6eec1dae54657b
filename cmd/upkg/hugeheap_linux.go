package main

import (
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms upkg is
// built for (x86-64, arm64 with 4 KiB pages).
const hugePage = 2 << 20

// madvHugePage is MADV_HUGEPAGE (the syscall package does not name it).
const madvHugePage = 14

// reserveHugeHeap grows the Go heap by n bytes up front and asks the kernel
// to back that range with transparent huge pages, for a command that fills
// a heap of about that size with short-lived data once (verify).
//
// Every page of fresh heap otherwise costs a page fault when first
// written: verify of the shared corpus took about 8,000 of them per run,
// 12% of its CPU time in the kernel, zeroing included. Most machines run
// transparent huge pages in "madvise" mode, and the Go runtime no longer
// asks for them (since Go 1.21.1), so the heap gets none unless its range
// is marked: then one fault maps 2 MiB.
//
// The heap is grown by one n-byte object, dropped at once; the collection
// that frees it starts with the next allocations and runs beside them (a
// blocking runtime.GC here cost 1-2 ms of wall time before any work), and
// the runtime hands those pages out again before it grows further. Where
// huge pages are off ("never") the madvise changes nothing.
func reserveHugeHeap(n int) {
	// No collection while the object is live: it would free nothing.
	pct := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(pct)
	b := make([]byte, n)
	// The whole huge pages inside b.
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((hugePage - p%hugePage) % hugePage)
	hi := lo + (n-lo)/hugePage*hugePage
	if hi > lo {
		// An error (an old kernel, THP compiled out) leaves the
		// pages as they are.
		syscall.Madvise(b[lo:hi], madvHugePage)
	}
	runtime.KeepAlive(b)
}
