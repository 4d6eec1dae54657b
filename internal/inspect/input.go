package inspect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/upkg/upkg/internal/osfile"
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
	var openWhole osfile.WholeOpener
	var dir *dirList
	if opts != nil {
		openWhole, dir = opts.OpenWhole, opts.dir
	}
	return openFile(name, openWhole, dir)
}

// OpenFile opens a package file on disk. Companions are looked up beside it
// with the same base name.
func OpenFile(name string) (*Input, error) { return openFile(name, nil, nil) }

// openFile is OpenFile with the package file and its companions opened
// by openWhole (nil: osfile.OpenWhole). Companions the listing dir of the
// file's folder (nil: none) does not have are not looked for on disk.
func openFile(name string, openWhole osfile.WholeOpener, dir *dirList) (*Input, error) {
	if openWhole == nil {
		openWhole = osfile.OpenWhole
	}
	// Package files and their companions are small and read nearly whole:
	// read them in one go (see osfile.OpenWhole).
	r, size, closer, err := openWhole(name)
	if err != nil {
		return nil, err
	}
	companions := osfile.Set{Whole: true, OpenWhole: openWhole}
	// Bulk data companions are mostly only looked up (uasset notes them);
	// they are not read whole on opening.
	bulk := osfile.Set{}
	base := strings.TrimSuffix(name, filepath.Ext(name))
	return &Input{
		Name: name,
		R:    r,
		Size: size,
		Sibling: func(ext string) (io.ReaderAt, int64, error) {
			name := base + ext
			if dir.absent(name) {
				// What opening it would return.
				return nil, 0, &os.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
			}
			switch ext {
			case ".ubulk", ".uptnl", ".m.ubulk":
				return bulk.Open(name)
			}
			return companions.Open(name)
		},
		Close: func() error {
			err := companions.Close()
			if err2 := bulk.Close(); err == nil {
				err = err2
			}
			if closer != nil {
				return closer.Close()
			}
			return err
		},
	}, nil
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
