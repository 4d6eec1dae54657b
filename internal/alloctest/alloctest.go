// Package alloctest bounds what reading hostile input may allocate, for
// the fuzz targets and truncation sweeps of the readers: whatever a file's
// header fields claim, reading n bytes of it may allocate at most Ratio×n
// bytes plus Slack. A buffer sized by a lying field before it was checked
// against the input (the bug this catches) is far above that.
package alloctest

import (
	"runtime"
	"testing"
)

const (
	// Ratio is how many bytes a read may allocate per input byte: the
	// decoded model of a file takes several times its size.
	Ratio = 16
	// Slack is what a read may allocate whatever its input's size: the
	// tables, maps and pools of a tiny file fit in it.
	Slack = 8 << 20
)

// Check runs fn, which reads n bytes of input, and fails t when it
// allocated more than Ratio×n + Slack bytes. The count covers every
// goroutine of the process: fn should run alone. Under the race detector
// fn only runs.
func Check(t testing.TB, n int, fn func()) {
	t.Helper()
	if race {
		fn()
		return
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(Ratio*n+Slack) {
		t.Fatalf("%d input bytes allocated %d bytes", n, grew)
	}
}
