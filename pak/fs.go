package pak

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// This file is the io/fs view of a pak, shaped like archive/zip's: files by
// their mount-point-applied names, directories synthesized from the paths.

// dirTree holds the directories implied by the file names.
type dirTree struct {
	dirs map[string][]string // directory -> sorted child names (base names)
}

func (p *Reader) dirs() *dirTree {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tree != nil {
		return p.tree
	}
	t := &dirTree{dirs: map[string][]string{".": nil}}
	children := map[string]map[string]bool{".": {}}
	add := func(dir, child string) {
		m := children[dir]
		if m == nil {
			m = map[string]bool{}
			children[dir] = m
		}
		m[child] = true
	}
	for _, name := range p.Names() {
		for {
			dir, base := path.Split(name)
			dir = strings.TrimSuffix(dir, "/")
			if dir == "" {
				dir = "."
			}
			add(dir, base)
			if dir == "." {
				break
			}
			name = dir
		}
	}
	for dir, m := range children {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.StringSlice(names).Sort() // not slices.Sort: one generic instantiation less in the WebAssembly
		t.dirs[dir] = names
	}
	p.tree = t
	return t
}

// Open opens the named file or directory (fs.FS).
func (p *Reader) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := p.lookupFS(name); ok {
		return &file{e: e}, nil
	}
	if _, ok := p.dirs().dirs[name]; ok {
		return &dir{p: p, name: name}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// Stat returns file information (fs.StatFS).
func (p *Reader) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := p.lookupFS(name); ok {
		return fileInfo{e: e}, nil
	}
	if _, ok := p.dirs().dirs[name]; ok {
		return dirInfo{name: path.Base(name)}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists a directory (fs.ReadDirFS).
func (p *Reader) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	children, ok := p.dirs().dirs[name]
	if !ok {
		if _, isFile := p.lookupFS(name); isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return p.dirEntries(name, children), nil
}

// ReadFile reads a whole file (fs.ReadFileFS).
func (p *Reader) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	e, ok := p.lookupFS(name)
	if !ok {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrNotExist}
	}
	return e.Data()
}

func (p *Reader) dirEntries(name string, children []string) []fs.DirEntry {
	out := make([]fs.DirEntry, 0, len(children))
	for _, c := range children {
		full := c
		if name != "." {
			full = name + "/" + c
		}
		if e, ok := p.lookupFS(full); ok {
			out = append(out, fs.FileInfoToDirEntry(fileInfo{e: e}))
		} else {
			out = append(out, fs.FileInfoToDirEntry(dirInfo{name: c}))
		}
	}
	return out
}

type fileInfo struct{ e *Entry }

func (i fileInfo) Name() string       { return path.Base(i.e.Name) }
func (i fileInfo) Size() int64        { return i.e.UncompressedSize }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return i.e }

type dirInfo struct{ name string }

func (i dirInfo) Name() string       { return i.name }
func (i dirInfo) Size() int64        { return 0 }
func (i dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (i dirInfo) ModTime() time.Time { return time.Time{} }
func (i dirInfo) IsDir() bool        { return true }
func (i dirInfo) Sys() any           { return nil }

// file is an open regular file.
type file struct {
	e  *Entry
	rc io.ReadCloser
	br *BlockReader // made by the first ReadAt
}

func (f *file) Stat() (fs.FileInfo, error) { return fileInfo{e: f.e}, nil }

func (f *file) Read(b []byte) (int, error) {
	if f.rc == nil {
		rc, err := f.e.Open()
		if err != nil {
			return 0, err
		}
		f.rc = rc
	}
	return f.rc.Read(b)
}

// ReadAt reads the entry at any offset through a BlockReader, which
// decodes only the compression blocks the read reaches (io.ReaderAt).
func (f *file) ReadAt(b []byte, off int64) (int, error) {
	if f.br == nil {
		br, err := f.e.BlockReader()
		if err != nil {
			return 0, err
		}
		f.br = br
	}
	return f.br.ReadAt(b, off)
}

func (f *file) Close() error {
	if f.br != nil {
		f.br.Close() // stops its decoding ahead
	}
	if f.rc != nil {
		return f.rc.Close()
	}
	return nil
}

// dir is an open directory.
type dir struct {
	p       *Reader
	name    string
	entries []fs.DirEntry
	off     int
	loaded  bool
}

func (d *dir) Stat() (fs.FileInfo, error) {
	if d.name == "." {
		return dirInfo{name: "."}, nil
	}
	return dirInfo{name: path.Base(d.name)}, nil
}

func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}

func (d *dir) Close() error { return nil }

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.loaded {
		d.entries = d.p.dirEntries(d.name, d.p.dirs().dirs[d.name])
		d.loaded = true
	}
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}
