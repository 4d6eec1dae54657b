//go:build !unix && !wasm

package compression_test

// cpuTime is not measured here; benchmarks then report 0 CPU time.
func cpuTime() int64 { return 0 }
