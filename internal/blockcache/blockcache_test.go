package blockcache

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/upkg/upkg/internal/readertest"
)

// stream is a Reader over data in blocks of unit bytes, counting decodes.
func stream(data []byte, unit int64, decodes *int) *Reader {
	return &Reader{
		Size:   int64(len(data)),
		Locate: func(pos int64) (int64, int64) { return pos / unit, pos % unit },
		Decode: func(k int64, buf []byte) ([]byte, error) {
			*decodes++
			end := min((k+1)*unit, int64(len(data)))
			return append(buf[:0], data[k*unit:end]...), nil
		},
	}
}

func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>9)
	}
	return b
}

// TestReadAt reads a stream of 1000-byte blocks in every pattern
// readertest.Check makes, and reads it through in order: each block is
// decoded once, and a read within the two blocks read last decodes none.
func TestReadAt(t *testing.T) {
	data := testData(100_003)
	var decodes int
	r := stream(data, 1000, &decodes)
	readertest.Check(t, "stream", r, data)
	decodes = 0
	b := make([]byte, 300)
	for off := int64(0); off < r.Size; off += int64(len(b)) {
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			t.Fatal(err)
		}
	}
	if decodes != 101 {
		t.Errorf("reading through decoded %d blocks, want 101", decodes)
	}
	decodes = 0
	r.ReadAt(b, 99_000)
	r.ReadAt(b, 99_900)
	if decodes != 0 {
		t.Errorf("reads in the two blocks read last decoded %d", decodes)
	}
}

// TestShortBlock: a block that decodes to fewer bytes than Locate placed
// in it is an error, not a panic or a short read taken for the end.
func TestShortBlock(t *testing.T) {
	r := &Reader{
		Size:   5000,
		Locate: func(pos int64) (int64, int64) { return pos / 1000, pos % 1000 },
		Decode: func(k int64, buf []byte) ([]byte, error) { return make([]byte, 10), nil },
	}
	n, err := r.ReadAt(make([]byte, 100), 2500)
	if err == nil || !strings.Contains(err.Error(), "block 2 holds 10 bytes") {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
}

// TestConcurrent reads from several goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	data := testData(50_000)
	var decodes int
	r := stream(data, 4096, &decodes)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := make([]byte, 777)
			for off := int64(g * 100); off < r.Size-int64(len(b)); off += 1500 {
				if _, err := r.ReadAt(b, off); err != nil {
					t.Error(err)
					return
				}
				if string(b) != string(data[off:off+int64(len(b))]) {
					t.Errorf("read at %d differs", off)
					return
				}
			}
		}()
	}
	wg.Wait()
}
