package iostore

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// FS is an io/fs view of a container's directory index. Files read through
// it are decompressed and checked against the TOC's chunk hash.
type FS struct {
	f *File
	// files maps path → chunk, built on first use (see fileMap): a
	// container verified chunk by chunk never needs it.
	filesOnce sync.Once
	files     map[string]int

	dirOnce sync.Once
	dirs    map[string][]fs.DirEntry
}

// FS returns the container's files as an fs.FS. It fails when the
// directory index could not be read (encrypted without the right key).
func (f *File) FS() (*FS, error) {
	if f.DirectoryIndexErr != nil {
		return nil, f.DirectoryIndexErr
	}
	return &FS{f: f}, nil
}

// fileMap returns the map of paths to chunks.
func (fsys *FS) fileMap() map[string]int {
	fsys.filesOnce.Do(func() {
		d := fsys.f.DirectoryIndex
		if d == nil {
			fsys.files = map[string]int{}
			return
		}
		fsys.files = make(map[string]int, d.NumFiles())
		for _, fe := range d.Files() {
			if fe.Valid {
				fsys.files[fe.Path] = fe.Chunk
			}
		}
	})
	return fsys.files
}

// Chunk returns the TOC entry index of the file at name.
func (fsys *FS) Chunk(name string) (int, bool) {
	i, ok := fsys.fileMap()[name]
	return i, ok
}

func (fsys *FS) buildDirs() {
	fsys.dirs = map[string][]fs.DirEntry{".": nil}
	seen := map[string]bool{".": true}
	for p, chunk := range fsys.fileMap() {
		dir := path.Dir(p)
		fsys.dirs[dir] = append(fsys.dirs[dir], &dirEntry{info: fileInfo{name: path.Base(p), size: int64(fsys.f.OffsetLength(chunk).Length)}})
		for d := dir; !seen[d]; d = path.Dir(d) {
			seen[d] = true
			parent := path.Dir(d)
			fsys.dirs[parent] = append(fsys.dirs[parent], &dirEntry{info: fileInfo{name: path.Base(d), dir: true}})
			if _, ok := fsys.dirs[d]; !ok {
				fsys.dirs[d] = nil
			}
		}
	}
	for _, list := range fsys.dirs {
		sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	}
}

// Open implements fs.FS.
func (fsys *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if chunk, ok := fsys.fileMap()[name]; ok {
		return &chunkFile{fsys: fsys, chunk: chunk, info: fileInfo{name: path.Base(name), size: int64(fsys.f.OffsetLength(chunk).Length)}, name: name}, nil
	}
	fsys.dirOnce.Do(fsys.buildDirs)
	if list, ok := fsys.dirs[name]; ok {
		return &dirFile{info: fileInfo{name: path.Base(name), dir: true}, entries: list}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadFile implements fs.ReadFileFS (verifying the chunk hash).
func (fsys *FS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	chunk, ok := fsys.fileMap()[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return fsys.f.ReadChunkVerified(chunk)
}

// ReadDir implements fs.ReadDirFS.
func (fsys *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	fsys.dirOnce.Do(fsys.buildDirs)
	list, ok := fsys.dirs[name]
	if !ok {
		if _, isFile := fsys.fileMap()[name]; isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return append([]fs.DirEntry(nil), list...), nil
}

type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (fi fileInfo) Name() string { return fi.name }
func (fi fileInfo) Size() int64  { return fi.size }
func (fi fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return fi.dir }
func (fi fileInfo) Sys() any           { return nil }

type dirEntry struct{ info fileInfo }

func (d *dirEntry) Name() string               { return d.info.name }
func (d *dirEntry) IsDir() bool                { return d.info.dir }
func (d *dirEntry) Type() fs.FileMode          { return d.info.Mode().Type() }
func (d *dirEntry) Info() (fs.FileInfo, error) { return d.info, nil }

// chunkFile streams its chunk block by block (checking the hash at the
// end); Seek and ReadAt switch to random access, after checking the hash:
// the whole chunk in memory, or a chunk over wholeChunkMax through a
// ChunkReader (two compression blocks held at a time).
type chunkFile struct {
	fsys   *FS
	chunk  int
	name   string
	info   fileInfo
	stream io.ReadCloser
	pos    int64
	r      io.ReadSeeker
	ra     io.ReaderAt
	err    error
}

// wholeChunkMax is the size of the largest chunk a chunkFile reads into
// memory for Seek and ReadAt (a variable: tests lower it).
var wholeChunkMax int64 = 16 << 20

func (c *chunkFile) Stat() (fs.FileInfo, error) { return c.info, nil }

// Close stops the stream's decoding ahead, if one was started.
func (c *chunkFile) Close() error {
	if c.stream != nil {
		c.stream.Close()
	}
	if cr, ok := c.ra.(*ChunkReader); ok {
		cr.Close() // stops its decoding ahead
	}
	return nil
}

func (c *chunkFile) load() error {
	if c.r != nil || c.err != nil {
		return c.err
	}
	f := c.fsys.f
	if c.stream != nil {
		c.stream.Close() // random access from now on
	}
	if c.info.size <= wholeChunkMax {
		data, err := f.ReadChunkVerified(c.chunk)
		if err != nil {
			c.err = &fs.PathError{Op: "read", Path: c.name, Err: err}
			return c.err
		}
		br := bytes.NewReader(data)
		c.r, c.ra = br, br
	} else {
		if err := f.VerifyChunk(c.chunk); err != nil {
			c.err = &fs.PathError{Op: "read", Path: c.name, Err: err}
			return c.err
		}
		cr, err := f.ChunkReader(c.chunk)
		if err != nil {
			c.err = &fs.PathError{Op: "read", Path: c.name, Err: err}
			return c.err
		}
		c.r, c.ra = io.NewSectionReader(cr, 0, cr.Size()), cr
	}
	_, err := c.r.Seek(c.pos, io.SeekStart)
	return err
}

func (c *chunkFile) Read(p []byte) (int, error) {
	if c.r != nil || c.err != nil {
		if c.err != nil {
			return 0, c.err
		}
		return c.r.Read(p)
	}
	if c.stream == nil {
		s, err := c.fsys.f.OpenChunkStream(c.chunk)
		if err != nil {
			c.err = &fs.PathError{Op: "read", Path: c.name, Err: err}
			return 0, c.err
		}
		c.stream = s
	}
	n, err := c.stream.Read(p)
	c.pos += int64(n)
	if err != nil && err != io.EOF {
		err = &fs.PathError{Op: "read", Path: c.name, Err: err}
	}
	return n, err
}

func (c *chunkFile) Seek(off int64, whence int) (int64, error) {
	if err := c.load(); err != nil {
		return 0, err
	}
	return c.r.Seek(off, whence)
}

func (c *chunkFile) ReadAt(p []byte, off int64) (int, error) {
	if err := c.load(); err != nil {
		return 0, err
	}
	return c.ra.ReadAt(p, off)
}

type dirFile struct {
	info    fileInfo
	entries []fs.DirEntry
	pos     int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errors.New("is a directory")}
}

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.pos:]
	if n <= 0 {
		d.pos = len(d.entries)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.pos += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}

// PackageName maps a container path to the engine's package name:
// "Game/Content/Maps/L.umap" → "/Game/Maps/L", "Engine/Content/X.uasset" →
// "/Engine/X", ".../Plugins/.../P/Content/X.uasset" → "/P/X". ok is false
// for paths outside a Content folder.
func PackageName(p string) (string, bool) {
	// Element by element (without splitting p): ci is the index of the
	// element at start, prev the element before it.
	start, ci, prev := 0, 0, ""
	for {
		end := strings.IndexByte(p[start:], '/')
		elem := p[start:]
		if end >= 0 {
			elem = p[start : start+end]
		}
		if strings.EqualFold(elem, "Content") {
			// The first Content element: not the first nor the last.
			if ci < 1 || end < 0 {
				return "", false
			}
			root := prev
			switch {
			case ci == 1 && strings.EqualFold(prev, "Engine"):
				root = "Engine"
			case ci == 1:
				root = "Game"
			}
			rest := p[start+end+1:]
			rest = rest[:len(rest)-len(path.Ext(rest))]
			return "/" + root + "/" + rest, true
		}
		if end < 0 {
			return "", false
		}
		start, ci, prev = start+end+1, ci+1, elem
	}
}
