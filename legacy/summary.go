package legacy

import (
	"encoding/binary"
	"fmt"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// Summary is FPackageFileSummary as UE1, UE2 and UE3 store it at offset 0.
// Fields a version does not have are zero; the comment on each names the
// file version that adds it.
type Summary struct {
	Tag             uint32 `json:"tag"`              // PackageTag, as read in the file's byte order
	FileVersion     uint16 `json:"file_version"`     // ArVer: low 16 bits of the version field
	LicenseeVersion uint16 `json:"licensee_version"` // ArLicenseeVer: high 16 bits
	HeadersSize     int32  `json:"headers_size"`     // TotalHeaderSize, UE3 >= 249
	FolderName      string `json:"folder_name"`      // PackageGroup, UE3 >= 269
	PackageFlags    uint32 `json:"package_flags"`

	NameCount    int32 `json:"name_count"`
	NameOffset   int32 `json:"name_offset"`
	ExportCount  int32 `json:"export_count"`
	ExportOffset int32 `json:"export_offset"`
	ImportCount  int32 `json:"import_count"`
	ImportOffset int32 `json:"import_offset"`

	// Before version 68: the heritage table (GUIDs of earlier versions of
	// the package); from 68 on: Guid and the generations.
	HeritageCount  int32 `json:"heritage_count"`
	HeritageOffset int32 `json:"heritage_offset"`

	DependsOffset           int32 `json:"depends_offset"`             // UE3 >= 415
	ImportExportGuidsOffset int32 `json:"import_export_guids_offset"` // UE3 >= 623
	ImportGuidsCount        int32 `json:"import_guids_count"`         // UE3 >= 623
	ExportGuidsCount        int32 `json:"export_guids_count"`         // UE3 >= 623
	ThumbnailTableOffset    int32 `json:"thumbnail_table_offset"`     // UE3 >= 584

	Guid        ue.Guid      `json:"guid"`
	Generations []Generation `json:"generations"`

	EngineVersion int32 `json:"engine_version"` // UE3 >= 245
	CookerVersion int32 `json:"cooker_version"` // UE3 >= 277

	// Mass Effect 1/2 store a few extra int32 values after CookerVersion,
	// and ME3 one after PackageFlags; kept for display.
	MassEffectExtra []int32 `json:"mass_effect_extra,omitempty"`

	CompressionFlags uint32            `json:"compression_flags"` // UE3 >= 334
	CompressedChunks []CompressedChunk `json:"compressed_chunks"` // UE3 >= 334
	PackageSource    uint32            `json:"package_source"`    // UE3 >= 482

	AdditionalPackagesToCook []string            `json:"additional_packages_to_cook"` // UE3 >= 516
	TextureAllocations       []TextureAllocation `json:"texture_allocations"`         // UE3 >= 767

	// heritage is set when the summary uses the heritage-table layout.
	heritage bool

	// Rocket League (868, licensee >= 18) appends the encryption metadata.
	RocketLeague *RocketLeagueInfo `json:"rocket_league,omitempty"`

	size int64 // bytes the summary occupies
}

// Generation is FGenerationInfo: the table sizes of an earlier save.
type Generation struct {
	ExportCount    int32 `json:"export_count"`
	NameCount      int32 `json:"name_count"`
	NetObjectCount int32 `json:"net_object_count"` // UE3 >= 322
}

// CompressedChunk is FCompressedChunk: where a compressed run of the
// package body lives and where it goes.
type CompressedChunk struct {
	UncompressedOffset int64 `json:"uncompressed_offset"`
	UncompressedSize   int32 `json:"uncompressed_size"`
	CompressedOffset   int64 `json:"compressed_offset"`
	CompressedSize     int32 `json:"compressed_size"`
}

// TextureAllocation is FTextureAllocations.FTextureType (UE3 >= 767).
type TextureAllocation struct {
	SizeX          int32   `json:"size_x"`
	SizeY          int32   `json:"size_y"`
	NumMips        int32   `json:"num_mips"`
	Format         uint32  `json:"format"`
	TexCreateFlags uint32  `json:"tex_create_flags"`
	ExportIndices  []int32 `json:"export_indices"`
}

// RocketLeagueInfo is the tail Rocket League adds to the summary:
// FEncryptedHeaderInfo in the community tools' terms.
type RocketLeagueInfo struct {
	GarbageSize               int32 `json:"garbage_size"`
	CompressedChunkInfoOffset int32 `json:"compressed_chunk_info_offset"`
	LastBlockSize             int32 `json:"last_block_size"`
}

// game marks the licensee builds whose layout differs from stock.
type game uint8

const (
	gameStock game = iota
	gameME1
	gameME2
	gameME3
	gameMELE
	gameRocketLeague
)

func (g game) String() string {
	switch g {
	case gameME1:
		return "Mass Effect"
	case gameME2:
		return "Mass Effect 2"
	case gameME3:
		return "Mass Effect 3"
	case gameMELE:
		return "Mass Effect Legendary Edition"
	case gameRocketLeague:
		return "Rocket League"
	}
	return ""
}

// detectGame recognises licensee builds by (version, licensee) pairs, the
// way UEViewer's game database does.
func detectGame(ver, lic uint16) game {
	switch {
	case ver == 391 && lic == 92, ver == 491 && lic == 1008:
		return gameME1
	case ver == 512 && lic == 130:
		return gameME2
	case (ver == 684 || ver == 845) && (lic == 150 || lic == 185 || lic == 194):
		// 150 is Mass Effect 2 on PS3, built on the ME3 engine.
		return gameME3
	case ver == 684 && (lic == 171 || lic == 168), ver == 685 && lic == 205:
		return gameMELE
	case ver == 868 && lic >= 18 && lic <= 40:
		return gameRocketLeague
	}
	return gameStock
}

// littleEndianUTF16 reports whether the game's packages keep their UTF-16
// strings little-endian even on big-endian consoles (Mass Effect on Xbox
// 360, PS3 and Wii U: every other field is swapped, the strings' code
// units are not; LegendaryExplorer reads them as UTF-16LE everywhere).
func (g game) littleEndianUTF16() bool {
	return g == gameME1 || g == gameME2 || g == gameME3 || g == gameMELE
}

// meLicensee is the licensee version ME code paths compare against: ME1 PC
// stores 1008, which is larger than ME2's and ME3's, so readers treat it as
// 90 (UEViewer's OVERRIDE_ME1_LVER).
func meLicensee(g game, lic uint16) int {
	if g == gameME1 && lic == 1008 {
		return 90
	}
	return int(lic)
}

// Summary size limits.
const (
	maxGenerations  = 1 << 16 // real packages have a handful; bounds a lying count
	maxChunks       = 1 << 20
	maxCookPackages = 1 << 16
)

// readSummary reads the summary at the start of r. r's byte order is set by
// the caller from the tag.
func readSummary(r *binread.Reader) (*Summary, game, error) {
	s := &Summary{}
	s.Tag = r.U32("Summary.Tag")
	if r.Err() == nil && s.Tag != PackageTag {
		return nil, 0, ErrNotPackage
	}
	v := r.U32("Summary.FileVersion")
	s.FileVersion, s.LicenseeVersion = uint16(v), uint16(v>>16)
	if r.Err() != nil {
		return nil, 0, r.Err()
	}
	ver := int(s.FileVersion)
	g := detectGame(s.FileVersion, s.LicenseeVersion)
	lic := meLicensee(g, s.LicenseeVersion)
	if g.littleEndianUTF16() {
		r.SetUTF16Order(binary.LittleEndian)
	}
	if ver >= verHeadersSize {
		s.HeadersSize = r.I32("Summary.TotalHeaderSize")
	}
	if ver >= verFolderName {
		s.FolderName = r.FString("Summary.FolderName")
	}
	s.PackageFlags = r.U32("Summary.PackageFlags")
	if (g == gameME3 || g == gameMELE) && lic >= 194 && s.PackageFlags&PkgCooked != 0 {
		s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffect3Extra"))
	}
	s.NameCount = r.I32("Summary.NameCount")
	s.NameOffset = r.I32("Summary.NameOffset")
	s.ExportCount = r.I32("Summary.ExportCount")
	s.ExportOffset = r.I32("Summary.ExportOffset")
	s.ImportCount = r.I32("Summary.ImportCount")
	s.ImportOffset = r.I32("Summary.ImportOffset")
	if ver < verGuidGenerations || (ver < verUE3 && heritageLayout(r)) {
		// Some early UE2 builds (version 100 of the "zen" tree) keep the
		// heritage layout; they are recognised by the table starting right
		// after the summary.
		s.heritage = true
		s.HeritageCount = r.I32("Summary.HeritageCount")
		s.HeritageOffset = r.I32("Summary.HeritageOffset")
		s.size = r.Offset()
		return s, g, r.Err()
	}
	if ver >= verDependsOffset {
		s.DependsOffset = r.I32("Summary.DependsOffset")
	}
	if ver >= verImportExportGuid {
		s.ImportExportGuidsOffset = r.I32("Summary.ImportExportGuidsOffset")
		s.ImportGuidsCount = r.I32("Summary.ImportGuidsCount")
		s.ExportGuidsCount = r.I32("Summary.ExportGuidsCount")
	}
	if ver >= verThumbnailTable {
		s.ThumbnailTableOffset = r.I32("Summary.ThumbnailTableOffset")
	}
	s.Guid = ue.ReadGuid(r, "Summary.Guid")
	genSize := int64(8)
	if ver >= verNetObjectCount {
		genSize = 12
	}
	n := r.Count("Summary.GenerationCount", genSize)
	if n > maxGenerations {
		r.Failf("Summary.GenerationCount", "%d generations (limit %d)", n, maxGenerations)
	}
	if r.Err() != nil {
		return nil, 0, r.Err()
	}
	s.Generations = make([]Generation, 0, binread.SliceCap(n))
	for range n {
		gen := Generation{ExportCount: r.I32("Generation.ExportCount"), NameCount: r.I32("Generation.NameCount")}
		if ver >= verNetObjectCount {
			gen.NetObjectCount = r.I32("Generation.NetObjectCount")
		}
		s.Generations = append(s.Generations, gen)
	}
	if ver < verUE3 {
		s.size = r.Offset()
		return s, g, r.Err()
	}
	if ver >= verEngineVersion {
		s.EngineVersion = r.I32("Summary.EngineVersion")
	}
	if ver >= verCookerVersion {
		s.CookerVersion = r.I32("Summary.CookerVersion")
	}
	if g >= gameME1 && g <= gameMELE {
		// Extra fields of Mass Effect 1 and 2 (UEViewer's unk1..unk4).
		if lic >= 16 && lic < 136 {
			s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffectExtra"))
		}
		if lic >= 32 && lic < 136 {
			s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffectExtra"))
		}
		if lic >= 35 && lic < 113 {
			s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffectExtra"))
		}
		if lic >= 37 {
			s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffectExtra"), r.I32("Summary.MassEffectExtra"))
		}
		if lic >= 39 && lic < 136 {
			s.MassEffectExtra = append(s.MassEffectExtra, r.I32("Summary.MassEffectExtra"), r.I32("Summary.MassEffectExtra"))
		}
	}
	if ver >= verCompression {
		s.CompressionFlags = r.U32("Summary.CompressionFlags")
		n := r.Count("Summary.CompressedChunkCount", 16)
		if n > maxChunks {
			r.Failf("Summary.CompressedChunkCount", "%d chunks (limit %d)", n, maxChunks)
		}
		if r.Err() != nil {
			return nil, 0, r.Err()
		}
		s.CompressedChunks = make([]CompressedChunk, 0, binread.SliceCap(n))
		for range n {
			c := CompressedChunk{
				UncompressedOffset: int64(r.I32("CompressedChunk.UncompressedOffset")),
				UncompressedSize:   r.I32("CompressedChunk.UncompressedSize"),
				CompressedOffset:   int64(r.I32("CompressedChunk.CompressedOffset")),
				CompressedSize:     r.I32("CompressedChunk.CompressedSize"),
			}
			s.CompressedChunks = append(s.CompressedChunks, c)
		}
	}
	if ver >= verPackageSource {
		s.PackageSource = r.U32("Summary.PackageSource")
	}
	if ver >= verAdditionalCook && r.Err() == nil {
		n := r.Count("Summary.AdditionalPackagesToCook", 4)
		if n > maxCookPackages {
			r.Failf("Summary.AdditionalPackagesToCook", "%d names (limit %d)", n, maxCookPackages)
		}
		for i := 0; i < n && r.Err() == nil; i++ {
			s.AdditionalPackagesToCook = append(s.AdditionalPackagesToCook, r.FString("Summary.AdditionalPackagesToCook"))
		}
	}
	if ver >= verTextureAlloc && r.Err() == nil && g != gameMELE && g != gameME3 {
		n := r.Count("Summary.TextureAllocations", 24)
		for i := 0; i < n && r.Err() == nil; i++ {
			t := TextureAllocation{
				SizeX: r.I32("TextureType.SizeX"), SizeY: r.I32("TextureType.SizeY"),
				NumMips: r.I32("TextureType.NumMips"), Format: r.U32("TextureType.Format"),
				TexCreateFlags: r.U32("TextureType.TexCreateFlags"),
			}
			m := r.Count("TextureType.ExportIndices", 4)
			t.ExportIndices = make([]int32, 0, binread.SliceCap(m))
			for range m {
				t.ExportIndices = append(t.ExportIndices, r.I32("TextureType.ExportIndex"))
			}
			s.TextureAllocations = append(s.TextureAllocations, t)
		}
	}
	if g == gameRocketLeague && r.Err() == nil && r.Remaining() >= 12 {
		s.RocketLeague = &RocketLeagueInfo{
			GarbageSize:               r.I32("Summary.GarbageSize"),
			CompressedChunkInfoOffset: r.I32("Summary.CompressedChunkInfoOffset"),
			LastBlockSize:             r.I32("Summary.LastBlockSize"),
		}
	}
	s.size = r.Offset()
	return s, g, r.Err()
}

// heritageLayout peeks at the two int32 values after ImportOffset: a
// heritage count and an offset pointing just past them.
func heritageLayout(r *binread.Reader) bool {
	at := r.Offset()
	n := r.I32("Summary.HeritageCount")
	off := r.I32("Summary.HeritageOffset")
	r.SeekTo(at, "Summary")
	return r.Err() == nil && n >= 1 && n < 1<<16 && int64(off) == at+8
}

// Version returns the file version and licensee version as one string,
// e.g. "69", "128/29".
func (s *Summary) Version() string {
	if s.LicenseeVersion == 0 {
		return fmt.Sprint(s.FileVersion)
	}
	return fmt.Sprintf("%d/%d", s.FileVersion, s.LicenseeVersion)
}

func engineGeneration(ver uint16) string {
	switch {
	case ver < verUE2:
		return "UE1"
	case ver < verUE3:
		return "UE2"
	}
	return "UE3"
}

// orderFromTag returns the byte order of a package from its first 4 bytes.
func orderFromTag(b []byte) (binary.ByteOrder, bool) {
	if len(b) < 4 {
		return nil, false
	}
	switch binary.LittleEndian.Uint32(b) {
	case PackageTag:
		return binary.LittleEndian, true
	case PackageTagSwapped:
		return binary.BigEndian, true
	}
	return nil, false
}
