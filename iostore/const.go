package iostore

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// TocVersion is EIoStoreTocVersion from IoStore.h.
type TocVersion uint8

const (
	TocInvalid                      TocVersion = 0
	TocInitial                      TocVersion = 1  // 4.25
	TocDirectoryIndex               TocVersion = 2  // 4.26: directory index
	TocPartitionSize                TocVersion = 3  // 4.27: partitions
	TocPerfectHash                  TocVersion = 4  // 5.0 EA: perfect hash seeds
	TocPerfectHashWithOverflow      TocVersion = 5  // 5.0–5.3: chunks without perfect hash
	TocOnDemandMetaData             TocVersion = 6  // 5.4: on-demand chunk metas
	TocRemovedOnDemandMetaData      TocVersion = 7  // 5.5 pre-release
	TocReplaceIoChunkHashWithIoHash TocVersion = 8  // 5.5–5.7: FIoHash (BLAKE3) chunk hashes
	TocAddedSourceHashes            TocVersion = 9  // 5.8 pre-release
	TocContainerEncryptionMethod    TocVersion = 10 // 5.8 / 6.0: AES-CTR with per-block IVs

	// TocLatest is the newest version this package knows.
	TocLatest = TocContainerEncryptionMethod
)

var tocVersionNames = [...]string{
	"Invalid", "Initial", "DirectoryIndex", "PartitionSize", "PerfectHash",
	"PerfectHashWithOverflow", "OnDemandMetaData", "RemovedOnDemandMetaData",
	"ReplaceIoChunkHashWithIoHash", "AddedSourceHashes", "ContainerEncryptionMethod",
}

func (v TocVersion) String() string {
	if int(v) < len(tocVersionNames) {
		return tocVersionNames[v]
	}
	return fmt.Sprintf("TocVersion(%d)", uint8(v))
}

// ContainerFlags is EIoContainerFlags.
type ContainerFlags uint8

const (
	FlagCompressed ContainerFlags = 1 << 0
	FlagEncrypted  ContainerFlags = 1 << 1
	FlagSigned     ContainerFlags = 1 << 2
	FlagIndexed    ContainerFlags = 1 << 3
	FlagOnDemand   ContainerFlags = 1 << 4 // 5.4+
)

func (f ContainerFlags) String() string {
	if f == 0 {
		return "None"
	}
	var parts []string
	for i, n := range []string{"Compressed", "Encrypted", "Signed", "Indexed", "OnDemand"} {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if rest := f &^ 0x1F; rest != 0 {
		parts = append(parts, fmt.Sprintf("0x%02x", uint8(rest)))
	}
	return strings.Join(parts, "|")
}

// EncryptionMethod is EIoEncryptionMethod (stored from TOC version 10; older
// encrypted containers use AES-256-ECB).
type EncryptionMethod uint8

const (
	EncryptNone   EncryptionMethod = 0
	EncryptAESECB EncryptionMethod = 1 << 0
	EncryptAESCTR EncryptionMethod = 1 << 1
)

func (m EncryptionMethod) String() string {
	switch m {
	case EncryptNone:
		return "None"
	case EncryptAESECB:
		return "AES"
	case EncryptAESCTR:
		return "AES_CTR"
	}
	return fmt.Sprintf("EncryptionMethod(%d)", uint8(m))
}

// MetaFlags is FIoStoreTocEntryMetaFlags.
type MetaFlags uint8

const (
	MetaCompressed   MetaFlags = 1 << 0
	MetaMemoryMapped MetaFlags = 1 << 1
)

func (f MetaFlags) String() string {
	var parts []string
	if f&MetaCompressed != 0 {
		parts = append(parts, "Compressed")
	}
	if f&MetaMemoryMapped != 0 {
		parts = append(parts, "MemoryMapped")
	}
	if rest := f &^ 3; rest != 0 {
		parts = append(parts, fmt.Sprintf("0x%02x", uint8(rest)))
	}
	if len(parts) == 0 {
		return "None"
	}
	return strings.Join(parts, "|")
}

// ChunkType is the raw EIoChunkType byte of a chunk ID. Its meaning depends
// on the TOC version: UE 4.25–4.27 (TOC versions up to PerfectHash) use the
// first enum, UE5 renumbered it (see [ChunkType.Name]).
type ChunkType uint8

// UE5 EIoChunkType (IoChunkId.h, TOC version PerfectHashWithOverflow and later).
const (
	ChunkInvalid              ChunkType = 0
	ChunkExportBundleData     ChunkType = 1
	ChunkBulkData             ChunkType = 2
	ChunkOptionalBulkData     ChunkType = 3
	ChunkMemoryMappedBulkData ChunkType = 4
	ChunkScriptObjects        ChunkType = 5
	ChunkContainerHeader      ChunkType = 6
	ChunkExternalFile         ChunkType = 7
	ChunkShaderCodeLibrary    ChunkType = 8
	ChunkShaderCode           ChunkType = 9
	ChunkPackageStoreEntry    ChunkType = 10
	ChunkDerivedData          ChunkType = 11
	ChunkEditorDerivedData    ChunkType = 12
	ChunkPackageResource      ChunkType = 13
)

// UE4 EIoChunkType (IoDispatcher.h in 4.25–4.27).
const (
	ChunkUE4Invalid                ChunkType = 0
	ChunkUE4InstallManifest        ChunkType = 1
	ChunkUE4ExportBundleData       ChunkType = 2
	ChunkUE4BulkData               ChunkType = 3
	ChunkUE4OptionalBulkData       ChunkType = 4
	ChunkUE4MemoryMappedBulkData   ChunkType = 5
	ChunkUE4LoaderGlobalMeta       ChunkType = 6
	ChunkUE4LoaderInitialLoadMeta  ChunkType = 7
	ChunkUE4LoaderGlobalNames      ChunkType = 8
	ChunkUE4LoaderGlobalNameHashes ChunkType = 9
	ChunkUE4ContainerHeader        ChunkType = 10
	ChunkUE4ShaderCodeLibrary      ChunkType = 11 // 4.27
	ChunkUE4ShaderCode             ChunkType = 12 // 4.27
)

var chunkNamesUE5 = [...]string{
	"Invalid", "ExportBundleData", "BulkData", "OptionalBulkData", "MemoryMappedBulkData",
	"ScriptObjects", "ContainerHeader", "ExternalFile", "ShaderCodeLibrary", "ShaderCode",
	"PackageStoreEntry", "DerivedData", "EditorDerivedData", "PackageResource",
}

var chunkNamesUE4 = [...]string{
	"Invalid", "InstallManifest", "ExportBundleData", "BulkData", "OptionalBulkData",
	"MemoryMappedBulkData", "LoaderGlobalMeta", "LoaderInitialLoadMeta", "LoaderGlobalNames",
	"LoaderGlobalNameHashes", "ContainerHeader", "ShaderCodeLibrary", "ShaderCode",
}

// UsesUE4ChunkTypes reports whether TOC version v numbers chunk types with
// the UE4 enum. UE5.0 renumbered EIoChunkType together with the move to
// PerfectHashWithOverflow; retoc and the engine's own readers draw the line
// there too.
func UsesUE4ChunkTypes(v TocVersion) bool { return v <= TocPerfectHash }

// Name returns the enum name of t under TOC version v.
func (t ChunkType) Name(v TocVersion) string {
	names := chunkNamesUE5[:]
	if UsesUE4ChunkTypes(v) {
		names = chunkNamesUE4[:]
	}
	if int(t) < len(names) {
		return names[t]
	}
	return fmt.Sprintf("ChunkType(%d)", uint8(t))
}

// Canonical maps t to the UE5 numbering (the constants without UE4 in their
// name), so callers can switch on one set of values whatever the version.
// UE4-only types map to 0x80|t (no UE5 equivalent).
func (t ChunkType) Canonical(v TocVersion) ChunkType {
	if !UsesUE4ChunkTypes(v) {
		return t
	}
	switch t {
	case ChunkUE4Invalid:
		return ChunkInvalid
	case ChunkUE4ExportBundleData:
		return ChunkExportBundleData
	case ChunkUE4BulkData:
		return ChunkBulkData
	case ChunkUE4OptionalBulkData:
		return ChunkOptionalBulkData
	case ChunkUE4MemoryMappedBulkData:
		return ChunkMemoryMappedBulkData
	case ChunkUE4ContainerHeader:
		return ChunkContainerHeader
	case ChunkUE4ShaderCodeLibrary:
		return ChunkShaderCodeLibrary
	case ChunkUE4ShaderCode:
		return ChunkShaderCode
	}
	return 0x80 | t
}

// rawType converts a canonical (UE5-numbered) type back to the raw byte used
// by TOC version v; ok is false when v has no such type.
func rawType(canon ChunkType, v TocVersion) (ChunkType, bool) {
	if !UsesUE4ChunkTypes(v) {
		return canon, canon < 0x80
	}
	for raw := ChunkType(0); raw <= ChunkUE4ShaderCode; raw++ {
		if raw.Canonical(v) == canon {
			return raw, true
		}
	}
	return 0, false
}

// ChunkID is FIoChunkId: 12 bytes, a 64-bit ID (package ID, container ID or
// a hash), a big-endian uint16 index, one padding byte and the chunk type.
type ChunkID [12]byte

// ID returns the 64-bit identifier (little-endian, as stored).
func (c ChunkID) ID() uint64 {
	return uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
		uint64(c[4])<<32 | uint64(c[5])<<40 | uint64(c[6])<<48 | uint64(c[7])<<56
}

// Index returns the chunk index (stored in network byte order).
func (c ChunkID) Index() uint16 { return uint16(c[8])<<8 | uint16(c[9]) }

// Type returns the raw chunk type byte.
func (c ChunkID) Type() ChunkType { return ChunkType(c[11]) }

// String formats the ID as the 24 hex digits of its bytes, as stored.
func (c ChunkID) String() string { return hex.EncodeToString(c[:]) }

// NewChunkID builds a chunk ID from its parts (raw type byte).
func NewChunkID(id uint64, index uint16, t ChunkType) ChunkID {
	var c ChunkID
	for i := 0; i < 8; i++ {
		c[i] = byte(id >> (8 * i))
	}
	c[8], c[9] = byte(index>>8), byte(index)
	c[11] = byte(t)
	return c
}
