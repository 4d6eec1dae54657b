package inspect

import (
	"fmt"
	"io"
	"path/filepath"
)

// EntryOpener is implemented by containers that can stream entry i of
// Entries() with its stored hash checked as the data is read (the final
// Read fails instead of returning io.EOF on a mismatch). Extraction uses it
// to verify while writing; containers without it are read through fs.FS
// and checked with VerifyEntry afterwards.
type EntryOpener interface {
	EntryReader(i int) (io.ReadCloser, error)
}

// DataErrer is implemented by containers that can tell, once open, that
// none of their data can be read (an IoStore .utoc without its .ucas).
type DataErrer interface {
	DataErr() error
}

// OpenContainer opens a container file of any registered kind.
func OpenContainer(name string, opts *Options) (Container, error) {
	cf, ok := ContainerFormatFor(name)
	if !ok {
		return nil, fmt.Errorf("%s: not a container upkg knows (by extension %q; known: .utoc, .pak)", name, filepath.Ext(name))
	}
	if opts == nil {
		opts = &Options{}
	}
	return cf.Open(name, opts)
}

// EntryFinder is implemented by containers that also know other spellings
// of a stored path (a pak's path with its mount point as stored, or
// relative to it). It returns the index into Entries().
type EntryFinder interface {
	FindEntry(name string) (int, bool)
}
