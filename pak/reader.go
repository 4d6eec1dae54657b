package pak

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/osfile"
	"github.com/upkg/upkg/internal/sha1"
	"github.com/upkg/upkg/internal/slots"
	"github.com/upkg/upkg/ue"
)

// maxBlockSize bounds one decompressed block, and so the buffer allocated
// before decompressing it. Unreal writes 64 KiB blocks by default, repak
// 124 KiB; games raise it to a few MiB at most.
const maxBlockSize = 64 << 20

// maxBlockRatio bounds what a compression block expands to per stored
// byte: real blocks stay far below it, and so do blocks of one repeated
// byte (the most any codec packs: Oodle stores 256 KiB of it in 4 bytes).
const maxBlockRatio = 1 << 17

// maxIndexSize bounds one index blob (primary index, path hash index or
// directory index), which is read into memory whole. The largest shipped
// indexes (hundreds of thousands of files) are tens of MiB; a claim beyond
// 1 GiB in a large file is corruption, not a pak worth the memory.
const maxIndexSize = 1 << 30

// maxMountPoint bounds a plausible mount point; a longer one in an encrypted
// index means the key is wrong (the engine's own check is similar).
const maxMountPoint = 1024

// Option configures [NewReader].
type Option func(*options) error

type options struct {
	key      []byte
	maxBlock int64
}

// WithMaxBlockSize lowers the limit on one decompressed block (default 64
// MiB), which bounds the memory a hostile entry can make the reader
// allocate per block.
func WithMaxBlockSize(n int64) Option {
	return func(o *options) error {
		if n <= 0 {
			return fmt.Errorf("pak: block size limit %d", n)
		}
		o.maxBlock = min(n, maxBlockSize)
		return nil
	}
}

// WithKey gives the AES-256 key (32 bytes) for an encrypted index or
// encrypted entries.
func WithKey(key []byte) Option {
	return func(o *options) error {
		if len(key) != aeskey.KeySize {
			return fmt.Errorf("pak: AES key of %d bytes, want %d", len(key), aeskey.KeySize)
		}
		o.key = key
		return nil
	}
}

// WithKeyString parses a key given as hex (0x optional), base64 or 32 raw
// characters (see [aeskey.Parse]). An empty string means no key.
func WithKeyString(s string) Option {
	return func(o *options) error {
		if s == "" {
			return nil
		}
		k, err := aeskey.Parse(s)
		if err != nil {
			return err
		}
		o.key = k
		return nil
	}
}

// Reader is an opened pak file: its footer and index. File data is read
// on demand.
type Reader struct {
	Footer     Footer
	MountPoint string

	// Version 10+ index fields.
	PathHashSeed          uint64
	HasPathHashIndex      bool
	HasFullDirectoryIndex bool
	FlatDirectoryIndex    bool // the full directory index is FPakFlatDirectoryIndex (v13+)
	PathHashIndexEntries  int
	// Where the v10+ secondary indexes are stored (offset, size); zero when
	// absent.
	PathHashIndexRange, FullDirectoryIndexRange [2]int64

	// The entries (see Len and Entry), as the index stores them, decoded
	// when asked for: those of a version 1-9 index in records (the index
	// and where each record starts), those of a version 10+ index in
	// refs, names, dirNames, encoded and plain. A pak can hold hundreds of
	// thousands of files: 400,000 decoded entries took 70-93 MB, kept as
	// stored 24-31 MB.
	records      []byte   // a version 1-9 index
	recordAt     []uint32 // where each of its records starts
	refs         []fileRef
	names        []byte   // the file names of refs, one after another
	dirNames     []string // the directories of the directory index, as stored
	encoded      []byte   // EncodedPakEntries
	encStart     int64    // its file offset
	plain        []Entry  // the non-encoded entries of a version 10+ index
	anyEncrypted bool
	dataSize     int64 // see DataSize

	r         io.ReaderAt
	size      int64
	closer    io.Closer
	block     *aeskey.Cipher
	prefix    string   // mountPrefix(MountPoint)
	byName    []uint64 // see lookupIndex
	namesOnce sync.Once
	verified  []uint64 // a bit an entry: Verify checked its stored bytes (guarded by mu)
	tree      *dirTree
	key       keyState
	maxBlock  int64
	mu        sync.Mutex // guards the lazily read hashes of encoded entries
}

// OpenReader opens the named pak file.
func OpenReader(name string, opts ...Option) (*Reader, error) {
	f, size, err := osfile.Open(name)
	if err != nil {
		return nil, err
	}
	p, err := NewReader(f, size, opts...)
	if err != nil {
		f.Close()
		return nil, err
	}
	p.closer = f
	return p, nil
}

// NewReader reads the footer and index of the pak in r, which is size bytes.
func NewReader(r io.ReaderAt, size int64, opts ...Option) (*Reader, error) {
	o := options{maxBlock: maxBlockSize}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
	}
	f, err := readFooter(r, size)
	if err != nil {
		return nil, err
	}
	p := &Reader{Footer: *f, r: r, size: size, maxBlock: o.maxBlock}
	if o.key != nil {
		if p.block, err = aeskey.New(o.key); err != nil {
			return nil, err
		}
	}
	if f.IndexIsFrozen {
		return nil, &UnsupportedError{Feature: "frozen index (pak version 9, UE4.25 memory image layout)"}
	}
	if err := p.readIndex(); err != nil {
		return nil, err
	}
	return p, nil
}

// Close closes the file opened by [OpenReader]; it does nothing for a
// Reader made by [NewReader].
func (p *Reader) Close() error {
	if p.closer != nil {
		return p.closer.Close()
	}
	return nil
}

// Size returns the size of the pak file.
func (p *Reader) Size() int64 { return p.size }

// DataSize returns the bytes of data the entries of the index point at,
// summed over them: no more than the pak's size when no two share data,
// as the engine writes them (a crafted index can point many entries at
// the same bytes, and checking each would read them again).
func (p *Reader) DataSize() int64 { return p.dataSize }

// Encrypted reports whether the index or any entry is encrypted.
func (p *Reader) Encrypted() bool { return p.Footer.EncryptedIndex || p.anyEncrypted }

// HasKey reports whether an AES key was given.
func (p *Reader) HasKey() bool { return p.block != nil }

// readBlob reads size bytes at off (the index, the path hash index or the
// directory index), decrypts them when the index is encrypted, and checks
// their SHA-1 against want (unless want is zero).
func (p *Reader) readBlob(off, size int64, want ue.SHAHash, iv [ivSize]byte, what string) ([]byte, error) {
	if off < 0 || size < 0 || off > p.size || size > p.size-off {
		return nil, &FormatError{Offset: off, What: what, Err: fmt.Errorf("range [0x%x, +0x%x) outside the file of 0x%x bytes", off, size, p.size)}
	}
	if size > maxIndexSize {
		return nil, &FormatError{Offset: off, What: what, Err: fmt.Errorf("%d bytes exceed the limit of %d", size, maxIndexSize)}
	}
	b := make([]byte, size)
	if err := readAtFull(p.r, b, off); err != nil {
		return nil, &FormatError{Offset: off, What: what, Err: err}
	}
	if p.Footer.EncryptedIndex {
		if p.block == nil {
			return nil, &KeyError{KeyGuid: p.Footer.EncryptionKeyGuid, What: "the pak index", Err: ErrKeyNeeded}
		}
		if err := p.decrypt(b, iv, 0); err != nil {
			return nil, &FormatError{Offset: off, What: what, Err: err}
		}
	}
	if !want.IsZero() {
		if got := ue.SHAHash(sha1.Sum(b)); got != want {
			if p.Footer.EncryptedIndex {
				return nil, &KeyError{KeyGuid: p.Footer.EncryptionKeyGuid, What: "the pak index", Err: ErrWrongKey,
					Detail: fmt.Sprintf("the decrypted %s fails its SHA-1 check", what)}
			}
			return nil, &FormatError{Offset: off, What: what, Err: fmt.Errorf("%w: stored %s, computed %s", ErrChecksum, want, got)}
		}
	}
	return b, nil
}

// streamIndexMin is the size above which an unencrypted primary index of
// version 10+ is parsed as it is read rather than read into memory first
// (one of versions 1-9 is kept: it holds the entries).
var streamIndexMin int64 = 8 << 20 // a variable for the tests

// checkBlob checks the range and SHA-1 of the unencrypted blob readBlob
// would read, reading it a piece at a time.
func (p *Reader) checkBlob(off, size int64, want ue.SHAHash, what string) error {
	if off < 0 || size < 0 || off > p.size || size > p.size-off {
		return &FormatError{Offset: off, What: what, Err: fmt.Errorf("range [0x%x, +0x%x) outside the file of 0x%x bytes", off, size, p.size)}
	}
	if size > maxIndexSize {
		return &FormatError{Offset: off, What: what, Err: fmt.Errorf("%d bytes exceed the limit of %d", size, maxIndexSize)}
	}
	if want.IsZero() {
		return nil
	}
	h := sha1.New()
	buf := make([]byte, min(size, 1<<20))
	for at := int64(0); at < size; {
		b := buf[:min(int64(len(buf)), size-at)]
		if err := readAtFull(p.r, b, off+at); err != nil {
			return &FormatError{Offset: off + at, What: what, Err: err}
		}
		h.Write(b)
		at += int64(len(b))
	}
	var got ue.SHAHash
	h.Sum(got[:0])
	if got != want {
		return &FormatError{Offset: off, What: what, Err: fmt.Errorf("%w: stored %s, computed %s", ErrChecksum, want, got)}
	}
	return nil
}

// decrypt decrypts b in place with the pak's method. For AES-CTR, unit is
// the offset of b[0] inside its encryption unit (a multiple of 16).
func (p *Reader) decrypt(b []byte, iv [ivSize]byte, unit int64) error {
	if p.Footer.EncryptionMethod == EncryptionAESCTR {
		var ctr [aesBlock]byte
		copy(ctr[:], iv[:])
		blk := uint64(unit / aesBlock)
		if blk > math.MaxUint32 {
			return fmt.Errorf("AES-CTR counter overflow at offset %d", unit)
		}
		ctr[12], ctr[13], ctr[14], ctr[15] = byte(blk>>24), byte(blk>>16), byte(blk>>8), byte(blk)
		p.block.XORKeyStreamCTR(ctr, b)
		return nil
	}
	if len(b)%aesBlock != 0 {
		return fmt.Errorf("encrypted length %d is not a multiple of %d", len(b), aesBlock)
	}
	return p.block.DecryptECB(b)
}

func (p *Reader) readIndex() error {
	f := &p.Footer
	var r *binread.Reader
	var idx []byte
	if !f.EncryptedIndex && f.IndexSize > streamIndexMin && f.Version >= VersionPathHashIndex {
		// Parsed as it is read, after its hash is checked the same way:
		// the primary index of a pak of hundreds of thousands of files
		// is tens of MiB, of which only the encoded entries are kept.
		// (An index of versions 1-9 is kept whole: it is the entries.)
		if err := p.checkBlob(f.IndexOffset, f.IndexSize, f.IndexHash, "index"); err != nil {
			return err
		}
		r = binread.New(io.NewSectionReader(p.r, f.IndexOffset, f.IndexSize), f.IndexSize)
	} else {
		var err error
		if idx, err = p.readBlob(f.IndexOffset, f.IndexSize, f.IndexHash, f.IndexIV, "index"); err != nil {
			return err
		}
		r = memReader(idx, f.IndexOffset, "index")
	}
	mount, err := p.readString(r, "Index.MountPoint")
	if err == nil && (len(mount) > maxMountPoint || !utf8.ValidString(mount)) {
		err = fmt.Errorf("implausible mount point of %d bytes", len(mount))
	}
	if err != nil {
		if f.EncryptedIndex {
			return &KeyError{KeyGuid: f.EncryptionKeyGuid, What: "the pak index", Err: ErrWrongKey, Detail: "the decrypted index does not start with a mount point: " + err.Error()}
		}
		return &FormatError{Offset: f.IndexOffset, What: "index", Err: rebase(err, f.IndexOffset)}
	}
	p.MountPoint, p.prefix = mount, mountPrefix(mount)
	if f.Version >= VersionPathHashIndex {
		err = p.readIndexV10(r)
	} else {
		err = p.readIndexLegacy(r, idx)
	}
	if err != nil {
		return err
	}
	return p.finish()
}

// readString reads an FString; from version 12 a positive length counts
// UTF-8 bytes (PakFile_Version_Utf8PakDirectory), before it Latin-1.
func (p *Reader) readString(r *binread.Reader, field string) (string, error) {
	start := r.Offset()
	n := r.I32(field)
	if err := r.Err(); err != nil {
		return "", err
	}
	switch {
	case n == 0:
		return "", nil
	case n > 0:
		if int64(n) > r.Remaining() {
			r.FailAt(start, field, fmt.Errorf("%w: string of %d bytes, %d left", binread.ErrCount, n, r.Remaining()))
			return "", r.Err()
		}
		b := r.Bytes(int64(n), field)
		if len(b) > 0 && b[len(b)-1] == 0 {
			b = b[:len(b)-1]
		}
		if binread.IsASCII(b) || p.Footer.Version >= VersionUtf8PakDirectory && utf8.Valid(b) {
			return string(b), nil
		}
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c)
		}
		return string(rs), nil
	default:
		if n == math.MinInt32 || -int64(n)*2 > r.Remaining() {
			r.FailAt(start, field, fmt.Errorf("%w: UTF-16 string of %d units, %d bytes left", binread.ErrCount, -int64(n), r.Remaining()))
			return "", r.Err()
		}
		b := r.Bytes(-int64(n)*2, field)
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		if len(u) > 0 && u[len(u)-1] == 0 {
			u = u[:len(u)-1]
		}
		return string(utf16.Decode(u)), nil
	}
}

// readIndexLegacy reads the index of versions 1–9: the mount point, a count
// and (path, FPakEntry) pairs.
func (p *Reader) readIndexLegacy(r *binread.Reader, index []byte) error {
	// Each record is at least a 1-char string (4+1) and the smallest entry.
	minRecord := 5 + entrySize(p.Footer.Version, p.Footer.SubVersion8A, false, 0)
	n := r.Count("Index.NumEntries", minRecord)
	p.records, p.recordAt = index, make([]uint32, 0, n) // (n records fill the index: Count checked)
	for i := range n {
		p.recordAt = append(p.recordAt, uint32(r.Offset())) // (the index is at most 1 GiB)
		name, err := p.readString(r, "Index.Filename")
		if err != nil {
			return &FormatError{Offset: p.Footer.IndexOffset, What: fmt.Sprintf("index record %d", i), Err: rebase(err, p.Footer.IndexOffset)}
		}
		e := p.readEntry(r) // (decoded again when asked for)
		p.addData(&e)
		if err := r.Err(); err != nil {
			return &FormatError{Offset: p.Footer.IndexOffset, What: fmt.Sprintf("index record %d (%q)", i, name), Err: rebase(err, p.Footer.IndexOffset)}
		}
	}
	if err := r.Err(); err != nil {
		return &FormatError{Offset: p.Footer.IndexOffset, What: "index", Err: rebase(err, p.Footer.IndexOffset)}
	}
	// Only the records are kept: bytes after the last are not held on to.
	if end := int(r.Offset()); end < len(index)-len(index)/8 {
		p.records = slices.Clone(index[:end])
	}
	return nil
}

// readIndexV10 reads the primary index of version 10+ and the directory
// indexes it points at.
func (p *Reader) readIndexV10(r *binread.Reader) error {
	f := &p.Footer
	fail := func(what string, err error) error {
		return &FormatError{Offset: f.IndexOffset, What: what, Err: rebase(err, f.IndexOffset)}
	}
	numEntries := r.I32("Index.NumEntries")
	p.PathHashSeed = r.U64("Index.PathHashSeed")
	type blobRef struct {
		has          bool
		offset, size int64
		hash         ue.SHAHash
	}
	readRef := func(what string) blobRef {
		var b blobRef
		b.has = r.U32("Index.bHas"+what) != 0
		if b.has {
			b.offset = r.I64("Index." + what + "Offset")
			b.size = r.I64("Index." + what + "Size")
			r.Fixed(b.hash[:], "Index."+what+"Hash")
		}
		return b
	}
	phi := readRef("PathHashIndex")
	fdi := readRef("FullDirectoryIndex")
	encSize := r.Count("Index.EncodedPakEntries", 1)
	encStart := f.IndexOffset + r.Offset()
	encoded := r.Bytes(int64(encSize), "Index.EncodedPakEntries")
	minEntry := entrySize(f.Version, f.SubVersion8A, false, 0)
	nFiles := r.Count("Index.NonEncodedEntries", minEntry)
	if err := r.Err(); err != nil {
		return fail("primary index", err)
	}
	if numEntries < 0 {
		return fail("primary index", fmt.Errorf("negative entry count %d", numEntries))
	}
	plain := make([]Entry, 0, binread.SliceCap(nFiles))
	for range nFiles {
		e := p.readEntry(r)
		if f.EncryptionMethod == EncryptionAESCTR && e.Encrypted() {
			var iv [ivSize]byte
			r.Fixed(iv[:], "FPakEntry.EncryptionIV")
			e.setRare(e.Timestamp(), iv)
		}
		plain = append(plain, e)
	}
	if err := r.Err(); err != nil {
		return fail("primary index non-encoded entries", err)
	}
	p.HasPathHashIndex, p.HasFullDirectoryIndex = phi.has, fdi.has
	if phi.has {
		p.PathHashIndexRange = [2]int64{phi.offset, phi.size}
	}
	if fdi.has {
		p.FullDirectoryIndexRange = [2]int64{fdi.offset, fdi.size}
	}
	p.encoded, p.encStart, p.plain = encoded, encStart, plain
	var invalid error // the first entry that does not hold (checkRef)

	// The path hash index, in its order; sorted by location when the
	// directory index names the files (each file's hash is then found by
	// a binary search: a map of hundreds of thousands took three times
	// the memory, on top of the list).
	var hashes []phiEntry
	if phi.has {
		b, err := p.readBlob(phi.offset, phi.size, phi.hash, f.PathHashIndexIV, "path hash index")
		if err != nil {
			return err
		}
		pr := memReader(b, phi.offset, "PathHashIndex")
		n := pr.Count("PathHashIndex.Num", 12)
		// Count checked n against the bytes read: the list takes at
		// most 4/3 of them.
		hashes = make([]phiEntry, 0, n)
		for range n {
			h := pr.U64("PathHashIndex.Hash")
			loc := pr.I32("PathHashIndex.Location")
			hashes = append(hashes, phiEntry{h, loc})
		}
		if err := pr.Err(); err != nil {
			return &FormatError{Offset: phi.offset, What: "path hash index", Err: rebase(err, phi.offset)}
		}
		p.PathHashIndexEntries = n
	}
	if fdi.has {
		b, err := p.readBlob(fdi.offset, fdi.size, fdi.hash, f.FullDirectoryIV, "full directory index")
		if err != nil {
			return err
		}
		// Stable: of two hashes for one location, the later is taken.
		slices.SortStableFunc(hashes, func(a, b phiEntry) int { return cmp.Compare(a.loc, b.loc) })
		// The index's entry count sizes the list, bounded by what the
		// bytes read can hold: a file of the directory index takes at
		// least 8. What the list and the names take is so at most a few
		// times the directory index: each file's path, which repeats its
		// folder's name, is put together only when its entry is asked for.
		p.refs = make([]fileRef, 0, min(int64(numEntries), int64(len(b))/8))
		p.names = make([]byte, 0, len(b)/2)
		// But then the paths are: a long folder name given to many files
		// would take those that list or look up the files memory and
		// time out of all proportion to the index (a 200 KB folder of
		// 2,000 files, 400 MB). What the paths take is bounded at 24
		// times the bytes read, plus 4 MiB (real paks take 2-3 times).
		budget := 24*(int64(len(b))+int64(len(encoded))) + 4<<20
		spent, dirLen, lastDir := int64(0), int64(0), -1
		add := func(name string, loc int32) error {
			if loc == math.MinInt32 {
				return nil // a removed file (FPakEntryLocation invalid)
			}
			if d := len(p.dirNames) - 1; d != lastDir {
				lastDir, dirLen = d, int64(len(p.prefix)+len(p.dirNames[d])+1) // (at most: see dirFile)
			}
			if spent += dirLen + int64(len(name)); spent > budget {
				return &FormatError{Offset: fdi.offset, What: "full directory index", Err: fmt.Errorf("its %d files' paths take over %d bytes, more than 24 times the index (a long folder name repeated for each file?)", len(p.refs)+1, budget)}
			}
			if err := p.checkLoc(loc); err != nil {
				return &FormatError{Offset: encStart, What: fmt.Sprintf("entry %q", p.dirFile(p.dirNames[len(p.dirNames)-1], name).path), Err: err}
			}
			if uint64(len(p.names))+uint64(len(name)) > math.MaxUint32 {
				return fmt.Errorf("file names of over 4 GiB")
			}
			p.names = append(p.names, name...)
			ref := fileRef{end: uint32(len(p.names)), dir: int32(len(p.dirNames) - 1), loc: loc}
			// The last of the hashes at loc, if any.
			if k, _ := slices.BinarySearchFunc(hashes, loc+1, func(h phiEntry, loc int32) int { return cmp.Compare(h.loc, loc) }); k > 0 && hashes[k-1].loc == loc {
				ref.pathHash, ref.hasPathHash = hashes[k-1].hash, true
			}
			p.refs = append(p.refs, ref)
			blocks, err := p.checkRef(len(p.refs)-1, &invalid)
			if err != nil {
				return &FormatError{Offset: encStart, What: fmt.Sprintf("entry %q", p.Entry(len(p.refs)-1).Path), Err: err}
			}
			if spent += 16 * int64(blocks); spent > budget {
				return &FormatError{Offset: fdi.offset, What: "full directory index", Err: fmt.Errorf("its %d files' paths and compression blocks take over %d bytes, more than 24 times the index (many files sharing an entry of many blocks?)", len(p.refs), budget)}
			}
			return nil
		}
		if f.Version >= VersionSortedDirectoryIndex && len(b) >= 4 && uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24 == flatIndexMagic {
			p.FlatDirectoryIndex = true
			err = p.readFlatDirectoryIndex(memReader(b, fdi.offset, "FlatDirectoryIndex"), add)
		} else {
			err = p.readDirectoryIndex(memReader(b, fdi.offset, "FullDirectoryIndex"), add)
		}
		if fe, ok := err.(*FormatError); ok {
			return fe // an entry the directory index names
		}
		if err != nil {
			return &FormatError{Offset: fdi.offset, What: "full directory index", Err: rebase(err, fdi.offset)}
		}
		if cap(p.names)-len(p.names) > len(p.names)/4 {
			p.names = slices.Clone(p.names) // (no room to spare kept)
		}
		return invalid
	}
	if phi.has {
		// No directory index: the files are known only by their path hashes.
		// What their entries' blocks take is bounded as above.
		p.refs = make([]fileRef, 0, len(hashes))
		budget, spent := 24*(phi.size+int64(len(encoded)))+4<<20, int64(0)
		for _, h := range hashes {
			if h.loc == math.MinInt32 {
				continue
			}
			if err := p.checkLoc(h.loc); err != nil {
				return &FormatError{Offset: phi.offset, What: fmt.Sprintf("path hash %016x", h.hash), Err: err}
			}
			p.refs = append(p.refs, fileRef{pathHash: h.hash, hasPathHash: true, dir: -1, loc: h.loc})
			blocks, err := p.checkRef(len(p.refs)-1, &invalid)
			if err != nil {
				return &FormatError{Offset: phi.offset, What: fmt.Sprintf("path hash %016x", h.hash), Err: err}
			}
			if spent += 12 + 16*int64(blocks); spent > budget {
				return &FormatError{Offset: phi.offset, What: "path hash index", Err: fmt.Errorf("its %d entries' compression blocks take over %d bytes, more than 24 times the index (many files sharing an entry of many blocks?)", len(p.refs), budget)}
			}
		}
		return invalid
	}
	return fail("primary index", fmt.Errorf("neither a path hash index nor a full directory index"))
}

// fileRef is an entry of a version 10+ index as the index stores it: its
// location (FPakEntryLocation: the offset of its encoded entry, or minus
// one minus the index of its non-encoded one), its directory and its name
// (the bytes of Reader.names up to end, from the previous ref's end), and
// its path hash.
type fileRef struct {
	pathHash    uint64
	end         uint32
	dir         int32 // index into Reader.dirNames; -1: no path (only a path hash)
	loc         int32
	hasPathHash bool
}

// checkRef decodes entry i of a version 10+ index as it is read, and
// returns the error it cannot be decoded with. An entry that does not hold
// (validate) is noted in invalid, when it is nil: it is reported after the
// index is read and every entry decoded, as a damaged entry comes first.
// The entry is decoded without its path, which can be long (each file's
// path repeats its folder's name): it is put together for an error only.
//
// It returns the entry's compression block count too: what decoding it
// takes (each block 16 bytes) is charged to the index's memory budget, as
// many files can share one entry of many blocks.
func (p *Reader) checkRef(i int, invalid *error) (blocks int, err error) {
	e, err := p.decodeRef(i, false)
	if err != nil {
		return 0, err
	}
	if *invalid == nil {
		if err := p.validate(&e); err != nil {
			if fe, ok := err.(*FormatError); ok {
				if ref := &p.refs[i]; ref.dir < 0 {
					fe.What = fmt.Sprintf("path hash %016x", ref.pathHash)
				} else {
					fe.What = fmt.Sprintf("entry %q", p.Entry(i).Path)
				}
			}
			*invalid = err
		}
	}
	p.anyEncrypted = p.anyEncrypted || e.Encrypted()
	p.addData(&e)
	return len(e.Blocks), nil
}

// addData counts the bytes of data e points at in DataSize, as Verify
// reads them (storedRanges): its blocks when it has some, else its stored
// size; each range at most the pak's size (a crafted entry may claim any).
func (p *Reader) addData(e *Entry) {
	add := func(n int64) { p.dataSize = min(p.dataSize+min(max(n, 0), p.size), math.MaxInt64/2) }
	if len(e.Blocks) == 0 {
		add(e.CompressedSize)
		return
	}
	for _, b := range e.Blocks {
		add(b.End - b.Start)
	}
}

// checkLoc checks that an entry location of the index points at an entry.
func (p *Reader) checkLoc(loc int32) error {
	if loc >= 0 {
		if int64(loc) >= int64(len(p.encoded)) {
			return fmt.Errorf("encoded entry offset %d outside the %d-byte table", loc, len(p.encoded))
		}
		return nil
	}
	if i := -int64(loc) - 1; i >= int64(len(p.plain)) {
		return fmt.Errorf("non-encoded entry %d of %d", i, len(p.plain))
	}
	return nil
}

// Len returns the number of entries of the index, delete records and
// entries whose path is not a valid fs path included.
func (p *Reader) Len() int {
	if p.refs != nil {
		return len(p.refs)
	}
	return len(p.recordAt)
}

// recordName returns the Entry.Name of record i of a version 1-9 index
// (its entry not decoded).
func (p *Reader) recordName(i int) string {
	r := binread.FromBytes(p.records)
	r.SeekTo(int64(p.recordAt[i]), "Index.Filename")
	path, _ := p.readString(r, "Index.Filename")
	_, name := p.pathName(path)
	return name
}

// decodeRecord decodes record i of a version 1-9 index, with its path
// when withPath is set.
func (p *Reader) decodeRecord(i int, withPath bool) Entry {
	r := binread.FromBytes(p.records)
	r.SeekTo(int64(p.recordAt[i]), "Index.Filename")
	name, _ := p.readString(r, "Index.Filename")
	e := p.readEntry(r)
	if withPath {
		e.Path, e.Name = p.pathName(name)
	}
	e.p, e.idx = p, int32(i+1) // (i < n, which is an int32)
	return e
}

// Entry returns entry i of the index (0 <= i < Len()), in index order. It
// is decoded from the index at each call, into an Entry of its own: keep
// the Entry for as long as it is used rather than asking again (it
// remembers what was read of it, as its hash).
func (p *Reader) Entry(i int) *Entry {
	e := new(Entry)
	if p.refs == nil {
		*e = p.decodeRecord(i, true)
	} else {
		*e, _ = p.decodeRef(i, true)
	}
	return e
}

// All yields the entries in index order, as Entry gives them.
func (p *Reader) All() iter.Seq2[int, *Entry] {
	return func(yield func(int, *Entry) bool) {
		for i := range p.Len() {
			if !yield(i, p.Entry(i)) {
				return
			}
		}
	}
}

// decodeRef decodes entry i of a version 10+ index, with its path when
// withPath is set.
func (p *Reader) decodeRef(i int, withPath bool) (Entry, error) {
	ref := &p.refs[i]
	var e Entry
	var err error
	if ref.loc >= 0 {
		r := binread.FromBytes(p.encoded)
		e = p.decodeEntry(r, ref.loc)
		if rerr := r.Err(); rerr != nil {
			err = rebase(rerr, p.encStart)
		}
	} else {
		e = p.plain[-int64(ref.loc)-1]
		if e.Blocks != nil {
			e.Blocks = slices.Clone(e.Blocks) // each Entry its own
		}
	}
	if ref.dir >= 0 && withPath {
		df := p.dirFile(p.dirNames[ref.dir], p.nameOf(i))
		e.Path, e.Name = df.path, df.name
	}
	e.PathHash, e.hasPathHash = ref.pathHash, ref.hasPathHash
	e.p, e.idx = p, int32(i+1)
	return e, err
}

// nameOf returns the file name of refs[i] (its directory left out).
func (p *Reader) nameOf(i int) string {
	start := uint32(0)
	if i > 0 {
		start = p.refs[i-1].end
	}
	b := p.names[start:p.refs[i].end]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b)) // p.names does not change once read
}

// phiEntry is one path hash of the path hash index and the location of its
// entry.
type phiEntry struct {
	hash uint64
	loc  int32
}

// dirFile is one file of the full directory index: its index path and its
// Entry.Name, which mostly share their bytes (see pathName).
type dirFile struct {
	path, name string
}

// readDirectoryIndex reads FDirectoryIndex: TMap<FString directory,
// TMap<FString file, FPakEntryLocation>>, giving add each file in order
// (an error of add's ends the read with it).
func (p *Reader) readDirectoryIndex(r *binread.Reader, add func(name string, loc int32) error) error {
	nDirs := r.Count("DirectoryIndex.Num", 8)
	for range nDirs {
		dir, err := p.readString(r, "DirectoryIndex.Directory")
		if err != nil {
			return err
		}
		n := r.Count("DirectoryIndex.Files", 8)
		if n > 0 {
			p.dirNames = append(p.dirNames, dir) // (only those with files are kept)
		}
		for range n {
			name, err := p.readString(r, "DirectoryIndex.Filename")
			if err != nil {
				return err
			}
			loc := r.I32("DirectoryIndex.Location")
			if err := r.Err(); err != nil {
				return err
			}
			if err := add(name, loc); err != nil {
				return err
			}
		}
	}
	return r.Err()
}

// readFlatDirectoryIndex reads FPakFlatDirectoryIndex (version 13+): sorted
// path hashes, front-coded directory names and a flat file-name blob. It
// gives add each file in order, as readDirectoryIndex does.
func (p *Reader) readFlatDirectoryIndex(r *binread.Reader, add func(name string, loc int32) error) error {
	r.U32("FlatDirectoryIndex.Magic")
	numDirs := int64(r.I32("FlatDirectoryIndex.NumDirs"))
	numFiles := int64(r.I32("FlatDirectoryIndex.NumFiles"))
	restart := int64(r.I32("FlatDirectoryIndex.RestartInterval"))
	dirBlob := int64(r.I32("FlatDirectoryIndex.DirBlobBytes"))
	fileBlob := int64(r.I32("FlatDirectoryIndex.FileBlobBytes"))
	numHashes := int64(r.I32("FlatDirectoryIndex.NumPathHashes"))
	r.Skip(4, "FlatDirectoryIndex.Pad")
	if err := r.Err(); err != nil {
		return err
	}
	if numDirs < 0 || numFiles < 0 || restart <= 0 || dirBlob < 0 || fileBlob < 0 || numHashes < 0 {
		return fmt.Errorf("negative count in flat directory index header")
	}
	anchors := (numDirs + restart - 1) / restart
	need := numHashes*12 + (anchors+1)*4 + (numDirs+1)*4 + (numFiles+1)*4 + numFiles*4 + dirBlob + fileBlob
	if need > r.Remaining() {
		return fmt.Errorf("%w: flat directory index needs %d bytes, %d left", binread.ErrCount, need, r.Remaining())
	}
	r.Skip(numHashes*12+(anchors+1)*4, "FlatDirectoryIndex.Hashes")
	ints := func(n int64, field string) []int32 {
		out := make([]int32, n)
		for i := range out {
			out[i] = r.I32(field)
		}
		return out
	}
	dirStart := ints(numDirs+1, "FlatDirectoryIndex.DirFileStart")
	nameOff := ints(numFiles+1, "FlatDirectoryIndex.FileNameOffsets")
	locs := ints(numFiles, "FlatDirectoryIndex.FileLocations")
	dirs := r.Bytes(dirBlob, "FlatDirectoryIndex.DirBlob")
	names := r.Bytes(fileBlob, "FlatDirectoryIndex.FileBlob")
	if err := r.Err(); err != nil {
		return err
	}
	var prev []byte
	pos := int64(0)
	// Front coding lets each name share all of the one before: names
	// growing by a byte each take memory quadratic in the blob's size.
	// What they take is bounded at 8 times the index, plus 4 MiB.
	// Only the names of directories with files are kept.
	budget, spent := 8*r.Size()+4<<20, int64(0)
	for d := range numDirs {
		if pos+8 > int64(len(dirs)) {
			return fmt.Errorf("directory %d: name blob truncated", d)
		}
		shared := int64(int32(le32(dirs[pos:])))
		suffix := int64(int32(le32(dirs[pos+4:])))
		pos += 8
		if shared < 0 || suffix < 0 || shared > int64(len(prev)) || suffix > int64(len(dirs))-pos {
			return fmt.Errorf("directory %d: bad front coding (shared %d, suffix %d)", d, shared, suffix)
		}
		prev = append(prev[:shared], dirs[pos:pos+suffix]...)
		pos += suffix
		lo, hi := int64(dirStart[d]), int64(dirStart[d+1])
		if lo < 0 || hi < lo || hi > numFiles {
			return fmt.Errorf("directory %d: file range [%d, %d) outside %d files", d, lo, hi, numFiles)
		}
		if lo == hi {
			continue
		}
		if spent += int64(len(prev)); spent > budget {
			return fmt.Errorf("directory %d: the directory names take over %d bytes, more than 8 times the index (names sharing ever longer ones?)", d, budget)
		}
		p.dirNames = append(p.dirNames, string(prev))
		for i := lo; i < hi; i++ {
			a, b := int64(nameOff[i]), int64(nameOff[i+1])
			if a < 0 || b < a || b > int64(len(names)) {
				return fmt.Errorf("file %d: name range [%d, %d) outside the %d-byte blob", i, a, b, len(names))
			}
			if err := add(string(names[a:b]), locs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// dirFile is the file name in directory dir ("/", "/Content/Maps/") of
// the directory index, at loc: its index path is the directory without its
// leading "/" and the name, and its Name that with the mount point applied,
// the path being the end of the name (one string for both).
func (p *Reader) dirFile(dir, name string) dirFile {
	if len(dir) > 0 && dir[0] == '/' {
		dir = dir[1:]
	}
	sep := ""
	if dir != "" && dir[len(dir)-1] != '/' {
		sep = "/"
	}
	if dir != "" && dir[0] == '/' || dir == "" && (name == "" || name[0] == '/') {
		// The Name drops the path's leading "/" (a directory "//x/"
		// or a name "/a" in the root): the path is not its end.
		path, full := p.pathName(dir + sep + name)
		return dirFile{path: path, name: full}
	}
	full := p.prefix + dir + sep + name
	return dirFile{path: full[len(p.prefix):], name: full}
}

// pathName returns an index path and the Entry.Name it gives: the path
// without a leading "/", after the mount point's prefix (mountPrefix). The
// path is the end of the name when it has no leading "/": a pak holds
// hundreds of thousands of them.
func (p *Reader) pathName(path string) (string, string) {
	rel := strings.TrimPrefix(path, "/")
	if p.prefix == "" || path == "" {
		return path, rel
	}
	name := p.prefix + rel
	if len(rel) == len(path) {
		return name[len(p.prefix):], name
	}
	return path, name
}

// finish validates the entries of a version 1-9 index, decoding each once
// (the name lookup is made at first use: lookupIndex).
func (p *Reader) finish() error {
	if p.refs != nil {
		return nil // (checkRef checked them)
	}
	for i := range p.Len() {
		// Decoded without its path, put together for an error only.
		e := p.decodeRecord(i, false)
		if err := p.validate(&e); err != nil {
			if fe, ok := err.(*FormatError); ok {
				fe.What = fmt.Sprintf("entry %q", p.Entry(i).Path)
			}
			return err
		}
		p.anyEncrypted = p.anyEncrypted || e.Encrypted()
	}
	return nil
}

// lookupIndex returns the hash table of the readable entries' fs names,
// made at the first call: a pak of hundreds of thousands of files listed
// or verified without a lookup never needs it. Each slot is the top 32
// bits of a name's hash and one plus its entry's index (0: empty); the
// table is at most half full, and takes 16 bytes an entry, where a map of
// the names took over 100.
func (p *Reader) lookupIndex() []uint64 {
	p.namesOnce.Do(func() {
		n := p.Len() // (delete records and invalid names included: a pass less)
		size := 8
		for size < 2*n {
			size *= 2
		}
		table := make([]uint64, size)
		mask := uint64(size - 1)
		var dirs dirHasher
	entries:
		for i := range p.Len() {
			h, ok := dirs.hash(p, i)
			if !ok {
				continue
			}
			h = slots.Hash(h) // (names are chosen by whoever wrote the pak: see slots)
			for k := h & mask; ; k = (k + 1) & mask {
				s := table[k]
				if s == 0 {
					table[k] = h>>32<<32 | uint64(i+1)
					continue entries
				}
				if s>>32 == h>>32 {
					name, _ := p.fsNameOf(i)
					if other, _ := p.fsNameOf(int(uint32(s)) - 1); other == name {
						table[k] = h>>32<<32 | uint64(i+1) // of entries of the same name the last wins
						continue entries
					}
				}
			}
		}
		p.byName = table
	})
	return p.byName
}

// fsNameOf returns the fs name of entry i, and false for a delete record or
// an entry whose path is no valid fs path. A version 10+ entry is not
// decoded for it.
func (p *Reader) fsNameOf(i int) (string, bool) {
	if p.deleted(i) {
		return "", false
	}
	var name string
	if p.refs == nil {
		name = p.recordName(i)
	} else {
		ref := &p.refs[i]
		if ref.dir < 0 {
			return "", false
		}
		name = p.dirFile(p.dirNames[ref.dir], p.nameOf(i)).name
	}
	n := fsName(name)
	return n, n != ""
}

// nameHash is FNV-1a, 64 bits.
func nameHash(s string) uint64 { return fnvMore(14695981039346656037, s) }

// fnvMore goes on with FNV-1a hash h over s.
func fnvMore(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// dirHasher hashes the fs names of entries (nameHash of fsNameOf) without
// putting them together: the files of a directory of a version 10+ index
// follow one another, and each plain file name is hashed on from its
// directory's part of the name, hashed and checked once.
type dirHasher struct {
	dir   int32  // the directory of the state below; 0: none yet
	fast  bool   // its files' names are its part and theirs
	ok    bool   // its part is the start of valid fs names
	state uint64 // nameHash of its part
}

// hash returns the nameHash of entry i's fs name, and false when it has
// none (fsNameOf).
func (d *dirHasher) hash(p *Reader, i int) (uint64, bool) {
	if p.refs == nil || p.deleted(i) || p.refs[i].dir < 0 {
		name, ok := p.fsNameOf(i)
		return nameHash(name), ok
	}
	name := p.nameOf(i)
	if !plainFileName(name) {
		name, ok := p.fsNameOf(i)
		return nameHash(name), ok
	}
	if dir := p.refs[i].dir; d.dir != dir+1 {
		// dirFile's common case: the name is prefix + dir + sep + name.
		d.dir = dir + 1
		dn := strings.TrimPrefix(p.dirNames[dir], "/")
		d.fast = dn == "" || dn[0] != '/'
		sep := ""
		if dn != "" && dn[len(dn)-1] != '/' {
			sep = "/"
		}
		part := p.prefix + dn + sep
		d.ok = part == "" || fsName(part[:len(part)-1]) != ""
		d.state = nameHash(part)
	}
	if !d.fast {
		name, ok := p.fsNameOf(i)
		return nameHash(name), ok
	}
	return fnvMore(d.state, name), d.ok
}

// plainFileName reports whether name is one element of an fs name: not
// empty, "." or "..", without a slash, a backslash, a colon or NUL.
func plainFileName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\:\x00")
}

// lookupFS finds the readable entry of fs name name; of entries of the
// same name the last wins.
func (p *Reader) lookupFS(name string) (*Entry, bool) {
	if i, ok := p.findFS(name); ok {
		return p.Entry(i), true
	}
	return nil, false
}

// findFS is lookupFS giving the entry's index.
func (p *Reader) findFS(name string) (int, bool) {
	table := p.lookupIndex()
	mask := uint64(len(table) - 1)
	h := slots.Hash(nameHash(name))
	for k := h & mask; table[k] != 0; k = (k + 1) & mask {
		if s := table[k]; s>>32 == h>>32 {
			i := int(uint32(s)) - 1
			if other, _ := p.fsNameOf(i); other == name {
				return i, true
			}
		}
	}
	return 0, false
}

// Lookup finds an entry by name: its fs name ("Game/Content/X.uasset"),
// its index path ("Content/X.uasset"), or the path with the mount point
// as stored ("../../../Game/Content/X.uasset"). A leading "/" is ignored.
// Unreal paths are case-insensitive: when no name matches exactly, a
// case-insensitive match is returned.
func (p *Reader) Lookup(name string) (*Entry, bool) {
	if i, ok := p.Find(name); ok {
		return p.Entry(i), true
	}
	return nil, false
}

// Find is [Reader.Lookup] giving the entry's index (for [Reader.Entry]).
func (p *Reader) Find(name string) (int, bool) {
	t := trimSlash(name)
	if i, ok := p.findFS(t); ok {
		return i, true
	}
	fold := -1
	rest, mounted := strings.CutPrefix(name, p.MountPoint)
	for i, e := range p.All() {
		if e.Deleted() || e.Path == "" {
			continue
		}
		if e.Path == t || mounted && e.Path == rest {
			return i, true
		}
		if fold < 0 && (strings.EqualFold(e.Name, t) || strings.EqualFold(e.Path, t) || strings.EqualFold(p.MountPoint+e.Path, name)) {
			fold = i
		}
	}
	if fold < 0 {
		fold = p.findPathHash(t)
	}
	return max(fold, 0), fold >= 0
}

// findPathHash finds, in a pak whose entries are known only by their
// path hashes (no full directory index, as shipped games often strip it),
// the entry of name: its fs name ("Game/Content/X.uasset") or its path
// from the mount point ("Content/X.uasset"), hashed as the engine does
// (PathHash, version 11+). It returns the entry's index, or -1 when none
// matches.
func (p *Reader) findPathHash(name string) int {
	if p.Footer.Version < VersionFnv64BugFix || name == "" || p.refs == nil {
		return -1
	}
	rel := name
	if n := len(p.prefix); len(name) > n && strings.EqualFold(name[:n], p.prefix) {
		rel = name[n:] // (paths are hashed lowercased)
	}
	var want []uint64
	for _, rel := range []string{name, rel} {
		if h := PathHash(rel, p.PathHashSeed); !slices.Contains(want, h) {
			want = append(want, h)
		}
	}
	for i := range p.refs {
		ref := &p.refs[i]
		if ref.hasPathHash && slices.Contains(want, ref.pathHash) && !p.deleted(i) && (ref.dir < 0 || p.Entry(i).Path == "") {
			return i
		}
	}
	return -1
}

// deleted reports whether entry i is a delete record, without decoding
// an encoded entry (which never is one).
func (p *Reader) deleted(i int) bool {
	if p.refs == nil {
		e := p.decodeRecord(i, false)
		return e.Deleted()
	}
	loc := p.refs[i].loc
	return loc < 0 && p.plain[-int64(loc)-1].Deleted()
}

// LookupName finds an entry by its fs name exactly ("Game/Content/X.uexp"),
// in constant time (a hash table's): for a package's companion files, which most
// packages lack (Lookup goes on to try every entry). A name that is no
// valid fs path is looked up as Lookup does.
func (p *Reader) LookupName(name string) (*Entry, bool) {
	if !fs.ValidPath(name) {
		return p.Lookup(name)
	}
	return p.lookupFS(name)
}

func trimSlash(s string) string {
	for len(s) > 0 && s[0] == '/' {
		s = s[1:]
	}
	return s
}

// Names returns the fs names of all readable files, sorted (a name two
// entries have, once).
func (p *Reader) Names() []string {
	out := []string{}
	for _, s := range p.lookupIndex() {
		if s != 0 {
			n, _ := p.fsNameOf(int(uint32(s)) - 1)
			out = append(out, n)
		}
	}
	sort.StringSlice(out).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	return out
}
