package inspect

import (
	"bytes"
	"io"
	"sync"
	"sync/atomic"
	"testing"
)

// TestAfterBytes checks that afterBytes calls its function exactly once,
// when the files opened reach the byte count (opens racing), and not for
// files that fail to open or before the count is reached.
func TestAfterBytes(t *testing.T) {
	const size = 1000
	open := func(name string) (io.ReaderAt, int64, io.Closer, error) {
		if name == "missing" {
			return nil, 0, nil, io.ErrUnexpectedEOF
		}
		return bytes.NewReader(nil), size, io.NopCloser(nil), nil
	}
	for _, tc := range []struct {
		files, missing int
		n              int64
		want           int32
	}{
		{files: 0, missing: 50, n: 1, want: 0},
		{files: 9, missing: 50, n: 10 * size, want: 0},
		{files: 10, missing: 50, n: 10 * size, want: 1},
		{files: 200, missing: 50, n: 10*size + 1, want: 1},
		{files: 200, n: 1, want: 1},
	} {
		var calls atomic.Int32
		o := afterBytes(open, tc.n, func() { calls.Add(1) })
		var wg sync.WaitGroup
		for i := range tc.files + tc.missing {
			wg.Go(func() {
				name := "file"
				if i < tc.missing {
					name = "missing"
				}
				o(name)
			})
		}
		wg.Wait()
		if got := calls.Load(); got != tc.want {
			t.Errorf("%d files of %d bytes (and %d missing), n=%d: called %d times, want %d", tc.files, size, tc.missing, tc.n, got, tc.want)
		}
	}
}
