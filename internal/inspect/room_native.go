//go:build !wasm

package inspect

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapInUse is the heap's allocated bytes, live or not yet collected.
func heapInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// indexRoomMin is the least growth of the heap over a container's opening
// that roomForIndex makes room for.
const indexRoomMin = 16 << 20

// roomForIndex raises the soft memory limit TuneVerifyGCFor set by what
// the heap grew since before (heapInUse before a container was opened),
// until release is called: a container's index stays live while the
// container is checked (a .pak of 200,000 entries holds ~55 MB of it, one
// of 400,000 ~110 MB), and with the limit at or under it the collector ran
// back to back, freeing almost nothing (648 collections verifying a pak of
// 100,000 packages: 15-20 s, 4.4 s with no limit; 200,000: 84 s). The
// limit comes back down as the containers are done.
//
// Of a big growth only what a collection leaves counts: opening a .pak
// decodes each of its entries once, to check them, and drops them (400,000
// entries: 31 MB kept, 70 MB grown).
func roomForIndex(before int64) (release func()) {
	grown := heapInUse() - before
	tunedLimit.Lock()
	tuned := tunedLimit.base != 0
	tunedLimit.Unlock()
	if !tuned || grown < indexRoomMin {
		return func() {}
	}
	runtime.GC()
	grown = min(grown, heapInUse()) // (all that is live, other containers' included: at most)
	tunedLimit.Lock()
	defer tunedLimit.Unlock()
	if tunedLimit.base == 0 || grown < indexRoomMin {
		return func() {}
	}
	tunedLimit.extra += grown
	debug.SetMemoryLimit(tunedLimit.base + tunedLimit.extra)
	return func() {
		tunedLimit.Lock()
		defer tunedLimit.Unlock()
		tunedLimit.extra -= grown
		if tunedLimit.base != 0 {
			debug.SetMemoryLimit(tunedLimit.base + tunedLimit.extra)
		}
	}
}
