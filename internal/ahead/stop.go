package ahead

import (
	"runtime"
	"sync"
)

// Stop holds a reader's decoding ahead, A, and stops it once: when the
// reader ends, fails or is closed (Stop), or, for a reader dropped part
// way, when the reader is collected.
type Stop[A any] struct {
	A       A
	once    sync.Once
	stop    func(A)
	cleanup runtime.Cleanup
}

// NewStop returns the Stop of a, which stop stops, for the reader owner
// (neither a nor stop may keep owner reachable).
func NewStop[T, A any](owner *T, a A, stop func(A)) *Stop[A] {
	s := &Stop[A]{A: a, stop: stop}
	s.cleanup = runtime.AddCleanup(owner, (*Stop[A]).run, s)
	return s
}

func (s *Stop[A]) run() { s.once.Do(func() { s.stop(s.A) }) }

// Stop stops the decoding (the first call does) and waits for it as stop
// does.
func (s *Stop[A]) Stop() {
	s.cleanup.Stop()
	s.run()
}
