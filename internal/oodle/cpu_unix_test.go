//go:build unix

package oodle_test

import "syscall"

// cpuNanos is the CPU time (user and system) the process has used so far,
// so benchmarks can report CPU cost next to wall-clock time on a shared
// machine.
func cpuNanos() int64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return r.Utime.Nano() + r.Stime.Nano()
}
