// Package legacy reads Unreal Engine 1, 2 and 3 package files (.u .utx .unr
// .umx .uax .usx .ukx .upk .udk .pcc and the console variants): the package
// summary of every file version from the 1998 pre-release (44) through Unreal
// and UT99 (61–69), Unreal Engine 2 (100–129) and Unreal Engine 3 (up to
// ~900), the name, import and export tables, tagged object properties, and
// the content of the classes people want back as files (Texture, Palette,
// Sound, Music, TextBuffer).
//
// The layout follows Go's debug/* packages: [NewFile] parses the summary and
// the three tables eagerly; object payloads are read lazily through
// [File.Data], [File.Object] (object header and tagged properties, including
// the default properties at the end of UE1/UE2 classes) and
// [File.ExportContent] (PNG, WAV/Ogg, tracker modules, .uc source). UE3
// packages with a compressed chunk table (zlib, and the pure-Go LZO, LZMA and
// Xbox 360 LZX decoders of this package, registered in package compression),
// fully compressed console packages and Lineage II's XOR-wrapped files are
// turned into their plain image in memory first, except that an image of
// 8 MiB or more (a chunk table, or a fully compressed package) is expanded
// chunk by chunk as reads reach it, and a chunk of 2 MiB or more block by
// block (a few chunks or blocks held at a time; [File.CheckChunks] expands
// the rest).
// Rocket League's AES-encrypted headers need the game's key ([WithAESKey]).
// Oodle (Mass Effect Legendary Edition, Leviathan) decodes through the
// registry.
//
// Format references: the Unreal Wiki "Package File Format" pages and
// Antonio Cordero Balcazar's "Unreal Tournament Package File Format" for UE1;
// the UE3 summary as UEViewer and UELib read it.
//
// # Security
//
// The package is meant for files from strangers. Every count and offset read
// from a file is checked against the bytes that exist before anything is
// allocated, decompression output is bounded ([maxImageSize]), and a failure
// is reported as an error carrying the offset and the field, never a panic.
package legacy

import (
	"errors"
	"fmt"
)

// PackageTag is the first uint32 of every package (PACKAGE_FILE_TAG). A
// big-endian console package stores it byte-swapped, so it reads as
// [PackageTagSwapped] in little-endian order.
const (
	PackageTag        = 0x9E2A83C1
	PackageTagSwapped = 0xC1832A9E
)

// File versions that change the layout (named after what they add).
const (
	verPreRelease       = 44  // Unreal beta packages (e.g. early .utx): heritage table layout
	verOuterIndex       = 50  // import and export tables gain the outer (package) object reference
	verLazyArraySkip    = 62  // TLazyArray gains the skip offset in front of its data
	verNameLength       = 64  // NAME strings gain a compact-index length prefix
	verGuidGenerations  = 68  // heritage table replaced by Guid + generations
	verUE2              = 100 // first Unreal Engine 2 version
	verStructTags       = 118 // struct property values are tagged property lists
	verUE3              = 178 // compact indices become int32, property tags get FName+int32 size
	verUE3ObjectFlags   = 195 // object flags become 64-bit
	verArchetype        = 220 // exports gain ArchetypeIndex
	verEngineVersion    = 245
	verExportFlags      = 247
	verHeadersSize      = 249 // summary gains TotalHeaderSize; SerialOffset always present
	verFolderName       = 269
	verCookerVersion    = 277
	verNetObjectCount   = 322 // generations and exports gain net object counts; objects a NetIndex
	verCompression      = 334 // summary gains CompressionFlags and the chunk table
	verNameNumber       = 343 // FName gains its instance number
	verDependsOffset    = 415
	verExportPkgFlags   = 475
	verPackageSource    = 482
	verAdditionalCook   = 516
	verNoComponentMap   = 543 // exports lose the component map
	verLatentAction16   = 566 // FStateFrame.LatentAction becomes uint16
	verThumbnailTable   = 584
	verImportExportGuid = 623
	verEnumName         = 633 // ByteProperty tags gain the enum name
	verBoolByte         = 673 // BoolProperty tag value becomes a byte
	verProbeMask32      = 691 // FStateFrame.ProbeMask becomes uint32
	verTextureAlloc     = 767
	verStateStack       = 189 // FStateFrame gains the state stack
	verComponentTmpl    = 224 // components serialize TemplateOwnerClass/TemplateName
)

// Package flags (EPackageFlags) common to UE1–UE3.
const (
	PkgAllowDownload        = 0x0001
	PkgClientOptional       = 0x0002
	PkgServerSideOnly       = 0x0004
	PkgCooked               = 0x0008     // UE3
	PkgStoreCompressed      = 0x02000000 // UE3: the package body is compressed in chunks
	PkgStoreFullyCompressed = 0x04000000
)

// Compression flags of the UE3 summary (ECompressionFlags).
const (
	CompressZlib = 0x01
	CompressLZO  = 0x02
	CompressLZX  = 0x04
	// Mass Effect's PS3 and Wii U packages use LZMA.
	compressLZMA = 0x08
	// Mass Effect Legendary Edition uses its own values.
	compressOodleLE = 0x400
)

// Object flags the readers branch on.
const (
	rfHasStack     = 0x02000000         // UE1/UE2 EObjectFlags
	rfHasStackUE3  = 0x0200000000000000 // UE3 64-bit EObjectFlags
	rfArchetypeUE3 = 0x0000000000000400 // RF_ArchetypeObject
	rfCDOUE3       = 0x0000000000000200 // RF_ClassDefaultObject
)

// ErrNotPackage reports a file without the package tag.
var ErrNotPackage = errors.New("legacy: not an Unreal package (no 0x9E2A83C1 tag)")

// FormatError reports a structurally invalid package: a field whose value
// cannot be right, at a known offset.
type FormatError struct {
	Off   int64  // absolute offset in the (decompressed) package image
	Field string // what was being read
	Msg   string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("legacy: %s at offset 0x%x: %s", e.Field, e.Off, e.Msg)
}

// UnsupportedError reports a valid package using a feature this package
// cannot decode (a compression method without a decoder, an encryption
// scheme without a key).
type UnsupportedError struct {
	Feature string
}

func (e *UnsupportedError) Error() string { return "legacy: unsupported: " + e.Feature }

// EncryptedError reports a package wrapped in an encryption scheme that
// could not be removed. Scheme names it ("Lineage2Ver413 (RSA + Blowfish)",
// "Rocket League AES-256-ECB").
type EncryptedError struct {
	Scheme string
	Reason string
	// WrongKey is set when a key was given and it does not decrypt the package.
	WrongKey bool
}

// ErrWrongKey is what an [EncryptedError] for a key that does not decrypt
// the package matches with errors.Is.
var ErrWrongKey = errors.New("legacy: wrong AES key")

// Is makes errors.Is(err, ErrWrongKey) true for a wrong key.
func (e *EncryptedError) Is(target error) bool { return e.WrongKey && target == ErrWrongKey }

func (e *EncryptedError) Error() string {
	return fmt.Sprintf("legacy: encrypted package (%s): %s", e.Scheme, e.Reason)
}
