// Package osfile opens the files the format readers read from disk: a file
// with its size, and sets of companion files (a package's .uexp/.ubulk, a
// container's .ucas partitions) opened on demand and closed together.
package osfile

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// Open opens name for reading and returns it with its size. Anything but a
// regular file is an error, so that readers never see a directory or a
// device as an empty file. A named pipe is opened without waiting for a
// writer (which would hang: readers need the size, which a pipe does not
// have).
func Open(name string) (*os.File, int64, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if err := CheckRegular(name, st.Mode()); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// CheckRegular returns the error Open gives for the file name of mode m
// when it is not a regular file: "is a directory", or "not a regular file"
// saying what it is.
func CheckRegular(name string, m os.FileMode) error {
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s: is a directory", name)
	}
	what := "special file"
	switch {
	case m&os.ModeNamedPipe != 0:
		what = "named pipe"
	case m&os.ModeSocket != 0:
		what = "socket"
	case m&os.ModeCharDevice != 0:
		what = "character device"
	case m&os.ModeDevice != 0:
		what = "block device"
	}
	return fmt.Errorf("%s: not a regular file (a %s)", name, what)
}

// MaxWhole is the largest file [OpenWhole] reads into memory at once.
// Package files are mostly a few KiB to a few MiB and are read through
// nearly whole by verify; one read instead of one per header window and
// export keeps the system calls down, and a few MiB per worker is cheap.
const MaxWhole = 8 << 20

// OpenWhole is [Open] that reads a file of at most MaxWhole bytes into
// memory and closes it (closer is then nil); a bigger file stays open, and
// closer closes it. The memory form is a [binread.Mem], which readers
// slice without copying.
func OpenWhole(name string) (r io.ReaderAt, size int64, closer io.Closer, err error) {
	f, size, err := Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	return Whole(f, name, size)
}

// Whole is [OpenWhole] of the file f opened as name, of size bytes (from
// [Open]); it takes f over.
func Whole(f *os.File, name string, size int64) (r io.ReaderAt, _ int64, closer io.Closer, err error) {
	if size > MaxWhole {
		return f, size, f, nil
	}
	defer f.Close()
	b := make([]byte, size)
	if n, err := f.ReadAt(b, 0); int64(n) != size {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, 0, nil, fmt.Errorf("%s: %w", name, err)
	}
	return binread.Mem(b), size, nil, nil
}

// WholeOpener is the signature of [OpenWhole]: a program may put another
// in its place (the CLI maps files into memory instead of reading them).
type WholeOpener func(name string) (r io.ReaderAt, size int64, closer io.Closer, err error)

// Set is a group of files opened on demand and closed together. It is safe
// for concurrent use.
type Set struct {
	mu    sync.Mutex
	files []io.Closer
	// Whole makes Open read files of at most MaxWhole bytes into memory
	// (see [OpenWhole]).
	Whole bool
	// OpenWhole, when set, replaces [OpenWhole] for Whole.
	OpenWhole WholeOpener
}

// Open opens name (see [Open]) and keeps it for [Set.Close].
func (s *Set) Open(name string) (io.ReaderAt, int64, error) {
	if s.Whole {
		open := s.OpenWhole
		if open == nil {
			open = OpenWhole
		}
		r, size, c, err := open(name)
		if err != nil || c == nil {
			return r, size, err
		}
		s.keep(c)
		return r, size, nil
	}
	f, size, err := Open(name)
	if err != nil {
		return nil, 0, err
	}
	s.keep(f)
	return f, size, nil
}

func (s *Set) keep(f io.Closer) {
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
}

// Close closes every file the set opened and returns the first error.
func (s *Set) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for _, f := range s.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	s.files = nil
	return first
}
