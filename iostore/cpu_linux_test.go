//go:build linux

package iostore

import (
	"syscall"
	"testing"
)

// cpuTime returns the process's user+system CPU time in nanoseconds. The
// benchmarks report CPU per entry as well as wall time, because the machine
// they run on is shared and wall time there says little.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func init() { cpuNow = cpuTime }

var _ = testing.Short
