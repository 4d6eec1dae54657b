package inspect

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/upkg/upkg/internal/osfile"
)

// hugeHeapAfterBytes is how many bytes of files verify opens before it
// asks for huge heap pages (see [HugeHeapAfter]). Asking costs about 1.3
// ms (an empty-folder run asking first thing took 4.6 ms instead of 3.3),
// which a run must earn back in page faults it saves, some 1 µs each, a
// thousand per 4 MB of fresh heap, and verify allocates about a third of
// the bytes it reads. On a whole-corpus pass the page faults left were
// 2.8-3.2k asking at the start, 3.9k after 1 MiB, 4.1-4.3k after 8 MiB and
// 5.9-6.2k after 16 MiB, of 10.4-11.6k not asking.
const hugeHeapAfterBytes = 8 << 20

// hugeHeapOnce runs prepareHugeHeap at most once per process (verify may
// run more than once in one).
var hugeHeapOnce sync.Once

// HugeHeapAfter returns open counting the bytes of the files it opens.
// Once they reach hugeHeapAfterBytes, the heap verify goes on to fill is
// given huge pages where the system must be asked for them
// (prepareHugeHeap, Linux only), once per process and for the rest of it.
// A small run never pays for it.
func HugeHeapAfter(open osfile.WholeOpener) osfile.WholeOpener {
	return afterBytes(open, hugeHeapAfterBytes, func() { hugeHeapOnce.Do(prepareHugeHeap) })
}

// afterBytes returns open calling fn once, from the open that brings the
// bytes of the files opened so far to n or more.
func afterBytes(open osfile.WholeOpener, n int64, fn func()) osfile.WholeOpener {
	var total atomic.Int64
	return func(name string) (io.ReaderAt, int64, io.Closer, error) {
		r, size, c, err := open(name)
		if err == nil && size > 0 && total.Load() < n {
			if sum := total.Add(size); sum >= n && sum-size < n {
				fn()
			}
		}
		return r, size, c, err
	}
}
