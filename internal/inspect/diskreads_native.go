//go:build !wasm

package inspect

// diskReads: a file an Options names without a ReadFile to read it (a
// mappings file) is read from disk.
const diskReads = true
