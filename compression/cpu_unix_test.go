//go:build unix && !wasm

package compression_test

import "syscall"

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u.Utime.Nano() + u.Stime.Nano()
}
