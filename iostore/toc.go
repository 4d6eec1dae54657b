package iostore

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/upkg/upkg/ue"
)

// Layout sizes of the on-disk TOC records.
const (
	tocMagic            = "-==--==--==--==-"
	tocHeaderSize       = 144 // sizeof(FIoStoreTocHeader)
	chunkIDSize         = 12  // FIoChunkId
	offsetLengthSize    = 10  // FIoOffsetAndLength: 5-byte offset + 5-byte length, big-endian
	blockEntrySize      = 12  // FIoStoreTocCompressedBlockEntry: 5 offset + 3 compressed + 3 uncompressed + 1 method
	metaSizeChunkHash   = 33  // FIoStoreTocEntryMeta with FIoChunkHash (32 bytes) + flags, before TOC version 8
	metaSizeIoHash      = 24  // FIoHash (20 bytes) + flags + 3 padding, TOC version 8+
	encryptionIVSize    = 12  // FIoStoreEncryptionIV: the 96-bit counter prefix of AES-CTR
	onDemandHashSize    = 20  // FIoHash of TOC version 6 on-demand metas
	maxMethodNameLength = 256 // CompressionMethodNameLength is 32 in every engine; anything far beyond is corrupt
	maxBlockSize        = 1 << 24
	// maxBlockRatio bounds what a compressed block expands to per stored
	// byte: real blocks stay far below it, and so do blocks of one
	// repeated byte (the most any codec packs: a 16 MiB block of it is a
	// few hundred bytes of Oodle or Zstd).
	maxBlockRatio = 1 << 17

	// maxTocSize bounds the .utoc read into memory. The largest shipped TOCs
	// (Fortnite) are tens of MiB; 1 GiB leaves room and stops a lying size.
	maxTocSize = 1 << 30
)

// TocHeader is FIoStoreTocHeader (144 bytes). Fields a version does not have
// are given their engine defaults (PartitionCount 1 and PartitionSize
// MaxUint64 before PartitionSize; EncryptionMethod AES for encrypted
// containers before ContainerEncryptionMethod).
type TocHeader struct {
	Version                      TocVersion     `json:"version"`
	Reserved0                    uint8          `json:"-"`
	Reserved1                    uint16         `json:"-"`
	TocHeaderSize                uint32         `json:"toc_header_size"`
	TocEntryCount                uint32         `json:"toc_entry_count"`
	TocCompressedBlockEntryCount uint32         `json:"toc_compressed_block_entry_count"`
	TocCompressedBlockEntrySize  uint32         `json:"toc_compressed_block_entry_size"`
	CompressionMethodNameCount   uint32         `json:"compression_method_name_count"`
	CompressionMethodNameLength  uint32         `json:"compression_method_name_length"`
	CompressionBlockSize         uint32         `json:"compression_block_size"`
	DirectoryIndexSize           uint32         `json:"directory_index_size"`
	PartitionCount               uint32         `json:"partition_count"`
	ContainerID                  ue.ID          `json:"container_id"`
	EncryptionKeyGuid            ue.Guid        `json:"encryption_key_guid"`
	ContainerFlags               ContainerFlags `json:"container_flags"`
	// EncryptionMethod is Reserved3 before TOC version 10.
	EncryptionMethod                 EncryptionMethod `json:"encryption_method"`
	Reserved4                        uint16           `json:"-"`
	TocChunkPerfectHashSeedsCount    uint32           `json:"toc_chunk_perfect_hash_seeds_count"`    // version 4+
	PartitionSize                    uint64           `json:"partition_size"`                        // version 3+
	TocChunksWithoutPerfectHashCount uint32           `json:"toc_chunks_without_perfect_hash_count"` // version 5+
	// TocSourceHashCount is Reserved7 before TOC version 9.
	TocSourceHashCount uint32 `json:"toc_source_hash_count"`
	// EncryptionIVCount is the first half of Reserved8[0] before version 10.
	EncryptionIVCount uint32   `json:"encryption_iv_count"`
	Reserved8         [36]byte `json:"-"` // the rest of the reserved tail (custom game data in some titles)
}

// OffsetLength is FIoOffsetAndLength: where a chunk starts in the
// container's uncompressed address space, and its uncompressed length.
type OffsetLength struct {
	Offset uint64
	Length uint64
}

// CompressionBlock is FIoStoreTocCompressedBlockEntry.
type CompressionBlock struct {
	Offset           uint64 // in the concatenated partitions: partition = Offset / PartitionSize
	CompressedSize   uint32 // bytes stored (before AES padding to 16)
	UncompressedSize uint32
	MethodIndex      uint8 // into File.CompressionMethods; 0 is "None"
}

// ChunkMeta is FIoStoreTocEntryMeta: the hash of the chunk's uncompressed
// data and its flags. Before TOC version 8 the hash is FIoChunkHash (SHA-1 in
// the first 20 of 32 bytes); from version 8 it is FIoHash (BLAKE3, 20 bytes).
type ChunkMeta struct {
	Hash  [20]byte
	Pad   [12]byte // the rest of FIoChunkHash before version 8; zero in practice
	Flags MetaFlags
}

// Signature holds the signing data of a Signed container.
type Signature struct {
	TocSignature        []byte
	BlockSignature      []byte
	ChunkBlockSignature [][20]byte // SHA-1 of every compressed block as stored
}

func le40(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32
}

func be40(b []byte) uint64 {
	return uint64(b[0])<<32 | uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4])
}

func le24(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 }

// parseHeader decodes the 144-byte header.
func parseHeader(b []byte) (TocHeader, error) {
	var h TocHeader
	if len(b) < len(tocMagic) || !bytes.Equal(b[:len(tocMagic)], []byte(tocMagic)) {
		return h, ErrNotIoStore
	}
	if len(b) < tocHeaderSize {
		return h, &FormatError{Offset: int64(len(b)), Msg: fmt.Sprintf("file of %d bytes is shorter than the %d-byte TOC header", len(b), tocHeaderSize)}
	}
	le := binary.LittleEndian
	h.Version = TocVersion(b[16])
	h.Reserved0 = b[17]
	h.Reserved1 = le.Uint16(b[18:])
	h.TocHeaderSize = le.Uint32(b[20:])
	h.TocEntryCount = le.Uint32(b[24:])
	h.TocCompressedBlockEntryCount = le.Uint32(b[28:])
	h.TocCompressedBlockEntrySize = le.Uint32(b[32:])
	h.CompressionMethodNameCount = le.Uint32(b[36:])
	h.CompressionMethodNameLength = le.Uint32(b[40:])
	h.CompressionBlockSize = le.Uint32(b[44:])
	h.DirectoryIndexSize = le.Uint32(b[48:])
	h.PartitionCount = le.Uint32(b[52:])
	h.ContainerID = ue.ID(le.Uint64(b[56:]))
	h.EncryptionKeyGuid = ue.Guid{le.Uint32(b[64:]), le.Uint32(b[68:]), le.Uint32(b[72:]), le.Uint32(b[76:])}
	h.ContainerFlags = ContainerFlags(b[80])
	h.EncryptionMethod = EncryptionMethod(b[81])
	h.Reserved4 = le.Uint16(b[82:])
	h.TocChunkPerfectHashSeedsCount = le.Uint32(b[84:])
	h.PartitionSize = le.Uint64(b[88:])
	h.TocChunksWithoutPerfectHashCount = le.Uint32(b[96:])
	h.TocSourceHashCount = le.Uint32(b[100:])
	h.EncryptionIVCount = le.Uint32(b[104:])
	copy(h.Reserved8[:], b[108:144])

	switch {
	case h.Version == TocInvalid:
		return h, &FormatError{Offset: 16, Msg: "TOC version 0 (Invalid)"}
	case h.Version > TocLatest:
		return h, &UnsupportedError{What: fmt.Sprintf("TOC version %d (newest known is %d, %s)", h.Version, TocLatest, TocLatest)}
	case h.TocHeaderSize != tocHeaderSize:
		return h, &FormatError{Offset: 20, Msg: fmt.Sprintf("TocHeaderSize %d, want %d", h.TocHeaderSize, tocHeaderSize)}
	case h.TocCompressedBlockEntrySize != blockEntrySize && h.TocCompressedBlockEntryCount > 0:
		return h, &FormatError{Offset: 32, Msg: fmt.Sprintf("TocCompressedBlockEntrySize %d, want %d", h.TocCompressedBlockEntrySize, blockEntrySize)}
	case h.CompressionMethodNameLength > maxMethodNameLength:
		return h, &FormatError{Offset: 40, Msg: fmt.Sprintf("CompressionMethodNameLength %d is implausible", h.CompressionMethodNameLength)}
	case h.CompressionMethodNameLength == 0 && h.CompressionMethodNameCount > 0:
		// The names would take no bytes, so the file size could not bound
		// their count.
		return h, &FormatError{Offset: 40, Msg: fmt.Sprintf("CompressionMethodNameLength is 0 for %d method names", h.CompressionMethodNameCount)}
	case h.CompressionBlockSize == 0 && h.TocEntryCount > 0:
		return h, &FormatError{Offset: 44, Msg: "CompressionBlockSize is 0"}
	}

	// Version defaults, as FIoStoreTocResource::Read applies them.
	if h.Version < TocPartitionSize {
		h.PartitionCount = 1
		h.PartitionSize = ^uint64(0)
	}
	if h.Version < TocPerfectHash {
		h.TocChunkPerfectHashSeedsCount = 0
	}
	if h.Version < TocPerfectHashWithOverflow {
		h.TocChunksWithoutPerfectHashCount = 0
	}
	if h.Version < TocAddedSourceHashes {
		h.TocSourceHashCount = 0
	}
	if h.Version < TocContainerEncryptionMethod {
		h.EncryptionIVCount = 0
		h.EncryptionMethod = EncryptNone
		if h.ContainerFlags&FlagEncrypted != 0 {
			h.EncryptionMethod = EncryptAESECB
		}
	}
	if h.PartitionCount == 0 {
		h.PartitionCount = 1
	}
	if h.PartitionSize == 0 {
		return h, &FormatError{Offset: 88, Msg: "PartitionSize is 0"}
	}
	return h, nil
}
