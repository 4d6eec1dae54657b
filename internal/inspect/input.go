package inspect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// OpenInput opens a package named on the command line: a file on disk, or
// "CONTAINER::/inner/path" for a package inside a registered container.
func OpenInput(name string, opts *Options) (*Input, error) {
	if c, inner, ok := SplitContainerPath(name); ok {
		fn := containerOpener(c)
		if fn == nil {
			return nil, fmt.Errorf("%s: no container format for %q (known: .utoc, .pak)", name, filepath.Ext(c))
		}
		return fn(c, inner, opts)
	}
	return OpenFile(name)
}

// OpenFile opens a package file on disk. Companions are looked up beside it
// with the same base name.
func OpenFile(name string) (*Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory", name)
	}
	var opened []*os.File
	in := &Input{Name: name, R: f, Size: st.Size()}
	base := strings.TrimSuffix(name, filepath.Ext(name))
	in.Sibling = func(ext string) (io.ReaderAt, int64, error) {
		sf, err := os.Open(base + ext)
		if err != nil {
			return nil, 0, err
		}
		sst, err := sf.Stat()
		if err != nil {
			sf.Close()
			return nil, 0, err
		}
		opened = append(opened, sf)
		return sf, sst.Size(), nil
	}
	in.Close = func() error {
		for _, s := range opened {
			s.Close()
		}
		return f.Close()
	}
	return in, nil
}

// BytesInput wraps in-memory files (the page's dropped files). files maps
// base file names to contents; name selects the main one.
func BytesInput(name string, files map[string][]byte) *Input {
	data := files[name]
	base := strings.TrimSuffix(name, filepath.Ext(name))
	return &Input{
		Name: name,
		R:    bytes.NewReader(data),
		Size: int64(len(data)),
		Sibling: func(ext string) (io.ReaderAt, int64, error) {
			for n, b := range files {
				if strings.EqualFold(n, base+ext) {
					return bytes.NewReader(b), int64(len(b)), nil
				}
			}
			return nil, 0, fmt.Errorf("%s%s: %w", base, ext, os.ErrNotExist)
		},
	}
}
