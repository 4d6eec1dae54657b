// Package webapi is what the WebAssembly build of upkg exposes to the page:
// it opens the files a user dropped (through internal/inspect, the same code
// the CLI's --json uses), keeps them open under small integer handles, and
// answers the page's follow-up questions (bytes for the hex view, thumbnail
// images, decoded properties, the full model).
//
// Ground rules for this package:
//   - It knows nothing about syscall/js: wasm/ is the thin glue, so everything
//     here runs and is tested natively.
//   - No call panics out of it. Every exported method recovers, and every
//     failure is an [*Error] the page shows as-is: what failed, in which file,
//     and the reader's own offset and field when it has them.
//   - The files are the user's: they are read, never modified, never sent
//     anywhere.
package webapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/jsonenc"
)

// Limits on what one request hands back to the page. They bound the memory
// a hostile or merely huge file can make the page hold.
const (
	// maxHexWindow is the most bytes the hex view receives at once; a range
	// larger than that is shown from its start (the page says so).
	maxHexWindow = 16 << 20
	// hexContext is how many bytes around a highlighted range the hex view
	// shows when the whole file does not fit in maxHexWindow.
	hexContext = 64 << 10
	// maxPackageFile is the largest single package file read into memory.
	// Real .uasset/.umap files stay far below it; bigger inputs are
	// containers, which are read lazily.
	maxPackageFile = 1 << 30
)

// Error is a failure reported to the page as {"error": ...}.
type Error struct {
	Op   string // what the page asked for: "open", "hex", "thumbnail", ...
	File string // the file concerned, when known
	Err  error
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.File != "" && !strings.Contains(msg, e.File) {
		msg = e.File + ": " + msg
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Session holds the packages and containers the page has open.
type Session struct {
	mu      sync.Mutex
	next    int
	handles map[int]*handle
}

// OpenOptions are the page's settings for reading: what the CLI's global
// flags give.
type OpenOptions struct {
	Engine string `json:"engine"`  // engine version for unversioned packages, "" to detect
	AESKey string `json:"aes_key"` // key for encrypted containers
	// Mappings names a dropped .usmap file for unversioned properties.
	Mappings string `json:"mappings"`
	// dir is where dropped files are found on the (in-memory) file system
	// when they are not in memory (containers).
	dir string
}

// options turns the page's settings into library options; files are the
// dropped files, where a mappings file is looked up.
func (o OpenOptions) options(files map[string][]byte) *inspect.Options {
	opts := &inspect.Options{Engine: o.Engine, AESKey: o.AESKey, Mappings: o.Mappings}
	opts.ReadFile = func(name string) ([]byte, error) {
		for n, b := range files {
			if n == name || path.Base(n) == path.Base(name) {
				return b, nil
			}
		}
		if hasContainers && o.dir != "" {
			return os.ReadFile(path.Join(o.dir, path.Base(name)))
		}
		return nil, fmt.Errorf("%s: %w (drop it together with the package)", name, fs.ErrNotExist)
	}
	return opts
}

// NewSession returns an empty session.
func NewSession() *Session { return &Session{handles: map[int]*handle{}} }

// handle is one open package or container.
type handle struct {
	pkg   *inspect.Package
	files map[string]sourceFile // "" main file, ".uexp", ".ubulk" …
	name  string

	container inspect.Container
	cpath     string      // path the container was opened from
	opts      OpenOptions // settings the container was opened with

	// reopen gives a fresh Input over the same bytes (content exporters
	// read the package again); nil for packages read from a container.
	reopen  func() *inspect.Input
	pkgOpts *inspect.Options
}

// sourceFile is a file a package was read from, kept for the hex view.
type sourceFile struct {
	name string
	r    io.ReaderAt
	size int64
}

func (s *Session) add(h *handle) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.handles[s.next] = h
	return s.next
}

func (s *Session) get(id int) (*handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.handles[id]
	if !ok {
		return nil, fmt.Errorf("no open file with handle %d (it was closed; drop the file again)", id)
	}
	return h, nil
}

// Close forgets a handle and closes what it holds.
func (s *Session) Close(id int) {
	s.mu.Lock()
	h := s.handles[id]
	delete(s.handles, id)
	s.mu.Unlock()
	if h != nil && h.container != nil {
		h.container.Close()
	}
}

// guard turns a panic inside fn into an error, so that one bad file cannot
// take the page's WebAssembly instance down with it.
func guard(op, file string, err *error) {
	if r := recover(); r != nil {
		*err = &Error{Op: op, File: file, Err: fmt.Errorf("internal error (please report this file): %v\n%s", r, debug.Stack())}
	}
}

// Group is a set of dropped files that are read together.
type Group struct {
	Kind  string   `json:"kind"`  // "package" or "container"
	Main  string   `json:"main"`  // the file to open
	Files []string `json:"files"` // Main first, then its companions
}

// Plan groups dropped file names: each package with its .uexp/.ubulk/.uptnl
// companions, each .utoc with its .ucas partitions, each .pak. Orphans are
// companions whose main file was not dropped; the page explains that.
// Mappings files (.usmap) are settings rather than packages: they come back
// separately and apply to every group.
func Plan(names []string) (groups []Group, orphans, mappings []string) {
	sorted := append([]string(nil), names...)
	sort.StringSlice(sorted).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	byBase := map[string][]string{}
	for _, n := range sorted {
		b := strings.ToLower(baseName(n))
		byBase[b] = append(byBase[b], n)
	}
	used := map[string]bool{}
	for _, n := range sorted {
		ext := strings.ToLower(path.Ext(n))
		switch {
		case companionExts[ext]:
			continue
		case ext == ".utoc":
			g := Group{Kind: "container", Main: n, Files: []string{n}}
			stem := strings.ToLower(strings.TrimSuffix(n, path.Ext(n)))
			for _, m := range sorted {
				ml := strings.ToLower(m)
				if strings.HasSuffix(ml, ".ucas") && (strings.TrimSuffix(ml, ".ucas") == stem || strings.HasPrefix(ml, stem+"_s")) {
					g.Files = append(g.Files, m)
					used[m] = true
				}
			}
			used[n] = true
			groups = append(groups, g)
		case ext == ".pak":
			used[n] = true
			groups = append(groups, Group{Kind: "container", Main: n, Files: []string{n}})
		default:
			if _, ok := inspect.ContainerFormatFor(n); ok {
				used[n] = true
				groups = append(groups, Group{Kind: "container", Main: n, Files: []string{n}})
				continue
			}
			g := Group{Kind: "package", Main: n, Files: []string{n}}
			used[n] = true
			for _, m := range byBase[strings.ToLower(baseName(n))] {
				if m != n && companionExts[strings.ToLower(path.Ext(m))] {
					g.Files = append(g.Files, m)
					used[m] = true
				}
			}
			groups = append(groups, g)
		}
	}
	for _, n := range sorted {
		switch {
		case strings.EqualFold(path.Ext(n), ".usmap"):
			mappings = append(mappings, n)
		case !used[n]:
			orphans = append(orphans, n)
		}
	}
	return groups, orphans, mappings
}

// companionExts are the files that travel with a package and are never
// opened on their own. ".sig" is a pak's signature file.
var companionExts = map[string]bool{
	".uexp": true, ".ubulk": true, ".uptnl": true, ".ucas": true, ".sig": true, ".usmap": true,
}

// baseName strips the directory and every extension a companion can carry
// (Foo.m.ubulk travels with Foo.uasset).
func baseName(n string) string {
	n = path.Base(strings.ReplaceAll(n, "\\", "/"))
	n = strings.TrimSuffix(n, path.Ext(n))
	for _, x := range []string{".m", ".o"} {
		if strings.HasSuffix(strings.ToLower(n), x) {
			n = n[:len(n)-len(x)]
		}
	}
	return n
}

// FileInfo describes one file read with a package.
type FileInfo struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Role string `json:"role"` // "main", "companion" (read), "unused" (dropped but not needed)
}

// Capabilities says which follow-up questions a package can answer.
type Capabilities struct {
	ExportData bool `json:"export_data"`
	Props      bool `json:"props"`
	Raw        bool `json:"raw"`
	Dump       bool `json:"dump"`
}

// PackageResult is the page's view of an opened package.
type PackageResult struct {
	Handle       int              `json:"handle"`
	Package      *inspect.Package `json:"package"`
	Files        []FileInfo       `json:"files"`
	Capabilities Capabilities     `json:"capabilities"`
	ParseMillis  float64          `json:"parse_ms"`
}

// OpenPackage reads the package main from the dropped files (name → bytes),
// with whatever companions it asks for.
func (s *Session) OpenPackage(main string, files map[string][]byte, oo OpenOptions) (res *PackageResult, err error) {
	defer guard("open", main, &err)
	data, ok := files[main]
	if !ok {
		return nil, &Error{Op: "open", File: main, Err: errors.New("file was not among the dropped files")}
	}
	if len(data) > maxPackageFile {
		return nil, &Error{Op: "open", File: main, Err: fmt.Errorf("%d bytes is larger than the %d a package file can be here", len(data), maxPackageFile)}
	}
	in := inspect.BytesInput(main, files)
	// A package another module read out of a container (PackageFiles) is
	// named after its entry in the hex view, as OpenFromContainer names it.
	shown := main
	if _, inner, ok := inspect.SplitContainerPath(main); ok {
		shown = strings.TrimPrefix(inner, "/")
	}
	h := &handle{name: main, files: map[string]sourceFile{"": {name: shown, r: in.R, size: in.Size}}}
	h.reopen = func() *inspect.Input { return inspect.BytesInput(main, files) }
	sibling := in.Sibling
	in.Sibling = func(ext string) (io.ReaderAt, int64, error) {
		r, n, err := sibling(ext)
		if err == nil {
			h.files[strings.ToLower(ext)] = sourceFile{name: baseName(main) + ext, r: r, size: n}
		}
		return r, n, err
	}
	return s.open(h, in, files, oo.options(files))
}

func (s *Session) open(h *handle, in *inspect.Input, files map[string][]byte, opts *inspect.Options) (*PackageResult, error) {
	start := time.Now()
	p, err := inspect.OpenPackage(in, opts)
	elapsed := time.Since(start)
	if err != nil {
		return nil, &Error{Op: "open", File: in.Name, Err: err}
	}
	h.pkg = p
	h.pkgOpts = opts
	res := &PackageResult{
		Package:     p,
		ParseMillis: float64(elapsed.Microseconds()) / 1000,
		Capabilities: Capabilities{
			ExportData: p.ExportData != nil,
			Props:      p.Props != nil,
			Raw:        p.Raw != nil,
			Dump:       p.Dump != nil,
		},
	}
	res.Files = append(res.Files, FileInfo{Name: in.Name, Size: in.Size, Role: "main"})
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.StringSlice(names).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	for _, n := range names {
		if n == in.Name {
			continue
		}
		role := "unused"
		for ext, f := range h.files {
			if ext != "" && strings.EqualFold(f.name, path.Base(n)) {
				role = "companion"
			}
		}
		res.Files = append(res.Files, FileInfo{Name: n, Size: int64(len(files[n])), Role: role})
	}
	res.Handle = s.add(h)
	return res, nil
}

// Thumbnail returns thumbnail i of a package: its description and the image
// bytes as stored (PNG or JPEG; "raw" is uncompressed BGRA).
func (s *Session) Thumbnail(id, i int) (t inspect.Thumbnail, data []byte, err error) {
	defer guard("thumbnail", "", &err)
	h, err := s.get(id)
	if err != nil {
		return t, nil, &Error{Op: "thumbnail", Err: err}
	}
	p := h.pkg
	if p == nil || i < 0 || i >= len(p.Thumbnails) {
		return t, nil, &Error{Op: "thumbnail", File: h.name, Err: fmt.Errorf("no thumbnail %d", i)}
	}
	t = p.Thumbnails[i]
	if p.ThumbnailData == nil {
		return t, nil, &Error{Op: "thumbnail", File: h.name, Err: errors.New("this format's reader does not extract thumbnail images yet")}
	}
	data, err = p.ThumbnailData(i)
	if err != nil {
		return t, nil, &Error{Op: "thumbnail", File: h.name, Err: fmt.Errorf("thumbnail %d (%s): %w", i, t.Object, err)}
	}
	return t, data, nil
}

// Props decodes the properties of export i and returns them as JSON.
func (s *Session) Props(id, i int) (out jsonenc.RawMessage, err error) {
	defer guard("props", "", &err)
	h, err := s.get(id)
	if err != nil {
		return nil, &Error{Op: "props", Err: err}
	}
	p := h.pkg
	if p == nil || p.Props == nil {
		return nil, &Error{Op: "props", File: h.name, Err: errors.New("property decoding is not available for this package format yet")}
	}
	if i < 0 || i >= len(p.Exports) {
		return nil, &Error{Op: "props", File: h.name, Err: fmt.Errorf("no export %d (the package has %d)", i, len(p.Exports))}
	}
	v, err := p.Props(i)
	if err != nil {
		return nil, &Error{Op: "props", File: h.name, Err: fmt.Errorf("export %d (%s): %w", i, p.Exports[i].Name, err)}
	}
	b, err := jsonenc.Marshal(v)
	if err != nil {
		return nil, &Error{Op: "props", File: h.name, Err: err}
	}
	return b, nil
}

// Dump returns the format's complete model as JSON (what `upkg dump --json`
// prints).
func (s *Session) Dump(id int) (out jsonenc.RawMessage, err error) {
	defer guard("dump", "", &err)
	h, err := s.get(id)
	if err != nil {
		return nil, &Error{Op: "dump", Err: err}
	}
	if h.pkg == nil || h.pkg.Dump == nil {
		return nil, &Error{Op: "dump", File: h.name, Err: errors.New("no detailed model for this file")}
	}
	b, err := jsonenc.Marshal(h.pkg.Dump)
	if err != nil {
		return nil, &Error{Op: "dump", File: h.name, Err: err}
	}
	return b, nil
}

// ContainerResult is the page's view of an opened container.
type ContainerResult struct {
	Handle  int                      `json:"handle"`
	Path    string                   `json:"path"`
	Format  string                   `json:"format"`
	Summary []inspect.Field          `json:"summary"`
	Entries []inspect.ContainerEntry `json:"entries"`
	// Packages are the entry paths that can be opened as packages.
	Packages int `json:"packages"`
	// PackageReader is set when this build cannot read the container's
	// packages itself: it names the format whose reader can (the page's
	// WebAssembly modules each link some format families). The page then
	// takes the package's files from [Session.PackageFiles] to a module
	// with that reader.
	PackageReader string  `json:"package_reader,omitempty"`
	ParseMillis   float64 `json:"parse_ms"`
}

// containerPackageFormat is the package format inside each container kind
// whose packages are plain package files (read through the container's file
// system); IoStore's zen packages need the container itself.
var containerPackageFormat = map[string]string{"pak": "uasset"}

// OpenContainer opens a .utoc or .pak by path (the page gives the
// container files to the WebAssembly instance as a read-only in-memory file
// system, so the container's own opener finds its .ucas partitions beside it).
func (s *Session) OpenContainer(p string, oo OpenOptions) (res *ContainerResult, err error) {
	defer guard("open", p, &err)
	cf, ok := inspect.ContainerFormatFor(p)
	if !hasContainers || !ok {
		return nil, &Error{Op: "open", File: p, Err: fmt.Errorf("no container reader for %q files in this build", path.Ext(p))}
	}
	oo.dir = path.Dir(p)
	opts := oo.options(nil)
	start := time.Now()
	c, err := cf.Open(p, opts)
	if err != nil {
		return nil, &Error{Op: "open", File: p, Err: err}
	}
	res = &ContainerResult{Path: p, Format: c.Format(), Summary: c.Summary(), Entries: c.Entries()}
	if f, ok := containerPackageFormat[c.Format()]; ok && !inspect.HasOpener(f) {
		res.PackageReader = f
	}
	res.ParseMillis = float64(time.Since(start).Microseconds()) / 1000
	for _, e := range res.Entries {
		if isPackagePath(e.Path) {
			res.Packages++
		}
	}
	res.Handle = s.add(&handle{name: p, container: c, cpath: p, opts: oo})
	return res, nil
}

func isPackagePath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".uasset", ".umap", ".uzenasset":
		return true
	}
	return false
}

// OpenFromContainer opens the package at inner (an entry path) of the open
// container id.
func (s *Session) OpenFromContainer(id int, inner string) (res *PackageResult, err error) {
	defer guard("open", inner, &err)
	h, err := s.get(id)
	if err != nil {
		return nil, &Error{Op: "open", File: inner, Err: err}
	}
	if !hasContainers || h.container == nil {
		return nil, &Error{Op: "open", File: inner, Err: errors.New("handle is not a container")}
	}
	name := h.cpath + inspect.ContainerSep + "/" + strings.TrimPrefix(inner, "/")
	opts := h.opts.options(nil)
	if in, err := inspect.OpenInput(name, opts); err == nil {
		ph := &handle{name: name, files: map[string]sourceFile{"": {name: inner, r: in.R, size: in.Size}}}
		sib := in.Sibling
		in.Sibling = func(ext string) (io.ReaderAt, int64, error) {
			r, n, err := sib(ext)
			if err == nil {
				ph.files[strings.ToLower(ext)] = sourceFile{name: baseName(inner) + ext, r: r, size: n}
			}
			return r, n, err
		}
		return s.open(ph, in, nil, opts)
	}
	// No "CONTAINER::path" opener: read the files through the container's
	// file system and open them like dropped files.
	inner = strings.TrimPrefix(inner, "/")
	data, err := fs.ReadFile(h.container, inner)
	if err != nil {
		return nil, &Error{Op: "open", File: inner, Err: err}
	}
	files := map[string][]byte{path.Base(inner): data}
	stem := strings.TrimSuffix(inner, path.Ext(inner))
	for _, ext := range []string{".uexp", ".ubulk", ".uptnl"} {
		if b, err := fs.ReadFile(h.container, stem+ext); err == nil {
			files[path.Base(stem+ext)] = b
		}
	}
	return s.OpenPackage(path.Base(inner), files, h.opts)
}

// PackageFiles reads the package at inner (an entry path) of the open
// container id with its companions (.uexp, .ubulk, .uptnl), for the page to
// open with [Session.OpenPackage] in another build (see
// [ContainerResult.PackageReader]). The names are those OpenFromContainer
// would give the package: the container path, [inspect.ContainerSep], the
// entry path. The package file comes first.
func (s *Session) PackageFiles(id int, inner string) (names []string, data [][]byte, err error) {
	defer guard("read", inner, &err)
	h, err := s.get(id)
	if err != nil {
		return nil, nil, &Error{Op: "read", File: inner, Err: err}
	}
	if !hasContainers || h.container == nil {
		return nil, nil, &Error{Op: "read", File: inner, Err: errors.New("handle is not a container")}
	}
	inner = strings.TrimPrefix(inner, "/")
	stem := strings.TrimSuffix(inner, path.Ext(inner))
	for i, name := range []string{inner, stem + ".uexp", stem + ".ubulk", stem + ".uptnl"} {
		b, err := readEntry(h.container, name)
		if err != nil {
			if i > 0 && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, nil, &Error{Op: "read", File: inner, Err: err}
		}
		names = append(names, h.cpath+inspect.ContainerSep+name)
		data = append(data, b)
	}
	return names, data, nil
}

// readEntry reads one file of a container, at most maxPackageFile bytes of
// it (the size it claims is not trusted for the allocation).
func readEntry(c fs.FS, name string) ([]byte, error) {
	f, err := c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPackageFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPackageFile {
		return nil, fmt.Errorf("%s: larger than the %d bytes a package file can be here", name, maxPackageFile)
	}
	return b, nil
}

// ContainerFile returns the bytes of one entry of an open container (for
// the hex view and for saving it), at most maxHexWindow of them.
func (s *Session) ContainerFile(id int, inner string) (data []byte, err error) {
	defer guard("read", inner, &err)
	h, err := s.get(id)
	if err != nil {
		return nil, &Error{Op: "read", File: inner, Err: err}
	}
	if !hasContainers || h.container == nil {
		return nil, &Error{Op: "read", File: inner, Err: errors.New("handle is not a container")}
	}
	f, err := h.container.Open(strings.TrimPrefix(inner, "/"))
	if err != nil {
		return nil, &Error{Op: "read", File: inner, Err: err}
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, maxHexWindow))
	if err != nil {
		return nil, &Error{Op: "read", File: inner, Err: err}
	}
	return data, nil
}
