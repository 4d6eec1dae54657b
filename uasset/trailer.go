package uasset

import (
	"fmt"

	"github.com/upkg/upkg/ue"
)

// PackageTrailer is FPackageTrailer, found at PayloadTocOffset (UE5
// PAYLOAD_TOC, 1002): the table of contents of the editor bulk data payloads
// stored after the exports, ending with a footer and the package tag.
type PackageTrailer struct {
	Offset             int64              `json:"offset"`
	Tag                ue.ID              `json:"tag"` // a magic number: hex in JSON, as 64-bit IDs are
	Version            int32              `json:"version"`
	HeaderLength       uint32             `json:"header_length"`
	PayloadsDataLength uint64             `json:"payloads_data_length"`
	LegacyAccessMode   uint8              `json:"legacy_access_mode,omitempty"` // version 0 only
	Payloads           []TrailerPayload   `json:"payloads"`
	Footer             PackageTrailerFoot `json:"footer"`
}

// TrailerPayload is FLookupTableEntry.
type TrailerPayload struct {
	Identifier     ue.IoHash `json:"identifier"`
	OffsetInFile   int64     `json:"offset_in_file"` // relative to the end of the trailer header; -1 when virtualized
	CompressedSize uint64    `json:"compressed_size"`
	RawSize        uint64    `json:"raw_size"`
	Flags          uint16    `json:"flags"`        // version >= 2 (PAYLOAD_FLAGS)
	FilterFlags    uint16    `json:"filter_flags"` // version >= 2
	AccessMode     uint8     `json:"access_mode"`  // 0 local, 1 referenced, 2 virtualized: stored from version 1 (ACCESS_PER_PAYLOAD), the trailer's LegacyAccessMode before
}

// PackageTrailerFoot is FPackageTrailer::FFooter.
type PackageTrailerFoot struct {
	Tag           ue.ID  `json:"tag"`
	TrailerLength uint64 `json:"trailer_length"`
	PackageTag    uint32 `json:"package_tag"`
}

const (
	trailerHeaderTag        ue.ID = 0xD1C43B2E80A5F697
	trailerFooterTag        ue.ID = 0x29BFCA045138DE76
	trailerFooterSize             = 20
	trailerAccessPerPayload       = 1 // EPackageTrailerVersion::ACCESS_PER_PAYLOAD
	trailerPayloadFlags           = 2 // EPackageTrailerVersion::PAYLOAD_FLAGS
	trailerVersionLatest          = trailerPayloadFlags
)

func (t *PackageTrailer) serializeHeader(a archive) {
	a.u64("PackageTrailer.Tag", (*uint64)(&t.Tag))
	if a.loading() && t.Tag != trailerHeaderTag {
		a.fail("PackageTrailer.Tag", fmt.Errorf("header tag 0x%016X, want 0x%016X", t.Tag, trailerHeaderTag))
		return
	}
	a.i32("PackageTrailer.Version", &t.Version)
	if a.loading() && (t.Version < 0 || t.Version > trailerVersionLatest) {
		a.fail("PackageTrailer.Version", &UnsupportedError{fmt.Sprintf("package trailer version %d", t.Version)})
		return
	}
	a.u32("PackageTrailer.HeaderLength", &t.HeaderLength)
	a.u64("PackageTrailer.PayloadsDataLength", &t.PayloadsDataLength)
	if t.Version < trailerAccessPerPayload {
		a.u8("PackageTrailer.LegacyAccessMode", &t.LegacyAccessMode)
	}
	serializeSlice(a, "PackageTrailer.PayloadLookupTable", &t.Payloads, 44, func(a archive, p *TrailerPayload) {
		a.fixed("LookupTableEntry.Identifier", p.Identifier[:])
		a.i64("LookupTableEntry.OffsetInFile", &p.OffsetInFile)
		a.u64("LookupTableEntry.CompressedSize", &p.CompressedSize)
		a.u64("LookupTableEntry.RawSize", &p.RawSize)
		if t.Version >= trailerPayloadFlags {
			a.u16("LookupTableEntry.Flags", &p.Flags)
			a.u16("LookupTableEntry.FilterFlags", &p.FilterFlags)
		}
		if t.Version >= trailerAccessPerPayload {
			a.u8("LookupTableEntry.AccessMode", &p.AccessMode)
		} else if a.loading() {
			// Version 0: one mode for every payload (as the engine and
			// CUE4Parse apply it); not written back per payload.
			p.AccessMode = t.LegacyAccessMode
		}
	})
}

func (f *File) readTrailer() {
	t := &PackageTrailer{Offset: f.Summary.PayloadTocOffset}
	f.Trailer = t
	err := f.readSection("package trailer", t.Offset, t.serializeHeader, func() int { return len(t.Payloads) })
	if err != nil {
		return
	}
	sec := &f.Sections[len(f.Sections)-1]
	f.sers = f.sers[:len(f.sers)-1] // the trailer is not part of the header rewrite
	if int64(t.HeaderLength) != sec.Size {
		sec.Err = formatErrf("package trailer", "HeaderLength %d but the header takes %d bytes (at 0x%x)", t.HeaderLength, sec.Size, t.Offset)
		return
	}
	footOff := t.Offset + int64(t.HeaderLength) + int64(t.PayloadsDataLength)
	if t.PayloadsDataLength > uint64(f.size) || footOff < 0 || footOff > f.size-trailerFooterSize {
		sec.Err = formatErrf("package trailer", "footer at 0x%x beyond the file (size 0x%x)", footOff, f.size)
		return
	}
	for i, p := range t.Payloads {
		if p.OffsetInFile >= 0 && p.AccessMode == 0 && (uint64(p.OffsetInFile) > t.PayloadsDataLength || p.CompressedSize > t.PayloadsDataLength-uint64(p.OffsetInFile)) {
			sec.Err = formatErrf("package trailer", "payload %d range [%d, +%d) outside the %d payload bytes", i, p.OffsetInFile, p.CompressedSize, t.PayloadsDataLength)
			return
		}
	}
	br := f.reader()
	br.SeekTo(footOff, "PackageTrailer.Footer")
	t.Footer.Tag = ue.ID(br.U64("PackageTrailer.Footer.Tag"))
	t.Footer.TrailerLength = br.U64("PackageTrailer.Footer.TrailerLength")
	t.Footer.PackageTag = br.U32("PackageTrailer.Footer.PackageTag")
	var ferr error
	switch {
	case br.Err() != nil:
		ferr = br.Err()
	case t.Footer.Tag != trailerFooterTag:
		ferr = fmt.Errorf("footer tag 0x%016X at 0x%x, want 0x%016X", t.Footer.Tag, footOff, trailerFooterTag)
	case t.Footer.TrailerLength != uint64(t.HeaderLength)+t.PayloadsDataLength+trailerFooterSize:
		ferr = fmt.Errorf("footer TrailerLength %d, want %d", t.Footer.TrailerLength, uint64(t.HeaderLength)+t.PayloadsDataLength+trailerFooterSize)
	case t.Footer.PackageTag != PackageFileTag:
		ferr = fmt.Errorf("footer package tag 0x%08X, want 0x%08X", t.Footer.PackageTag, PackageFileTag)
	}
	if ferr != nil {
		sec.Err = formatErr("package trailer", ferr)
		return
	}
	sec.Size = int64(t.Footer.TrailerLength)
}
