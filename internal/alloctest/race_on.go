//go:build race

package alloctest

// race: the race detector's own bookkeeping shows in the allocation
// counts, so Check does not bound them.
const race = true
