package inspect

import (
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

// helpers lends a verify run's idle workers to the files being checked: a
// container's chunks and packages are many items that one worker would
// check alone, and a game's main .utoc or .pak holds most of its bytes. A
// worker helps only when the walk has no file for it, so while files
// remain, every worker keeps to its own.
type helpers struct {
	workers int
	// wake tells a waiting worker that there may be work to help with.
	wake chan struct{}

	mu     sync.Mutex
	active []*sharedWork // registered by shareWork, oldest first
}

// sharedWork is one call of shareWork that takes helpers.
type sharedWork struct {
	body    func(next func() (int, bool))
	next    func() (int, bool)
	left    func() bool // whether items remain
	helping int         // helpers that joined (at most workers-1)
	wg      sync.WaitGroup
	// panicked keeps the first panic of a helper's body.
	panicked atomic.Pointer[any]
	stop     func() // makes next report false from now on
}

// helpJoins counts the turns helpers took, for tests.
var helpJoins atomic.Int64

func newHelpers(workers int) *helpers {
	if workers < 2 {
		return nil
	}
	return &helpers{workers: workers, wake: make(chan struct{}, workers)}
}

// signal wakes a waiting worker; when none waits, the wake is kept for the
// next to wait (up to one per worker).
func (h *helpers) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// join picks a registered work that has items left and room for a helper,
// and counts the caller in; nil when there is none.
func (h *helpers) join() *sharedWork {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.active {
		if w.helping < h.workers-1 && w.left() {
			w.helping++
			w.wg.Add(1)
			helpJoins.Add(1)
			return w
		}
	}
	return nil
}

// help runs the bodies of registered works on the calling worker until
// none has items left for it. It reports whether it helped at all.
func (h *helpers) help() bool {
	helped := false
	for {
		w := h.join()
		if w == nil {
			return helped
		}
		helped = true
		// Another waiting worker may join too.
		h.signal()
		w.run()
	}
}

// run is a helper's turn at w's items.
func (w *sharedWork) run() {
	defer w.wg.Done()
	// Faults in mapped files panic here too (see VerifyPackage); the owner
	// decides what they become.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			w.panicked.CompareAndSwap(nil, &p)
			w.stop() // the others stop at their next item
		}
	}()
	w.body(w.next)
}

// shareWork runs body on the calling goroutine and, when verify has idle
// workers, on up to one per other worker as well; it returns once every
// body has returned. The bodies split n items between them: next hands out
// the indices 0 … n-1, each once, in order, and reports false when none is
// left. A body keeps its own scratch memory; what it writes for an index
// must not be shared with other indices.
//
// A panic in a helper's body is raised again on the calling goroutine once
// the others are done, as if the caller had made it: a memory fault in a
// mapped file becomes the container's error line, as when one worker
// checked it alone.
func shareWork(opts *Options, n int, body func(next func() (int, bool))) {
	var cursor atomic.Int64
	next := func() (int, bool) {
		i := cursor.Add(1) - 1
		if i >= int64(n) {
			return 0, false
		}
		return int(i), true
	}
	h := opts.helpers
	if h == nil || n < 2 {
		body(next)
		return
	}
	w := &sharedWork{
		body: body,
		next: next,
		left: func() bool { return cursor.Load() < int64(n) },
		stop: func() { cursor.Store(int64(n)) },
	}
	h.mu.Lock()
	h.active = append(h.active, w)
	h.mu.Unlock()
	h.signal()
	finished := false
	defer func() {
		if !finished {
			w.stop() // the caller's body panicked: the helpers stop too
		}
		// No helper joins once w is out of the list; then wait for those
		// that did.
		h.mu.Lock()
		if i := slices.Index(h.active, w); i >= 0 {
			h.active = slices.Delete(h.active, i, i+1)
		}
		h.mu.Unlock()
		w.wg.Wait()
		if p := w.panicked.Load(); p != nil && finished {
			panic(*p)
		}
	}()
	body(next)
	finished = true
}

// inOrder emits the lines of a container's packages, checked by several
// workers, in the order of their indices (0, 1, ...): the line of the next
// index goes out with the lines after it given already; only lines checked
// ahead of a slower one wait. It is safe for concurrent use.
type inOrder struct {
	emit    func(VerifyResult)
	mu      sync.Mutex
	waiting map[int]VerifyResult
	next    int
}

// put gives the line of index i.
func (o *inOrder) put(i int, r VerifyResult) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if i != o.next {
		if o.waiting == nil {
			o.waiting = map[int]VerifyResult{}
		}
		o.waiting[i] = r
		return
	}
	o.next++
	o.emit(r)
	for {
		r, ok := o.waiting[o.next]
		if !ok {
			return
		}
		delete(o.waiting, o.next)
		o.next++
		o.emit(r)
	}
}
