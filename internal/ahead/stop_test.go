package ahead

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestStop: Stop stops once however often it is called, and a reader
// dropped without it has its decoding stopped once it is collected.
func TestStop(t *testing.T) {
	var stops atomic.Int32
	stop := func(n *atomic.Int32) { n.Add(1) }
	owner := new([64]byte)
	s := NewStop(owner, &stops, stop)
	s.Stop()
	s.Stop()
	runtime.KeepAlive(owner)
	if n := stops.Load(); n != 1 {
		t.Fatalf("stopped %d times, want 1", n)
	}
	var dropped atomic.Int32
	func() {
		NewStop(new([64]byte), &dropped, stop)
	}()
	for k := 0; k < 100 && dropped.Load() == 0; k++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := dropped.Load(); n != 1 {
		t.Errorf("a dropped reader's decoding stopped %d times, want 1", n)
	}
}
