package zen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// Record sizes.
const (
	summarySizeUE4      = 64 // FPackageSummary, 4.26/4.27
	exportEntrySize     = 72 // FExportMapEntry
	cellExportEntrySize = 40 // FCellExportMapEntry
	bundleEntrySize     = 8  // FExportBundleEntry
	bulkDataEntrySize   = 32 // FBulkDataMapEntry
	depHeaderSize       = 20 // FDependencyBundleHeader
	customVersionSize   = 20 // FCustomVersion
)

// Summary is FZenPackageSummary (UE5) or FPackageSummary (UE 4.26/4.27);
// fields a layout does not have are -1.
type Summary struct {
	HasVersioningInfo uint32     `json:"has_versioning_info"` // UE5
	HeaderSize        uint32     `json:"header_size"`
	Name              MappedName `json:"name"`
	SourceName        MappedName `json:"source_name"` // UE4
	PackageFlags      uint32     `json:"package_flags"`
	CookedHeaderSize  uint32     `json:"cooked_header_size"`
	// UE4 name map location.
	NameMapNamesOffset  int32 `json:"name_map_names_offset"`
	NameMapNamesSize    int32 `json:"name_map_names_size"`
	NameMapHashesOffset int32 `json:"name_map_hashes_offset"`
	NameMapHashesSize   int32 `json:"name_map_hashes_size"`
	// UE5.
	ImportedPublicExportHashesOffset int32 `json:"imported_public_export_hashes_offset"`
	ImportMapOffset                  int32 `json:"import_map_offset"`
	ExportMapOffset                  int32 `json:"export_map_offset"`
	ExportBundleEntriesOffset        int32 `json:"export_bundle_entries_offset"`
	// GraphDataOffset is written before NoExportInfo (5.3).
	GraphDataOffset int32 `json:"graph_data_offset"`
	GraphDataSize   int32 `json:"graph_data_size"` // UE4
	// NoExportInfo+.
	DependencyBundleHeadersOffset int32 `json:"dependency_bundle_headers_offset"`
	DependencyBundleEntriesOffset int32 `json:"dependency_bundle_entries_offset"`
	ImportedPackageNamesOffset    int32 `json:"imported_package_names_offset"`
	// SoftPackageReferencesOffset+ (UE 5.6 Verse cells), after the
	// versioning info.
	CellImportMapOffset int32 `json:"cell_import_map_offset"`
	CellExportMapOffset int32 `json:"cell_export_map_offset"`
}

// VersioningInfo is FZenPackageVersioningInfo.
type VersioningInfo struct {
	ZenVersion      uint32          `json:"zen_version"` // EZenPackageVersion
	FileVersionUE4  int32           `json:"file_version_ue4"`
	FileVersionUE5  int32           `json:"file_version_ue5"`
	LicenseeVersion int32           `json:"licensee_version"`
	CustomVersions  []CustomVersion `json:"custom_versions"`
}

// CustomVersion is FCustomVersion.
type CustomVersion struct {
	Key     ue.Guid `json:"key"`
	Version int32   `json:"version"`
}

// BulkDataEntry is FBulkDataMapEntry (UE 5.2+).
type BulkDataEntry struct {
	SerialOffset          int64  `json:"serial_offset"`
	DuplicateSerialOffset int64  `json:"duplicate_serial_offset"`
	SerialSize            int64  `json:"serial_size"`
	Flags                 uint32 `json:"flags"`
	CookedIndex           uint8  `json:"cooked_index"`
}

// Export is FExportMapEntry.
type Export struct {
	CookedSerialOffset uint64      `json:"cooked_serial_offset"`
	CookedSerialSize   uint64      `json:"cooked_serial_size"`
	ObjectName         MappedName  `json:"object_name"`
	OuterIndex         ObjectIndex `json:"outer_index"`
	ClassIndex         ObjectIndex `json:"class_index"`
	SuperIndex         ObjectIndex `json:"super_index"`
	TemplateIndex      ObjectIndex `json:"template_index"`
	// PublicExportHash is UE5's hash of the export's path in its package;
	// in UE4 the same field is GlobalImportIndex (a package-import
	// ObjectIndex, null for non-public exports).
	PublicExportHash ue.ID  `json:"public_export_hash"`
	ObjectFlags      uint32 `json:"object_flags"`
	FilterFlags      uint8  `json:"filter_flags"` // EExportFilterFlags
	Name             string `json:"name"`
}

// CellExport is FCellExportMapEntry (UE 5.6 Verse cells).
type CellExport struct {
	CookedSerialOffset     uint64     `json:"cooked_serial_offset"`
	CookedSerialLayoutSize uint64     `json:"cooked_serial_layout_size"`
	CookedSerialSize       uint64     `json:"cooked_serial_size"`
	CppClassInfo           MappedName `json:"cpp_class_info"`
	PublicExportHash       ue.ID      `json:"public_export_hash"`
}

// BundleEntry is FExportBundleEntry.
type BundleEntry struct {
	LocalExportIndex uint32 `json:"local_export_index"`
	CommandType      uint32 `json:"command_type"` // 0 Create, 1 Serialize
}

// BundleHeader is FExportBundleHeader (UE4 and UE5 before 5.3).
type BundleHeader struct {
	SerialOffset    uint64 `json:"serial_offset"` // UE5 only
	FirstEntryIndex uint32 `json:"first_entry_index"`
	EntryCount      uint32 `json:"entry_count"`
}

// DependencyBundleHeader is FDependencyBundleHeader (5.3+): the first entry
// and the entry counts [Create|Serialize][Create|Serialize].
type DependencyBundleHeader struct {
	FirstEntryIndex int32     `json:"first_entry_index"`
	EntryCount      [4]uint32 `json:"entry_count"`
}

// Arc is an internal dependency arc (from and to export bundle).
type Arc struct{ From, To int32 }

// ExternalArc is an external dependency arc (5.0–5.2).
type ExternalArc struct {
	FromImportIndex int32 `json:"from_import_index"`
	FromCommandType uint8 `json:"from_command_type"`
	ToExportBundle  int32 `json:"to_export_bundle"`
}

// PackageArcs are the arcs from one imported package (UE4 graph data:
// bundle-to-bundle arcs; 5.0–5.2: external arcs).
type PackageArcs struct {
	PackageID ue.ID         `json:"package_id,omitempty"`
	Arcs      []Arc         `json:"arcs,omitempty"`
	External  []ExternalArc `json:"external,omitempty"`
}

// Package is a parsed zen package header and its export data.
type Package struct {
	// Layout is the summary layout the package was read with.
	Layout     HeaderVersion   `json:"layout"`
	Summary    Summary         `json:"summary"`
	Versioning *VersioningInfo `json:"versioning,omitempty"`
	Names      []Name          `json:"names"`
	Name       string          `json:"package_name"`
	SourceName string          `json:"source_name,omitempty"`

	BulkDataPadding            uint64                   `json:"bulk_data_padding,omitempty"`
	BulkData                   []BulkDataEntry          `json:"bulk_data,omitempty"`
	HasBulkDataMap             bool                     `json:"has_bulk_data_map"`
	ImportedPublicExportHashes []ue.ID                  `json:"imported_public_export_hashes,omitempty"`
	ImportMap                  []ObjectIndex            `json:"import_map"`
	Exports                    []Export                 `json:"exports"`
	CellImports                []ObjectIndex            `json:"cell_imports,omitempty"`
	CellExports                []CellExport             `json:"cell_exports,omitempty"`
	BundleHeaders              []BundleHeader           `json:"export_bundle_headers,omitempty"`
	BundleEntries              []BundleEntry            `json:"export_bundle_entries"`
	DependencyHeaders          []DependencyBundleHeader `json:"dependency_bundle_headers,omitempty"`
	DependencyEntries          []int32                  `json:"dependency_bundle_entries,omitempty"`
	InternalArcs               []Arc                    `json:"internal_arcs,omitempty"`
	PackageArcs                []PackageArcs            `json:"package_arcs,omitempty"`
	ImportedPackageNames       []string                 `json:"imported_package_names,omitempty"`
	ImportedPackageNameHashes  []Name                   `json:"-"`

	// Where the UE5 name map and bulk data map were found (their offsets
	// are not in the summary).
	NameMapOffset  int64 `json:"name_map_offset"`
	NameMapSize    int64 `json:"name_map_size"`
	BulkDataOffset int64 `json:"bulk_data_offset,omitempty"`

	data []byte
	// body, when not nil, reads the whole package, size bytes, of which
	// data holds the first (Options.Body).
	body io.ReaderAt
	size int64
	// bodyRead counts the bytes read through body (see maxBodyReads),
	// atomically.
	bodyRead int64
	// exportOffsets are the offsets of each export's data in data (-1 for
	// exports without a Serialize command).
	exportOffsets []int64
	// spare holds the tables of a package parsed before into this one
	// (see Options.Reuse), whose memory the parse reuses.
	spare spareTables
}

// spareTables are the tables of a package a parse may reuse: every one
// that nearly every UE5 package has.
type spareTables struct {
	names, importedPackageNameHashes []Name
	importedPublicExportHashes       []ue.ID
	importMap                        []ObjectIndex
	exports                          []Export
	bundleEntries                    []BundleEntry
	dependencyHeaders                []DependencyBundleHeader
	dependencyEntries                []int32
	importedPackageNames             []string
	exportOffsets                    []int64
	customVersions                   []CustomVersion
	versioning                       *VersioningInfo
}

// larger returns whichever of a and b has the larger capacity.
func larger[T any](a, b []T) []T {
	if cap(a) >= cap(b) {
		return a
	}
	return b
}

// reset empties p for a parse of data in layout v, keeping its tables (or
// the spare ones, when larger) as spares; a nil p gives a new package.
func (p *Package) reset(v HeaderVersion, data []byte) *Package {
	if p == nil {
		return &Package{Layout: v, data: data}
	}
	o := &p.spare
	sp := spareTables{
		names:                      larger(p.Names, o.names),
		importedPackageNameHashes:  larger(p.ImportedPackageNameHashes, o.importedPackageNameHashes),
		importedPublicExportHashes: larger(p.ImportedPublicExportHashes, o.importedPublicExportHashes),
		importMap:                  larger(p.ImportMap, o.importMap),
		exports:                    larger(p.Exports, o.exports),
		bundleEntries:              larger(p.BundleEntries, o.bundleEntries),
		dependencyHeaders:          larger(p.DependencyHeaders, o.dependencyHeaders),
		dependencyEntries:          larger(p.DependencyEntries, o.dependencyEntries),
		importedPackageNames:       larger(p.ImportedPackageNames, o.importedPackageNames),
		exportOffsets:              larger(p.exportOffsets, o.exportOffsets),
		versioning:                 o.versioning,
		customVersions:             o.customVersions,
	}
	if vi := p.Versioning; vi != nil {
		sp.versioning = vi
		sp.customVersions = larger(vi.CustomVersions, sp.customVersions)
	}
	*p = Package{Layout: v, data: data, spare: sp}
	return p
}

// spareTable is table reusing spare's memory when it is large enough (a
// nil spare never is: table gives an empty table, not a nil one, for a
// positive n that the data cannot hold).
func spareTable[T any](spare []T, n, size, dataSize int) []T {
	if n <= 0 {
		return nil
	}
	if c := min(n, dataSize/size); spare != nil && cap(spare) >= c {
		return spare[:0]
	}
	return table[T](n, size, dataSize)
}

// spareSlice returns spare[:n] when spare holds n elements (its elements
// are not cleared), else make([]T, n).
func spareSlice[T any](spare []T, n int) []T {
	if spare != nil && cap(spare) >= n {
		return spare[:n]
	}
	return make([]T, n)
}

// Options selects the layout of a zen package.
type Options struct {
	// HeaderVersion is the container header version of the container the
	// package came from. Unknown (Auto) tries the layouts in turn.
	HeaderVersion HeaderVersion
	Auto          bool
	// StoreExportBundleCount and StoreImportedPackages come from the
	// package's entry in its container's package store (zero for a loose
	// file). They cross-check the export bundle headers of UE4 and 5.0–5.2
	// packages and name the packages of 5.0–5.2 external arcs.
	StoreExportBundleCount int32
	StoreImportedPackages  []ue.ID
	// Reuse, when not nil, is a package an earlier Parse returned that is
	// no longer used, nor anything of it but its strings: Parse may refill
	// it, reusing the memory of its tables, and return it. (Verifying many
	// packages one after another this way saves allocating each one's.)
	Reuse *Package
	// Body, when not nil, reads the whole package, Size bytes, of which
	// Parse is given only the first ones: Parse reads the rest of the
	// header from Body when it needs it, and export data is read from
	// Body as it is asked for, into memory of the export's size. A package
	// too big to hold (a map of hundreds of MB) is parsed this way.
	Body io.ReaderAt
	Size int64
}

// FormatError reports a malformed zen package.
type FormatError struct {
	Offset int64
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	s := fmt.Sprintf("zen: %s (at offset 0x%x)", e.Msg, e.Offset)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// ErrNotZen reports data that is not a zen package in any known layout.
var ErrNotZen = errors.New("zen: not a zen package (no summary layout fits)")

// Parse reads a zen package from its bytes (header and export data), or
// from its first bytes and opts.Body.
func Parse(data []byte, opts Options) (*Package, error) {
	if opts.Body != nil && (opts.Size < int64(len(data)) || opts.Size > maxDataOffset) {
		return nil, fmt.Errorf("zen: package of %d bytes given as %d", opts.Size, len(data))
	}
	if !opts.Auto {
		p, err := parseBody(&data, opts.HeaderVersion, opts)
		if err != nil {
			return nil, err
		}
		if err := p.checkChains(); err != nil {
			return nil, err
		}
		return p, p.checkStore(opts)
	}
	var firstErr error
	for _, v := range []HeaderVersion{HeaderSoftPackageReferencesOffset, HeaderNoExportInfo, HeaderOptionalSegmentPackages, HeaderInitial} {
		p, err := parseBody(&data, v, opts)
		if err == nil {
			if err := p.checkChains(); err != nil {
				return nil, err
			}
			return p, p.checkStore(opts)
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, fmt.Errorf("%w; as the newest layout: %v", ErrNotZen, firstErr)
}

// parseBody is parse in layout v of *data, or with opts.Body of the
// package's header read from it first (*data is then the longest prefix
// read so far, which later layouts reuse), whose export data is read from
// opts.Body as it is asked for.
func parseBody(data *[]byte, v HeaderVersion, opts Options) (*Package, error) {
	if opts.Body == nil {
		return parse(*data, v, opts.Reuse)
	}
	end, ok := headerEnd(*data, v)
	if !ok {
		// Too short to tell: the longest summary first.
		if err := readMore(data, min(opts.Size, summarySizeUE4), opts.Body); err != nil {
			return nil, err
		}
		end, _ = headerEnd(*data, v)
	}
	if end > int64(len(*data)) && end <= opts.Size {
		// The header, as this layout reads its size: at most the whole
		// package, whose size the caller knows.
		if err := readMore(data, end, opts.Body); err != nil {
			return nil, err
		}
	}
	p, err := parse(*data, v, opts.Reuse)
	if err != nil {
		return nil, err
	}
	p.body, p.size = opts.Body, opts.Size
	return p, nil
}

// readMore extends *data, the first bytes of body, to its first n bytes.
func readMore(data *[]byte, n int64, body io.ReaderAt) error {
	have := int64(len(*data))
	if n <= have {
		return nil
	}
	b := make([]byte, n)
	copy(b, *data)
	if got, err := body.ReadAt(b[have:], have); int64(got) != n-have {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return &FormatError{Offset: have, Msg: fmt.Sprintf("reading the first %d bytes", n), Err: err}
	}
	*data = b
	return nil
}

// headerEnd returns where layout v's header ends by the summary at the
// start of prefix (ok false when prefix is too short to hold the fields).
func headerEnd(prefix []byte, v HeaderVersion) (end int64, ok bool) {
	if v <= HeaderInitial {
		// FPackageSummary: GraphDataOffset + GraphDataSize.
		if len(prefix) < 60 {
			return 0, false
		}
		return int64(int32(binary.LittleEndian.Uint32(prefix[52:]))) + int64(int32(binary.LittleEndian.Uint32(prefix[56:]))), true
	}
	// FZenPackageSummary: HeaderSize.
	if len(prefix) < 8 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(prefix[4:])), true
}

// checkStore compares the package with its package store entry.
func (p *Package) checkStore(opts Options) error {
	if n := opts.StoreExportBundleCount; n > 0 && len(p.BundleHeaders) > 0 && int(n) != len(p.BundleHeaders) {
		return &FormatError{Offset: int64(p.Summary.ExportBundleEntriesOffset), Msg: fmt.Sprintf("%d export bundles, the package store says %d", len(p.BundleHeaders), n)}
	}
	if ids := opts.StoreImportedPackages; p.Layout > HeaderInitial && len(ids) == len(p.PackageArcs) {
		for i := range p.PackageArcs {
			p.PackageArcs[i].PackageID = ids[i]
		}
	}
	return nil
}

func ferr(r *binread.Reader) error {
	if r.Err() == nil {
		return nil
	}
	var be *binread.Error
	if errors.As(r.Err(), &be) {
		return &FormatError{Offset: be.Offset, Msg: be.Field, Err: be.Err}
	}
	return r.Err()
}

// checkOffsets verifies that the offsets are ascending and inside
// [lo, hi].
func checkOffsets(lo, hi int64, names []string, offs ...int32) error {
	prev := lo
	for i, o := range offs {
		if int64(o) < prev || int64(o) > hi {
			return &FormatError{Offset: 0, Msg: fmt.Sprintf("summary %s = %d outside [%d, %d]", names[i], o, prev, hi)}
		}
		prev = int64(o)
	}
	return nil
}

func parse(data []byte, v HeaderVersion, reuse *Package) (*Package, error) {
	if v <= HeaderInitial {
		return parseUE4(data, v)
	}
	r := binread.FromBytes(data)
	p := reuse.reset(v, data)
	s := &p.Summary
	*s = Summary{NameMapNamesOffset: -1, NameMapNamesSize: -1, NameMapHashesOffset: -1, NameMapHashesSize: -1, GraphDataOffset: -1, GraphDataSize: -1,
		DependencyBundleHeadersOffset: -1, DependencyBundleEntriesOffset: -1, ImportedPackageNamesOffset: -1, CellImportMapOffset: -1, CellExportMapOffset: -1}
	s.HasVersioningInfo = r.U32("ZenPackageSummary.bHasVersioningInfo")
	s.HeaderSize = r.U32("ZenPackageSummary.HeaderSize")
	s.Name = ReadMappedName(r, "ZenPackageSummary.Name")
	s.PackageFlags = r.U32("ZenPackageSummary.PackageFlags")
	s.CookedHeaderSize = r.U32("ZenPackageSummary.CookedHeaderSize")
	s.ImportedPublicExportHashesOffset = r.I32("ZenPackageSummary.ImportedPublicExportHashesOffset")
	s.ImportMapOffset = r.I32("ZenPackageSummary.ImportMapOffset")
	s.ExportMapOffset = r.I32("ZenPackageSummary.ExportMapOffset")
	s.ExportBundleEntriesOffset = r.I32("ZenPackageSummary.ExportBundleEntriesOffset")
	if v >= HeaderNoExportInfo {
		s.DependencyBundleHeadersOffset = r.I32("ZenPackageSummary.DependencyBundleHeadersOffset")
		s.DependencyBundleEntriesOffset = r.I32("ZenPackageSummary.DependencyBundleEntriesOffset")
		s.ImportedPackageNamesOffset = r.I32("ZenPackageSummary.ImportedPackageNamesOffset")
	} else {
		s.GraphDataOffset = r.I32("ZenPackageSummary.GraphDataOffset")
	}
	if r.Err() != nil {
		return nil, ferr(r)
	}
	if s.HasVersioningInfo > 1 {
		return nil, &FormatError{Offset: 0, Msg: fmt.Sprintf("bHasVersioningInfo = %d", s.HasVersioningInfo)}
	}
	hsz := int64(s.HeaderSize)
	if hsz > int64(len(data)) || hsz < r.Offset() {
		return nil, &FormatError{Offset: 4, Msg: fmt.Sprintf("HeaderSize %d outside [%d, %d]", hsz, r.Offset(), len(data))}
	}
	if v >= HeaderNoExportInfo {
		if err := checkOffsets(r.Offset(), hsz, []string{"ImportedPublicExportHashesOffset", "ImportMapOffset", "ExportMapOffset", "ExportBundleEntriesOffset", "DependencyBundleHeadersOffset", "DependencyBundleEntriesOffset", "ImportedPackageNamesOffset"},
			s.ImportedPublicExportHashesOffset, s.ImportMapOffset, s.ExportMapOffset, s.ExportBundleEntriesOffset, s.DependencyBundleHeadersOffset, s.DependencyBundleEntriesOffset, s.ImportedPackageNamesOffset); err != nil {
			return nil, err
		}
	} else if err := checkOffsets(r.Offset(), hsz, []string{"ImportedPublicExportHashesOffset", "ImportMapOffset", "ExportMapOffset", "ExportBundleEntriesOffset", "GraphDataOffset"},
		s.ImportedPublicExportHashesOffset, s.ImportMapOffset, s.ExportMapOffset, s.ExportBundleEntriesOffset, s.GraphDataOffset); err != nil {
		return nil, err
	}
	hr := r.Section(0, hsz, "ZenPackageHeader")
	hr.SeekTo(r.Offset(), "ZenPackageHeader")
	r = hr
	if s.HasVersioningInfo == 1 {
		vi := p.spare.versioning
		if vi == nil {
			vi = &VersioningInfo{}
		} else {
			*vi = VersioningInfo{}
		}
		vi.ZenVersion = r.U32("VersioningInfo.ZenVersion")
		vi.FileVersionUE4 = r.I32("VersioningInfo.PackageVersion.FileVersionUE4")
		vi.FileVersionUE5 = r.I32("VersioningInfo.PackageVersion.FileVersionUE5")
		vi.LicenseeVersion = r.I32("VersioningInfo.LicenseeVersion")
		n := r.Count("VersioningInfo.CustomVersions", customVersionSize)
		if n > 0 {
			// Count checked n against the bytes left.
			vi.CustomVersions = spareSlice(p.spare.customVersions, n)[:0]
		}
		for i := 0; i < n && r.Err() == nil; i++ {
			vi.CustomVersions = append(vi.CustomVersions, CustomVersion{ue.ReadGuid(r, "CustomVersion.Key"), r.I32("CustomVersion.Version")})
		}
		p.Versioning = vi
	}
	if v >= HeaderSoftPackageReferencesOffset {
		s.CellImportMapOffset = r.I32("ZenPackageSummary.CellImportMapOffset")
		s.CellExportMapOffset = r.I32("ZenPackageSummary.CellExportMapOffset")
		if r.Err() == nil {
			if err := checkOffsets(int64(s.ExportMapOffset), int64(s.ExportBundleEntriesOffset), []string{"CellImportMapOffset", "CellExportMapOffset"}, s.CellImportMapOffset, s.CellExportMapOffset); err != nil {
				return nil, err
			}
		}
	} else {
		s.CellImportMapOffset, s.CellExportMapOffset = s.ExportBundleEntriesOffset, s.ExportBundleEntriesOffset
	}
	p.NameMapOffset = r.Offset()
	p.Names = readNameBatchInto(r, data, "NameMap", p.spare.names)
	if r.Err() != nil {
		return nil, ferr(r)
	}
	p.NameMapSize = r.Offset() - p.NameMapOffset
	p.BulkDataOffset = r.Offset()
	if err := p.readBulkData(r); err != nil {
		return nil, err
	}
	// Imported public export hashes.
	n := (s.ImportMapOffset - s.ImportedPublicExportHashesOffset) / 8
	r.SeekTo(int64(s.ImportedPublicExportHashesOffset), "ImportedPublicExportHashes")
	p.ImportedPublicExportHashes = spareSlice(p.spare.importedPublicExportHashes, int(n))
	for i := range p.ImportedPublicExportHashes {
		p.ImportedPublicExportHashes[i] = ue.ID(r.U64("ImportedPublicExportHashes"))
	}
	p.readImportsExports(r)
	// Cell maps (5.6+).
	if s.CellExportMapOffset > s.CellImportMapOffset {
		r.SeekTo(int64(s.CellImportMapOffset), "CellImportMap")
		p.CellImports = table[ObjectIndex](int(s.CellExportMapOffset-s.CellImportMapOffset)/8, 8, len(p.data))
		for i := 0; i < int(s.CellExportMapOffset-s.CellImportMapOffset)/8; i++ {
			p.CellImports = append(p.CellImports, ObjectIndex(r.U64("CellImportMap")))
		}
	}
	if s.ExportBundleEntriesOffset > s.CellExportMapOffset {
		r.SeekTo(int64(s.CellExportMapOffset), "CellExportMap")
		p.CellExports = table[CellExport](int(s.ExportBundleEntriesOffset-s.CellExportMapOffset)/cellExportEntrySize, cellExportEntrySize, len(p.data))
		for i := 0; i < int(s.ExportBundleEntriesOffset-s.CellExportMapOffset)/cellExportEntrySize; i++ {
			p.CellExports = append(p.CellExports, CellExport{r.U64("CellExport.CookedSerialOffset"), r.U64("CellExport.CookedSerialLayoutSize"), r.U64("CellExport.CookedSerialSize"), ReadMappedName(r, "CellExport.CppClassInfo"), ue.ID(r.U64("CellExport.PublicExportHash"))})
		}
	}
	// Export bundle entries run to the dependency headers (5.3+) or graph data.
	end := s.GraphDataOffset
	if v >= HeaderNoExportInfo {
		end = s.DependencyBundleHeadersOffset
	}
	r.SeekTo(int64(s.ExportBundleEntriesOffset), "ExportBundleEntries")
	p.BundleEntries = spareTable(p.spare.bundleEntries, int(end-s.ExportBundleEntriesOffset)/bundleEntrySize, bundleEntrySize, len(p.data))
	for i := 0; i < int(end-s.ExportBundleEntriesOffset)/bundleEntrySize; i++ {
		p.BundleEntries = append(p.BundleEntries, BundleEntry{r.U32("ExportBundleEntry.LocalExportIndex"), r.U32("ExportBundleEntry.CommandType")})
	}
	if v >= HeaderNoExportInfo {
		r.SeekTo(int64(s.DependencyBundleHeadersOffset), "DependencyBundleHeaders")
		p.DependencyHeaders = spareTable(p.spare.dependencyHeaders, int(s.DependencyBundleEntriesOffset-s.DependencyBundleHeadersOffset)/depHeaderSize, depHeaderSize, len(p.data))
		for i := 0; i < int(s.DependencyBundleEntriesOffset-s.DependencyBundleHeadersOffset)/depHeaderSize; i++ {
			h := DependencyBundleHeader{FirstEntryIndex: r.I32("DependencyBundleHeader.FirstEntryIndex")}
			for j := range h.EntryCount {
				h.EntryCount[j] = r.U32("DependencyBundleHeader.EntryCount")
			}
			p.DependencyHeaders = append(p.DependencyHeaders, h)
		}
		r.SeekTo(int64(s.DependencyBundleEntriesOffset), "DependencyBundleEntries")
		p.DependencyEntries = spareTable(p.spare.dependencyEntries, int(s.ImportedPackageNamesOffset-s.DependencyBundleEntriesOffset)/4, 4, len(p.data))
		for i := 0; i < int(s.ImportedPackageNamesOffset-s.DependencyBundleEntriesOffset)/4; i++ {
			p.DependencyEntries = append(p.DependencyEntries, r.I32("DependencyBundleEntry"))
		}
		r.SeekTo(int64(s.ImportedPackageNamesOffset), "ImportedPackageNames")
		p.ImportedPackageNameHashes = readNameBatchInto(r, data, "ImportedPackageNames", p.spare.importedPackageNameHashes)
		p.ImportedPackageNames = spareTable(p.spare.importedPackageNames, len(p.ImportedPackageNameHashes), 1, len(p.data))
		for _, nm := range p.ImportedPackageNameHashes {
			num := r.I32("ImportedPackageNames.Number")
			p.ImportedPackageNames = append(p.ImportedPackageNames, ue.FormatName(nm.Value, num))
		}
		if r.Err() == nil && len(p.DependencyHeaders) != len(p.Exports) {
			return nil, &FormatError{Offset: int64(s.DependencyBundleHeadersOffset), Msg: fmt.Sprintf("%d dependency bundle headers for %d exports", len(p.DependencyHeaders), len(p.Exports))}
		}
	} else {
		p.readGraphData(r)
	}
	if r.Err() != nil {
		return nil, ferr(r)
	}
	return p, p.finish(int64(s.HeaderSize))
}

// table returns room for a table of n records of size bytes each read
// from a package of dataSize bytes: nil when n is not positive (as
// appending to nothing leaves it), else capacity for the records the
// package can hold at most, so a count from a bad header allocates no
// more than the package's size.
func table[T any](n, size, dataSize int) []T {
	if n <= 0 {
		return nil
	}
	return make([]T, 0, min(n, dataSize/size))
}

// readBulkData reads the bulk data map (5.2+) between the name map and the
// imported public export hashes. Whether it is there, and whether 5.4's
// alignment padding precedes it, is decided by the layout that exactly
// fills the gap, so unversioned packages need no engine version.
func (p *Package) readBulkData(r *binread.Reader) error {
	s := &p.Summary
	pos := r.Offset()
	gap := int64(s.ImportedPublicExportHashesOffset) - pos
	if gap == 0 {
		return nil
	}
	tryAt := func(at int64) (int64, bool) {
		if at+8 > int64(s.ImportedPublicExportHashesOffset) {
			return 0, false
		}
		r.SeekTo(at, "BulkDataMapSize")
		sz := r.I64("BulkDataMapSize")
		if r.Err() != nil {
			r.ClearErr()
			return 0, false
		}
		return sz, sz >= 0 && sz%bulkDataEntrySize == 0 && at+8+sz == int64(s.ImportedPublicExportHashesOffset)
	}
	start := int64(-1)
	var size int64
	if sz, ok := tryAt(pos); ok {
		start, size = pos+8, sz
	} else if gap >= 16 {
		r.SeekTo(pos, "BulkDataPadding")
		pad := r.U64("BulkDataPadding")
		if r.Err() == nil && pad < 8 {
			if sz, ok := tryAt(pos + 8 + int64(pad)); ok {
				start, size = pos+16+int64(pad), sz
				p.BulkDataPadding = pad
			}
		}
		r.ClearErr()
	}
	if start < 0 {
		return &FormatError{Offset: pos, Msg: fmt.Sprintf("%d bytes between the name map and ImportedPublicExportHashesOffset %d are not a bulk data map", gap, s.ImportedPublicExportHashesOffset)}
	}
	p.HasBulkDataMap = true
	r.SeekTo(start, "BulkDataMap")
	for i := int64(0); i < size/bulkDataEntrySize; i++ {
		e := BulkDataEntry{SerialOffset: r.I64("BulkDataMapEntry.SerialOffset"), DuplicateSerialOffset: r.I64("BulkDataMapEntry.DuplicateSerialOffset"), SerialSize: r.I64("BulkDataMapEntry.SerialSize"), Flags: r.U32("BulkDataMapEntry.Flags"), CookedIndex: r.U8("BulkDataMapEntry.CookedIndex")}
		r.Skip(3, "BulkDataMapEntry.Pad")
		p.BulkData = append(p.BulkData, e)
	}
	return ferr(r)
}

func (p *Package) readImportsExports(r *binread.Reader) {
	s := &p.Summary
	r.SeekTo(int64(s.ImportMapOffset), "ImportMap")
	p.ImportMap = spareTable(p.spare.importMap, int(s.ExportMapOffset-s.ImportMapOffset)/8, 8, len(p.data))
	for i := 0; i < int(s.ExportMapOffset-s.ImportMapOffset)/8; i++ {
		p.ImportMap = append(p.ImportMap, ObjectIndex(r.U64("ImportMap")))
	}
	r.SeekTo(int64(s.ExportMapOffset), "ExportMap")
	n := int(s.CellImportMapOffset-s.ExportMapOffset) / exportEntrySize
	p.Exports = spareSlice(p.spare.exports, n)[:0]
	for i := 0; i < n && r.Err() == nil; i++ {
		e := Export{
			CookedSerialOffset: r.U64("ExportMapEntry.CookedSerialOffset"),
			CookedSerialSize:   r.U64("ExportMapEntry.CookedSerialSize"),
			ObjectName:         ReadMappedName(r, "ExportMapEntry.ObjectName"),
			OuterIndex:         ObjectIndex(r.U64("ExportMapEntry.OuterIndex")),
			ClassIndex:         ObjectIndex(r.U64("ExportMapEntry.ClassIndex")),
			SuperIndex:         ObjectIndex(r.U64("ExportMapEntry.SuperIndex")),
			TemplateIndex:      ObjectIndex(r.U64("ExportMapEntry.TemplateIndex")),
			PublicExportHash:   ue.ID(r.U64("ExportMapEntry.PublicExportHash")),
			ObjectFlags:        r.U32("ExportMapEntry.ObjectFlags"),
			FilterFlags:        r.U8("ExportMapEntry.FilterFlags"),
		}
		r.Skip(3, "ExportMapEntry.Pad")
		p.Exports = append(p.Exports, e)
	}
}

// checkChains reports an export whose chain of outers, supers or
// templates through the package's own exports comes back to it (export 0's
// outer export 1, whose outer is export 0): no export of the chain has a
// path, and the engine would loop on it. It runs once a layout has read
// the package (an error of it is no reason to try another layout).
func (p *Package) checkChains() error {
	var stack [512]uint8
	state := stack[:0] // 0 not seen, 1 on the chain being followed, 2 ends well
	if len(p.Exports) <= len(stack) {
		state = stack[:len(p.Exports)]
	} else {
		state = make([]uint8, len(p.Exports))
	}
	var chainBuf [64]int
	for field, name := range [3]string{"OuterIndex", "SuperIndex", "TemplateIndex"} {
		clear(state)
		for start := range state {
			chain := chainBuf[:0]
			n := start
			for n >= 0 && n < len(state) && state[n] == 0 {
				state[n] = 1
				chain = append(chain, n)
				e := &p.Exports[n]
				x := [3]ObjectIndex{e.OuterIndex, e.SuperIndex, e.TemplateIndex}[field]
				n = -1
				if x.Kind() == KindExport {
					n = int(x.Value())
				}
			}
			if n >= 0 && n < len(state) && state[n] == 1 {
				return &FormatError{Offset: int64(p.Summary.ExportMapOffset) + int64(n)*exportEntrySize, Msg: "ExportMap[" + strconv.Itoa(n) + "]." + name, Err: errors.New("the chain comes back to it (a cycle)")}
			}
			for _, m := range chain {
				state[m] = 2
			}
		}
	}
	return nil
}

// readGraphData reads 5.0–5.2 graph data: export bundle headers, internal
// arcs, then one external-arc array per imported package, up to HeaderSize.
func (p *Package) readGraphData(r *binread.Reader) {
	s := &p.Summary
	r.SeekTo(int64(s.GraphDataOffset), "GraphData")
	total := uint64(0)
	for total < uint64(len(p.BundleEntries)) && r.Err() == nil {
		h := BundleHeader{SerialOffset: r.U64("ExportBundleHeader.SerialOffset"), FirstEntryIndex: r.U32("ExportBundleHeader.FirstEntryIndex"), EntryCount: r.U32("ExportBundleHeader.EntryCount")}
		if h.EntryCount == 0 {
			r.Failf("ExportBundleHeader.EntryCount", "empty export bundle")
			break
		}
		total += uint64(h.EntryCount)
		p.BundleHeaders = append(p.BundleHeaders, h)
	}
	if r.Err() == nil && total != uint64(len(p.BundleEntries)) {
		r.Failf("ExportBundleHeaders", "bundles hold %d entries, %d stored", total, len(p.BundleEntries))
	}
	n := r.Count("InternalDependencyArcs", 8)
	for i := 0; i < n && r.Err() == nil; i++ {
		p.InternalArcs = append(p.InternalArcs, Arc{r.I32("Arc.From"), r.I32("Arc.To")})
	}
	// One array of external arcs per imported package, to the end: counted
	// first, so that the arrays are allocated once (each empty one is 4
	// bytes of data and 56 of PackageArcs; grown by appending, more).
	start, arrays := r.Offset(), 0
	for r.Remaining() > 0 && r.Err() == nil {
		n := r.Count("ExternalDependencyArcs", 9)
		r.Skip(int64(n)*9, "ExternalDependencyArcs")
		arrays++
	}
	if r.Err() != nil {
		return
	}
	r.SeekTo(start, "ExternalDependencyArcs")
	if cap(p.PackageArcs)-len(p.PackageArcs) < arrays {
		p.PackageArcs = append(make([]PackageArcs, 0, len(p.PackageArcs)+arrays), p.PackageArcs...)
	}
	for r.Remaining() > 0 && r.Err() == nil {
		var pa PackageArcs
		n := r.Count("ExternalDependencyArcs", 9)
		for i := 0; i < n && r.Err() == nil; i++ {
			pa.External = append(pa.External, ExternalArc{r.I32("ExternalArc.FromImportIndex"), r.U8("ExternalArc.FromCommandType"), r.I32("ExternalArc.ToExportBundleIndex")})
		}
		p.PackageArcs = append(p.PackageArcs, pa)
	}
}

// parseUE4 reads a 4.26/4.27 FPackageSummary package.
func parseUE4(data []byte, v HeaderVersion) (*Package, error) {
	r := binread.FromBytes(data)
	p := &Package{Layout: v, data: data}
	s := &p.Summary
	*s = Summary{ImportedPublicExportHashesOffset: -1, DependencyBundleHeadersOffset: -1, DependencyBundleEntriesOffset: -1, ImportedPackageNamesOffset: -1, CellImportMapOffset: -1, CellExportMapOffset: -1}
	s.Name = ReadMappedName(r, "PackageSummary.Name")
	s.SourceName = ReadMappedName(r, "PackageSummary.SourceName")
	s.PackageFlags = r.U32("PackageSummary.PackageFlags")
	s.CookedHeaderSize = r.U32("PackageSummary.CookedHeaderSize")
	s.NameMapNamesOffset = r.I32("PackageSummary.NameMapNamesOffset")
	s.NameMapNamesSize = r.I32("PackageSummary.NameMapNamesSize")
	s.NameMapHashesOffset = r.I32("PackageSummary.NameMapHashesOffset")
	s.NameMapHashesSize = r.I32("PackageSummary.NameMapHashesSize")
	s.ImportMapOffset = r.I32("PackageSummary.ImportMapOffset")
	s.ExportMapOffset = r.I32("PackageSummary.ExportMapOffset")
	s.ExportBundleEntriesOffset = r.I32("PackageSummary.ExportBundlesOffset")
	s.GraphDataOffset = r.I32("PackageSummary.GraphDataOffset")
	s.GraphDataSize = r.I32("PackageSummary.GraphDataSize")
	r.I32("PackageSummary.Pad")
	if r.Err() != nil {
		return nil, ferr(r)
	}
	hsz := int64(s.GraphDataOffset) + int64(s.GraphDataSize)
	if s.GraphDataSize < 0 || hsz > int64(len(data)) {
		return nil, &FormatError{Offset: 52, Msg: fmt.Sprintf("GraphDataOffset+GraphDataSize = %d outside the %d bytes", hsz, len(data))}
	}
	s.HeaderSize = uint32(hsz)
	if err := checkOffsets(summarySizeUE4, hsz, []string{"NameMapNamesOffset", "NameMapHashesOffset", "ImportMapOffset", "ExportMapOffset", "ExportBundlesOffset", "GraphDataOffset"},
		s.NameMapNamesOffset, s.NameMapHashesOffset, s.ImportMapOffset, s.ExportMapOffset, s.ExportBundleEntriesOffset, s.GraphDataOffset); err != nil {
		return nil, err
	}
	if s.NameMapNamesSize < 0 || int64(s.NameMapNamesOffset)+int64(s.NameMapNamesSize) > int64(s.NameMapHashesOffset) ||
		s.NameMapHashesSize < 0 || int64(s.NameMapHashesOffset)+int64(s.NameMapHashesSize) > int64(s.ImportMapOffset) {
		return nil, &FormatError{Offset: 28, Msg: "name map sizes overlap the next sections"}
	}
	names := data[s.NameMapNamesOffset : s.NameMapNamesOffset+s.NameMapNamesSize]
	hashes := data[s.NameMapHashesOffset : s.NameMapHashesOffset+s.NameMapHashesSize]
	var err error
	if p.Names, err = ParseNameBatchParts(names, hashes); err != nil {
		return nil, &FormatError{Offset: int64(s.NameMapNamesOffset), Msg: "name map", Err: err}
	}
	s.CellImportMapOffset = s.ExportBundleEntriesOffset
	r = r.Section(0, hsz, "PackageHeader")
	p.readImportsExports(r)
	s.CellImportMapOffset = -1
	// Export bundles: headers then entries, sized by the headers.
	r.SeekTo(int64(s.ExportBundleEntriesOffset), "ExportBundles")
	region := int64(s.GraphDataOffset - s.ExportBundleEntriesOffset)
	var entries int64
	for r.Err() == nil && 8*(int64(len(p.BundleHeaders))+entries) < region {
		h := BundleHeader{FirstEntryIndex: r.U32("ExportBundleHeader.FirstEntryIndex"), EntryCount: r.U32("ExportBundleHeader.EntryCount")}
		entries += int64(h.EntryCount)
		p.BundleHeaders = append(p.BundleHeaders, h)
	}
	if r.Err() == nil && 8*(int64(len(p.BundleHeaders))+entries) != region {
		return nil, &FormatError{Offset: int64(s.ExportBundleEntriesOffset), Msg: fmt.Sprintf("export bundles: %d headers with %d entries do not fill %d bytes", len(p.BundleHeaders), entries, region)}
	}
	for i := int64(0); i < entries && r.Err() == nil; i++ {
		p.BundleEntries = append(p.BundleEntries, BundleEntry{r.U32("ExportBundleEntry.LocalExportIndex"), r.U32("ExportBundleEntry.CommandType")})
	}
	// Graph data: referenced packages with bundle-to-bundle arcs.
	r.SeekTo(int64(s.GraphDataOffset), "GraphData")
	n := r.Count("GraphData.ReferencedPackageCount", 12)
	for i := 0; i < n && r.Err() == nil; i++ {
		pa := PackageArcs{PackageID: ue.ID(r.U64("GraphData.PackageId"))}
		m := r.Count("GraphData.Arcs", 8)
		for j := 0; j < m && r.Err() == nil; j++ {
			pa.Arcs = append(pa.Arcs, Arc{r.I32("Arc.FromExportBundleIndex"), r.I32("Arc.ToExportBundleIndex")})
		}
		p.PackageArcs = append(p.PackageArcs, pa)
	}
	if r.Err() != nil {
		return nil, ferr(r)
	}
	return p, p.finish(hsz)
}

// finish resolves names and lays out the export data after the header.
func (p *Package) finish(headerSize int64) error {
	var ok bool
	if p.Name, ok = p.Summary.Name.Resolve(p.Names); !ok {
		return &FormatError{Offset: 8, Msg: fmt.Sprintf("package name index %d outside %d names", p.Summary.Name.Index, len(p.Names))}
	}
	if p.Layout <= HeaderInitial {
		p.SourceName, _ = p.Summary.SourceName.Resolve(p.Names)
	}
	// Numbered names are formatted anew for each export: long ones
	// repeated by many exports are refused, before any is made, past 8
	// times the header's size and 4 MiB.
	formatted, limit := int64(0), 8*headerSize+4<<20
	for i := range p.Exports {
		if n := p.Exports[i].ObjectName; n.Number != 0 && int64(n.Index) < int64(len(p.Names)) {
			if formatted += int64(len(p.Names[n.Index].Value)) + 12; formatted > limit {
				return &FormatError{Offset: int64(p.Summary.ExportMapOffset) + int64(i)*exportEntrySize + 16, Msg: fmt.Sprintf("export %d: the numbered names of the exports up to it take more than %d bytes, 8 times the header's size and 4 MiB (a long name repeated?)", i, limit)}
			}
		}
	}
	for i := range p.Exports {
		e := &p.Exports[i]
		if e.Name, ok = e.ObjectName.Resolve(p.Names); !ok {
			return &FormatError{Offset: int64(p.Summary.ExportMapOffset) + int64(i)*exportEntrySize + 16, Msg: fmt.Sprintf("export %d: name index %d outside %d names", i, e.ObjectName.Index, len(p.Names))}
		}
	}
	if len(p.BundleEntries) != 2*len(p.Exports) {
		return &FormatError{Offset: int64(p.Summary.ExportBundleEntriesOffset), Msg: fmt.Sprintf("%d export bundle entries for %d exports (want Create and Serialize for each)", len(p.BundleEntries), len(p.Exports))}
	}
	serialized := make([]bool, len(p.Exports))
	for i, be := range p.BundleEntries {
		if be.CommandType > 1 || int64(be.LocalExportIndex) >= int64(len(p.Exports)) {
			return &FormatError{Offset: int64(p.Summary.ExportBundleEntriesOffset) + int64(8*i), Msg: fmt.Sprintf("export bundle entry %d: export %d, command %d", i, be.LocalExportIndex, be.CommandType)}
		}
		if be.CommandType != 1 {
			continue
		}
		if serialized[be.LocalExportIndex] {
			return &FormatError{Offset: int64(p.Summary.ExportBundleEntriesOffset) + int64(8*i), Msg: fmt.Sprintf("export %d serialized twice", be.LocalExportIndex)}
		}
		serialized[be.LocalExportIndex] = true
	}
	return p.placeExports(headerSize)
}

// maxDataOffset bounds the offsets and sizes of export data so that sums of
// them cannot overflow; anything larger lies outside any package.
const maxDataOffset = 1 << 40

// placeExports finds where each export's serialized data lies in the
// package bytes. The rule depends on the layout:
//
//   - UE 4.26/4.27 (FPackageSummary): the export bundles follow the header
//     one after the other in the order of the bundle headers, and inside a
//     bundle the exports of its Serialize commands follow each other.
//   - UE 5.0–5.2 (bundle headers in the graph data): FExportBundleHeader's
//     SerialOffset, counted from the end of the header (HeaderSize), says
//     where each bundle starts; inside it the Serialize commands' exports
//     follow each other. The exports' CookedSerialOffset is the offset the
//     export had in the editor's .uasset+.uexp, which the loader ignores.
//   - UE 5.3+ (NoExportInfo: no bundle headers): export i's data starts at
//     HeaderSize + CookedSerialOffset (the engine's FExportArchive::
//     ExportBufferBegin). The export bundle entries give the load order,
//     which need not be the data order: UE 5.8 cooks order them differently.
//
// Offsets are kept for data the package bytes do not hold (a header read
// without its export data); ExportData reports those.
func (p *Package) placeExports(headerSize int64) error {
	p.exportOffsets = spareSlice(p.spare.exportOffsets, len(p.Exports))
	for i := range p.exportOffsets {
		p.exportOffsets[i] = -1
	}
	if p.Layout >= HeaderNoExportInfo {
		for i := range p.Exports {
			p.exportOffsets[i] = headerSize + int64(min(p.Exports[i].CookedSerialOffset, maxDataOffset))
		}
		return nil
	}
	off := headerSize
	for b, h := range p.BundleHeaders {
		if uint64(h.FirstEntryIndex)+uint64(h.EntryCount) > uint64(len(p.BundleEntries)) {
			return &FormatError{Offset: int64(p.Summary.GraphDataOffset), Msg: fmt.Sprintf("export bundle %d: entries %d+%d outside the %d entries", b, h.FirstEntryIndex, h.EntryCount, len(p.BundleEntries))}
		}
		if p.Layout > HeaderInitial {
			// 5.0–5.2: the bundle's own offset.
			off = headerSize + int64(min(h.SerialOffset, maxDataOffset))
		}
		for _, be := range p.BundleEntries[h.FirstEntryIndex : h.FirstEntryIndex+h.EntryCount] {
			if be.CommandType != 1 {
				continue
			}
			p.exportOffsets[be.LocalExportIndex] = off
			off += int64(min(p.Exports[be.LocalExportIndex].CookedSerialSize, maxDataOffset))
		}
	}
	return nil
}

// CellExportOffset returns where cell export i's serialized data starts in
// the package bytes (UE 5.6+: HeaderSize + CookedSerialOffset).
func (p *Package) CellExportOffset(i int) int64 {
	return int64(p.Summary.HeaderSize) + int64(min(p.CellExports[i].CookedSerialOffset, maxDataOffset))
}

// CellExportData returns the serialized bytes of cell export i.
func (p *Package) CellExportData(i int) ([]byte, error) {
	if i < 0 || i >= len(p.CellExports) {
		return nil, fmt.Errorf("zen: cell export %d of %d", i, len(p.CellExports))
	}
	return p.slice(p.CellExportOffset(i), p.CellExports[i].CookedSerialSize, func() string { return fmt.Sprintf("cell export %d", i) })
}

// maxBodyReads bounds the bytes export data reads through Options.Body
// take in all, as a multiple of the package's size. The exports of a
// well-formed package tile its data, so reading each a few times (a dump
// decodes them and shows their bytes) stays below it; crafted exports
// that all claim most of a big package would otherwise make reading them
// quadratic.
const maxBodyReads = 8

// errBodyReads reports export data reads past maxBodyReads.
var errBodyReads = fmt.Errorf("export data read through the package body passed %d times its size: the exports overlap", maxBodyReads)

// slice returns size bytes at off, or an error naming what (called only
// then: exports are sliced far more often than they fail) and where. Bytes
// past data are read from body into new memory.
func (p *Package) slice(off int64, size uint64, what func() string) ([]byte, error) {
	end := int64(len(p.data))
	if p.body != nil {
		end = p.size
	}
	if size > uint64(end) || off+int64(size) > end {
		if off >= end {
			return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%s: %d bytes at offset %d, beyond the end of the %d-byte package", what(), size, off, end)}
		}
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%s: %d bytes at offset %d cut short: the package ends after %d of them", what(), size, off, end-off)}
	}
	if off+int64(size) <= int64(len(p.data)) {
		return p.data[off : off+int64(size)], nil
	}
	if atomic.AddInt64(&p.bodyRead, int64(size)) > maxBodyReads*p.size {
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%s: %d bytes at offset %d", what(), size, off), Err: errBodyReads}
	}
	b := make([]byte, size) // at most the package's size, checked above
	if n, err := p.body.ReadAt(b, off); n != len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%s: reading %d bytes at offset %d", what(), size, off), Err: err}
	}
	return b, nil
}

// ExportOffset returns where export i's serialized data starts in the
// package bytes (-1 when it has none).
func (p *Package) ExportOffset(i int) int64 { return p.exportOffsets[i] }

// ExportData returns the serialized bytes of export i, placed by the
// layout's rule (see placeExports). Data the package bytes do not hold
// (cut short) is a *FormatError naming the offset.
func (p *Package) ExportData(i int) ([]byte, error) {
	if i < 0 || i >= len(p.Exports) {
		return nil, fmt.Errorf("zen: export %d of %d", i, len(p.Exports))
	}
	off := p.exportOffsets[i]
	if off < 0 {
		return nil, fmt.Errorf("zen: export %d (%s) has no serialized data", i, p.Exports[i].Name)
	}
	return p.slice(off, p.Exports[i].CookedSerialSize, func() string { return fmt.Sprintf("export %d (%s)", i, p.Exports[i].Name) })
}

// Bytes returns n bytes of the package at off, or an error naming where
// the package ends.
func (p *Package) Bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 {
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("%d bytes at offset %d", n, off)}
	}
	return p.slice(off, uint64(n), func() string { return "range" })
}

// DataRange is the place of one export's (or cell export's) serialized
// data in the package bytes.
type DataRange struct {
	Offset, Size int64
	// Export is the export's index; Cell tells a cell export (5.6+).
	Export int
	Cell   bool
}

// DataRanges returns the data ranges of the exports and cell exports that
// have serialized data, sorted by offset. In a well-formed package they
// tile the export data region from HeaderSize to ExportDataEnd.
func (p *Package) DataRanges() []DataRange {
	out := make([]DataRange, 0, len(p.Exports)+len(p.CellExports))
	for i, off := range p.exportOffsets {
		if off >= 0 {
			out = append(out, DataRange{Offset: off, Size: int64(min(p.Exports[i].CookedSerialSize, maxDataOffset)), Export: i})
		}
	}
	for i, c := range p.CellExports {
		out = append(out, DataRange{Offset: p.CellExportOffset(i), Size: int64(min(c.CookedSerialSize, maxDataOffset)), Export: i, Cell: true})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Offset < out[b].Offset })
	return out
}

// ExportDataEnd returns the end of the last export's (or cell export's)
// data.
func (p *Package) ExportDataEnd() int64 {
	end := int64(p.Summary.HeaderSize)
	for i, off := range p.exportOffsets {
		if off >= 0 {
			end = max(end, off+int64(min(p.Exports[i].CookedSerialSize, maxDataOffset)))
		}
	}
	for i, c := range p.CellExports {
		end = max(end, p.CellExportOffset(i)+int64(min(c.CookedSerialSize, maxDataOffset)))
	}
	return end
}

// NameHashes counts names whose stored hash matches.
func (p *Package) NameHashes() (ok, bad int) {
	for _, n := range p.Names {
		if n.HashOK {
			ok++
		} else {
			bad++
		}
	}
	return
}

// ExportOrder returns export indices sorted by data offset (for dumps).
func (p *Package) ExportOrder() []int {
	idx := make([]int, len(p.Exports))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p.exportOffsets[idx[a]] < p.exportOffsets[idx[b]] })
	return idx
}
