package pak

import (
	"fmt"
	"io"
	"math"
	"path"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// Block is FPakCompressedBlock: the range of one compression block, as
// absolute file offsets (relative offsets of version 5+ are resolved).
type Block struct {
	Start, End int64
}

// Entry is FPakEntry: one file of the pak, with its path.
type Entry struct {
	// Path is the file's path relative to the mount point, as the index
	// stores it ("Content/Maps/Level1.umap").
	Path string
	// Name is the path with the mount point applied and its leading "../"
	// and "/" removed ("Game/Content/Maps/Level1.umap"); it is the name used
	// by the fs.FS view when it is a valid fs path.
	Name string

	Offset           int64 // of the entry header that precedes the data
	CompressedSize   int64 // bytes stored (before AES padding)
	UncompressedSize int64
	// CompressionMethod is "" for stored data, else the method name
	// ("Zlib", "Oodle", ...).
	CompressionMethod string
	Blocks            []Block
	// PathHash is the entry's FNV-64 path hash from the path hash index
	// (version 10+), when it has one.
	PathHash uint64

	p    *Reader
	rare *entryRare // nil when none of its fields is set

	// The fields below are packed together: a pak can hold hundreds of
	// thousands of entries, all in memory.
	Hash ue.SHAHash
	// CompressionSlot is the raw value stored: a footer slot (version 8+,
	// 0 = none) or ECompressionFlags (before version 8).
	CompressionSlot      uint32
	CompressionBlockSize uint32
	headerSize           uint32 // size of the FPakEntry that precedes the data
	Flags                uint8
	// Encoded reports an entry stored in the v10+ bit-packed form, which has
	// no hash; the hash is read from the header before the data when needed.
	Encoded     bool
	hasHash     bool
	hasPathHash bool
	// idx is one more than the entry's index in the Reader's list (0: an
	// entry of no list, as the header before the data): what Verify
	// checked is recorded in the Reader by it (see hashVerified).
	idx int32
}

// entryRare holds the fields of an entry that few paks set.
type entryRare struct {
	timestamp uint64       // version 1 only
	iv        [ivSize]byte // AES-CTR entries of version 15
}

// Timestamp is the entry's FILETIME, stored by version 1 paks only.
func (e *Entry) Timestamp() uint64 {
	if e.rare == nil {
		return 0
	}
	return e.rare.timestamp
}

// IV is the AES-CTR initialisation vector of an encrypted entry (version
// 15 paks with EncryptionMethod AES-CTR); zero otherwise.
func (e *Entry) IV() [ivSize]byte {
	if e.rare == nil {
		return [ivSize]byte{}
	}
	return e.rare.iv
}

// setRare sets the rare fields (kept only when one is not zero).
func (e *Entry) setRare(timestamp uint64, iv [ivSize]byte) {
	if timestamp != 0 || iv != ([ivSize]byte{}) {
		e.rare = &entryRare{timestamp: timestamp, iv: iv}
	}
}

// Encrypted reports whether the data is AES-encrypted.
func (e *Entry) Encrypted() bool { return e.Flags&FlagEncrypted != 0 }

// Deleted reports a delete record (a patch pak removing a file).
func (e *Entry) Deleted() bool { return e.Flags&FlagDeleted != 0 }

// Compressed reports whether the data is stored in compression blocks.
func (e *Entry) Compressed() bool { return e.CompressionMethod != "" }

// DataOffset is the file offset of the first stored byte.
func (e *Entry) DataOffset() int64 { return e.Offset + int64(e.headerSize) }

// StoredSize is the number of bytes the data occupies in the file,
// including AES padding.
func (e *Entry) StoredSize() int64 {
	if len(e.Blocks) > 0 {
		return e.Blocks[len(e.Blocks)-1].End - e.Blocks[0].Start
	}
	if e.Encrypted() {
		return align(e.CompressedSize)
	}
	return e.CompressedSize
}

// SafePath reports whether Name is safe to use as a relative file path
// under an extraction folder: not absolute, no "..", no empty or "."
// elements, no backslashes or NUL bytes, no Windows drive letters.
func (e *Entry) SafePath() bool { return SafePath(e.Name) }

// SafePath reports whether name is a relative slash-separated path that
// stays inside the folder it is joined to.
func SafePath(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00:") || !isFSPath(name) {
		return false
	}
	return true
}

func isFSPath(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") {
		return false
	}
	for elem := range strings.SplitSeq(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// blockSlack is how much a compressed block may exceed the block size
// limit (codec headers on incompressible data).
const blockSlack = 64 << 10

func align(n int64) int64 { return (n + aesBlock - 1) &^ (aesBlock - 1) }

// entrySize is the serialized size of an FPakEntry header for a pak of
// version v (with the 8A flag), with or without compression blocks.
func entrySize(v int32, is8A, compressed bool, blocks int) int64 {
	n := int64(8 + 8 + 8) // Offset, Size, UncompressedSize
	if v == VersionFNameBasedCompressionMethod && is8A {
		n++ // 8-bit compression index
	} else {
		n += 4
	}
	if v < VersionNoTimestamps {
		n += 8
	}
	n += 20 // Hash
	if v >= VersionCompressionEncryption {
		if compressed {
			n += 4 + 16*int64(blocks)
		}
		n += 1 + 4 // Flags, CompressionBlockSize
	}
	return n
}

// readEntry decodes a full FPakEntry (the legacy index form, the
// non-encoded entries of v10+, and the header before each file's data).
func (p *Reader) readEntry(r *binread.Reader) Entry {
	f := &p.Footer
	start := r.Abs()
	var e Entry
	e.Offset = r.I64("FPakEntry.Offset")
	e.CompressedSize = r.I64("FPakEntry.Size")
	e.UncompressedSize = r.I64("FPakEntry.UncompressedSize")
	if f.Version == VersionFNameBasedCompressionMethod && f.SubVersion8A {
		e.CompressionSlot = uint32(r.U8("FPakEntry.CompressionMethodIndex"))
	} else {
		e.CompressionSlot = r.U32("FPakEntry.CompressionMethodIndex")
	}
	if f.Version < VersionNoTimestamps {
		e.setRare(r.U64("FPakEntry.Timestamp"), [ivSize]byte{})
	}
	r.Fixed(e.Hash[:], "FPakEntry.Hash")
	e.hasHash = true
	if r.Err() != nil {
		return e
	}
	method, err := p.methodFor(e.CompressionSlot)
	if err != nil {
		r.FailAt(r.Offset()-20-4, "FPakEntry.CompressionMethodIndex", err)
		return e
	}
	e.CompressionMethod = method
	if f.Version >= VersionCompressionEncryption {
		if method != "" {
			n := r.Count("FPakEntry.CompressionBlocks", 16)
			e.Blocks = make([]Block, 0, binread.SliceCap(n))
			for range n {
				e.Blocks = append(e.Blocks, Block{Start: r.I64("FPakEntry.CompressedStart"), End: r.I64("FPakEntry.CompressedEnd")})
			}
		}
		e.Flags = r.U8("FPakEntry.Flags")
		e.CompressionBlockSize = r.U32("FPakEntry.CompressionBlockSize")
	}
	e.headerSize = uint32(min(r.Abs()-start, math.MaxUint32)) // at most the index's 1 GiB
	if f.Version >= VersionRelativeChunkOffsets {
		for i := range e.Blocks {
			e.Blocks[i].Start += e.Offset
			e.Blocks[i].End += e.Offset
		}
	}
	return e
}

// methodFor maps a stored compression index to a method name.
func (p *Reader) methodFor(slot uint32) (string, error) {
	f := &p.Footer
	if slot == 0 {
		return "", nil
	}
	if f.Version < VersionFNameBasedCompressionMethod {
		// ECompressionFlags; bias flags (0x10, 0x20) may be set too.
		switch {
		case slot&compressZlib != 0:
			return "Zlib", nil
		case slot&compressGzip != 0:
			return "Gzip", nil
		case slot&compressCustom != 0:
			return "Oodle", nil
		}
		return "", fmt.Errorf("unknown compression flags 0x%x", slot)
	}
	if uint64(slot) > uint64(len(f.CompressionMethods)) || f.CompressionMethods[slot-1] == "" {
		return "", fmt.Errorf("compression method slot %d not in the footer's table %q", slot, f.CompressionMethods)
	}
	return f.CompressionMethods[slot-1], nil
}

// Bits of an encoded entry's first uint32 (FPakFile::EncodePakEntry).
const (
	encBlockSizeMask  = 0x3f    // CompressionBlockSize >> 11; 0x3f: a uint32 follows
	encBlockCountShft = 6       // 16 bits of block count
	encEncrypted      = 1 << 22 // Flags & Encrypted
	encMethodShift    = 23      // 6 bits of compression slot
	encSize32         = 1 << 29 // compressed size fits in 32 bits
	encUSize32        = 1 << 30 // uncompressed size fits in 32 bits
	encOffset32       = 1 << 31 // offset fits in 32 bits
)

// decodeEntry decodes a v10+ bit-packed entry at off in the encoded entries
// blob (FPakFile::DecodePakEntry).
func (p *Reader) decodeEntry(r *binread.Reader, off int32) Entry {
	var e Entry
	e.Encoded = true
	r.SeekTo(int64(off), "EncodedPakEntries offset")
	bits := r.U32("EncodedPakEntry.Flags")
	if bs := bits & encBlockSizeMask; bs == encBlockSizeMask {
		e.CompressionBlockSize = r.U32("EncodedPakEntry.CompressionBlockSize")
	} else {
		e.CompressionBlockSize = bs << 11
	}
	e.CompressionSlot = (bits >> encMethodShift) & 0x3f
	if bits&encOffset32 != 0 {
		e.Offset = int64(r.U32("EncodedPakEntry.Offset"))
	} else {
		e.Offset = r.I64("EncodedPakEntry.Offset")
	}
	if bits&encUSize32 != 0 {
		e.UncompressedSize = int64(r.U32("EncodedPakEntry.UncompressedSize"))
	} else {
		e.UncompressedSize = r.I64("EncodedPakEntry.UncompressedSize")
	}
	if bits&encEncrypted != 0 {
		e.Flags |= FlagEncrypted
		if p.Footer.EncryptionMethod == EncryptionAESCTR {
			var iv [ivSize]byte
			r.Fixed(iv[:], "EncodedPakEntry.EncryptionIV")
			e.setRare(0, iv)
		}
	}
	if r.Err() != nil {
		return e
	}
	method, err := p.methodFor(e.CompressionSlot)
	if err != nil {
		r.Fail("EncodedPakEntry.CompressionMethodIndex", err)
		return e
	}
	e.CompressionMethod = method
	if method != "" {
		if bits&encSize32 != 0 {
			e.CompressedSize = int64(r.U32("EncodedPakEntry.Size"))
		} else {
			e.CompressedSize = r.I64("EncodedPakEntry.Size")
		}
	} else {
		e.CompressedSize = e.UncompressedSize
	}
	n := int((bits >> encBlockCountShft) & 0xffff)
	if n == 1 {
		// A single block covers the whole file.
		e.CompressionBlockSize = uint32(min(e.UncompressedSize, math.MaxUint32))
	}
	e.headerSize = uint32(entrySize(p.Footer.Version, p.Footer.SubVersion8A, method != "", n)) // n < 1<<16
	start := e.DataOffset()
	switch {
	case n == 1 && !e.Encrypted():
		e.Blocks = []Block{{Start: start, End: start + e.CompressedSize}}
	case n > 0:
		if int64(n)*4 > r.Remaining() {
			r.Fail("EncodedPakEntry.CompressionBlocks", fmt.Errorf("%w: %d block sizes, %d bytes left", binread.ErrCount, n, r.Remaining()))
			return e
		}
		e.Blocks = make([]Block, n)
		for i := range e.Blocks {
			size := int64(r.U32("EncodedPakEntry.CompressedBlockSize"))
			e.Blocks[i] = Block{Start: start, End: start + size}
			if e.Encrypted() {
				size = align(size)
			}
			start += size
		}
	}
	return e
}

// validate checks an entry's ranges against the file.
func (p *Reader) validate(e *Entry) error {
	bad := func(format string, args ...any) error {
		return &FormatError{Offset: e.Offset, What: fmt.Sprintf("entry %q", e.Path), Err: fmt.Errorf(format, args...)}
	}
	if e.Deleted() {
		return nil
	}
	if e.Offset < 0 || e.CompressedSize < 0 || e.UncompressedSize < 0 {
		return bad("negative offset or size (offset %d, size %d, uncompressed %d)", e.Offset, e.CompressedSize, e.UncompressedSize)
	}
	if e.Offset > p.size || int64(e.headerSize) > p.size-e.Offset {
		return bad("entry header at 0x%x outside the file", e.Offset)
	}
	if e.Compressed() {
		if e.UncompressedSize > 0 && len(e.Blocks) == 0 {
			return bad("compressed with %s but has no compression blocks", e.CompressionMethod)
		}
		bs := int64(e.CompressionBlockSize)
		if len(e.Blocks) == 1 && bs < e.UncompressedSize {
			bs = e.UncompressedSize
		}
		if bs == 0 && e.UncompressedSize > 0 {
			return bad("compression block size 0")
		}
		if bs > 0 && (e.UncompressedSize+bs-1)/bs != int64(len(e.Blocks)) {
			return bad("%d compression blocks of %d bytes cannot hold %d bytes", len(e.Blocks), bs, e.UncompressedSize)
		}
		if min(bs, e.UncompressedSize) > p.maxBlock {
			return bad("compression block of %d bytes exceeds the limit of %d", bs, p.maxBlock)
		}
		remain := e.UncompressedSize
		for i, b := range e.Blocks {
			if b.Start < 0 || b.End < b.Start || b.End > p.size {
				return bad("compression block %d [0x%x, 0x%x) outside the file", i, b.Start, b.End)
			}
			// Checked before a block's buffer is made: a few stored bytes
			// claiming megabytes are refused here.
			out := min(bs, remain)
			remain -= out
			if out > (b.End-b.Start)*maxBlockRatio {
				return bad("compression block %d of %d stored bytes cannot expand to %d", i, b.End-b.Start, out)
			}
			// A stored block is read whole: it can exceed its uncompressed
			// size only by a codec's small overhead.
			if b.End-b.Start > p.maxBlock+blockSlack {
				return bad("compression block %d of %d stored bytes exceeds the limit of %d", i, b.End-b.Start, p.maxBlock+blockSlack)
			}
			if e.Encrypted() && align(b.End-b.Start) > p.size-b.Start {
				return bad("encrypted compression block %d runs past the end of the file", i)
			}
		}
		return nil
	}
	if e.CompressedSize != e.UncompressedSize {
		return bad("stored size %d differs from uncompressed size %d without compression", e.CompressedSize, e.UncompressedSize)
	}
	if n := e.StoredSize(); n > p.size-e.DataOffset() {
		return bad("data [0x%x, +0x%x) runs past the end of the file", e.DataOffset(), n)
	}
	return nil
}

// mountPrefix returns the mount point as the prefix of entry names: its
// leading "../", "./" and "/" dropped (shipped paks mount at
// "../../../Game/"), backslashes turned into slashes, and a trailing slash
// added when it is not empty.
func mountPrefix(mount string) string {
	m := strings.ReplaceAll(mount, "\\", "/")
	for {
		switch {
		case strings.HasPrefix(m, "../"):
			m = m[3:]
		case strings.HasPrefix(m, "./"):
			m = m[2:]
		case strings.HasPrefix(m, "/"):
			m = m[1:]
		default:
			if m != "" && !strings.HasSuffix(m, "/") {
				m += "/"
			}
			return m
		}
	}
}

// fsName returns the name an entry has in the fs.FS view, or "" when its
// path is not a valid fs path (it contains "..", empty elements, ...).
func fsName(name string) string {
	if !SafePath(name) || path.Clean(name) != name {
		return ""
	}
	return name
}

// readAtFull reads len(b) bytes at off, turning a short read into
// io.ErrUnexpectedEOF.
func readAtFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
