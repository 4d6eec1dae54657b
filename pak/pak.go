// Package pak reads Unreal Engine .pak files: every pak file version from 1
// (UE4.0) to 15 (UE6.0), including the two layouts that both carry version 8
// (8A from UE4.22, with four compression method names in the footer and an
// 8-bit compression index per entry, and 8B from UE4.23–4.24, with five names
// and a 32-bit index).
//
// A pak file is a sequence of file records (each the entry header FPakEntry
// followed by the stored bytes), then the index, then a fixed-size footer
// (FPakInfo) at the very end. The footer gives the index offset and size, the
// index gives the mount point and one entry per file. From version 10 the
// index is split into a primary index with bit-packed "encoded" entries, a
// path hash index and a full directory index; from version 13 the directory
// index may be stored flat (front-coded names). The index may be encrypted
// (AES-256-ECB, or AES-256-CTR from version 15), and so may each file's data.
// Data is stored raw or in compression blocks, each decoded with the
// [compression] registry (Oodle included: Kraken, Mermaid/Selkie, Leviathan).
//
// The model follows archive/zip: [NewReader] parses the footer and the whole
// index eagerly; file data is read lazily by [Entry.Open] / [Entry.Data], and
// [Reader] implements [io/fs.FS].
//
// Keys: an encrypted index is checked with its SHA-1 after decryption, so a
// wrong key is reported as [ErrWrongKey]. When only the entries are
// encrypted, the key is checked on the entries themselves (compressed blocks
// must decompress, packages must start with their tag, AES padding must
// follow UnrealPak's pattern); paks from UnrealPak 4.20 and earlier whose
// encrypted entries are all uncompressed non-packages give nothing to check.
//
// References: the engine's IPlatformFilePak.h (FPakInfo, FPakEntry,
// FPakFile::DecodePakEntry), repak (trumank/repak) and CUE4Parse
// (FabianFG/CUE4Parse, CUE4Parse/UE4/Pak).
//
// # Security
//
// Pak files are untrusted input. Every count and size read from the file is
// checked against the bytes that exist before anything is allocated; entry
// offsets must lie inside the file; a decompressed block is at most
// 64 MiB (see [WithMaxBlockSize]). Entry paths are reported as stored: a path with ".."
// elements is listed by [Reader.Entry] but is not reachable through the
// [io/fs.FS] view, and extraction code must check [Entry.SafePath].
package pak

import (
	"errors"
	"fmt"

	"github.com/upkg/upkg/ue"
)

// Magic is PAK_FILE_MAGIC, the footer's magic number.
const Magic = 0x5A6F12E1

// Version numbers of the pak format (EPakFileVersion in IPlatformFilePak.h).
const (
	VersionInitial                     = 1
	VersionNoTimestamps                = 2  // removes FPakEntry.Timestamp
	VersionCompressionEncryption       = 3  // adds compression blocks, flags, block size
	VersionIndexEncryption             = 4  // adds FPakInfo.bEncryptedIndex
	VersionRelativeChunkOffsets        = 5  // block offsets relative to the entry
	VersionDeleteRecords               = 6  // adds the Deleted entry flag
	VersionEncryptionKeyGuid           = 7  // adds FPakInfo.EncryptionKeyGuid
	VersionFNameBasedCompressionMethod = 8  // compression method names in the footer
	VersionFrozenIndex                 = 9  // adds FPakInfo.bIndexIsFrozen (UE4.25 only)
	VersionPathHashIndex               = 10 // primary index + path hash index + full directory index
	VersionFnv64BugFix                 = 11 // path hashes use the fixed FNV-64
	VersionUtf8PakDirectory            = 12 // directory index strings may be UTF-8
	VersionSortedDirectoryIndex        = 13 // full directory index may be flat (FPakFlatDirectoryIndex)
	VersionPakchunkIndex               = 14 // adds FPakInfo.PakchunkIndex
	VersionEncryptionMethod            = 15 // adds FPakInfo.EncryptionMethod and index IVs (AES-CTR)

	// VersionLatest is the newest version this package reads.
	VersionLatest = VersionEncryptionMethod
)

// Entry flags (FPakEntry::Flags).
const (
	FlagEncrypted = 0x01
	FlagDeleted   = 0x02
)

// Encryption methods (EIoEncryptionMethod), recorded in the footer from
// version 15. Older paks are AES-ECB by definition.
const (
	EncryptionNone   = 0
	EncryptionAES    = 1 // AES-256-ECB
	EncryptionAESCTR = 2 // AES-256-CTR with a 12-byte IV per encryption unit
)

// Footer sizes, by the fields each version adds (see [Footer]).
const (
	footerBase       = 4 + 4 + 8 + 8 + 20 // Magic, Version, IndexOffset, IndexSize, IndexHash
	compressionName  = 32                 // COMPRESSION_METHOD_NAME_LEN
	ivSize           = 12                 // FIoStoreEncryptionIV
	aesBlock         = 16                 // AES block and alignment of encrypted data
	maxFooterSize    = 17 + footerBase + 1 + 5*compressionName + 4 + 1 + 3*ivSize
	flatIndexMagic   = 0x50464451 // 'PFDQ', FPakFlatDirectoryIndex
	legacyNameSlots8 = 4          // compression names in an 8A footer
	nameSlots        = 5          // compression names from 8B on
)

// Footer is FPakInfo, the fixed-size trailer of a pak file. Fields added by
// later versions are serialized before Magic (key GUID, encrypted-index flag)
// or after the index hash (the rest), so the footer grows at both ends.
type Footer struct {
	EncryptionKeyGuid ue.Guid // version 7+
	EncryptedIndex    bool    // version 4+
	Magic             uint32
	Version           int32
	// SubVersion8A marks the UE4.22 layout of version 8 (four compression
	// names, 8-bit compression index in entries).
	SubVersion8A  bool
	IndexOffset   int64
	IndexSize     int64
	IndexHash     ue.SHAHash
	IndexIsFrozen bool // version 9 only
	// CompressionMethods lists the names of the footer's method table (version
	// 8+), in slot order; entries refer to slot i+1 (0 means uncompressed).
	// An empty name is an unused slot.
	CompressionMethods []string
	PakchunkIndex      int32 // version 14+, -1 when unset
	EncryptionMethod   uint8 // version 15+
	IndexIV            [ivSize]byte
	PathHashIndexIV    [ivSize]byte
	FullDirectoryIV    [ivSize]byte
	// Size is the footer's size in bytes.
	Size int64
}

// VersionName returns the version as users know it ("8A", "8B", "11").
func (f *Footer) VersionName() string {
	if f.Version == VersionFNameBasedCompressionMethod {
		if f.SubVersion8A {
			return "8A"
		}
		return "8B"
	}
	return fmt.Sprint(f.Version)
}

// footerLayout is one candidate footer size and the versions that use it.
type footerLayout struct {
	size      int64
	magicPos  int64 // offset of Magic from the footer start
	minV      int32
	maxV      int32
	names     int // compression method names
	is8A      bool
	chunk     bool // has PakchunkIndex
	encMethod bool // has EncryptionMethod and the three index IVs
}

// footerLayouts are tried in this order; a layout matches when Magic sits at
// its position and the version is one that writes that layout. (The match
// is strict: a v15 pak cut short by its 41 trailing bytes must not read as
// a v14 layout.)
var footerLayouts = []footerLayout{
	{17 + footerBase + 5*compressionName + 4 + 1 + 3*ivSize, 17, 15, 15, nameSlots, false, true, true}, // v15: + PakchunkIndex, EncryptionMethod, 3 IVs
	{17 + footerBase + 5*compressionName + 4, 17, 14, 14, nameSlots, false, true, false},               // v14: + PakchunkIndex
	{17 + footerBase + 1 + 5*compressionName, 17, 9, 9, nameSlots, false, false, false},                // v9: + bIndexIsFrozen
	{17 + footerBase + 5*compressionName, 17, 8, 13, nameSlots, false, false, false},                   // v8B, v10–v13
	{17 + footerBase + 4*compressionName, 17, 8, 8, legacyNameSlots8, true, false, false},              // v8A
	{17 + footerBase, 17, 7, 7, 0, false, false, false},                                                // v7: + EncryptionKeyGuid
	{1 + footerBase, 1, 4, 6, 0, false, false, false},                                                  // v4–v6: + bEncryptedIndex
	{footerBase, 0, 1, 3, 0, false, false, false},                                                      // v1–v3
}

// legacyMethods are the compression methods of paks before version 8, which
// store ECompressionFlags in each entry instead of a slot number.
const (
	compressZlib   = 0x01
	compressGzip   = 0x02
	compressCustom = 0x04 // the game's custom compressor; Oodle in practice
)

// Errors callers can branch on with errors.Is.
var (
	// ErrFormat reports a file that is not a pak file (no footer magic).
	ErrFormat = errors.New("pak: not a pak file (no footer with magic 0x5A6F12E1)")
	// ErrKeyNeeded reports encrypted data and no AES key.
	ErrKeyNeeded = errors.New("an AES key is needed")
	// ErrWrongKey reports a key that does not decrypt the index.
	ErrWrongKey = errors.New("wrong AES key")
	// ErrChecksum reports stored data whose SHA-1 differs from the entry's hash.
	ErrChecksum = errors.New("pak: SHA-1 hash mismatch")
)

// FormatError reports a pak that is corrupt or not a pak.
type FormatError struct {
	Offset int64  // absolute file offset of the problem
	What   string // the structure being read
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("pak: %s at offset 0x%x: %v", e.What, e.Offset, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid pak using a feature this package does
// not read (a frozen index, a future version, an unknown encryption method).
type UnsupportedError struct{ Feature string }

func (e *UnsupportedError) Error() string { return "pak: unsupported: " + e.Feature }

// KeyError reports an encryption problem: a missing key (wraps
// [ErrKeyNeeded]) or a wrong one (wraps [ErrWrongKey]). It names the key GUID
// the footer records, so the user knows which key to look for.
type KeyError struct {
	KeyGuid ue.Guid
	What    string // what could not be decrypted, e.g. "index", an entry path
	Err     error  // ErrKeyNeeded or ErrWrongKey
	Detail  string
}

func (e *KeyError) Error() string {
	if errors.Is(e.Err, ErrWrongKey) {
		s := fmt.Sprintf("pak: wrong AES key for %s (key GUID %s)", e.What, e.KeyGuid)
		if e.Detail != "" {
			s += ": " + e.Detail
		}
		return s
	}
	s := fmt.Sprintf("pak: %s is encrypted (AES key GUID %s): %v", e.What, e.KeyGuid, e.Err)
	if errors.Is(e.Err, ErrKeyNeeded) {
		s += "; give it with --aes-key (hex, 0x optional, or base64)"
	}
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func (e *KeyError) Unwrap() error { return e.Err }
