//go:build !wasm

package inspect

import (
	"runtime/debug"
	"runtime/metrics"
)

// indexRoom is the memory roomForIndex leaves above the heap in use.
const indexRoom = 32 << 20

// roomForIndex raises the soft memory limit TuneVerifyGCFor set to the
// heap in use plus indexRoom, once a container's index is read: the index
// stays live while the container is checked (a .pak of 200,000 entries
// holds ~55 MB of it, one of 400,000 ~110 MB), and with a limit at or
// under it the collector ran back to back, freeing almost nothing (648
// collections verifying a pak of 100,000 packages: 15-20 s, 4.4 s with no
// limit; 200,000: 84 s). Peak memory then grows with the biggest index
// verified, as it must.
func roomForIndex() {
	tunedLimit.Lock()
	defer tunedLimit.Unlock()
	if tunedLimit.limit == 0 {
		return
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if want := int64(s[0].Value.Uint64()) + indexRoom; want > tunedLimit.limit {
		tunedLimit.limit = want
		debug.SetMemoryLimit(want)
	}
}
