package iostore

import (
	"errors"
	"fmt"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/zen"
)

// ContainerHeaderVersion is EIoContainerHeaderVersion (IoContainerHeader.h),
// defined in package zen because it also selects the zen package layout.
type ContainerHeaderVersion = zen.HeaderVersion

// Container header versions.
const (
	HeaderPreInitial                  = zen.HeaderPreInitial
	HeaderInitial                     = zen.HeaderInitial
	HeaderLocalizedPackages           = zen.HeaderLocalizedPackages
	HeaderOptionalSegmentPackages     = zen.HeaderOptionalSegmentPackages
	HeaderNoExportInfo                = zen.HeaderNoExportInfo
	HeaderSoftPackageReferences       = zen.HeaderSoftPackageReferences
	HeaderSoftPackageReferencesOffset = zen.HeaderSoftPackageReferencesOffset
	HeaderLatest                      = zen.HeaderLatest
)

// containerHeaderMagic is FIoContainerHeader::Signature ("InCo" read as a
// little-endian uint32), written from LocalizedPackages on.
const containerHeaderMagic = 0x496f436e

// StoreEntry is FFilePackageStoreEntry: what the package store knows about
// one package of the container.
type StoreEntry struct {
	ExportBundlesSize uint64     `json:"export_bundles_size,omitempty"` // Initial only
	LoadOrder         uint32     `json:"load_order,omitempty"`          // Initial only
	ExportCount       int32      `json:"export_count"`                  // before NoExportInfo
	ExportBundleCount int32      `json:"export_bundle_count"`           // before NoExportInfo
	ImportedPackages  []ue.ID    `json:"imported_packages"`
	ShaderMapHashes   [][20]byte `json:"shader_map_hashes,omitempty"` // from LocalizedPackages
}

// StoreEntries are a package store's entries (one per package ID), kept
// compact: 16 bytes an entry (28 in UE 4.27's layout) and one array of
// all their imported packages and one of their shader map hashes, where
// a []StoreEntry took 72 bytes an entry and two arrays of its own (a
// container of 400,000 packages held 48 MB of them). At gives an entry;
// as JSON they are the array of them.
type StoreEntries struct {
	fixed   []storeFixed
	imports []ue.ID
	hashes  [][20]byte
	// Initial only (UE 4.27): nil otherwise.
	bundlesSize []uint64
	loadOrder   []uint32
}

// storeFixed is an entry of StoreEntries: its export counts, and where
// its imports and hashes end (they start where the previous entry's end).
type storeFixed struct {
	exportCount, exportBundleCount int32
	importsEnd, hashesEnd          uint32
}

// Len returns the number of entries (0 for nil).
func (s *StoreEntries) Len() int {
	if s == nil {
		return 0
	}
	return len(s.fixed)
}

// At returns entry i. Its arrays share the StoreEntries' memory: callers
// must not modify them.
func (s *StoreEntries) At(i int) StoreEntry {
	f := s.fixed[i]
	var in0, hs0 uint32
	if i > 0 {
		in0, hs0 = s.fixed[i-1].importsEnd, s.fixed[i-1].hashesEnd
	}
	e := StoreEntry{ExportCount: f.exportCount, ExportBundleCount: f.exportBundleCount}
	if f.importsEnd > in0 {
		e.ImportedPackages = s.imports[in0:f.importsEnd:f.importsEnd]
	}
	if f.hashesEnd > hs0 {
		e.ShaderMapHashes = s.hashes[hs0:f.hashesEnd:f.hashesEnd]
	}
	if s.bundlesSize != nil {
		e.ExportBundlesSize, e.LoadOrder = s.bundlesSize[i], s.loadOrder[i]
	}
	return e
}

// MarshalJSON writes the entries as an array of StoreEntry.
func (s StoreEntries) MarshalJSON() ([]byte, error) {
	list := make([]StoreEntry, s.Len())
	for i := range list {
		list[i] = s.At(i)
	}
	return jsonenc.Marshal(list)
}

// LocalizedPackage is FIoContainerHeaderLocalizedPackage.
type LocalizedPackage struct {
	SourcePackageID   ue.ID          `json:"source_package_id"`
	SourcePackageName zen.MappedName `json:"source_package_name"`
}

// PackageRedirect is FIoContainerHeaderPackageRedirect (the source name is
// absent, zero, in UE4 headers).
type PackageRedirect struct {
	SourcePackageID   ue.ID          `json:"source_package_id"`
	TargetPackageID   ue.ID          `json:"target_package_id"`
	SourcePackageName zen.MappedName `json:"source_package_name"`
}

// CulturePackages is one culture of a UE4 culture package map: source
// package → localized package pairs.
type CulturePackages struct {
	Culture  string     `json:"culture"`
	Packages [][2]ue.ID `json:"packages"`
}

// SoftPackageReferences is FIoContainerHeaderSoftPackageReferences.
type SoftPackageReferences struct {
	PackageIDs     []ue.ID `json:"package_ids"`
	PackageIndices []byte  `json:"package_indices"`
}

// ContainerHeader is FIoContainerHeader, the package store of a container.
type ContainerHeader struct {
	Version      ContainerHeaderVersion `json:"version"`
	ContainerID  ue.ID                  `json:"container_id"`
	PackageCount uint32                 `json:"package_count,omitempty"` // before OptionalSegmentPackages
	// Names is the container's name map: the UE4 container name batch, or
	// the UE5 redirects name map.
	Names      []zen.Name `json:"names,omitempty"`
	PackageIDs []ue.ID    `json:"package_ids"`
	// StoreEntries has an entry for each of PackageIDs (never nil once
	// parsed).
	StoreEntries *StoreEntries `json:"store_entries"`
	// Optional segment (".o") packages, OptionalSegmentPackages+ (nil
	// when there are none).
	OptionalSegmentPackageIDs   []ue.ID                `json:"optional_segment_package_ids,omitempty"`
	OptionalSegmentStoreEntries *StoreEntries          `json:"optional_segment_store_entries,omitempty"`
	LocalizedPackages           []LocalizedPackage     `json:"localized_packages,omitempty"`
	PackageRedirects            []PackageRedirect      `json:"package_redirects,omitempty"`
	CulturePackageMap           []CulturePackages      `json:"culture_package_map,omitempty"` // UE4
	SoftPackageReferences       *SoftPackageReferences `json:"soft_package_references,omitempty"`
}

// storeLayout gives, per version, the size of FFilePackageStoreEntry and the
// offset of its ImportedPackages array view.
func storeLayout(v ContainerHeaderVersion) (entrySize, importsAt int) {
	switch v {
	case HeaderPreInitial:
		return 16, 8
	case HeaderInitial:
		return 32, 24
	case HeaderLocalizedPackages, HeaderOptionalSegmentPackages:
		return 24, 8
	}
	return 16, 0
}

// ParseContainerHeader reads a container header chunk. Of the two
// unversioned UE4 layouts, TOC versions after DirectoryIndex (4.27) have
// Initial's 32-byte store entries; up to DirectoryIndex (4.25, 4.26) the
// engine's FPackageStoreEntry is Initial's too (retoc and CUE4Parse read
// it so), but some builds wrote PreInitial's 16-byte entries (retoc's
// issue 7 and 18 samples): Initial is tried first, and PreInitial when its
// entries do not fit. Pass 0 as tocVersion to guess from the data alone.
func ParseContainerHeader(data []byte, tocVersion TocVersion) (*ContainerHeader, error) {
	if len(data) >= 4 && uint32(data[0])|uint32(data[1])<<8|uint32(data[2])<<16|uint32(data[3])<<24 == containerHeaderMagic {
		return parseContainerHeader(data, versionFromData)
	}
	switch {
	case tocVersion <= TocDirectoryIndex:
		h, err := parseContainerHeader(data, HeaderInitial)
		if err == nil {
			return h, nil
		}
		if h2, err2 := parseContainerHeader(data, HeaderPreInitial); err2 == nil {
			return h2, nil
		}
		return nil, err
	default:
		return parseContainerHeader(data, HeaderInitial)
	}
}

func readIDs(r *binread.Reader, field string) []ue.ID {
	n := r.Count(field, 8)
	if r.Err() != nil {
		return nil
	}
	out := make([]ue.ID, n)
	for i := range out {
		out[i] = ue.ID(r.U64(field))
	}
	return out
}

// versionFromData asks parseContainerHeader to read the version after the magic.
const versionFromData ContainerHeaderVersion = -100

// parseContainerHeader parses with version legacy, or the stored one.
func parseContainerHeader(data []byte, legacy ContainerHeaderVersion) (*ContainerHeader, error) {
	versioned := legacy == versionFromData
	r := binread.FromBytes(data)
	h := &ContainerHeader{}
	if versioned {
		r.U32("ContainerHeader.Signature")
		h.Version = ContainerHeaderVersion(r.I32("ContainerHeader.Version"))
		if r.Err() == nil && (h.Version < HeaderLocalizedPackages || h.Version > HeaderLatest) {
			return nil, &UnsupportedError{What: fmt.Sprintf("container header version %d", h.Version)}
		}
	} else {
		h.Version = legacy
	}
	v := h.Version
	h.ContainerID = ue.ID(r.U64("ContainerHeader.ContainerId"))
	if v < HeaderOptionalSegmentPackages {
		h.PackageCount = r.U32("ContainerHeader.PackageCount")
	}
	if v <= HeaderInitial {
		nb := r.Count("ContainerHeader.NamesBuffer", 1)
		names := r.Bytes(int64(nb), "ContainerHeader.NamesBuffer")
		hb := r.Count("ContainerHeader.NameHashesBuffer", 1)
		hashes := r.Bytes(int64(hb), "ContainerHeader.NameHashesBuffer")
		if r.Err() == nil {
			if hb == 0 {
				hashes = nil
			}
			var err error
			if h.Names, err = zen.ParseNameBatchParts(names, hashes); err != nil {
				return nil, &FormatError{Offset: r.Offset(), Msg: "container header names", Err: err}
			}
		}
	}
	h.PackageIDs, h.StoreEntries = readStore(r, v, "ContainerHeader.StoreEntries", false)
	if r.Err() == nil && v < HeaderOptionalSegmentPackages && h.PackageCount != uint32(len(h.PackageIDs)) {
		return nil, &FormatError{Offset: 12, Msg: fmt.Sprintf("container header: PackageCount %d but %d package IDs", h.PackageCount, len(h.PackageIDs))}
	}
	if v > HeaderInitial {
		if v >= HeaderOptionalSegmentPackages {
			h.OptionalSegmentPackageIDs, h.OptionalSegmentStoreEntries = readStore(r, v, "ContainerHeader.OptionalSegmentStoreEntries", true)
		}
		h.Names = zen.ReadNameBatch(r, "ContainerHeader.RedirectsNameMap")
		n := r.Count("ContainerHeader.LocalizedPackages", 16)
		for i := 0; i < n && r.Err() == nil; i++ {
			h.LocalizedPackages = append(h.LocalizedPackages, LocalizedPackage{ue.ID(r.U64("LocalizedPackage.SourcePackageId")), zen.ReadMappedName(r, "LocalizedPackage.SourcePackageName")})
		}
		n = r.Count("ContainerHeader.PackageRedirects", 24)
		for i := 0; i < n && r.Err() == nil; i++ {
			h.PackageRedirects = append(h.PackageRedirects, PackageRedirect{ue.ID(r.U64("PackageRedirect.SourcePackageId")), ue.ID(r.U64("PackageRedirect.TargetPackageId")), zen.ReadMappedName(r, "PackageRedirect.SourcePackageName")})
		}
	} else {
		n := r.Count("ContainerHeader.CulturePackageMap", 8)
		for i := 0; i < n && r.Err() == nil; i++ {
			c := CulturePackages{Culture: r.FString("CulturePackageMap.Culture")}
			m := r.Count("CulturePackageMap.Packages", 16)
			for j := 0; j < m && r.Err() == nil; j++ {
				c.Packages = append(c.Packages, [2]ue.ID{ue.ID(r.U64("CulturePackageMap.Source")), ue.ID(r.U64("CulturePackageMap.Localized"))})
			}
			h.CulturePackageMap = append(h.CulturePackageMap, c)
		}
		n = r.Count("ContainerHeader.PackageRedirects", 16)
		for i := 0; i < n && r.Err() == nil; i++ {
			h.PackageRedirects = append(h.PackageRedirects, PackageRedirect{SourcePackageID: ue.ID(r.U64("PackageRedirect.SourcePackageId")), TargetPackageID: ue.ID(r.U64("PackageRedirect.TargetPackageId"))})
		}
	}
	if v >= HeaderSoftPackageReferences && r.Err() == nil {
		if v >= HeaderSoftPackageReferencesOffset {
			r.I64("SoftPackageReferencesSerialInfo.Offset")
			size := r.I64("SoftPackageReferencesSerialInfo.Size")
			if size > 0 {
				h.SoftPackageReferences = readSoftRefs(r)
			}
		} else {
			h.SoftPackageReferences = readSoftRefs(r)
		}
	}
	if err := r.Err(); err != nil {
		var be *binread.Error
		if errors.As(err, &be) {
			return nil, &FormatError{Offset: be.Offset, Msg: "container header " + be.Field, Err: be.Err}
		}
		return nil, err
	}
	if rest := data[r.Offset():]; len(rest) != 0 && !allZero(rest) {
		return nil, &FormatError{Offset: r.Offset(), Msg: fmt.Sprintf("container header (%s): %d bytes left over", v, r.Remaining())}
	}
	return h, nil
}

func readSoftRefs(r *binread.Reader) *SoftPackageReferences {
	if !r.Bool32("SoftPackageReferences.bContainsSoftPackageReferences") {
		return nil
	}
	s := &SoftPackageReferences{PackageIDs: readIDs(r, "SoftPackageReferences.PackageIds")}
	n := r.Count("SoftPackageReferences.PackageIndices", 1)
	s.PackageIndices = r.Bytes(int64(n), "SoftPackageReferences.PackageIndices")
	return s
}

// readStore reads a package ID array and the store entries buffer that
// goes with it. It returns nil entries with no IDs when empty is set.
func readStore(r *binread.Reader, v ContainerHeaderVersion, field string, empty bool) ([]ue.ID, *StoreEntries) {
	ids := readIDs(r, field+".PackageIds")
	n := r.Count(field+".Buffer", 1)
	buf := r.Bytes(int64(n), field+".Buffer")
	if r.Err() != nil {
		return nil, nil
	}
	bufBase := r.Offset() - int64(n)
	size, importsAt := storeLayout(v)
	if int64(len(ids))*int64(size) > int64(len(buf)) {
		r.FailAt(bufBase, field+".Buffer", fmt.Errorf("%d entries of %d bytes do not fit in %d bytes", len(ids), size, len(buf)))
		return nil, nil
	}
	if len(ids) == 0 && empty {
		return ids, nil
	}
	b := binread.FromBytes(buf)
	s := &StoreEntries{fixed: make([]storeFixed, len(ids))}
	if v == HeaderInitial {
		s.bundlesSize, s.loadOrder = make([]uint64, len(ids)), make([]uint32, len(ids))
	}
	// Two passes: the first checks each entry's arrays and counts them,
	// the second reads them into the one array of imports and the one of
	// hashes. The engine writes each entry's arrays once, after the
	// entries, so together they fit in the buffer; entries of a crafted
	// header pointing at one array would make them take memory out of all
	// proportion to it, and are refused.
	totalIn, totalSn := int64(0), int64(0)
	for pass := range 2 {
		if pass == 1 {
			if totalIn*8+totalSn*20 > int64(len(buf)) {
				b.FailAt(0, "StoreEntry", fmt.Errorf("%d imported packages and %d shader map hashes take more than the %d-byte buffer (entries share their arrays)", totalIn, totalSn, len(buf)))
				break
			}
			s.imports = make([]ue.ID, 0, totalIn)
			s.hashes = make([][20]byte, 0, totalSn)
		}
		for i := range s.fixed {
			e := &s.fixed[i]
			start := int64(i * size)
			b.SeekTo(start, "StoreEntry")
			if v == HeaderInitial {
				s.bundlesSize[i] = b.U64("StoreEntry.ExportBundlesSize")
			}
			if v < HeaderNoExportInfo {
				e.exportCount = b.I32("StoreEntry.ExportCount")
				e.exportBundleCount = b.I32("StoreEntry.ExportBundleCount")
			}
			if v == HeaderInitial {
				s.loadOrder[i] = b.U32("StoreEntry.LoadOrder")
				b.U32("StoreEntry.Pad")
			}
			in := b.U32("StoreEntry.ImportedPackages.ArrayNum")
			io := b.U32("StoreEntry.ImportedPackages.OffsetToDataFromThis")
			var sn, so uint32
			if v > HeaderInitial {
				sn = b.U32("StoreEntry.ShaderMapHashes.ArrayNum")
				so = b.U32("StoreEntry.ShaderMapHashes.OffsetToDataFromThis")
			}
			if b.Err() != nil {
				break
			}
			if in > 0 {
				at := start + int64(importsAt) + int64(io)
				if int64(in) > (int64(len(buf))-at)/8 || at < 0 {
					b.FailAt(start, "StoreEntry.ImportedPackages", fmt.Errorf("%d imports at +%d outside the %d-byte buffer", in, at, len(buf)))
					break
				}
				if pass == 0 {
					totalIn += int64(in)
				} else {
					b.SeekTo(at, "StoreEntry.ImportedPackages")
					for range in {
						s.imports = append(s.imports, ue.ID(b.U64("StoreEntry.ImportedPackages")))
					}
				}
			}
			if sn > 0 {
				at := start + int64(importsAt) + 8 + int64(so)
				if int64(sn) > (int64(len(buf))-at)/20 || at < 0 {
					b.FailAt(start, "StoreEntry.ShaderMapHashes", fmt.Errorf("%d hashes at +%d outside the %d-byte buffer", sn, at, len(buf)))
					break
				}
				if pass == 0 {
					totalSn += int64(sn)
				} else {
					b.SeekTo(at, "StoreEntry.ShaderMapHashes")
					for range sn {
						var h [20]byte
						b.Fixed(h[:], "StoreEntry.ShaderMapHashes")
						s.hashes = append(s.hashes, h)
					}
				}
			}
			// (Both fit in uint32: the buffer is under 2 GiB.)
			e.importsEnd, e.hashesEnd = uint32(len(s.imports)), uint32(len(s.hashes))
		}
		if b.Err() != nil {
			break
		}
	}
	if err := b.Err(); err != nil {
		r.FailAt(bufBase, field, err)
		return nil, nil
	}
	return ids, s
}

// ContainerHeader reads and parses the container's header chunk (the
// package store). It returns ErrNotFound when the container has none (the
// global container).
func (f *File) ContainerHeader() (*ContainerHeader, error) {
	i, ok := f.FindChunk(uint64(f.Header.ContainerID), 0, ChunkContainerHeader)
	if !ok {
		return nil, fmt.Errorf("%w: container header chunk", ErrNotFound)
	}
	data, err := f.ReadChunk(i)
	if err != nil {
		return nil, err
	}
	h, err := ParseContainerHeader(data, f.Header.Version)
	if err != nil {
		return nil, f.chunkErr(i, err)
	}
	return h, nil
}

// StoreEntry returns the package store entry of package id.
func (h *ContainerHeader) StoreEntry(id uint64) (StoreEntry, bool) {
	for i, p := range h.PackageIDs {
		if uint64(p) == id {
			return h.StoreEntries.At(i), true
		}
	}
	for i, p := range h.OptionalSegmentPackageIDs {
		if uint64(p) == id {
			return h.OptionalSegmentStoreEntries.At(i), true
		}
	}
	return StoreEntry{}, false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
