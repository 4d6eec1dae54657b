// Package fscall makes the file system calls of verify's walk and file
// reads in one of two ways: as package syscall makes them (Blocking), or
// without telling the Go scheduler (Direct).
//
// A call made as package syscall makes it lends out its processor (P):
// when the call lasts past a tick of the runtime's monitor (20 µs at its
// fastest), the monitor hands the P to another thread, which the calling
// thread must win back, or park, when the call returns. That is right for
// calls that wait (a network file system, a cold disk). Verify's calls
// mostly do not wait: they list and open folders and files the page cache
// holds. But a folder listing on ext4 (a hash-ordered tree built per
// call) or a 64 KiB read takes 20-80 µs of processor time, long enough to
// be handed off: each hand-off wakes a thread to compete for processors
// that are all busy, parks another, and keeps the monitor polling at its
// fastest. The busier the host, the longer the calls and the more
// hand-offs.
//
// Measured on whole-corpus verify (2-core KVM guest, 500 rounds, each
// timing both ways back to back): direct calls cut the hand-off churn
// (context switches, median per run: 311 -> 197) and make the run 0.8 ms
// faster at the median (faster in 274 of 500 rounds). In the third of the
// rounds where the host was busiest they make it 6.3 ms (4%) faster
// (faster in 105 of 167); when it is calm they change nothing measurable.
//
// A direct call holds its P while it waits, as a page fault on a mapped
// file does (verify reads most bytes that way already). So Direct is for
// callers that run no more goroutines making calls than processors:
// ForWorkers picks it then. With more workers than processors (verify -j
// above the core count, to overlap waits on slow storage) calls are
// Blocking, and a waiting call frees its P for another worker. mmap and
// munmap are left to package syscall either way: they take the address
// space lock, which the other threads' page faults hold, and may wait.
//
// Calls are made directly on Linux for amd64 and arm64; elsewhere both
// modes make them as package syscall does.
package fscall

import "runtime"

// Mode is how calls are made.
type Mode bool

const (
	Blocking Mode = false // as package syscall: the P is handed off during long calls
	Direct   Mode = true  // the calling thread keeps its P
)

// ForWorkers returns the mode for a pool of n goroutines making calls:
// Direct when n is at most GOMAXPROCS, else Blocking.
func ForWorkers(n int) Mode {
	return Mode(n <= runtime.GOMAXPROCS(0))
}
