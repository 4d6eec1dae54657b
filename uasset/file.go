// Package uasset reads UE4 and UE5 packages (.uasset, .umap, and the .uexp
// companions of cooked packages), from the oldest loadable UE4 package
// (FileVersionUE4 214) to UE5's IMPORT_TYPE_HIERARCHIES (1018), the last
// object version, which 5.7, 5.8 and 6.0 all write (5.8 changed the cooked
// import map without a version; see Versions.CookedImportPackageName).
//
// [NewFile] parses the package index eagerly: the summary, the name, import
// and export maps, and every other section the summary points at (depends
// map, soft package references, searchable names, soft object paths,
// gatherable text, thumbnails, asset registry data, data resources, preload
// dependencies, metadata, package trailer). Export data, thumbnail images and
// bulk data are read lazily through [ObjectExport.Open] and friends.
// [File.WriteHeader] serializes the header back from the model; for a package
// read without loss the bytes equal the original's.
//
// Unversioned (cooked) packages do not record their engine version. Give it
// with [WithEngine], or let NewFile infer it: each candidate engine layout is
// tried and kept when every table reads and every invariant holds (see
// [File.Engine]).
//
// The format is described in the engine's PackageFileSummary.cpp,
// ObjectResource.cpp and SavePackage2.cpp.
//
// # Security
//
// This package is meant for files from strangers (the browser viewer opens
// them). No count or size read from a file is used for an allocation before
// it is checked against the bytes that exist; every failure is an error
// carrying the file offset and the field, never a panic.
package uasset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/osfile"
)

// File is an open UE4/UE5 package.
type File struct {
	Summary PackageFileSummary
	// Versions are the versions the package was read with.
	Versions Versions
	// BigEndian is set when the package starts with the swapped tag.
	BigEndian bool

	Names   []NameEntry
	Imports []ObjectImport
	Exports []ObjectExport

	DependsMap            [][]PackageIndex
	SoftPackageReferences []SoftPackageReference
	SearchableNames       []SearchableNames
	SoftObjectPaths       []SoftObjectPath
	GatherableTextData    []GatherableTextData
	Thumbnails            []Thumbnail
	AssetRegistry         *AssetRegistryData
	WorldTileInfo         *RawSection
	WorldTile             *WorldTileInfo // WorldTileInfo decoded
	PreloadDependencies   []PackageIndex
	DataResources         *DataResources
	ImportTypeHierarchies []ImportTypeHierarchy
	CellImports           []CellImport
	CellExports           []CellExport
	MetaData              *MetaData
	Trailer               *PackageTrailer

	// Sections lists the byte ranges the summary points at, in file order,
	// each with the error met reading it (nil when it read cleanly).
	Sections []Section

	// Engine describes the engine version used for an unversioned package
	// (see EngineInfo); for a versioned one Engine.Source is "header".
	Engine EngineInfo

	// PackagePath is the long package name ("/Game/Maps/Level1") used to
	// build object paths: the summary's PackageName when it holds one (UE5
	// packages, editor packages), else what the name map, WithPackageName or
	// the file name suggests; PackagePathSource says which.
	PackagePath string
	// PackagePathSource is where PackagePath came from: "summary" (the
	// package records it), "name map" (a name matching a top-level export),
	// "option" (WithPackageName, e.g. guessed from the folders), "file name"
	// ("/Game/<base name>", a guess) or "" (unknown).
	PackagePathSource string
	pkgNameOpt        string // WithPackageName

	r        io.ReaderAt
	size     int64
	uexp     io.ReaderAt
	uexpSize int64
	closer   io.Closer
	sers     []sectionRec // serializers of the header sections, for the rewrite

	missingUexp bool
	// sharedImports: Imports are an inference memo's entries, which other
	// candidates may hold too (ownImports copies them).
	sharedImports bool
	strict        bool // inference: fail early on layout invariants
	// progress is how far read got (readSummary … readAll); inference
	// reports the error of the candidate that got furthest.
	progress readStage
	hdr      []byte    // the header bytes, read once
	hdrCache *[]byte   // shared between inference candidates
	hdrText  *string   // a copy of the longest hdr as text, likewise (headerText)
	names    *nameMemo // likewise (namememo.go)
	tables   *tableMemo
	sums     *summaryMemo
	secs     *sectionMemo
	memos    *inferMemos // what the four memos above are part of, when one allocation (release.go)
	// others: the Files of the candidates inference did not choose, for
	// Release to recycle (WithRelease).
	others []*File
	// sumEngine is the index in engines of the candidate release
	// (inference), or -1.
	sumEngine int
	fileBase  string // file name without extension, when known (Open)
	// hdrReader is the cursor tryRead reads the header buffer with, one per
	// File instead of one per table; hdrReaderBusy while a read uses it.
	hdrReader     binread.Reader
	hdrReaderBusy bool
	// hdrTextSet: the read tryRead is running reads hdrReader, which holds
	// the header text (SetText), so strings read are substrings of it.
	hdrTextSet bool
	// Companions notes the sibling files that exist (".uexp", ".ubulk", ".uptnl").
	Companions []string
}

// Section is one byte range of the package with what it holds.
type Section struct {
	Name   string
	Offset int64
	Size   int64
	Count  int
	InUexp bool
	Err    error
}

// EngineInfo says which engine version a package was read as, and how that
// was decided.
type EngineInfo struct {
	// Version is the engine release ("4.27", "5.3"), or for versioned
	// packages the saved-by version when recorded.
	Version string `json:"version"`
	// Source is "header" (versioned package), "flag" (WithEngine) or
	// "detected" (inferred).
	Source string `json:"source"`
	// Candidates are the engine releases whose layout also reads the
	// package cleanly (inference only).
	Candidates []string `json:"candidates,omitempty"`
	// Note explains an ambiguous or failed inference.
	Note string `json:"note,omitempty"`
}

type options struct {
	engine     string
	versions   *Versions
	uexp       io.ReaderAt
	uexpSize   int64
	sibling    func(ext string) (io.ReaderAt, int64, error)
	checks     []func(*File) error
	pkgName    string
	fileBase   string
	hdrCache   *[]byte
	hdrText    *string
	names      *nameMemo
	tables     *tableMemo
	sums       *summaryMemo
	secs       *sectionMemo
	memos      *inferMemos
	release    bool // WithRelease
	companions []string
	noBulk     bool // WithoutBulkNotes
}

// Option configures NewFile.
type Option func(*options) error

// WithEngine reads an unversioned package as written by the given engine
// release ("4.27", "5.3", "UE5.1"). Versioned packages ignore it.
func WithEngine(v string) Option {
	return func(o *options) error {
		if v == "" {
			return nil
		}
		if _, ok := LookupEngine(v); !ok {
			return fmt.Errorf("uasset: unknown engine version %q (known: %s)", v, strings.Join(EngineNames(), ", "))
		}
		o.engine = v
		return nil
	}
}

// WithVersions reads an unversioned package with explicit object versions.
func WithVersions(v Versions) Option {
	return func(o *options) error { o.versions = &v; return nil }
}

// WithUexp supplies the .uexp companion of a split cooked package.
func WithUexp(r io.ReaderAt, size int64) Option {
	return func(o *options) error { o.uexp, o.uexpSize = r, size; return nil }
}

// WithSibling gives a way to open companion files by extension (".uexp",
// ".ubulk", ".uptnl"); fn returns an error wrapping fs.ErrNotExist when there
// is none.
func WithSibling(fn func(ext string) (io.ReaderAt, int64, error)) Option {
	return func(o *options) error { o.sibling = fn; return nil }
}

// WithoutBulkNotes skips looking for the bulk data companions (".ubulk",
// ".uptnl", ".m.ubulk"), which NewFile only notes in File.Companions: a
// reader that does not show them (verify) saves a file lookup each.
func WithoutBulkNotes() Option {
	return func(o *options) error { o.noBulk = true; return nil }
}

// WithRelease tells NewFile that the caller calls [File.Release] when it
// is done with the File: inference then keeps the Files of the candidate
// layouts it did not choose for Release to recycle too.
func WithRelease() Option {
	return func(o *options) error { o.release = true; return nil }
}

// WithCandidateCheck adds a test the engine inference applies to each
// candidate layout of an unversioned package after its tables read: a
// candidate whose check fails is dropped. The property decoder uses it to
// drop engines under which the exports' property streams do not parse.
func WithCandidateCheck(fn func(*File) error) Option {
	return func(o *options) error { o.checks = append(o.checks, fn); return nil }
}

// WithPackageName sets the long package name ("/Game/Maps/Level1") used for
// object paths when the file does not record it.
func WithPackageName(name string) Option {
	return func(o *options) error { o.pkgName = name; return nil }
}

// WithFileName gives the package's file name; when neither the summary nor
// the name map records the long package name, "/Game/<base name>" is used.
func WithFileName(name string) Option {
	return func(o *options) error {
		b := filepath.Base(filepath.ToSlash(name))
		o.fileBase = strings.TrimSuffix(b, filepath.Ext(b))
		return nil
	}
}

// Open opens the named package and its .uexp companion when present.
func Open(name string, opts ...Option) (*File, error) {
	fh, size, err := osfile.Open(name)
	if err != nil {
		return nil, err
	}
	var companions osfile.Set
	base := strings.TrimSuffix(name, filepath.Ext(name))
	sib := func(ext string) (io.ReaderAt, int64, error) { return companions.Open(base + ext) }
	f, err := NewFile(fh, size, append([]Option{WithSibling(sib), WithFileName(name)}, opts...)...)
	if err != nil {
		companions.Close()
		fh.Close()
		return nil, err
	}
	f.closer = closerFunc(func() error {
		companions.Close()
		return fh.Close()
	})
	return f, nil
}

type closerFunc func() error

func (c closerFunc) Close() error { return c() }

// Close closes the files Open opened. It does nothing for a File from NewFile.
func (f *File) Close() error {
	if f.closer != nil {
		err := f.closer.Close()
		f.closer = nil
		return err
	}
	return nil
}

// NewFile reads the package in r (size bytes).
func NewFile(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	f, err := newFileRead(r, size, opts...)
	if err == nil && utf8SubPathsBuilt {
		f.utf8SubPaths()
	}
	return f, err
}

// newFileRead is NewFile up to the package read with its versions.
func newFileRead(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	var o options
	for _, fn := range opts {
		if err := fn(&o); err != nil {
			return nil, err
		}
	}
	if o.uexp == nil && o.sibling != nil {
		ur, us, err := o.sibling(".uexp")
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			// There but unreadable (permissions, a special file): told,
			// not taken for missing.
			return nil, formatErr("exports", err)
		}
		o.uexp, o.uexpSize = ur, us
	}
	if o.uexp != nil {
		o.companions = append(o.companions, ".uexp")
	}
	if o.sibling != nil && !o.noBulk {
		// Bulk data companions are only noted; their payloads are read by
		// the exports that reference them.
		for _, ext := range []string{".ubulk", ".uptnl", ".m.ubulk"} {
			if _, _, err := o.sibling(ext); err == nil {
				o.companions = append(o.companions, ext)
			}
		}
	}
	var head [4]byte
	if n, _ := r.ReadAt(head[:], 0); n < 4 || size < 4 {
		return nil, formatErr("summary", &binread.Error{Offset: 0, Field: "PackageFileSummary.Tag", Err: io.ErrUnexpectedEOF})
	}
	if string(head[:]) == "ACE7" {
		return nil, ErrEncrypted
	}
	order := binary.ByteOrder(binary.LittleEndian)
	switch binary.LittleEndian.Uint32(head[:]) {
	case PackageFileTag:
	case PackageFileTagSwapped:
		order = binary.BigEndian
	default:
		return nil, ErrNotPackage
	}
	// The first bytes serve the version sniff, the summary and, for small
	// packages, every table; inference candidates share them.
	var first []byte
	if m, ok := r.(binread.Mem); ok && int64(len(m)) >= min(size, summaryHead) {
		first = m[:min(size, summaryHead):min(size, summaryHead)] // in memory already (read only)
	} else {
		first = make([]byte, min(size, summaryHead))
		if n, _ := r.ReadAt(first, 0); n < len(first) {
			first = first[:n]
		}
	}
	if o.hdrCache == nil {
		o.hdrCache = &first
	}
	if o.hdrText == nil {
		o.hdrText = new(string)
	}
	br := binread.FromBytes(first)
	br.SetOrder(order)
	var s PackageFileSummary
	s.serializeVersions(loader{br})
	if err := br.Err(); err != nil {
		return nil, formatErr("summary", err)
	}
	if s.LegacyFileVersion >= 0 {
		return nil, &UnsupportedError{fmt.Sprintf("UE1–UE3 package (file version %d): not a UE4/UE5 package", s.LegacyFileVersion)}
	}
	if s.LegacyFileVersion < LegacyFileVersionCurrent {
		return nil, &UnsupportedError{fmt.Sprintf("legacy file version %d is newer than %d", s.LegacyFileVersion, LegacyFileVersionCurrent)}
	}
	if !s.Unversioned() {
		if s.FileVersionUE4 < VerUE4OldestLoadablePackage && s.FileVersionUE4 != 0 {
			return nil, &UnsupportedError{fmt.Sprintf("FileVersionUE4 %d is older than the oldest loadable package (%d)", s.FileVersionUE4, VerUE4OldestLoadablePackage)}
		}
		v := Versions{UE4: s.FileVersionUE4, UE5: s.FileVersionUE5, Licensee: s.FileVersionLicenseeUE}
		f := newFile(r, size, order, &o)
		if err := f.read(v); err != nil {
			return nil, err
		}
		f.Versions.Custom = f.Summary.CustomVersions
		f.Engine = EngineInfo{Version: savedByVersion(&f.Summary), Source: "header"}
		if f.Engine.Version == "" {
			// No saved-by version (UE4 before 336, cooked packages, or
			// zeroed by a tool): name the release from the object versions
			// and the import layout.
			name, alike := engineForVersions(&f.Versions)
			f.Engine.Version = name
			if len(alike) > 1 {
				f.Engine.Candidates = alike
				f.Engine.Note = "the header cannot tell " + describeCandidates(alike) + " apart (same object versions and layout)"
			}
		}
		if o.engine != "" {
			f.Engine.Note = "the package records its versions; engine " + o.engine + " was not needed"
		}
		if v.UE4 > VerUE4Latest || v.UE5 > VerUE5Latest {
			f.Engine.Note = fmt.Sprintf("object versions %d/%d are newer than this reader knows (%d/%d); read with the newest known layout",
				v.UE4, v.UE5, VerUE4Latest, VerUE5Latest)
		}
		return f, nil
	}
	switch {
	case o.versions != nil:
		f := newFile(r, size, order, &o)
		if err := f.read(*o.versions); err != nil {
			return nil, err
		}
		f.Engine = EngineInfo{Version: fmt.Sprintf("UE4 %d / UE5 %d", o.versions.UE4, o.versions.UE5), Source: "flag"}
		return f, nil
	case o.engine != "":
		e, _ := LookupEngine(o.engine)
		f := newFile(r, size, order, &o)
		if err := f.read(e.versions()); err != nil {
			return nil, err
		}
		f.Engine = EngineInfo{Version: e.Name, Source: "flag"}
		return f, nil
	}
	return infer(r, size, order, &o, s.LegacyFileVersion)
}

func newFile(r io.ReaderAt, size int64, order binary.ByteOrder, o *options) *File {
	return cachedFile().reset(r, size, order, o)
}

// reset makes f a File as newFile returns it (inference reuses the File
// of a candidate whose read failed).
func (f *File) reset(r io.ReaderAt, size int64, order binary.ByteOrder, o *options) *File {
	// The section lists' arrays are f's own (nothing else holds them):
	// they serve the next candidate, cleared.
	secs, sers := f.Sections[:0], f.sers[:0]
	clear(secs[:cap(secs)])
	clear(sers[:cap(sers)])
	*f = File{r: r, size: size, BigEndian: order == binary.BigEndian, uexp: o.uexp, uexpSize: o.uexpSize}
	f.Sections, f.sers = secs, sers
	f.Companions = o.companions
	f.pkgNameOpt = o.pkgName
	f.fileBase = o.fileBase
	f.hdrCache = o.hdrCache
	f.hdrText = o.hdrText
	f.names = o.names
	f.tables = o.tables
	f.sums = o.sums
	f.secs = o.secs
	f.memos = o.memos
	f.sumEngine = -1
	return f
}

// reader returns a bounded cursor over the main file in the package's byte order.
func (f *File) reader() *binread.Reader {
	br := binread.New(f.r, f.size)
	if f.BigEndian {
		br.SetOrder(binary.BigEndian)
	}
	return br
}

// summaryHead is how much is read up front for the summary (which is
// usually under 1 KiB; a longer one is read through the file).
const summaryHead = 16 << 10

// headBytes returns the first bytes of the file for reading the summary,
// shared between inference candidates.
func (f *File) headBytes() []byte {
	n := min(f.size, summaryHead)
	if c := f.hdrCache; c != nil && int64(len(*c)) >= n {
		return (*c)[:n]
	}
	b := make([]byte, n)
	if m, _ := f.r.ReadAt(b, 0); int64(m) != n {
		return nil
	}
	if f.hdrCache != nil {
		*f.hdrCache = b
	}
	return b
}

// maxHeaderBuffer bounds the header kept in memory. Real headers are a few
// KiB to a few MiB; a larger TotalHeaderSize (a huge map, or a lying field)
// is read through the file in windows instead.
const maxHeaderBuffer = 64 << 20

// loadHeader keeps the header bytes in memory (TotalHeaderSize, bounded by
// the file size) so that every table and section is read from one buffer,
// without a read window per section.
func (f *File) loadHeader(minLen int64) {
	n := int64(f.Summary.TotalHeaderSize)
	n = max(n, minLen)
	n = min(n, f.size)
	if n <= 0 || n > maxHeaderBuffer {
		return // read through the file's window instead
	}
	if c := f.hdrCache; c != nil && int64(len(*c)) >= n {
		f.hdr = (*c)[:n]
		return
	}
	if m, ok := f.r.(binread.Mem); ok && int64(len(m)) >= n {
		f.hdr = m[:n:n] // the file is in memory already (read only)
		return
	}
	b := make([]byte, n)
	if m, _ := f.r.ReadAt(b, 0); int64(m) != n {
		return // read through the file instead; its reader reports the error
	}
	f.hdr = b
	if f.hdrCache != nil {
		*f.hdrCache = b
	}
}

// headerText returns the header buffer's bytes as one string, made once per
// file (inference candidates share it, each using the prefix its header
// buffer covers): strings read from it are substrings of it, not an
// allocation each. Every hdr is a prefix of the same file, so a text of a
// longer one serves a shorter one.
func (f *File) headerText() string {
	t := f.hdrText
	if t == nil || len(f.hdr) == 0 {
		return ""
	}
	if len(*t) < len(f.hdr) {
		*t = string(f.hdr)
	}
	return (*t)[:len(f.hdr)]
}

// tryRead runs fn on a cursor at off: over the header buffer when off lies
// in it, and again over the file if the buffer ended too early. fn must
// start its work afresh each time.
func (f *File) tryRead(off int64, field string, fn func(br *binread.Reader)) readResult {
	if f.hdr != nil && off >= 0 && off < int64(len(f.hdr)) {
		var br *binread.Reader
		if f.hdrReaderBusy {
			br = new(binread.Reader)
		} else {
			br, f.hdrReaderBusy = &f.hdrReader, true
		}
		*br = *binread.FromBytes(f.hdr)
		if f.BigEndian {
			br.SetOrder(binary.BigEndian)
		}
		text := f.strict && len(f.hdr) <= summaryHead
		if text {
			// The summary as each inference candidate reads it: wrong
			// layouts read runs of garbage strings.
			br.SetText(f.headerText())
		}
		br.SeekTo(off, field)
		if br == &f.hdrReader {
			f.hdrTextSet = text && f.hdrText != nil
		}
		fn(br)
		res := readResult{br.Err(), br.Offset()}
		if br == &f.hdrReader {
			f.hdrReader, f.hdrReaderBusy, f.hdrTextSet = binread.Reader{}, false, false // keeps nothing alive
		}
		if res.err == nil || int64(len(f.hdr)) >= f.size || !errors.Is(res.err, io.ErrUnexpectedEOF) && !errors.Is(res.err, binread.ErrCount) {
			return res
		}
	}
	br := f.reader()
	br.SeekTo(off, field)
	if br.Err() == nil {
		fn(br)
	}
	return readResult{br.Err(), br.Offset()}
}

// readResult is how a tryRead ended: its error, and where the cursor
// stopped (relative to the reader, as binread.Reader.Offset).
type readResult struct {
	err error
	off int64
}

func (r readResult) Err() error    { return r.err }
func (r readResult) Offset() int64 { return r.off }

// readStage is a step of read, in order.
type readStage int

const (
	readNothing readStage = iota
	readSummary           // the summary read
	readChecked           // its offsets and counts fit the file
	readNames
	readImports
	readExports
	readAll // every table; later failures are sections or invariants
)

// read parses everything with versions v. An error in the summary or the
// name, import or export map fails the whole read; other sections keep their
// error in f.Sections.
func (f *File) read(v Versions) error {
	f.Versions = v
	// Room for every section at once (an inference candidate whose read
	// fails leaves its arrays to the next one: reset).
	f.Sections = slices.Grow(f.Sections, optionalSectionsRoom+4)
	f.sers = slices.Grow(f.sers, optionalSectionsRoom+4)
	if err := f.readSummaryShared(); err != nil {
		return err
	}
	if err := f.readNames(); err != nil {
		return err
	}
	f.progress = readNames
	if err := f.readImports(); err != nil {
		return err
	}
	f.progress = readImports
	if err := f.readExports(); err != nil {
		return err
	}
	if chainsChecked {
		if err := f.checkChains(); err != nil {
			return err
		}
	}
	f.progress = readExports
	f.PackagePath, f.PackagePathSource = f.packagePath()
	if err := f.checkPathBytes(); err != nil {
		return err
	}
	// Room for the optional sections at once, not by doubling.
	f.Sections = slices.Grow(f.Sections, optionalSectionsRoom)
	f.sers = slices.Grow(f.sers, optionalSectionsRoom)
	f.readOptionalSections()
	f.sortSections()
	f.progress = readAll
	return nil
}

// optionalSectionsRoom is how many sections read makes room for before the
// optional ones: most packages have fewer.
const optionalSectionsRoom = 16

// readSummary reads and checks the summary with f.Versions, up to the
// name map; it returns where the summary ended (when it read).
func (f *File) readSummary() (end int64, err error) {
	f.Summary = PackageFileSummary{}
	f.hdr = f.headBytes()
	br := f.tryRead(0, "PackageFileSummary", func(br *binread.Reader) {
		f.Summary = PackageFileSummary{}
		f.Summary.serialize(loader{br}, &f.Versions)
	})
	f.hdr = nil
	if err := br.Err(); err != nil {
		return 0, formatErr("summary", err)
	}
	end = br.Offset()
	f.summaryRead(end)
	if err := f.checkSummary(); err != nil {
		return end, err
	}
	f.progress = readChecked
	if !f.Summary.Unversioned() && f.Summary.FilterEditorOnly() && f.Versions.UE5 >= VerUE5ImportTypeHierarchies {
		f.Versions.CookedImportPackageName = f.cookedImportLayout()
	}
	if f.strict && f.Summary.NameCount > 0 && int64(f.Summary.NameOffset) != end {
		// Inference: the engine writes the name map right after the
		// summary, so this layout is wrong; fail before reading tables.
		// (Its text is made only when asked for: most candidates' errors are dropped.)
		return end, &FormatError{Section: "summary", Err: binread.NewLazyError(errInvariant, "summary ends at 0x%x but the name map starts at 0x%x", end, int64(f.Summary.NameOffset))}
	}
	return end, nil
}

// summaryRead records the summary read up to end.
func (f *File) summaryRead(end int64) {
	f.progress = readSummary
	f.loadHeader(end)
	f.addSection("summary", 0, end, 1, nil)
	f.sers = append(f.sers[:0], sectionRec{name: "summary", off: 0, ser: func(a archive) { f.Summary.serialize(a, &f.Versions) }})
}

// checkSummary rejects offsets and counts that cannot describe this file.
// Each error names the summary field holding the bad value and its offset.
func (f *File) checkSummary() error {
	s := &f.Summary
	limit := f.size
	at := func(field string, format string, args ...any) error {
		full := "PackageFileSummary." + field
		return formatErr("summary", &binread.Error{Offset: f.summaryFieldOffset(full), Field: full, Err: fmt.Errorf(format, args...)})
	}
	bad := func(table string, off, count int32, min int64) error {
		switch {
		case count < 0:
			return at(table+"Count", "count %d is negative", count)
		case count == 0:
			return nil
		case off <= 0 || int64(off) > limit:
			return at(table+"Offset", "0x%x outside the file (size 0x%x)", off, limit)
		case int64(count) > (limit-int64(off))/min:
			return at(table+"Count", "%d entries cannot fit in the %d bytes after offset 0x%x", count, limit-int64(off), off)
		}
		return nil
	}
	if err := bad("Name", s.NameOffset, s.NameCount, nameEntryMin); err != nil {
		return err
	}
	if err := bad("Import", s.ImportOffset, s.ImportCount, importMinSize); err != nil {
		return err
	}
	if err := bad("Export", s.ExportOffset, s.ExportCount, exportMinSize); err != nil {
		return err
	}
	if s.TotalHeaderSize < 0 || (int64(s.TotalHeaderSize) > f.size) {
		return at("TotalHeaderSize", "%d outside the file (size %d)", s.TotalHeaderSize, f.size)
	}
	return nil
}

// cookedImportLayout decides, for a versioned cooked package recording UE5
// 1018 (written by 5.7, 5.8 or 6.0 alike), whether its import entries hold
// PackageName (5.8 and later). A saved-by version decides it when recorded;
// otherwise the bytes between the import map and the next section the
// summary points at must be a whole number of entries of one layout. When
// neither layout fits, the 5.7 one is kept and the import map reports
// what does not read.
func (f *File) cookedImportLayout() bool {
	s := &f.Summary
	if v := s.SavedByEngineVersion; v.Major != 0 {
		return v.Major > 5 || v.Major == 5 && v.Minor >= 8
	}
	if s.ImportCount <= 0 {
		return false
	}
	start := int64(s.ImportOffset)
	next := int64(s.TotalHeaderSize)
	for _, off := range []int64{int64(s.ExportOffset), int64(s.CellImportOffset), int64(s.CellExportOffset),
		int64(s.MetaDataOffset), int64(s.DependsOffset), int64(s.SoftPackageReferencesOffset),
		int64(s.SearchableNamesOffset), int64(s.ThumbnailTableOffset), int64(s.ImportTypeHierarchiesOffset),
		int64(s.GatherableTextDataOffset), int64(s.SoftObjectPathsOffset), int64(s.AssetRegistryDataOffset),
		int64(s.PreloadDependencyOffset), int64(s.DataResourceOffset), int64(s.WorldTileInfoDataOffset)} {
		if off > start && off < next {
			next = off
		}
	}
	with := f.Versions
	with.CookedImportPackageName = true
	return next-start == int64(s.ImportCount)*importSize(&with, false)
}

func (f *File) addSection(name string, off, size int64, count int, err error) {
	f.Sections = append(f.Sections, Section{Name: name, Offset: off, Size: size, Count: count, Err: err})
}

func (f *File) sortSections() {
	// Insertion sort by offset keeps equal offsets in reading order.
	s := f.Sections
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Offset < s[j-1].Offset; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (f *File) readNames() error {
	s := &f.Summary
	if s.NameCount == 0 {
		return nil
	}
	if f.names.get(f) {
		return nil
	}
	br := f.tryRead(int64(s.NameOffset), "PackageFileSummary.NameOffset", func(br *binread.Reader) {
		a := loader{br}
		hashes := f.Versions.UE4 >= VerUE4NameHashesSerialized
		switch {
		case br == &f.hdrReader && f.hdrTextSet:
			// The names are substrings of the header text already.
		case br == &f.hdrReader:
			shareText(a, nameMapSizeBytes(f.hdr, br.Offset(), int(s.NameCount), hashes, f.BigEndian))
		default:
			shareText(a, nameMapSize(*br, int(s.NameCount), hashes))
		}
		f.Names = newNames(int(s.NameCount))
		for i := 0; i < int(s.NameCount) && br.Err() == nil; i++ {
			f.Names = append(f.Names, NameEntry{}) // read in place: no heap copy per entry
			f.Names[len(f.Names)-1].serialize(a, &f.Versions)
		}
	})
	if err := br.Err(); err != nil {
		return formatErr("names", err)
	}
	f.names.put(f, br.Offset())
	f.namesRead(br.Offset())
	return nil
}

// namesRead records the name map section read up to end.
func (f *File) namesRead(end int64) {
	s := &f.Summary
	f.addSection("names", int64(s.NameOffset), end-int64(s.NameOffset), len(f.Names), nil)
	f.sers = append(f.sers, sectionRec{name: "names", off: int64(s.NameOffset), ser: func(a archive) {
		for i := range f.Names {
			f.Names[i].serialize(a, &f.Versions)
		}
	}})
}

func (f *File) readImports() error {
	s := &f.Summary
	if s.ImportCount == 0 {
		return nil
	}
	editor := !s.FilterEditorOnly()
	l := importLayoutOf(&f.Versions, editor)
	off := int64(s.ImportOffset)
	var end int64
	if m := f.tables.importMap(); m.matches(f, off, s.ImportCount, l) {
		// Shared (nothing writes the entries); infer makes the chosen
		// candidate their owner (ownImports).
		f.Imports, f.sharedImports = m.entries, true
		if !m.checkedFor(f) {
			for i := range f.Imports {
				if err := f.checkImport(i, &f.Imports[i]); err != nil {
					f.Imports = f.Imports[:i]
					return formatErr("imports", &binread.Error{Offset: m.starts[i], Field: fmt.Sprintf("ImportMap[%d]", i), Err: err})
				}
			}
			m.passed(f)
		}
		end = m.end
	} else {
		var bad error
		var starts []int64
		br := f.tryRead(off, "PackageFileSummary.ImportOffset", func(br *binread.Reader) {
			a := loader{br}
			bad = nil
			f.Imports = newImports(int(s.ImportCount))
			starts = make([]int64, 0, binread.SliceCap(int(s.ImportCount)))
			for i := 0; i < int(s.ImportCount) && br.Err() == nil; i++ {
				start := br.Abs()
				f.Imports = append(f.Imports, ObjectImport{}) // read in place: no heap copy per entry
				im := &f.Imports[len(f.Imports)-1]
				im.serialize(a, l)
				if br.Err() == nil {
					if err := f.checkImport(i, im); err != nil {
						f.Imports = f.Imports[:len(f.Imports)-1]
						bad = formatErr("imports", &binread.Error{Offset: start, Field: fmt.Sprintf("ImportMap[%d]", i), Err: err})
						return
					}
				}
				starts = append(starts, start)
			}
		})
		if bad != nil {
			return bad
		}
		if err := br.Err(); err != nil {
			return formatErr("imports", err)
		}
		end = br.Offset()
		m.put(f, off, s.ImportCount, l, f.Imports, starts, end)
		m.passed(f)
	}
	f.addSection("imports", off, end-off, len(f.Imports), nil)
	f.sers = append(f.sers, sectionRec{name: "imports", off: off, ser: func(a archive) {
		l := importLayoutOf(&f.Versions, editor)
		for i := range f.Imports {
			f.Imports[i].serialize(a, l)
		}
	}})
	return nil
}

func (f *File) checkImport(i int, im *ObjectImport) error {
	for _, n := range []struct {
		what string
		n    Name
	}{{"ClassPackage", im.ClassPackage}, {"ClassName", im.ClassName}, {"ObjectName", im.ObjectName}, {"PackageName", im.PackageName}} {
		if err := f.checkName(n.n, n.what); err != nil {
			return err
		}
	}
	if err := f.checkIndex(im.OuterIndex, "OuterIndex"); err != nil {
		return err
	}
	return nil
}

// checkChains reports an object whose chain of outers, or an export's
// chain of supers or templates, comes back to itself (export 1's outer
// export 2, whose outer is export 1): no object of the chain has a path,
// and the engine would loop on it. (An object that is its own outer is
// told by checkExport.)
func (f *File) checkChains() error {
	ni := len(f.Imports)
	var stack [1024]uint8
	state := stack[:0]
	if n := ni + len(f.Exports); n <= len(stack) {
		state = stack[:n]
	} else {
		state = make([]uint8, n) // 0 not seen, 1 on the chain being followed, 2 ends well
	}
	// Supers and templates cycle only through exports' links to exports.
	links := 1
	for i := range f.Exports {
		if f.Exports[i].SuperIndex.IsExport() || f.Exports[i].TemplateIndex.IsExport() {
			links = 3
			break
		}
	}
	var chainBuf [64]int
	chain := chainBuf[:0]
	for field := range links { // OuterIndex, SuperIndex, TemplateIndex
		clear(state)
		for start := range state {
			chain = chain[:0]
			n := start
			for n >= 0 && n < len(state) && state[n] == 0 {
				state[n] = 1
				chain = append(chain, n)
				var next PackageIndex
				switch {
				case n < ni:
					if field == 0 {
						next = f.Imports[n].OuterIndex
					}
				case field == 0:
					next = f.Exports[n-ni].OuterIndex
				case field == 1:
					next = f.Exports[n-ni].SuperIndex
				default:
					next = f.Exports[n-ni].TemplateIndex
				}
				switch {
				case next.IsImport():
					n = next.ToImport()
				case next.IsExport():
					n = ni + next.ToExport()
				default:
					n = -1
				}
			}
			if n >= 0 && n < len(state) && state[n] == 1 {
				table, entry := "imports", "ImportMap["+strconv.Itoa(n)
				if n >= ni {
					table, entry = "exports", "ExportMap["+strconv.Itoa(n-ni)
				}
				return formatErrf(table, "%s].%s: the chain comes back to it (a cycle)", entry, [3]string{"OuterIndex", "SuperIndex", "TemplateIndex"}[field])
			}
			for _, m := range chain {
				state[m] = 2
			}
		}
	}
	return nil
}

// checkIndex reports a package index outside the import and export maps.
func (f *File) checkIndex(p PackageIndex, what string) error {
	switch {
	case p.IsImport() && int64(p.ToImport()) >= int64(f.Summary.ImportCount):
		return fmt.Errorf("%s %d refers to import %d of %d", what, p, p.ToImport(), f.Summary.ImportCount)
	case p.IsExport() && int64(p.ToExport()) >= int64(f.Summary.ExportCount):
		return fmt.Errorf("%s %d refers to export %d of %d", what, p, p.ToExport(), f.Summary.ExportCount)
	}
	return nil
}

func (f *File) readExports() error {
	s := &f.Summary
	if s.ExportCount == 0 {
		return nil
	}
	unv := s.UnversionedProperties()
	l := exportLayoutOf(&f.Versions, unv)
	off := int64(s.ExportOffset)
	var end int64
	if m := f.tables.exportMap(); m.matches(f, off, s.ExportCount, l) {
		if len(m.entries) > 0 && m.entries[0].f != nil && m.entries[0].f.sameSerialRanges(f) {
			// An entry's back-pointer serves only Open, Data and InUexp
			// (serialRange), which read the same bytes for both files:
			// share the entries (nothing writes them) instead of copying
			// the map for every candidate. infer makes the chosen
			// candidate their owner (ownExports).
			f.Exports = m.entries
		} else {
			f.Exports = slices.Clone(m.entries)
			for i := range f.Exports {
				f.Exports[i].f = f
			}
		}
		if m.checkedFor(f) {
			if m.missingUexp {
				f.missingUexp = true
			}
		} else {
			for i := range f.Exports {
				e := &f.Exports[i]
				if err := f.checkExport(i, e); err != nil {
					f.Exports = f.Exports[:i]
					return formatErr("exports", &binread.Error{Offset: m.starts[i], Field: fmt.Sprintf("ExportMap[%d]", i), Err: err})
				}
			}
			m.passed(f)
		}
		end = m.end
	} else {
		var bad error
		var starts []int64
		br := f.tryRead(off, "PackageFileSummary.ExportOffset", func(br *binread.Reader) {
			a := loader{br}
			bad = nil
			f.Exports = newExports(int(s.ExportCount))
			starts = make([]int64, 0, binread.SliceCap(int(s.ExportCount)))
			for i := 0; i < int(s.ExportCount) && br.Err() == nil; i++ {
				start := br.Abs()
				f.Exports = append(f.Exports, ObjectExport{}) // read in place: no heap copy per entry
				e := &f.Exports[len(f.Exports)-1]
				e.serialize(a, l)
				e.f = f
				if br.Err() == nil {
					if err := f.checkExport(i, e); err != nil {
						f.Exports = f.Exports[:len(f.Exports)-1]
						bad = formatErr("exports", &binread.Error{Offset: start, Field: fmt.Sprintf("ExportMap[%d]", i), Err: err})
						return
					}
				}
				starts = append(starts, start)
			}
		})
		if bad != nil {
			return bad
		}
		if err := br.Err(); err != nil {
			return formatErr("exports", err)
		}
		end = br.Offset()
		m.put(f, off, s.ExportCount, l, f.Exports, starts, end)
		m.passed(f)
	}
	f.addSection("exports", off, end-off, len(f.Exports), nil)
	f.sers = append(f.sers, sectionRec{name: "exports", off: off, ser: func(a archive) {
		l := exportLayoutOf(&f.Versions, unv)
		for i := range f.Exports {
			f.Exports[i].serialize(a, l)
		}
	}})
	return nil
}

// sameSerialRanges reports whether serialRange gives the same result for g
// as for f at every offset and size. It compares only what the candidates
// of one inference may differ in: they read the same main file and .uexp
// readers (newFile and reset take them from infer's arguments; readers are
// not compared, as some are not comparable).
func (f *File) sameSerialRanges(g *File) bool {
	return f.Summary.TotalHeaderSize == g.Summary.TotalHeaderSize &&
		f.Summary.FilterEditorOnly() == g.Summary.FilterEditorOnly() &&
		f.size == g.size && (f.uexp == nil) == (g.uexp == nil) && f.uexpSize == g.uexpSize
}

// ownImports makes f the owner of an import map it shares with other
// inference candidates. Only the chosen candidate lives on after infer
// (the memos and the other candidates are dropped with it, and nothing
// reads them), so the shared entries become f's without a copy.
func (f *File) ownImports() {
	f.sharedImports = false
}

// ownExports makes f the owner of an export map it shares with other
// inference candidates: its entries point back to f. As for ownImports,
// the entries become f's in place (the candidates sharing them are
// dropped, and they read the same serial ranges: sameSerialRanges).
func (f *File) ownExports() {
	if len(f.Exports) == 0 || f.Exports[0].f == f {
		return
	}
	for i := range f.Exports {
		f.Exports[i].f = f
	}
}

func (f *File) checkExport(i int, e *ObjectExport) error {
	if err := f.checkName(e.ObjectName, "ObjectName"); err != nil {
		return err
	}
	for _, p := range []struct {
		what string
		p    PackageIndex
	}{{"ClassIndex", e.ClassIndex}, {"SuperIndex", e.SuperIndex}, {"TemplateIndex", e.TemplateIndex}, {"OuterIndex", e.OuterIndex}} {
		if err := f.checkIndex(p.p, p.what); err != nil {
			return err
		}
	}
	if e.OuterIndex == ExportIndex(i) {
		return fmt.Errorf("export is its own outer")
	}
	if e.SerialSize < 0 || e.SerialOffset < 0 {
		return fmt.Errorf("negative serial range (offset %d, size %d)", e.SerialOffset, e.SerialSize)
	}
	if e.SerialSize > 0 && f.uexp == nil && f.Summary.FilterEditorOnly() && e.SerialOffset >= int64(f.Summary.TotalHeaderSize) &&
		f.size <= int64(f.Summary.TotalHeaderSize) && (e.SerialOffset > f.size || e.SerialSize > f.size-e.SerialOffset) {
		// The data lies in a .uexp companion that is not there (the
		// file is the header alone, as a split package's is; one with
		// data after its header is cut short); the range cannot be
		// checked (ExportData reports it missing).
		f.missingUexp = true
		return nil
	}
	if e.SerialSize > 0 {
		end := f.serialLimit()
		if e.SerialOffset > end || e.SerialSize > end-e.SerialOffset {
			return fmt.Errorf("serial range [0x%x, +0x%x) outside the package data (size 0x%x)", e.SerialOffset, e.SerialSize, end)
		}
	}
	return nil
}

// serialLimit is the end of the combined .uasset(+.uexp) address space.
func (f *File) serialLimit() int64 {
	if f.uexp != nil {
		return int64(f.Summary.TotalHeaderSize) + f.uexpSize
	}
	return f.size
}

// serialRange returns a reader over [off, off+n) of the combined address
// space: the .uasset, continued by the .uexp after TotalHeaderSize.
func (f *File) serialRange(off, n int64) (*io.SectionReader, error) {
	r, at, err := f.serialSpan(off, n)
	if err != nil {
		return nil, err
	}
	return io.NewSectionReader(r, at, n), nil
}

// serialSpan is serialRange as the reader and the offset in it at which
// the n bytes lie.
func (f *File) serialSpan(off, n int64) (io.ReaderAt, int64, error) {
	if off < 0 || n < 0 {
		return nil, 0, formatErrf("exports", "negative serial range (offset %d, size %d)", off, n)
	}
	hs := int64(f.Summary.TotalHeaderSize)
	if f.uexp != nil && off >= hs {
		rel := off - hs
		if rel > f.uexpSize || n > f.uexpSize-rel {
			return nil, 0, formatErrf("exports", "range [0x%x, +0x%x) outside the .uexp (size 0x%x, starting at 0x%x)", off, n, f.uexpSize, hs)
		}
		return f.uexp, rel, nil
	}
	if off > f.size || n > f.size-off {
		if f.uexp == nil && f.Summary.FilterEditorOnly() && off >= hs {
			return nil, 0, &FormatError{Section: "exports", Err: fmt.Errorf("range [0x%x, +0x%x) lies in the .uexp companion, which was not found: %w", off, n, fs.ErrNotExist)}
		}
		return nil, 0, formatErrf("exports", "range [0x%x, +0x%x) outside the file (size 0x%x)", off, n, f.size)
	}
	return f.r, off, nil
}

// maxReadAll bounds a single lazy read (an export, a thumbnail); the data
// is checked against the file size first, this only caps memory.
const maxReadAll = 1 << 30

func readAllSection(sr *io.SectionReader) ([]byte, error) {
	if sr.Size() > maxReadAll {
		return nil, &UnsupportedError{fmt.Sprintf("%d bytes is more than this reader loads at once", sr.Size())}
	}
	b := make([]byte, sr.Size())
	if _, err := io.ReadFull(sr, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}

// Uexp returns the .uexp companion and its size, or nil.
func (f *File) Uexp() (io.ReaderAt, int64) { return f.uexp, f.uexpSize }

// Size returns the size of the main file.
func (f *File) Size() int64 { return f.size }

// MissingUexp reports a split cooked package whose export data lies in a
// .uexp companion that was not found.
func (f *File) MissingUexp() bool { return f.missingUexp }

// SectionErrors returns the errors of the sections that could not be read,
// joined, or nil.
func (f *File) SectionErrors() error {
	var errs []error
	for _, s := range f.Sections {
		if s.Err != nil {
			errs = append(errs, s.Err)
		}
	}
	return errors.Join(errs...)
}

func savedByVersion(s *PackageFileSummary) string {
	v := s.SavedByEngineVersion
	if v.Major == 0 && v.Minor == 0 {
		return ""
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}
