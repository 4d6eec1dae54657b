package inspect

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

func TestZZPak(t *testing.T) {
	defer TuneVerifyGC()()
	stop := make(chan bool)
	var peak uint64
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak {
					peak = m.HeapInuse
					f, _ := os.Create("/tmp/zzheap.pprof")
					pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
				}
			}
		}
	}()
	runtime.MemProfileRate = 4096
	n := 0
	VerifyPaths([]string{os.Getenv("ZZPAK")}, &Options{OpenWhole: benchOpenWhole}, 2, func(VerifyResult) { n++ })
	close(stop)
	t.Logf("results %d peak heap inuse %.1f MB", n, float64(peak)/1e6)
}
