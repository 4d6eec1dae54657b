//go:build !upkg_only || upkg_pak

package inspect

// This file connects the pak reader (package pak) to the front ends: the
// ".pak" container format for ls/cat/extract, "PAK::/Game/Path/Asset" for
// every package command, and `upkg verify` on a .pak.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/pak"
)

func init() {
	wrongKeyErrs = append(wrongKeyErrs, pak.ErrWrongKey)
	RegisterContainerFormat(ContainerFormat{Ext: ".pak", Open: func(p string, opts *Options) (Container, error) {
		return OpenPakContainer(p, opts)
	}})
	RegisterContainer(".pak", openInPak)
	// `upkg info X.pak` shows the container's footer and index.
	RegisterOpener(Opener{
		Format:   "pak",
		Priority: -10,
		Match: func(_ []byte, name string) bool {
			return strings.HasSuffix(strings.ToLower(name), ".pak") && !strings.Contains(name, ContainerSep)
		},
		Open: openPakAsPackage,
	})
}

// openPakAsPackage describes a pak file as a Package: its summary and the
// byte ranges of its index structures (it has no names, imports or exports).
func openPakAsPackage(in *Input, opts *Options) (*Package, error) {
	r, err := openPakKeys(opts.AESKey, func(o pak.Option) (*pak.Reader, error) { return pak.NewReader(in.R, in.Size, o) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	c := &PakContainer{R: r, path: in.Name}
	f := r.Footer
	p := &Package{Path: in.Name, Format: "pak", Summary: c.Summary()}
	if n := r.Len(); n > 0 {
		first, last := r.Entry(0).Offset, int64(0)
		for _, e := range r.All() {
			first = min(first, e.Offset)
			last = max(last, e.DataOffset()+e.StoredSize())
		}
		p.Sections = append(p.Sections, Section{Name: "Entries (data)", Offset: first, Size: last - first, Count: n})
	}
	p.Sections = append(p.Sections, Section{Name: "Index", Offset: f.IndexOffset, Size: f.IndexSize, Count: r.Len()})
	if r.HasPathHashIndex {
		p.Sections = append(p.Sections, Section{Name: "PathHashIndex", Offset: r.PathHashIndexRange[0], Size: r.PathHashIndexRange[1], Count: r.PathHashIndexEntries})
	}
	if r.HasFullDirectoryIndex {
		p.Sections = append(p.Sections, Section{Name: "FullDirectoryIndex", Offset: r.FullDirectoryIndexRange[0], Size: r.FullDirectoryIndexRange[1]})
	}
	p.Sections = append(p.Sections, Section{Name: "Footer (FPakInfo)", Offset: in.Size - f.Size, Size: f.Size})
	p.Dump = lazyEntries{c}
	return p, nil
}

// lazyEntries is a container's entries as dump prints them, listed only
// then: info of a pak of hundreds of thousands of files needs none.
type lazyEntries struct{ c Container }

func (d lazyEntries) MarshalJSON() ([]byte, error) { return jsonenc.Marshal(d.c.Entries()) }

// DumpWith is the dump with entries in place of the list (see
// [EntriesDump]): here the dump is the list.
func (d lazyEntries) DumpWith(entries any) any { return entries }

func (d lazyEntries) Len() int                   { return d.c.Len() }
func (d lazyEntries) Entry(i int) ContainerEntry { return d.c.Entry(i) }

// PakContainer is a .pak opened as a [Container].
type PakContainer struct {
	R      *pak.Reader
	path   string
	closer io.Closer // what opened R's file, when not R itself
}

// OpenPakContainer opens a pak file with the key in opts.
func OpenPakContainer(name string, opts *Options) (*PakContainer, error) {
	key := ""
	if opts != nil {
		key = opts.AESKey
	}
	r, err := openPakKeys(key, func(o pak.Option) (*pak.Reader, error) { return pak.OpenReader(name, o) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &PakContainer{R: r, path: name}, nil
}

// NewPakContainer reads a pak from r (size bytes) named name, for callers
// without a file on disk (the page's dropped files).
func NewPakContainer(name string, r io.ReaderAt, size int64, opts *Options) (*PakContainer, error) {
	key := ""
	if opts != nil {
		key = opts.AESKey
	}
	pr, err := openPakKeys(key, func(o pak.Option) (*pak.Reader, error) { return pak.NewReader(r, size, o) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &PakContainer{R: pr, path: name}, nil
}

// Open implements fs.FS.
func (c *PakContainer) Open(name string) (fs.File, error) { return c.R.Open(name) }

// ReadDir implements fs.ReadDirFS.
func (c *PakContainer) ReadDir(name string) ([]fs.DirEntry, error) { return c.R.ReadDir(name) }

// Stat implements fs.StatFS.
func (c *PakContainer) Stat(name string) (fs.FileInfo, error) { return c.R.Stat(name) }

// Format returns "pak".
func (c *PakContainer) Format() string { return "pak" }

// Close closes the pak file.
func (c *PakContainer) Close() error {
	err := c.R.Close()
	if c.closer != nil {
		if cerr := c.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// Entries lists the pak's file records in index order. The hash of a v10+
// encoded entry is read from the header stored before its data.
func (c *PakContainer) Entries() []ContainerEntry {
	out := make([]ContainerEntry, c.R.Len())
	for i := range out {
		out[i] = c.Entry(i)
	}
	return out
}

// Len is the number of file records.
func (c *PakContainer) Len() int { return c.R.Len() }

// Entry describes file record i (see Entries).
func (c *PakContainer) Entry(i int) ContainerEntry { return c.entry(i, true) }

// entryBrief is Entry without the hash (see EntryBrief).
func (c *PakContainer) entryBrief(i int) ContainerEntry { return c.entry(i, false) }

func (c *PakContainer) entry(i int, hash bool) ContainerEntry {
	e := c.R.Entry(i)
	ce := ContainerEntry{
		Path:           e.Name,
		ChunkType:      "file",
		Offset:         e.Offset,
		Size:           e.UncompressedSize,
		CompressedSize: e.CompressedSize,
		Compression:    e.CompressionMethod,
		Encrypted:      e.Encrypted(),
	}
	if e.Name == "" {
		ce.ChunkID = fmt.Sprintf("pathhash:%016x", e.PathHash)
	}
	if e.Deleted() {
		ce.ChunkType = "deleted"
	} else if hash {
		if h, err := e.StoredHash(); err == nil && !h.IsZero() {
			ce.Hash = h.String()
		}
	}
	return ce
}

// Summary describes the footer and index.
func (c *PakContainer) Summary() []Field {
	r := c.R
	f := r.Footer
	methods := []string{}
	for _, m := range f.CompressionMethods {
		if m != "" {
			methods = append(methods, m)
		}
	}
	enc := 0
	for _, e := range r.All() {
		if e.Encrypted() {
			enc++
		}
	}
	fields := []Field{
		{"Format", "pak"},
		{"Version", f.VersionName()},
		{"MountPoint", r.MountPoint},
		{"Entries", r.Len()},
		{"EncryptedEntries", enc},
		{"EncryptedIndex", f.EncryptedIndex},
		{"EncryptionKeyGuid", f.EncryptionKeyGuid.String()},
		{"IndexOffset", f.IndexOffset},
		{"IndexSize", f.IndexSize},
		{"IndexHash", f.IndexHash.String()},
		{"CompressionMethods", methods},
	}
	if f.Version == pak.VersionFrozenIndex {
		fields = append(fields, Field{"IndexIsFrozen", f.IndexIsFrozen})
	}
	if f.Version >= pak.VersionPathHashIndex {
		fields = append(fields,
			Field{"PathHashSeed", fmt.Sprintf("0x%016x", r.PathHashSeed)},
			Field{"PathHashIndex", r.HasPathHashIndex},
			Field{"PathHashIndexEntries", r.PathHashIndexEntries},
			Field{"FullDirectoryIndex", r.HasFullDirectoryIndex},
			Field{"FlatDirectoryIndex", r.FlatDirectoryIndex})
	}
	if f.Version >= pak.VersionPakchunkIndex {
		fields = append(fields, Field{"PakchunkIndex", f.PakchunkIndex})
	}
	if f.Version >= pak.VersionEncryptionMethod {
		m := map[uint8]string{pak.EncryptionNone: "None", pak.EncryptionAES: "AES-ECB", pak.EncryptionAESCTR: "AES-CTR"}[f.EncryptionMethod]
		fields = append(fields, Field{"EncryptionMethod", m})
	}
	return fields
}

// VerifyEntry checks entry i's SHA-1 against the bytes stored.
func (c *PakContainer) VerifyEntry(i int) error {
	if i < 0 || i >= c.R.Len() {
		return fmt.Errorf("entry %d of %d", i, c.R.Len())
	}
	return c.R.Entry(i).Verify()
}

// EntryReader opens entry i's data (decompressed, decrypted, hash-checked
// at the end), for extraction of entries by index.
func (c *PakContainer) EntryReader(i int) (io.ReadCloser, error) {
	if i < 0 || i >= c.R.Len() {
		return nil, fmt.Errorf("entry %d of %d", i, c.R.Len())
	}
	return c.R.Entry(i).Open()
}

// packageExts inside a container: the files that are packages (their
// .uexp/.ubulk are reached through Input.Sibling).
var pakPackageExts = []string{".uasset", ".umap"}

// findInPak resolves a user's inner path to an entry: an exact name (with or
// without the mount point, with or without a leading slash), the same with
// a package extension added, a package path (/Game/X -> <Project>/Content/X,
// /Engine/X -> Engine/Content/X, /Plugin/X -> .../Plugin/Content/X), or a
// unique path suffix.
func findInPak(r *pak.Reader, inner string) (*pak.Entry, error) {
	i, err := findInPakIndex(r, inner)
	if err != nil {
		return nil, err
	}
	return r.Entry(i), nil
}

// findInPakIndex is findInPak giving the entry's index.
func findInPakIndex(r *pak.Reader, inner string) (int, error) {
	return resolveInner(innerNames{
		names: func() []string {
			names := make([]string, r.Len())
			for i, e := range r.All() {
				if !e.Deleted() {
					names[i] = e.Name
				}
			}
			return names
		},
		lookup: r.Find,
		what:   "the pak",
	}, inner)
}

// openInPak resolves "PAK::inner" to an Input.
func openInPak(container, inner string, opts *Options) (*Input, error) {
	c, err := OpenPakContainer(container, opts)
	if err != nil {
		return nil, err
	}
	in, err := pakInput(c.R, container, inner)
	if err != nil {
		c.Close()
		return nil, err
	}
	closeReaders := in.Close
	in.Close = func() error {
		closeReaders()
		return c.Close()
	}
	return in, nil
}

// pakInput reads the package named inner from an opened pak. Its
// companions (.uexp, .ubulk, ...) are read from the same pak on demand.
func pakInput(r *pak.Reader, container, inner string) (*Input, error) {
	return pakInputInto(r, container, inner, nil)
}

// pakScratch holds the memory verifyPak reads its packages into, reused
// from one package to the next (nothing of a package outlives its line).
type pakScratch struct {
	main, sibling []byte
	taken         bool // sibling holds the current package's .uexp
}

// pakWholeMax is the size of the largest pak entry a package is read from
// whole, into memory; a bigger one (a cooked map's .uexp can be hundreds
// of MB) is read through a pak.BlockReader, which holds two compression
// blocks of it at a time. (A variable: tests lower it.)
var pakWholeMax int64 = 4 << 20

// pakInputInto is pakInput reading the package and its .uexp into the
// scratch memory s when not nil.
func pakInputInto(r *pak.Reader, container, inner string, sc *pakScratch) (*Input, error) {
	e, err := findInPak(r, inner)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", container, err)
	}
	var main []byte
	if sc != nil {
		sc.taken = false
		main = sc.main
	}
	ra, size, main, err := pakEntryReader(e, main)
	if err != nil {
		return nil, fmt.Errorf("%s%s%s: %w", container, ContainerSep, e.Name, err)
	}
	if sc != nil && main != nil {
		sc.main = main
	}
	// The BlockReaders of big entries are closed with the Input (which
	// stops their decoding ahead).
	var readers blockReaders
	readers.add(ra)
	name := e.Name
	if name == "" {
		// Known by its path hash only (a pak without its full directory
		// index): the path it was found by names it, and its companions
		// are found by theirs.
		name = strings.TrimPrefix(inner, "/")
	}
	base := strings.TrimSuffix(name, path.Ext(name))
	return &Input{
		Name: container + ContainerSep + name,
		R:    ra,
		Size: size,
		Sibling: func(ext string) (io.ReaderAt, int64, error) {
			s, ok := r.LookupName(base + ext) // exact: most companions do not exist
			if !ok && e.Name == "" {
				s, ok = r.Lookup(base + ext) // by its path hash
			}
			if !ok {
				return nil, 0, fmt.Errorf("%s%s%s%s: %w", container, ContainerSep, base, ext, fs.ErrNotExist)
			}
			sname := s.Name
			if sname == "" {
				sname = base + ext // known by its path hash
			}
			if !strings.EqualFold(ext, ".uexp") {
				// A bulk data file is read when its bytes are (verify
				// asks only for its size, for the data resources); one
				// that cannot be read at all (no key, no decoder) fails
				// here, as when it was read whole.
				if err := s.Readable(); err != nil {
					return nil, 0, fmt.Errorf("%s%s%s: %w", container, ContainerSep, sname, err)
				}
				return &lazyEntry{open: func() (io.ReaderAt, error) {
					closed := fmt.Errorf("%s%s%s: %w", container, ContainerSep, sname, fs.ErrClosed)
					if readers.isClosed() {
						return nil, closed // (the pak may be unmapped)
					}
					ra, _, _, err := pakEntryReader(s, nil)
					if err != nil {
						return nil, fmt.Errorf("%s%s%s: %w", container, ContainerSep, sname, err)
					}
					if !readers.add(ra) {
						return nil, closed
					}
					return ra, nil
				}}, s.UncompressedSize, nil
			}
			// The first read of the package's .uexp goes into the scratch
			// memory (NewFile reads it once; any other read gets its own).
			scratch := sc != nil && !sc.taken
			var buf []byte
			if scratch {
				buf = sc.sibling
			}
			ra, size, b, err := pakEntryReader(s, buf)
			if err != nil {
				return nil, 0, fmt.Errorf("%s%s%s: %w", container, ContainerSep, sname, err)
			}
			if scratch && b != nil {
				sc.sibling, sc.taken = b, true
			}
			readers.add(ra)
			return ra, size, nil
		},
		Close: readers.close,
	}, nil
}

// lazyEntry reads a pak entry opened at its first read.
type lazyEntry struct {
	open func() (io.ReaderAt, error)
	once sync.Once
	r    io.ReaderAt
	err  error
}

func (l *lazyEntry) ReadAt(p []byte, off int64) (int, error) {
	l.once.Do(func() { l.r, l.err = l.open() })
	if l.err != nil {
		return 0, l.err
	}
	return l.r.ReadAt(p, off)
}

// blockReaders are the pak.BlockReaders an Input opened.
type blockReaders struct {
	mu     sync.Mutex
	list   []*pak.BlockReader
	closed bool
}

// add keeps r to be closed with the Input. It reports false, closing r,
// when the Input is closed already (an entry opened at its first read,
// read after Close).
func (b *blockReaders) add(r io.ReaderAt) bool {
	br, ok := r.(*pak.BlockReader)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		if ok {
			br.Close()
		}
		return false
	}
	if ok {
		b.list = append(b.list, br)
	}
	return true
}

func (b *blockReaders) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

func (b *blockReaders) close() error {
	b.mu.Lock()
	list := b.list
	b.list, b.closed = nil, true
	b.mu.Unlock()
	for _, br := range list {
		br.Close()
	}
	return nil
}

// pakEntryReader gives access to entry e's data: read whole (into buf's
// memory when it has room; data is what was read) up to pakWholeMax bytes,
// else through a pak.BlockReader (data nil).
func pakEntryReader(e *pak.Entry, buf []byte) (r io.ReaderAt, size int64, data []byte, err error) {
	if e.UncompressedSize > pakWholeMax {
		br, err := e.BlockReader()
		if err != nil {
			return nil, 0, nil, err
		}
		return br, br.Size(), nil, nil
	}
	if data, err = e.DataInto(buf); err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(data), int64(len(data)), data, nil
}

// verifyPak is `upkg verify` for a .pak: one line per package inside, then
// one for the container (every entry's SHA-1 checked).
func verifyPak(p string, opts *Options, emit func(VerifyResult)) (handled bool) {
	if !strings.HasSuffix(strings.ToLower(p), ".pak") {
		return false
	}
	res := VerifyResult{Path: p, Format: "pak"}
	if opts.OpenWhole != nil {
		// The pak may be mapped (see VerifyPackage): reading a page of a
		// file another process cut short faults. A fault while the index
		// or the entries are read fails the container's line; one while a
		// package inside is read fails that package's (verifyInPak).
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer containerFault(&res, opts, emit, &handled)
	}
	before := heapInUse()
	c, err := openPakVerify(p, opts)
	if err != nil {
		res.Error = trimPath(err.Error(), p)
		emit(res)
		return true
	}
	defer c.Close()
	defer roomForIndex(before)()
	n := c.R.Len()
	if data, size := c.R.DataSize(), c.R.Size(); data > 2*size+64<<20 {
		// Each entry's bytes would be read and hashed once per entry.
		res.Entries = &n
		res.Error = fmt.Sprintf("its %d entries point at %d bytes of data, more than twice its %d bytes and 64 MiB (entries share data): not checked", n, data, size)
		emit(res)
		return true
	}
	// Idle workers share the entries' hash checks, then the packages.
	// What fails is counted, and the first error kept (an error an entry
	// took 16 bytes each, and hundreds for each of a cut-short pak's).
	var errs firstErrors
	var errsMu sync.Mutex
	var unhashed atomic.Int64
	var pkgs []int32 // the packages' entries, in index order
	var pkgsMu sync.Mutex
	shareWork(opts, n, func(next func() (int, bool)) {
		for i, more := next(); more; i, more = next() {
			e := c.R.Entry(i) // (decoded at each call: once here)
			verr := verifyEntry(e)
			if verr != nil {
				errsMu.Lock()
				errs.add(int32(i), verr)
				errsMu.Unlock()
			}
			if e.Deleted() {
				continue
			}
			if h, err := e.StoredHash(); verr == nil && err == nil && h.IsZero() {
				unhashed.Add(1)
			}
			if isPakPackage(e.Name) {
				pkgsMu.Lock()
				pkgs = append(pkgs, int32(i))
				pkgsMu.Unlock()
			}
		}
	})
	slices.Sort(pkgs)
	failed := errs.n
	ok := n - failed
	res.Entries, res.ChunksOK, res.ChunksFailed = &n, &ok, &failed
	res.OK = failed == 0
	if u := unhashed.Load(); u > 0 {
		res.Note = fmt.Sprintf("%d of %d entries store no hash (all zero): their bytes were checked only by decompressing the compressed ones", u, n)
	}
	if failed > 0 {
		res.Error = fmt.Sprintf("%d of %d entries fail their checks (first: %v)", failed, n, errs.err[0])
	}
	if opts.ContainerLines != nil {
		opts.ContainerLines(len(pkgs))
	}
	// The package lines go out in index order as they are checked: the
	// worker that checks the next one emits it and those done after it.
	// Only lines checked ahead of a slower one wait.
	lines := inOrder{emit: emit}
	shareWork(opts, len(pkgs), func(next func() (int, bool)) {
		var sc pakScratch // each worker's own
		for i, more := next(); more; i, more = next() {
			lines.put(i, verifyInPak(c.R, p, c.R.Entry(int(pkgs[i])), opts, &sc))
		}
	})
	// The container's line comes after its packages' (as IoStore's must:
	// see verifyUtoc).
	emit(res)
	return true
}

// expandOnVerify reports whether verify decompresses e beside checking
// its hash: a compressed entry no package check reads (packages and their
// .uexp are read with them). The SHA-1 covers the stored bytes only: an
// entry whose blocks do not decompress to its recorded size, or whose
// hash is all zero, passed verify and failed extract.
func expandOnVerify(e *pak.Entry) bool {
	return e.Compressed() && !e.Deleted() && !isPakPackage(e.Name) && !strings.EqualFold(path.Ext(e.Name), ".uexp")
}

// verifyEntry checks e: its hash, and for those expandOnVerify picks its
// decompression too, in one read (pak.Entry.VerifyData). An entry that
// cannot be decompressed here (no key, a compression method upkg lacks)
// has its hash checked alone.
func verifyEntry(e *pak.Entry) error {
	if !expandOnVerify(e) {
		return e.Verify()
	}
	bp := expandBufs.Get().(*[]byte)
	defer expandBufs.Put(bp)
	err := e.VerifyData(*bp)
	var ke *pak.KeyError
	var ue *compression.UnsupportedError
	if errors.As(err, &ke) || errors.As(err, &ue) {
		return e.Verify()
	}
	return err
}

// expandBufs are verifyEntry's copy buffers.
var expandBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// openPakVerify opens a pak for verify: through opts.OpenWhole when set
// (the CLI maps it, so entries are read without a system call each).
func openPakVerify(p string, opts *Options) (*PakContainer, error) {
	if opts.OpenWhole == nil {
		return OpenPakContainer(p, opts)
	}
	r, size, closer, err := opts.OpenWhole(p)
	if err != nil {
		return nil, err
	}
	c, err := NewPakContainer(p, r, size, opts)
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	c.closer = closer
	return c, nil
}

func isPakPackage(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, x := range pakPackageExts {
		if ext == x {
			return true
		}
	}
	return false
}

// verifyInPak checks one package stored in an opened pak.
// The package is read into sc's memory; nothing of it outlives the line.
func verifyInPak(r *pak.Reader, container string, e *pak.Entry, opts *Options, sc *pakScratch) (res VerifyResult) {
	name := container + ContainerSep + e.Name
	res.Path = name
	defer func() {
		if x := recover(); x != nil {
			res.OK = false
			res.Error = recoveredError(x, opts)
		}
	}()
	in, err := pakInputInto(r, container, e.Name, sc)
	if err != nil {
		res.Error = trimPath(err.Error(), name)
		return res
	}
	defer in.Close() // (the line keeps nothing read)
	pkg, err := OpenPackage(in, opts)
	if err != nil {
		res.Error = trimPath(err.Error(), name)
		var oe *OpenError
		if errors.As(err, &oe) {
			res.Format = oe.Format
		}
		return res
	}
	return ResultFor(pkg)
}

// FindEntry resolves a path as [pak.Reader.Lookup] does (fs name, index
// path, or the path with the mount point as stored).
func (c *PakContainer) FindEntry(name string) (int, bool) {
	i, err := findInPakIndex(c.R, name)
	return i, err == nil
}

// openPakKeys opens a pak with the first of the given keys that decrypts it.
// For a pak whose index is plain but whose entries are encrypted, the key
// is checked against the entries before it is taken.
func openPakKeys(keys string, open func(opt pak.Option) (*pak.Reader, error)) (*pak.Reader, error) {
	multi := len(splitKeys(keys)) > 1
	return eachKey(keys, func(k string) (*pak.Reader, error) {
		r, err := open(pak.WithKeyString(k))
		if err != nil || !multi {
			return r, err
		}
		if err := r.CheckKey(); err != nil {
			r.Close()
			return nil, err
		}
		return r, nil
	})
}
