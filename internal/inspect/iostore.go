//go:build !upkg_only || upkg_iostore

package inspect

// This file plugs IoStore containers (.utoc/.ucas) into the front ends: the
// Container interface for ls/cat/extract, "GAME.utoc::/Game/Path/Asset" for
// every package command, and `upkg verify` on a .utoc (one "utoc" line for
// the container's chunk hashes, then one "zen" line per package).

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/internal/osfile"
	"github.com/upkg/upkg/internal/slots"
	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/zen"
)

func init() {
	wrongKeyErrs = append(wrongKeyErrs, iostore.ErrWrongKey)
	RegisterContainerFormat(ContainerFormat{Ext: ".utoc", Open: func(p string, opts *Options) (Container, error) {
		c, err := openUtoc(p, opts)
		if err != nil {
			return nil, err
		}
		return c, nil
	}})
	RegisterContainer(".utoc", openUtocInner)
	// `upkg info GAME.utoc` (and the page) describe the container itself.
	RegisterOpener(Opener{Format: "utoc", Match: func(head []byte, name string) bool {
		return len(head) >= 16 && string(head[:16]) == "-==--==--==--==-"
	}, Open: openUtocPackage})
}

// openUtocPackage describes a .utoc as a Package: its header fields and the
// sections of the TOC. Without a .ucas beside it (the page, TOC-only copies)
// everything but the container header is still shown.
func openUtocPackage(in *Input, opts *Options) (*Package, error) {
	var o []iostore.Option
	if st, err := os.Stat(in.Name); err == nil && !st.IsDir() {
		o = append(o, iostore.WithPartitions(func(i int) (io.ReaderAt, int64, error) {
			p := iostore.PartitionPath(in.Name, i)
			st, err := os.Stat(p)
			if err != nil {
				return nil, 0, err
			}
			return pathReaderAt(p), st.Size(), nil
		}))
	}
	keys := ""
	if opts != nil {
		keys = opts.AESKey
	}
	f, err := openUtocKeys(keys, func(ko []iostore.Option) (*iostore.File, error) {
		return iostore.NewReader(in.R, in.Size, append(ko, o...)...)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	c := &utocContainer{path: in.Name, f: f}
	if f.DirectoryIndexErr == nil {
		c.fsys, _ = f.FS()
	}
	p := &Package{
		Path: in.Name, Format: "utoc",
		Engine: tocEngine(f.Header.Version), EngineSource: "detected",
		Summary: c.Summary(),
	}
	if f.DirectoryIndexErr != nil {
		p.Warnings = append(p.Warnings, "directory index: "+f.DirectoryIndexErr.Error())
	}
	h := &f.Header
	n := int64(h.TocEntryCount)
	off := int64(144)
	add := func(name string, size int64, count int) {
		p.Sections = append(p.Sections, Section{Name: name, Offset: off, Size: size, Count: count})
		off += size
	}
	add("TocHeader", 0, 0)
	p.Sections[0].Offset, p.Sections[0].Size, off = 0, 144, 144
	add("ChunkIds", 12*n, int(n))
	add("ChunkOffsetLengths", 10*n, int(n))
	add("ChunkPerfectHashSeeds", 4*int64(len(f.PerfectHashSeeds)), len(f.PerfectHashSeeds))
	add("ChunkIndicesWithoutPerfectHash", 4*int64(len(f.ChunksWithoutPerfectHash)), len(f.ChunksWithoutPerfectHash))
	add("CompressionBlocks", 12*int64(h.TocCompressedBlockEntryCount), int(h.TocCompressedBlockEntryCount))
	add("EncryptionIVs", 12*int64(len(f.EncryptionIVs)), len(f.EncryptionIVs))
	add("CompressionMethods", int64(h.CompressionMethodNameCount)*int64(h.CompressionMethodNameLength), int(h.CompressionMethodNameCount))
	if f.Signature != nil {
		add("Signatures", 4+2*int64(len(f.Signature.TocSignature))+20*int64(len(f.Signature.ChunkBlockSignature)), len(f.Signature.ChunkBlockSignature))
	}
	if f.DirectoryIndex != nil || f.DirectoryIndexErr != nil {
		files := 0
		if f.DirectoryIndex != nil {
			files = f.DirectoryIndex.NumFiles()
		}
		add("DirectoryIndex", int64(h.DirectoryIndexSize), files)
		if f.DirectoryIndexErr != nil {
			p.Sections[len(p.Sections)-1].Error = f.DirectoryIndexErr.Error()
		}
	}
	metaSize := int64(33)
	if h.Version >= iostore.TocReplaceIoChunkHashWithIoHash {
		metaSize = 24
	}
	add("ChunkMetas", metaSize*n, int(n))
	p.Dump = lazyUtocDump{c}
	return p, nil
}

// lazyUtocDump is a container's model as dump prints it, made only then
// (info needs neither the entries nor the container header).
type lazyUtocDump struct{ c *utocContainer }

func (d lazyUtocDump) MarshalJSON() ([]byte, error) {
	return jsonenc.Marshal(d.DumpWith(d.c.Entries()))
}

// DumpWith is the dump with entries in place of its list of entries (see
// [EntriesDump]).
func (d lazyUtocDump) DumpWith(entries any) any {
	f := d.c.f
	var ch *iostore.ContainerHeader
	if f.HasData() {
		ch, _ = f.ContainerHeader()
	}
	return struct {
		Header             iostore.TocHeader        `json:"header"`
		CompressionMethods []string                 `json:"compression_methods"`
		MountPoint         string                   `json:"mount_point,omitempty"`
		Entries            any                      `json:"entries"`
		ContainerHeader    *iostore.ContainerHeader `json:"container_header,omitempty"`
	}{f.Header, f.CompressionMethods, mountPoint(f), entries, ch}
}

func (d lazyUtocDump) Len() int                   { return d.c.Len() }
func (d lazyUtocDump) Entry(i int) ContainerEntry { return d.c.Entry(i) }

// pathReaderAt reads a file by opening it for each ReadAt, so a Package
// (which has no Close) holds no file open.
type pathReaderAt string

func (p pathReaderAt) ReadAt(b []byte, off int64) (int, error) {
	f, err := os.Open(string(p))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.ReadAt(b, off)
}

func mountPoint(f *iostore.File) string {
	if f.DirectoryIndex != nil {
		return f.DirectoryIndex.MountPoint
	}
	return ""
}

// utocContainer is an opened .utoc with what resolving its packages needs.
type utocContainer struct {
	path string
	f    *iostore.File
	fsys *iostore.FS
	// openWhole is Options.OpenWhole: the opener of the partitions.
	openWhole osfile.WholeOpener

	entriesOnce sync.Once
	entries     []ContainerEntry

	ctxOnce sync.Once
	ctx     *utocContext

	headerOnce sync.Once
	header     *iostore.ContainerHeader
	headerErr  error
}

// containerHeader reads and parses the container header once.
func (c *utocContainer) containerHeader() (*iostore.ContainerHeader, error) {
	c.headerOnce.Do(func() { c.header, c.headerErr = c.f.ContainerHeader() })
	return c.header, c.headerErr
}

// openUtocKeys opens a container with the first of the given keys whose
// decrypted directory index is valid (see [eachKey]).
func openUtocKeys(keys string, open func([]iostore.Option) (*iostore.File, error)) (*iostore.File, error) {
	multi := len(splitKeys(keys)) > 1
	return eachKey(keys, func(k string) (*iostore.File, error) {
		var o []iostore.Option
		if k != "" {
			key, err := aeskey.Parse(k)
			if err != nil {
				return nil, err
			}
			o = append(o, iostore.WithAESKey(key))
		}
		f, err := open(o)
		if err != nil {
			return nil, err
		}
		if multi && f.DirectoryIndexErr != nil && isWrongKey(f.DirectoryIndexErr) {
			f.Close()
			return nil, f.DirectoryIndexErr
		}
		return f, nil
	})
}

// openUtoc opens a container for the front ends. An encrypted container
// without a key, or with the wrong one, is an error here: without its
// directory index there is nothing to list.
func openUtoc(p string, opts *Options) (*utocContainer, error) {
	keys := ""
	var more []iostore.Option
	if opts != nil {
		keys = opts.AESKey
		if opts.OpenWhole != nil {
			more = append(more, iostore.WithPartitionOpener(opts.OpenWhole))
		}
	}
	f, err := openUtocKeys(keys, func(o []iostore.Option) (*iostore.File, error) { return iostore.Open(p, append(o, more...)...) })
	if err != nil {
		return nil, err
	}
	if f.DirectoryIndexErr != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p, f.DirectoryIndexErr)
	}
	fsys, err := f.FS()
	if err != nil {
		f.Close()
		return nil, err
	}
	c := &utocContainer{path: p, f: f, fsys: fsys}
	if opts != nil {
		c.openWhole = opts.OpenWhole
	}
	return c, nil
}

func (c *utocContainer) Open(name string) (fs.File, error) { return c.fsys.Open(name) }
func (c *utocContainer) ReadFile(name string) ([]byte, error) {
	return c.fsys.ReadFile(name)
}
func (c *utocContainer) ReadDir(name string) ([]fs.DirEntry, error) { return c.fsys.ReadDir(name) }
func (c *utocContainer) Format() string                             { return "utoc" }
func (c *utocContainer) Close() error                               { return c.f.Close() }

// File returns the underlying IoStore file.
func (c *utocContainer) File() *iostore.File { return c.f }

func (c *utocContainer) Entries() []ContainerEntry {
	c.entriesOnce.Do(func() {
		out := make([]ContainerEntry, c.Len())
		for i := range out {
			out[i] = c.Entry(i)
		}
		c.entries = out
	})
	return c.entries
}

// Len is the number of chunks.
func (c *utocContainer) Len() int { return len(c.f.ChunkIDs) }

// Entry describes chunk i (see Entries).
func (c *utocContainer) Entry(i int) ContainerEntry {
	f := c.f
	id := f.ChunkIDs[i]
	info := f.Info(i)
	e := ContainerEntry{
		Path:           f.PathOf(i),
		ChunkID:        id.String(),
		ChunkType:      id.Type().Name(f.Header.Version),
		Offset:         int64(f.OffsetLength(i).Offset),
		Size:           int64(f.OffsetLength(i).Length),
		CompressedSize: info.CompressedSize,
		Compression:    info.Method,
		Encrypted:      f.Header.ContainerFlags&iostore.FlagEncrypted != 0,
		Partition:      info.Partition,
	}
	if f.HasHash(i) {
		h := f.Hash(i)
		e.Hash = hex.EncodeToString(h[:])
	}
	return e
}

func (c *utocContainer) Summary() []Field {
	f := c.f
	h := &f.Header
	fields := []Field{
		{"format", "IoStore TOC (.utoc)"},
		{"toc_version", fmt.Sprintf("%d (%s)", h.Version, h.Version)},
		{"container_id", fmt.Sprintf("0x%016x", h.ContainerID)},
		{"container_flags", h.ContainerFlags.String()},
		{"entries", h.TocEntryCount},
		{"compression_blocks", h.TocCompressedBlockEntryCount},
		{"compression_block_size", h.CompressionBlockSize},
		{"compression_methods", strings.Join(f.CompressionMethods[1:], ", ")},
		{"partitions", h.PartitionCount},
		{"partition_size", partitionSize(h.PartitionSize)},
		{"directory_index_size", h.DirectoryIndexSize},
		{"chunk_hash", f.HashKind()},
	}
	if h.ContainerFlags&iostore.FlagEncrypted != 0 {
		fields = append(fields, Field{"encryption", h.EncryptionMethod.String()}, Field{"encryption_key_guid", h.EncryptionKeyGuid.String()})
	}
	if f.Signature != nil {
		fields = append(fields, Field{"block_signatures", fmt.Sprintf("%d (SHA-1 of each stored block, checked on read; the RSA signature of the TOC is not checked)", len(f.Signature.ChunkBlockSignature))})
	}
	if len(f.PerfectHashSeeds) > 0 {
		fields = append(fields, Field{"perfect_hash_seeds", len(f.PerfectHashSeeds)}, Field{"chunks_without_perfect_hash", len(f.ChunksWithoutPerfectHash)})
	}
	if d := f.DirectoryIndex; d != nil {
		fields = append(fields, Field{"mount_point", d.MountPoint}, Field{"directories", len(d.Directories)}, Field{"files", d.NumFiles()}, Field{"strings", d.NumStrings()})
	}
	if f.IsGlobal() {
		fields = append(fields, Field{"global_container", true})
	}
	if !f.HasData() {
		fields = append(fields, Field{"ucas", "absent (TOC only: chunk data cannot be read)"})
	} else if ch, err := f.ContainerHeader(); err == nil {
		imports, shaders := 0, 0
		for i := range ch.StoreEntries.Len() {
			e := ch.StoreEntries.At(i)
			imports += len(e.ImportedPackages)
			shaders += len(e.ShaderMapHashes)
		}
		fields = append(fields,
			Field{"container_header_version", fmt.Sprintf("%d (%s)", ch.Version, ch.Version)},
			Field{"packages", len(ch.PackageIDs)},
			Field{"optional_segment_packages", len(ch.OptionalSegmentPackageIDs)},
			Field{"imported_packages", imports},
			Field{"shader_map_hashes", shaders},
			Field{"localized_packages", len(ch.LocalizedPackages)},
			Field{"package_redirects", len(ch.PackageRedirects)})
	} else if !errors.Is(err, iostore.ErrNotFound) {
		fields = append(fields, Field{"container_header_error", err.Error()})
	}
	return fields
}

// EntryReader opens chunk i's data, decoded a block at a time and
// hash-checked at its end (see iostore.File.OpenChunkStream): extraction
// and cat read each chunk once, chunks without a path included.
func (c *utocContainer) EntryReader(i int) (io.ReadCloser, error) {
	return c.f.OpenChunkStream(i)
}

// FindEntry finds the entry (the chunk) a user's path names, as the
// package commands resolve it (see resolveInner).
func (c *utocContainer) FindEntry(name string) (int, bool) {
	_, chunk, err := c.resolve(name)
	return chunk, err == nil
}

// DataErr says why none of the container's data can be read (a TOC-only
// copy, with no .ucas beside the .utoc), or is nil.
func (c *utocContainer) DataErr() error {
	if c.f.HasData() {
		return nil
	}
	return fmt.Errorf("%w: %d chunks listed, none can be read", iostore.ErrNoCas, len(c.f.ChunkIDs))
}

func (c *utocContainer) VerifyEntry(i int) error {
	if i < 0 || i >= len(c.f.ChunkIDs) {
		return fmt.Errorf("entry %d of %d", i, len(c.f.ChunkIDs))
	}
	return c.f.VerifyChunk(i)
}

// utocContext resolves names across the packages of one container and its
// global container.
type utocContext struct {
	c          *utocContainer
	header     *iostore.ContainerHeader
	headerErr  error
	script     *zen.ScriptObjects
	scriptErr  error
	scriptFrom string
	// pkgChunk finds the chunk of a package of the container by its ID
	// (see chunkOf): its values are chunk indices, found by their chunk
	// IDs' package IDs.
	pkgChunk *slots.Index
	// pkgName maps package IDs to package names, made when first asked
	// for (see packageName): only packages without imported package
	// names (UE 5.0–5.2) need it.
	pkgNameOnce sync.Once
	pkgName     map[uint64]string
	// entries indexes the package store: header.StoreEntry without its
	// linear search (made once; read only after). Its values index
	// header.PackageIDs, then OptionalSegmentPackageIDs (see storeEntry).
	entries *slots.Index

	mu       sync.Mutex
	packages map[uint64]*zen.Package
	legacy   map[zen.ObjectIndex]legacyExport
	// exports holds, for packages already opened whole, what naming an
	// import from them needs (see importedExports), so that importers do
	// not read and parse them again.
	exports     map[uint64][]importedExport
	exportCount int // entries of all exports slices, bounded by maxImportedExports
	// importers counts, for each package of the container that others in
	// it import, the importers not yet checked (see countImporters); nil
	// when not counted (exports are then kept up to the bound).
	importers map[uint64]int32
}

// importedExport is what a package import resolves to when it names an
// export of a package in the same container: that export's public export
// hash, its package's name, and its name, path and class path.
type importedExport struct {
	hash                   uint64
	pkg, name, path, class string
}

// maxImportedExports bounds the exports a container's context remembers
// for naming imports; past it, imports are named by reading the imported
// package again.
const maxImportedExports = 1 << 18

type legacyExport struct{ pkg, path string }

func (c *utocContainer) context() *utocContext {
	c.ctxOnce.Do(func() {
		x := &utocContext{c: c, packages: map[uint64]*zen.Package{}, legacy: map[zen.ObjectIndex]legacyExport{}, exports: map[uint64][]importedExport{}}
		f := c.f
		if d := f.DirectoryIndex; d != nil {
			// Of package files of one ID, the last one's chunk is found.
			x.pkgChunk = slots.New(d.NumFiles())
			for k := range d.NumFiles() {
				chunk := d.FileChunk(k)
				id := f.ChunkIDs[chunk]
				if id.Type().Canonical(f.Header.Version) != iostore.ChunkExportBundleData || id.Index() != 0 {
					continue
				}
				x.pkgChunk.Put(slots.Hash(id.ID()), int32(chunk), func(u int32) bool { return f.ChunkIDs[u].ID() == id.ID() }, true)
			}
		}
		x.header, x.headerErr = c.containerHeader()
		if h := x.header; h != nil && len(h.PackageIDs)+len(h.OptionalSegmentPackageIDs) < math.MaxInt32 {
			x.entries = slots.New(len(h.PackageIDs) + len(h.OptionalSegmentPackageIDs))
			// The first entry of an ID wins, the main segment's first,
			// as in StoreEntry.
			for i, id := range h.PackageIDs {
				if i < h.StoreEntries.Len() {
					x.entries.Put(slots.Hash(uint64(id)), int32(i), func(u int32) bool { return x.storeID(u) == id }, false)
				}
			}
			for i, id := range h.OptionalSegmentPackageIDs {
				if i < h.OptionalSegmentStoreEntries.Len() {
					x.entries.Put(slots.Hash(uint64(id)), int32(len(h.PackageIDs)+i), func(u int32) bool { return x.storeID(u) == id }, false)
				}
			}
		}
		x.script, x.scriptFrom, x.scriptErr = findGlobal(c.path, f, c.openWhole)
		c.ctx = x
	})
	return c.ctx
}

// findGlobal loads the script objects of the global container: p itself
// when it is one, else what $UPKG_GLOBAL names (GlobalEnv), else
// global.utoc in p's folder or up to two folders above (CUE4Parse's
// fixtures keep one global.utoc above the variant folders). When what
// UPKG_GLOBAL names cannot be read, the error comes with the script
// objects found beside p, if any.
//
// With openWhole set (verify maps files; its readers recover from memory
// faults), a global.utoc found beside p is opened through it and its table
// parsed in place when it can be: the container is then closed only once
// the table is no longer used.
func findGlobal(p string, f *iostore.File, openWhole osfile.WholeOpener) (*zen.ScriptObjects, string, error) {
	if f != nil && f.IsGlobal() {
		// Through the cache: the containers beside it need the same table.
		if st, err := os.Stat(p); err == nil {
			s, err := globalCache(filepath.Clean(p), st, func() (*zen.ScriptObjects, error) { return f.ScriptObjectsCached(&scriptObjectsCache) })
			return s, p, err
		}
		s, err := f.ScriptObjects()
		return s, p, err
	}
	if g := os.Getenv(GlobalEnv); nativeGlobal && g != "" {
		s, err := envScriptObjects(g)
		if err == nil {
			return s, g, nil
		}
		// What UPKG_GLOBAL names cannot be read: said, and the search
		// beside p made all the same.
		err = fmt.Errorf("$%s %s: %w", GlobalEnv, g, err)
		if s, from, nerr := globalNear(p, openWhole); nerr == nil {
			return s, from, fmt.Errorf("%w; the global.utoc found near it is used", err)
		}
		return nil, "", err
	}
	return globalNear(p, openWhole)
}

// globalNear is findGlobal's search of p's folder and the two above.
func globalNear(p string, openWhole osfile.WholeOpener) (*zen.ScriptObjects, string, error) {
	dir := filepath.Dir(p)
	for range 3 {
		g := filepath.Clean(filepath.Join(dir, "global.utoc"))
		if st, err := os.Stat(g); err == nil {
			s, err := globalCache(g, st, func() (*zen.ScriptObjects, error) {
				if openWhole != nil {
					return globalInPlace(g, openWhole)
				}
				gf, err := iostore.Open(g)
				if err != nil {
					return nil, err
				}
				defer gf.Close()
				return gf.ScriptObjectsCached(&scriptObjectsCache)
			})
			return s, g, err
		}
		// Up a folder, lexically: filepath.Dir of a relative "." is "."
		// again (a container named from its own folder found no global
		// container above it).
		dir = filepath.Join(dir, "..")
	}
	return nil, "", zen.ErrNoGlobal
}

// globalInPlace loads the script objects of global container g opened
// through openWhole, in place when they can be: g is closed once the table
// is unreachable (the table may refer to g's memory until then).
func globalInPlace(g string, openWhole osfile.WholeOpener) (*zen.ScriptObjects, error) {
	gf, err := iostore.Open(g, iostore.WithPartitionOpener(openWhole))
	if err != nil {
		return nil, err
	}
	s, err := gf.ScriptObjectsInPlace(&scriptObjectsCache)
	if err != nil {
		gf.Close()
		return nil, err
	}
	runtime.AddCleanup(s, func(gf *iostore.File) { gf.Close() }, gf)
	return s, nil
}

// globals caches the script objects of recently used global containers:
// every package opened from a container needs them, and parsing a UE5 table
// (tens of thousands of objects) per package would dominate.
var (
	globalsMu sync.Mutex
	globals   = map[string]globalEntry{}
)

type globalEntry struct {
	size, mod int64
	s         *zen.ScriptObjects
	err       error
}

// scriptObjectsCache shares one parsed table between global containers
// with the same ScriptObjects chunk (test fixtures often copy one game's
// global.utoc beside each variant).
var scriptObjectsCache zen.ScriptObjectsCache

// maxGlobals bounds the cache; a session rarely touches more than one game.
// A UE5 table takes over 15 MB in memory, and verify walks a game's
// containers one after another, so only the last one used is kept.
const maxGlobals = 1

func globalCache(path string, st os.FileInfo, load func() (*zen.ScriptObjects, error)) (*zen.ScriptObjects, error) {
	globalsMu.Lock()
	defer globalsMu.Unlock()
	if e, ok := globals[path]; ok && e.size == st.Size() && e.mod == st.ModTime().UnixNano() {
		return e.s, e.err
	}
	s, err := load()
	if len(globals) >= maxGlobals {
		clear(globals)
	}
	globals[path] = globalEntry{st.Size(), st.ModTime().UnixNano(), s, err}
	return s, err
}

// packageName returns the name of the container's package id, from its
// path in the directory index.
func (x *utocContext) packageName(id uint64) (string, bool) {
	x.pkgNameOnce.Do(func() {
		x.pkgName = map[uint64]string{}
		f := x.c.f
		d := f.DirectoryIndex
		if d == nil {
			return
		}
		for k := range d.NumFiles() {
			fe := d.File(k)
			id := f.ChunkIDs[fe.Chunk]
			if id.Type().Canonical(f.Header.Version) != iostore.ChunkExportBundleData || id.Index() != 0 {
				continue
			}
			if n, ok := iostore.PackageName(fe.Path); ok {
				x.pkgName[id.ID()] = n
			}
		}
	})
	n, ok := x.pkgName[id]
	return n, ok
}

// storeEntry returns the package store entry of package id.
func (x *utocContext) storeEntry(id uint64) (iostore.StoreEntry, bool) {
	if x.entries == nil {
		return iostore.StoreEntry{}, false
	}
	i, ok := x.entries.Get(slots.Hash(id), func(u int32) bool { return x.storeID(u) == ue.ID(id) })
	if !ok {
		return iostore.StoreEntry{}, false
	}
	h := x.header
	if n := int32(len(h.PackageIDs)); i >= n {
		return h.OptionalSegmentStoreEntries.At(int(i - n)), true
	}
	return h.StoreEntries.At(int(i)), true
}

// storeID is the package ID of value i of x.entries.
func (x *utocContext) storeID(i int32) ue.ID {
	h := x.header
	if n := int32(len(h.PackageIDs)); i >= n {
		return h.OptionalSegmentPackageIDs[i-n]
	}
	return h.PackageIDs[i]
}

// headerVersion returns the zen layout of the container's packages.
func (x *utocContext) headerVersion() (zen.HeaderVersion, bool) {
	if x.header != nil {
		return x.header.Version, true
	}
	v := x.c.f.Header.Version
	switch {
	case v <= iostore.TocDirectoryIndex:
		return zen.HeaderPreInitial, true
	case v <= iostore.TocPerfectHash:
		return zen.HeaderInitial, true
	}
	return 0, false
}

// zenOptions returns the layout and package store facts for package id.
func (x *utocContext) zenOptions(id uint64) zen.Options {
	opts := zen.Options{Auto: true}
	if v, ok := x.headerVersion(); ok {
		opts = zen.Options{HeaderVersion: v}
	}
	if x.header != nil {
		if e, ok := x.storeEntry(id); ok {
			opts.StoreExportBundleCount = e.ExportBundleCount
			opts.StoreImportedPackages = e.ImportedPackages
		}
	}
	return opts
}

// headerPrefix is how much of a package chunk parsePackage reads first: one
// compression block (64 KiB when the block size is unusual), which holds
// the header of nearly every package.
func headerPrefix(f *iostore.File) uint64 {
	if bs := uint64(f.Header.CompressionBlockSize); bs >= 4<<10 && bs <= 1<<20 {
		return bs
	}
	return 64 << 10
}

// chunkOf returns the chunk of package id when it is in the container (x
// may be nil: a loose file).
func (x *utocContext) chunkOf(id uint64) (int, bool) {
	if x == nil || id == 0 {
		return 0, false
	}
	return x.lookupChunk(id)
}

// lookupChunk returns the chunk of package id when it is in the container.
func (x *utocContext) lookupChunk(id uint64) (int, bool) {
	if x.pkgChunk == nil {
		return 0, false
	}
	ids := x.c.f.ChunkIDs
	c, ok := x.pkgChunk.Get(slots.Hash(id), func(u int32) bool { return ids[u].ID() == id })
	return int(c), ok
}

// parsePackage reads and parses the package with id (cached).
func (x *utocContext) parsePackage(id uint64) (*zen.Package, error) {
	x.mu.Lock()
	if p, ok := x.packages[id]; ok {
		x.mu.Unlock()
		return p, nil
	}
	x.mu.Unlock()
	chunk, ok := x.lookupChunk(id)
	if !ok {
		return nil, fmt.Errorf("package 0x%016x is not in this container", id)
	}
	opts := x.zenOptions(id)
	f := x.c.f
	var p *zen.Package
	if n := headerPrefix(f); !opts.Auto && n < f.OffsetLength(chunk).Length {
		// Only the header is needed: parse the first compression block's
		// worth when it holds it. With the layout known, a parse fails on
		// a prefix only where the header runs past it; then (and on any
		// error) the whole chunk is read and parsed as before.
		if pre, err := f.ReadChunkPrefix(chunk, n); err == nil {
			p, _ = zen.Parse(pre, opts)
		}
	}
	if p == nil {
		var data []byte
		var err error
		if size := int64(f.OffsetLength(chunk).Length); size > zenWholeMax {
			// Parsed from its header; export data, if asked for, is read
			// block by block.
			if opts.Body, err = f.ChunkReader(chunk); err == nil {
				opts.Size = size
				data, err = f.ReadChunkPrefix(chunk, uint64(zenPrefix))
			}
		} else {
			data, err = f.ReadChunk(chunk)
		}
		if err != nil {
			return nil, err
		}
		if p, err = zen.Parse(data, opts); err != nil {
			return nil, err
		}
	}
	// Importers build paths of its exports: as bounded as its own.
	if err := checkZenPaths(p, int64(f.OffsetLength(chunk).Length)); err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.packages[id] = p
	x.mu.Unlock()
	return p, nil
}

// rememberExports keeps what naming imports from package id needs, taken
// from the package p opened whole from chunk, whose export map out renders:
// the name, path and class of every export with a public export hash, and
// of the first one without (a lookup by hash finds the first match).
func (x *utocContext) rememberExports(id uint64, chunk int, p *zen.Package, out []Object) {
	if c, ok := x.lookupChunk(id); !ok || c != chunk || len(out) != len(p.Exports) {
		return
	}
	n, zero := 0, false
	for i := range p.Exports {
		if h := p.Exports[i].PublicExportHash; h != 0 || !zero {
			n++
			zero = zero || h == 0
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.importers != nil && x.importers[id] == 0 {
		// No importer left to check (or none at all).
		delete(x.packages, id)
		return
	}
	if _, ok := x.exports[id]; ok || x.exportCount+n > maxImportedExports {
		return
	}
	kept := make([]importedExport, 0, n)
	zero = false
	// Copies: the strings may be parts of the package's whole name batch,
	// which the kept ones would keep alive (up to maxImportedExports of
	// them, from thousands of packages).
	pkg := strings.Clone(p.Name)
	for i := range p.Exports {
		h := p.Exports[i].PublicExportHash
		if h == 0 && zero {
			continue
		}
		zero = zero || h == 0
		o := &out[i]
		kept = append(kept, importedExport{hash: uint64(h), pkg: pkg, name: strings.Clone(o.Name), path: strings.Clone(o.Path), class: strings.Clone(o.Class)})
	}
	x.exports[id] = kept
	x.exportCount += n
	// The parsed package is no longer needed for naming imports.
	delete(x.packages, id)
}

// countImporters sets up the counts of importers (x.importers) for a
// verify that checks the packages of fileOf (package IDs, each with the
// first of its files) and calls importsNamed after each of them. A
// package's exports are then kept only while packages that import it are
// left to check, rather than for every package up to maxImportedExports.
func (x *utocContext) countImporters(fileOf map[uint64]int32) {
	counts := map[uint64]int32{}
	for id := range fileOf {
		e, ok := x.storeEntry(id)
		if !ok {
			continue
		}
		for _, imp := range e.ImportedPackages {
			if _, checked := fileOf[uint64(imp)]; checked {
				counts[uint64(imp)]++
			}
		}
	}
	x.mu.Lock()
	x.importers = counts
	x.mu.Unlock()
}

// importsNamed tells the context that package id, an importer counted by
// countImporters, has been checked: the packages it imports that no other
// importer waits for are forgotten.
func (x *utocContext) importsNamed(id uint64) {
	e, ok := x.storeEntry(id)
	if !ok {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.importers == nil {
		return
	}
	for _, imp := range e.ImportedPackages {
		n, counted := x.importers[uint64(imp)]
		if !counted {
			continue
		}
		if n > 1 {
			x.importers[uint64(imp)] = n - 1
			continue
		}
		delete(x.importers, uint64(imp))
		x.exportCount -= len(x.exports[uint64(imp)])
		delete(x.exports, uint64(imp))
		delete(x.packages, uint64(imp))
	}
}

// importedExport finds the export with hash of package id if the package
// was opened whole before.
func (x *utocContext) importedExport(id, hash uint64) (e importedExport, known, found bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	exports, known := x.exports[id]
	for _, e := range exports {
		if e.hash == hash {
			return e, true, true
		}
	}
	return importedExport{}, known, false
}

// legacyImport names a UE 4.26/4.27 package import: the global import
// index of a public export of one of the packages the package store lists
// as imported by pkg. Only those packages are read (and cached).
func (x *utocContext) legacyImport(pkg uint64, gi zen.ObjectIndex) (legacyExport, bool) {
	x.mu.Lock()
	if e, ok := x.legacy[gi]; ok {
		x.mu.Unlock()
		return e, true
	}
	x.mu.Unlock()
	if x.header == nil {
		return legacyExport{}, false
	}
	entry, ok := x.storeEntry(pkg)
	if !ok {
		return legacyExport{}, false
	}
	for _, id := range entry.ImportedPackages {
		p, err := x.parsePackage(uint64(id))
		if err != nil {
			continue
		}
		x.mu.Lock()
		for i, e := range p.Exports {
			if g := zen.ObjectIndex(e.PublicExportHash); g.Kind() == zen.KindPackageImport {
				x.legacy[g] = legacyExport{pkg: p.Name, path: exportPath(p, i, 0)}
			}
		}
		e, found := x.legacy[gi]
		x.mu.Unlock()
		if found {
			return e, true
		}
	}
	return legacyExport{}, false
}

// openUtocInner resolves "GAME.utoc::/Game/Path/Asset" (a package name, with
// or without extension) or "GAME.utoc::Game/Content/Path/Asset.uasset" (a
// container path) to an Input.
func openUtocInner(container, inner string, opts *Options) (*Input, error) {
	c, err := openUtoc(container, opts)
	if err != nil {
		return nil, err
	}
	p, chunk, err := c.resolve(inner)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%s%s%s: %w", container, ContainerSep, inner, err)
	}
	read := readPackageChunk
	late := verifyAfterRead && opts != nil && opts.LateChunkHash
	if late {
		read = readPackageChunkLazy
	}
	data, body, err := read(c.f, chunk, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	zc := &zenChunk{Reader: *bytes.NewReader(data), data: data, c: c, chunk: chunk}
	size := int64(len(data))
	if body != nil {
		zc.body, size = body, body.Size()
	}
	base := strings.TrimSuffix(p, path.Ext(p))
	in := &Input{
		Name: container + ContainerSep + p,
		R:    zc,
		Size: size,
		Sibling: func(ext string) (io.ReaderAt, int64, error) {
			if i, ok := c.fsys.Chunk(base + ext); ok {
				d, err := c.f.ReadChunkVerified(i)
				if err != nil {
					return nil, 0, err
				}
				return bytes.NewReader(d), int64(len(d)), nil
			}
			return nil, 0, fmt.Errorf("%s%s%s%s: %w", container, ContainerSep, base, ext, fs.ErrNotExist)
		},
		Close: c.Close,
	}
	switch {
	case body != nil && late:
		in.Close = func() error {
			err := body.Verify() // hashes what the reads left
			body.Close()         // stops its decoding ahead
			if cerr := c.Close(); err == nil {
				err = cerr
			}
			return err
		}
	case body != nil:
		in.Close = func() error {
			body.Close() // stops its decoding ahead
			return c.Close()
		}
	}
	return in, nil
}

// zenChunk is the ReaderAt of a package read from a container: the zen
// opener recognises it and resolves names through the container.
type zenChunk struct {
	bytes.Reader
	data []byte // what Reader reads, parsed in place (never modified)
	// body reads a chunk over zenWholeMax, which data and Reader then do
	// not hold.
	body  io.ReaderAt
	c     *utocContainer
	chunk int
	// scratch holds the arrays taken from scratchPool for a package being
	// verified, given back once its result line is made.
	scratch *zenScratch
	opens   int // packages opened from the chunk (getScratch calls)
	// in is verifyInner's Input of the chunk (made with it).
	in Input
}

// zenScratch holds the per-package arrays a verify line keeps nothing of:
// the import and export objects, the sections and the names given to the
// property decoder. Past the parts used, each array is clear.
type zenScratch struct {
	objs              []Object
	secs              []Section
	names             []string
	nObjs, nSecs, nNm int // the parts used
	// The export paths and what builds them (see zenResolver.fillPaths):
	// paths is clear past nPaths; spans and pathBuf hold nothing kept.
	paths   []string
	nPaths  int
	spans   [][2]int
	pathBuf []byte
	// pkg is the zen package parsed last, whose tables the next parse
	// reuses (zen.Options.Reuse).
	pkg *zen.Package
}

// scratchPool holds the arrays of packages verified one after another.
var scratchPool sync.Pool // *zenScratch

// maxPooledObjects bounds the arrays kept in scratchPool (objects; names
// are kept up to four times as many).
const maxPooledObjects = 1 << 14

// maxPooledPathBytes bounds the path buffer kept in scratchPool.
const maxPooledPathBytes = 1 << 20

// ReadAt reads the chunk: from data, or through body.
func (z *zenChunk) ReadAt(b []byte, off int64) (int, error) {
	if z.body != nil {
		return z.body.ReadAt(b, off)
	}
	return z.Reader.ReadAt(b, off)
}

// getScratch takes the package's scratch arrays from scratchPool; nil
// when the package took them before (they may still be in use).
func (z *zenChunk) getScratch() *zenScratch {
	z.opens++
	if z.scratch != nil || z.opens > 1 {
		return nil
	}
	if s, ok := scratchPool.Get().(*zenScratch); ok {
		z.scratch = s
	} else {
		z.scratch = &zenScratch{}
	}
	return z.scratch
}

// objects returns an empty array with room for n objects (nil when n is
// zero), s's when it is not nil.
func (s *zenScratch) objects(n int) []Object {
	if n <= 0 {
		return nil
	}
	if s == nil {
		return make([]Object, 0, n)
	}
	if cap(s.objs) < n {
		s.objs = make([]Object, 0, n)
	}
	s.nObjs = n
	return s.objs[:0]
}

// sections returns an empty array with room for n sections.
func (s *zenScratch) sections(n int) []Section {
	if s == nil {
		return make([]Section, 0, n)
	}
	if cap(s.secs) < n {
		s.secs = make([]Section, 0, n)
	}
	s.nSecs = cap(s.secs) // appends may use all of it
	return s.secs[:0]
}

// nameList returns an array of n names.
func (s *zenScratch) nameList(n int) []string {
	if s == nil {
		return make([]string, n)
	}
	if cap(s.names) < n {
		s.names = make([]string, n)
	}
	s.nNm = n
	return s.names[:n]
}

// pathList returns an array of n paths.
func (s *zenScratch) pathList(n int) []string {
	if s == nil {
		return make([]string, n)
	}
	if cap(s.paths) < n {
		s.paths = make([]string, n)
	}
	s.nPaths = n
	return s.paths[:n]
}

// spanList returns an array of n zero spans.
func (s *zenScratch) spanList(n int) [][2]int {
	if s == nil {
		return make([][2]int, n)
	}
	if cap(s.spans) < n {
		s.spans = make([][2]int, n)
	}
	sp := s.spans[:n]
	clear(sp)
	return sp
}

// pathBytes returns an empty buffer for building paths.
func (s *zenScratch) pathBytes() []byte {
	if s == nil {
		return nil
	}
	return s.pathBuf[:0]
}

// keepPathBytes keeps buf, grown by appending to pathBytes, for the next
// package.
func (s *zenScratch) keepPathBytes(buf []byte) {
	if s != nil {
		s.pathBuf = buf
	}
}

// release gives the scratch arrays back to scratchPool, cleared; nothing
// may use the package's objects, sections or names afterwards.
func (z *zenChunk) release() {
	s := z.scratch
	if s == nil {
		return
	}
	z.scratch = nil
	if cap(s.objs) > maxPooledObjects || cap(s.names) > 4*maxPooledObjects || cap(s.paths) > maxPooledObjects || cap(s.pathBuf) > maxPooledPathBytes {
		return
	}
	clear(s.objs[:s.nObjs])
	clear(s.secs[:s.nSecs])
	clear(s.names[:s.nNm])
	clear(s.paths[:s.nPaths])
	s.nObjs, s.nSecs, s.nNm, s.nPaths = 0, 0, 0, 0
	if p := s.pkg; p != nil && (len(p.Names) > 4*maxPooledObjects || len(p.Exports)+len(p.ImportMap) > maxPooledObjects) {
		s.pkg = nil
	}
	scratchPool.Put(s)
}

// resolve finds the file for an inner path: a container path, or a package
// name mapped through the Content folders.
func (c *utocContainer) resolve(inner string) (string, int, error) {
	if c.f.DirectoryIndex == nil {
		return "", 0, errors.New("container has no directory index")
	}
	files := c.f.DirectoryIndex.Files()
	i, err := resolveInner(innerNames{
		names: func() []string {
			names := make([]string, len(files))
			for i, fe := range files {
				if fe.Valid {
					names[i] = fe.Path
				}
			}
			return names
		},
		lookup: func(p string) (int, bool) {
			for i, fe := range files {
				if fe.Valid && fe.Path == p {
					return i, true
				}
			}
			return 0, false
		},
		what: "the container",
	}, inner)
	if err != nil {
		return "", 0, err
	}
	return files[i].Path, files[i].Chunk, nil
}

// verifyUtoc is the verifier for .utoc files: one "zen" line per package,
// then one "utoc" line with the chunk hash results.
func verifyUtoc(p string, opts *Options, emit func(VerifyResult)) (handled bool) {
	if !strings.EqualFold(filepath.Ext(p), ".utoc") {
		return false
	}
	res := VerifyResult{Path: p, Format: "utoc"}
	if opts.OpenWhole != nil {
		// Partitions may be mapped: see VerifyPackage. A fault while
		// a package is read fails its line (verifyUtocPackage); one
		// while the index or the other chunks are read fails the
		// container's, which comes last.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer containerFault(&res, opts, emit, &handled)
	}
	before := heapInUse()
	c, err := openUtoc(p, opts)
	if err != nil {
		res.Error = trimPath(err.Error(), p)
		emit(res)
		return true
	}
	defer c.Close()
	defer roomForIndex(before)()
	f := c.f
	n := len(f.ChunkIDs)
	okN, failN := 0, 0
	res.Entries = &n
	res.ChunksOK, res.ChunksFailed = &okN, &failN
	res.Engine = tocEngine(f.Header.Version)
	res.EngineSource = "detected"
	if err := c.DataErr(); err != nil {
		// A TOC-only copy: the index was read completely, data cannot be.
		res.Error = err.Error()
		emit(res)
		return true
	}
	// Every chunk is read and hashed once: a package's chunk is hashed as
	// it is read for the package's own checks, the other chunks on their
	// own. The package lines go out as the packages are checked, and the
	// container line, which counts every chunk, after them: a container of
	// hundreds of thousands of packages holds none of their lines.
	//
	// Nothing here is held for each chunk or package but a few bytes
	// without pointers, also when every chunk fails (chunkFailures).
	failures := newChunkFailures(n)
	isPkg := make([]bool, n)
	if f.DirectoryIndex != nil {
		files := f.DirectoryIndex // (FileChunk(k), File(k): no list of them all)
		pkgFiles := packageFiles(f, files)
		id := func(j int) uint64 { return f.ChunkIDs[files.FileChunk(int(pkgFiles[j]))].ID() }
		// Checked imported packages first, so that naming their importers'
		// imports needs no second read of them, and reported in that
		// order (not the directory's). Idle workers share the packages:
		// one whose imports are still being checked reads them again, to
		// the same names. A line checked ahead of the one before it waits
		// for it.
		x := c.context()
		order, counted := packageOrder(x, len(pkgFiles), id)
		for _, k := range pkgFiles {
			isPkg[files.FileChunk(int(k))] = true
		}
		if opts.ContainerLines != nil {
			opts.ContainerLines(len(order))
		}
		lines := inOrder{emit: emit}
		shareWork(opts, len(order), func(next func() (int, bool)) {
			// One buffer serves every package a worker checks: a result
			// line keeps nothing of the chunk it was checked from.
			bp := chunkBufs.Get().(*[]byte)
			defer chunkBufs.Put(bp)
			for k, ok := next(); ok; k, ok = next() {
				j := int(order[k])
				fe := files.File(int(pkgFiles[j]))
				r, err := verifyUtocPackage(c, fe, bp, opts)
				failures.add(fe.Chunk, err)
				if counted[j] {
					x.importsNamed(id(j))
				}
				lines.put(k, r)
			}
		})
	}
	var others []int32 // the chunks no package check has read
	for i := range f.ChunkIDs {
		if !isPkg[i] {
			others = append(others, int32(i))
		}
	}
	shareWork(opts, len(others), func(next func() (int, bool)) {
		for k, ok := next(); ok; k, ok = next() {
			failures.add(int(others[k]), f.VerifyChunk(int(others[k])))
		}
	})
	failN = failures.n
	okN = n - failN
	var problems []string
	if bad := checkPackageIDs(c); bad != "" {
		problems = append(problems, bad)
	}
	if u := &failures.unsupported; u.n > 0 {
		var ue *compression.UnsupportedError
		errors.As(u.err[0], &ue)
		problems = append(problems, fmt.Sprintf("%d chunks not checked: %s (%s)", u.n, ue.Error(), u.list(func(i int32, _ error) string { return chunkLabel(f, int(i)) })))
	}
	if o := &failures.other; o.n > 0 {
		problems = append(problems, fmt.Sprintf("%d chunks failed: %s", o.n, o.list(func(_ int32, err error) string { return err.Error() })))
	}
	res.OK = len(problems) == 0
	res.Error = strings.Join(problems, "; ")
	emit(res)
	return true
}

// verifyUtocPackage checks the package of file fe of a container: its
// chunk's hash and the package read from it. It returns the package's line
// and the error of its chunk (nil when the chunk reads and its hash holds,
// though the package may fail its checks). *bp is the worker's buffer for
// the chunk, kept when it grew. A memory fault in a mapped partition fails
// this package's line and chunk.
func verifyUtocPackage(c *utocContainer, fe iostore.FileEntry, bp *[]byte, opts *Options) (res VerifyResult, chunkErr error) {
	defer func() {
		if x := recover(); x != nil {
			if _, fault := x.(interface{ Addr() uintptr }); !fault {
				panic(x)
			}
			res = VerifyResult{Path: c.path + ContainerSep + fe.Path, Format: "zen", Error: recoveredError(x, opts)}
			chunkErr = errors.New(res.Error)
		}
	}()
	data, body, err := readPackageChunkLazy(c.f, fe.Chunk, *bp)
	if cap(data) > cap(*bp) && cap(data) <= maxChunkBuf {
		*bp = data
	}
	res = verifyInner(c, fe.Path, fe.Chunk, data, body, err, opts)
	if body != nil {
		defer body.Close() // stops its decoding ahead
		// The chunk's hash, checked after the package's own checks read
		// it: a chunk that fails gets the line it would have got failing
		// before them.
		if verifyAfterRead {
			if err = body.Verify(); err != nil {
				res = verifyInner(c, fe.Path, fe.Chunk, nil, nil, err, opts)
			}
		}
	}
	return res, err
}

// packageFiles returns the indices into files (a container's directory
// listing) of its package files, in directory order.
func packageFiles(f *iostore.File, files *iostore.DirectoryIndex) []int32 {
	var pkgFiles []int32
	for k := range files.NumFiles() {
		id := f.ChunkIDs[files.FileChunk(k)]
		if id.Type().Canonical(f.Header.Version) == iostore.ChunkExportBundleData && files.FileValid(k) {
			pkgFiles = append(pkgFiles, int32(k))
		}
	}
	return pkgFiles
}

// packageOrder orders the n package files of a container to be checked,
// id(j) giving the package ID of file j: it returns the order of
// importsFirst, and counted[j] set for the first file of each package ID,
// whose importers it has counted (countImporters).
func packageOrder(x *utocContext, n int, id func(int) uint64) (order []int32, counted []bool) {
	// The first package file of each package ID.
	fileOf := make(map[uint64]int32, n)
	for j := range n {
		if _, ok := fileOf[id(j)]; !ok {
			fileOf[id(j)] = int32(j)
		}
	}
	counted = make([]bool, n)
	for _, j := range fileOf {
		counted[j] = true
	}
	x.countImporters(fileOf)
	return importsFirst(x, n, id, fileOf), counted
}

// importsFirst orders n package files (id(j) is the package ID of file j,
// fileOf the first file of each ID) so that, as far as the package store
// tells and but for cycles, a package comes after the packages of the
// container it imports. It returns indices of files; each appears once.
func importsFirst(x *utocContext, n int, id func(int) uint64, fileOf map[uint64]int32) []int32 {
	order := make([]int32, 0, n)
	if n < 2 || x.header == nil {
		for j := range n {
			order = append(order, int32(j))
		}
		return order
	}
	// Depth first, without recursion: a frame is a package file and how
	// many of its imports have been visited.
	type frame struct {
		j    int32
		next int
	}
	seen := make([]bool, n)
	var stack []frame
	for root := range n {
		if seen[root] {
			continue
		}
		seen[root] = true
		stack = append(stack[:0], frame{int32(root), 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			var imports []ue.ID
			if e, ok := x.storeEntry(id(int(top.j))); ok {
				imports = e.ImportedPackages
			}
			if top.next < len(imports) {
				dep, ok := fileOf[uint64(imports[top.next])]
				top.next++
				if ok && !seen[dep] {
					seen[dep] = true
					stack = append(stack, frame{dep, 0})
				}
				continue
			}
			order = append(order, top.j)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}

// maxChunkBuf bounds the package buffer verifyUtoc keeps between packages
// (package header chunks are mostly a few KiB to a few MiB).
const maxChunkBuf = 16 << 20

// zenWholeMax is the size of the largest package chunk read whole into
// memory. A bigger one (a map's export bundle can be hundreds of MB) is
// parsed from its header and read export by export through an
// iostore.ChunkReader, which holds two compression blocks of it at a
// time. (A variable: tests lower it.)
var zenWholeMax int64 = maxChunkBuf

// zenPrefix is how much of a package chunk over zenWholeMax is read before
// parsing it: zen.Parse reads the rest of a longer header itself. (A
// variable: tests lower it.)
var zenPrefix int64 = 64 << 10

// readPackageChunk reads package chunk i for its checks, checking its
// hash: whole, into buf's memory when it has room (data), up to
// zenWholeMax bytes; a bigger chunk is hashed block by block and given as
// a ChunkReader (body).
func readPackageChunk(f *iostore.File, i int, buf []byte) (data []byte, body *iostore.ChunkReader, err error) {
	if int64(f.OffsetLength(i).Length) <= zenWholeMax {
		data, err = f.ReadChunkVerifiedBuf(i, buf)
		return data, nil, err
	}
	if err := f.VerifyChunk(i); err != nil {
		return nil, nil, err
	}
	body, err = f.ChunkReader(i)
	return nil, body, err
}

// chunkBufs holds verifyUtoc's package buffers, one per worker at a time.
var chunkBufs = sync.Pool{New: func() any { return new([]byte) }}

// checkPackageIDs checks that every package's chunk ID is the CityHash64
// of its package name and that the package store has an entry for it.
func checkPackageIDs(c *utocContainer) string {
	f := c.f
	if f.DirectoryIndex == nil {
		return ""
	}
	_, err := c.containerHeader()
	if err != nil {
		if errors.Is(err, iostore.ErrNotFound) {
			return ""
		}
		return "container header: " + err.Error()
	}
	x := c.context() // its store entries: the IDs with a package store entry
	// The first few failures (in directory order) and how many there are.
	var bad []string
	nbad := 0
	d := f.DirectoryIndex
	for k := range d.NumFiles() {
		id := f.ChunkIDs[d.FileChunk(k)]
		if id.Type().Canonical(f.Header.Version) != iostore.ChunkExportBundleData || id.Index() != 0 {
			continue
		}
		fe := d.File(k)
		msg := ""
		name, ok := iostore.PackageName(fe.Path)
		if ok && zen.PackageID(name) != id.ID() && !strings.HasSuffix(name, ".o") {
			msg = fmt.Sprintf("%s: package ID %016x, CityHash64(%q) = %016x", fe.Path, id.ID(), strings.ToLower(name), zen.PackageID(name))
		} else if _, stored := x.storeEntry(id.ID()); !stored {
			msg = fmt.Sprintf("%s: package %016x has no package store entry", fe.Path, id.ID())
		}
		if msg != "" {
			if nbad++; len(bad) < keptErrors {
				bad = append(bad, msg)
			}
		}
	}
	if nbad == 0 {
		return ""
	}
	return fmt.Sprintf("%d packages fail the package ID checks: %s", nbad, someOf(bad, nbad))
}

func chunkLabel(f *iostore.File, i int) string {
	if p := f.PathOf(i); p != "" {
		return p
	}
	return f.ChunkIDs[i].String()
}

// verifyInner checks the package at path p in the container, whose chunk
// has been read (and hashed) as data, or failed with err.
func verifyInner(c *utocContainer, p string, chunk int, data []byte, body *iostore.ChunkReader, err error, opts *Options) (res VerifyResult) {
	name := c.path + ContainerSep + p
	res = VerifyResult{Path: name, Format: "zen"}
	defer func() {
		if r := recover(); r != nil {
			res.OK = false
			res.Error = recoveredError(r, opts)
		}
	}()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	zc := &zenChunk{Reader: *bytes.NewReader(data), data: data, c: c, chunk: chunk}
	in := &zc.in
	*in = Input{Name: name, R: zc, Size: int64(len(data))}
	if body != nil {
		zc.body, in.Size = body, body.Size()
	}
	pkg, err := openZenProps(in, opts) // with property statistics, like loose zen packages
	if err != nil {
		zc.release()
		res.Error = err.Error()
		return res
	}
	if pkg.Path == "" {
		pkg.Path = name
	}
	res = ResultFor(pkg)
	zc.release()
	return res
}

// tocEngine names the engine versions that write a TOC version.
func tocEngine(v iostore.TocVersion) string {
	switch v {
	case iostore.TocInitial:
		return "4.25"
	case iostore.TocDirectoryIndex:
		return "4.26"
	case iostore.TocPartitionSize:
		return "4.27"
	case iostore.TocPerfectHash:
		return "5.0 EA"
	case iostore.TocPerfectHashWithOverflow:
		return "5.0-5.3"
	case iostore.TocOnDemandMetaData:
		return "5.4"
	case iostore.TocRemovedOnDemandMetaData, iostore.TocReplaceIoChunkHashWithIoHash:
		return "5.5-5.8"
	}
	return "5.8+ (6.0)"
}

func partitionSize(n uint64) any {
	if n == ^uint64(0) {
		return "unlimited (one partition)"
	}
	return n
}
