package inspect

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/upkg/upkg/compression"
)

// keptErrors is how many errors of a kind a container's line names.
const keptErrors = 3

// firstErrors counts the failures of one kind among a container's
// entries, keeping the errors of the lowest-numbered ones: all a
// container's line names. Entries may be added in any order. A container
// cut short can fail every entry, and keeping every error took hundreds of
// bytes an entry.
type firstErrors struct {
	n     int
	index [keptErrors]int32
	err   [keptErrors]error
}

// add counts the failure of entry i.
func (e *firstErrors) add(i int32, err error) {
	kept := min(e.n, keptErrors)
	e.n++
	if kept == keptErrors {
		if i >= e.index[kept-1] {
			return
		}
		kept-- // the highest kept one goes
	}
	// Insert in index order.
	j := kept
	for ; j > 0 && e.index[j-1] > i; j-- {
		e.index[j], e.err[j] = e.index[j-1], e.err[j-1]
	}
	e.index[j], e.err[j] = i, err
}

// kept returns how many errors are kept.
func (e *firstErrors) kept() int { return min(e.n, keptErrors) }

// list names the failures: the kept ones as name gives them, in index
// order, then how many more there are.
func (e *firstErrors) list(name func(i int32, err error) string) string {
	items := make([]string, e.kept())
	for k := range items {
		items[k] = name(e.index[k], e.err[k])
	}
	return someOf(items, e.n)
}

// someOf joins the first items of n, saying how many more there are.
func someOf(items []string, n int) string {
	s := strings.Join(items, ", ")
	if n > len(items) {
		s += fmt.Sprintf(", and %d more", n-len(items))
	}
	return s
}

// chunkFailures records which chunks of a container fail their checks, for
// the goroutines that share them: a flag each (a chunk fails once, however
// many checks read it), and the first errors of the chunks whose
// compression method is not supported and of the others.
type chunkFailures struct {
	mu          sync.Mutex
	failed      []bool
	n           int
	unsupported firstErrors
	other       firstErrors
}

func newChunkFailures(chunks int) *chunkFailures {
	return &chunkFailures{failed: make([]bool, chunks)}
}

// add records err, when not nil, for chunk i.
func (c *chunkFailures) add(i int, err error) {
	if err == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed[i] {
		return
	}
	c.failed[i] = true
	c.n++
	if isUnsupported(err) {
		c.unsupported.add(int32(i), err)
	} else {
		c.other.add(int32(i), err)
	}
}

// isUnsupported reports whether err is a compression method not supported.
func isUnsupported(err error) bool {
	var ue *compression.UnsupportedError
	return errors.As(err, &ue)
}

// sharedDataLimit bounds the export bytes decoded from a package of size
// bytes: twice its size and 64 MiB. The engine gives each export bytes of
// its own; exports of a crafted package pointing at the same bytes would
// have them decoded again for each.
func sharedDataLimit(size int64) int64 { return 2*size + 64<<20 }

// exportBudget applies sharedDataLimit to the exports of one package,
// counting each export once however often it is decoded (a page decodes
// them again as they are shown): an export may be decoded when the exports
// first decoded up to it stay within the limit. Its user serializes calls.
type exportBudget struct {
	state          []uint8 // per export: 0 not yet decoded, 1 allowed, 2 refused
	decoded, limit int64
}

func newExportBudget(exports int, size int64) *exportBudget {
	return &exportBudget{state: make([]uint8, exports), limit: sharedDataLimit(size)}
}

// allow reports whether export i, of size bytes, may be decoded.
func (b *exportBudget) allow(i int, size int64) bool {
	if i < 0 || i >= len(b.state) {
		return true // (the decode says what is wrong)
	}
	if b.state[i] == 0 {
		b.decoded += max(size, 0)
		b.state[i] = 1
		if b.decoded > b.limit {
			b.state[i] = 2
		}
	}
	return b.state[i] == 1
}

// errSharedData reports exports past sharedDataLimit.
var errSharedData = errors.New("the exports decoded up to it span more than twice the package's bytes and 64 MiB (exports share data): not decoded")
