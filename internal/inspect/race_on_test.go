//go:build race

package inspect

// raceEnabled: the race detector's bookkeeping allocates, so tests that
// bound allocations only report them.
const raceEnabled = true
