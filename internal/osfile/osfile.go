// Package osfile opens the files the format readers read from disk: a file
// with its size, and sets of companion files (a package's .uexp/.ubulk, a
// container's .ucas partitions) opened on demand and closed together.
package osfile

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// Open opens name for reading and returns it with its size. A directory is an
// error, so that readers never see one as an empty file.
func Open(name string) (*os.File, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if st.IsDir() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: is a directory", name)
	}
	return f, st.Size(), nil
}

// Set is a group of files opened on demand and closed together. It is safe
// for concurrent use.
type Set struct {
	mu    sync.Mutex
	files []*os.File
}

// Open opens name (see [Open]) and keeps it for [Set.Close].
func (s *Set) Open(name string) (io.ReaderAt, int64, error) {
	f, size, err := Open(name)
	if err != nil {
		return nil, 0, err
	}
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
	return f, size, nil
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
