//go:build !unix

package oodle_test

// cpuNanos is not measured here; benchmarks then report no CPU metrics.
func cpuNanos() int64 { return 0 }
