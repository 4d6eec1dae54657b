package legacy

import (
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/upkg/upkg/internal/binread"
)

// UE3 compresses a package's chunks block by block, each block its own
// stream (128 KiB of output for the engine's compressor), so the blocks of
// a chunk, and of all the chunks of a package, expand independently of one
// another. A big package expands on every core: up to GOMAXPROCS
// goroutines share its blocks (expandAll).

// blockJob is one block to expand: where its compressed bytes lie (b) and
// the bytes it expands to (dst).
type blockJob struct {
	b   chunkBlock
	dst []byte
	// block is the block's index in its chunk, for errors.
	block int
}

// parallelMinShare is the least output a goroutine of expandAll is given
// to expand: one UE3 block, 0.2 to 2 ms of work depending on the codec,
// against a few microseconds to start a goroutine. A chunk of one block
// expands on the caller alone. (A variable for the tests.)
var parallelMinShare int64 = 128 << 10

// expandAll expands every job with method, on up to GOMAXPROCS goroutines
// when the jobs add up to more than parallelMinShare per goroutine. It
// returns the index of the first job (in the slice's order) that failed,
// and its error, or -1 and nil: the outcome of expanding them one after
// the other, which stops at the first failure, whatever order the
// goroutines met failures in.
//
// A panic while expanding a job (a memory fault on a mapped file that was
// cut short, for one) counts as that job's failure: when it is the first,
// it is raised again on the caller once every goroutine has stopped.
// Helping goroutines fault as the caller does (debug.SetPanicOnFault), so
// callers that recover from such faults still do. Nothing writes into a
// job's dst after expandAll returns or panics.
func expandAll(r io.ReaderAt, size int64, method string, jobs []blockJob) (int, error) {
	var total, biggest int64
	for _, j := range jobs {
		total += j.b.uncomp
		biggest = max(biggest, j.b.comp)
	}
	workers := int(min(int64(runtime.GOMAXPROCS(0)), int64(len(jobs)), total/parallelMinShare))
	if m, ok := r.(binread.Mem); !ok || int64(len(m)) < size {
		// Each goroutine reads its blocks into a buffer of its own: no
		// more of them than rawBudget holds of the biggest block (the
		// chunks of a crafted file may all claim the same huge range).
		workers = int(min(int64(workers), max(rawBudget/max(biggest, 1), 1)))
	}
	if workers < 2 {
		buf := rawBufs.Get().(*[]byte)
		defer rawBufs.Put(buf)
		for k := range jobs {
			if err := expandJob(r, size, method, &jobs[k], buf); err != nil {
				return k, err
			}
		}
		return -1, nil
	}
	errs := make([]error, len(jobs))
	panics := make([]any, len(jobs))
	var next atomic.Int64
	// first is the lowest index that failed so far: jobs after it are
	// skipped, jobs before it still run (one of them may fail too). Jobs
	// are taken in order, so when all goroutines have stopped every job
	// before first has run.
	var first atomic.Int64
	first.Store(math.MaxInt64)
	fail := func(k int64) {
		for {
			old := first.Load()
			if k >= old || first.CompareAndSwap(old, k) {
				return
			}
		}
	}
	run := func() {
		k := int64(-1)
		defer func() {
			if p := recover(); p != nil {
				panics[k] = p
				fail(k)
			}
		}()
		buf := rawBufs.Get().(*[]byte)
		defer rawBufs.Put(buf)
		for {
			k = next.Add(1) - 1
			if k >= int64(len(jobs)) || k > first.Load() {
				return
			}
			if err := expandJob(r, size, method, &jobs[k], buf); err != nil {
				errs[k] = err
				fail(k)
			}
		}
	}
	fault := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(fault)
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(func() {
			debug.SetPanicOnFault(fault)
			run()
		})
	}
	run()
	wg.Wait()
	k := first.Load()
	switch {
	case k == math.MaxInt64:
		return -1, nil
	case panics[k] != nil:
		panic(panics[k])
	}
	return int(k), errs[k]
}

// rawBudget bounds the compressed bytes the goroutines of one expandAll
// hold at once when the package is not in memory (UE3 blocks are at most a
// few hundred KiB as stored).
const rawBudget = 8 << 20

// rawBufs keeps the buffers blocks' compressed bytes are read into when
// the package is not in memory (blockBytes), from one expansion to the
// next.
var rawBufs = sync.Pool{New: func() any { return new([]byte) }}

// expandJob expands one job, reading its compressed bytes into *buf when
// r is not in memory.
func expandJob(r io.ReaderAt, size int64, method string, j *blockJob, buf *[]byte) error {
	src, err := blockBytes(r, size, j.b, buf)
	if err != nil {
		return err
	}
	return decompressBlock(method, j.dst, src, j.b.off, j.block)
}
