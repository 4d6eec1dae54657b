package pak

import (
	"testing"

	"github.com/upkg/upkg/internal/ahead"
	"github.com/upkg/upkg/internal/ahead/aheadtest"
)

// DecodeAheadAlways makes every compressed entry of two blocks or more be
// decoded ahead, at most size bytes ahead, by goroutines on 4 processors
// all counted idle, until the test ends.
func DecodeAheadAlways(tb testing.TB, size int64) {
	aheadtest.AllIdle(tb)
	aheadtest.Set(tb, &parallelMinShare, 1)
	aheadtest.Set(tb, &aheadBytes, size)
}

// WithoutAhead runs f with every entry decoded by its reader alone.
func WithoutAhead(f func()) {
	old := parallelMinShare
	parallelMinShare = 1 << 62
	defer func() { parallelMinShare = old }()
	f()
}

// WithAhead runs f with every compressed entry of two blocks or more
// decoded ahead, at most size bytes ahead (blocks the slots can hold), on
// the processors there are, all counted idle.
func WithAhead(size int64, f func()) {
	oldShare, oldBytes, oldIdle := parallelMinShare, aheadBytes, ahead.IdleProcs
	parallelMinShare, aheadBytes = 1, size
	ahead.IdleProcs = func(procs int) int { return procs - 1 }
	defer func() { parallelMinShare, aheadBytes, ahead.IdleProcs = oldShare, oldBytes, oldIdle }()
	f()
}

// DecodesAhead reports whether the reader (an entry's stream or a
// BlockReader) decodes its entry ahead.
func DecodesAhead(rc any) bool {
	if br, ok := rc.(*BlockReader); ok {
		return br.blocks.DecodingAhead()
	}
	r, ok := rc.(*entryReader)
	return ok && r.ah != nil
}

// WithIndexStreamed runs f with every unencrypted index parsed as it is
// read (on) or read into memory first (!on), whatever its size.
func WithIndexStreamed(on bool, f func()) {
	old := streamIndexMin
	streamIndexMin = 1 << 62
	if on {
		streamIndexMin = -1
	}
	defer func() { streamIndexMin = old }()
	f()
}

// CheckNameHashes fails tb for each entry of r whose fs name's hash, as
// the name lookup's table makes it (dirHasher), differs from the hash of
// the name put together (fsNameOf).
func CheckNameHashes(tb testing.TB, r *Reader) {
	tb.Helper()
	var d dirHasher
	for i := range r.Len() {
		name, ok := r.fsNameOf(i)
		h, hok := d.hash(r, i)
		if ok != hok || ok && h != nameHash(name) {
			tb.Errorf("entry %d (%q, fs name %v): table hash %016x (%v), name hash %016x", i, r.Entry(i).Path, ok, h, hok, nameHash(name))
		}
	}
}
