package pak

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
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
	// Entries lists every file record of the index, in index order,
	// including delete records and entries whose path is not a valid fs path.
	Entries []*Entry

	// Version 10+ index fields.
	PathHashSeed          uint64
	HasPathHashIndex      bool
	HasFullDirectoryIndex bool
	FlatDirectoryIndex    bool // the full directory index is FPakFlatDirectoryIndex (v13+)
	PathHashIndexEntries  int
	// Where the v10+ secondary indexes are stored (offset, size); zero when
	// absent.
	PathHashIndexRange, FullDirectoryIndexRange [2]int64

	r         io.ReaderAt
	size      int64
	closer    io.Closer
	block     *aeskey.Cipher
	prefix    string            // mountPrefix(MountPoint)
	byName    map[string]*Entry // see names
	namesOnce sync.Once
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

// Encrypted reports whether the index or any entry is encrypted.
func (p *Reader) Encrypted() bool {
	if p.Footer.EncryptedIndex {
		return true
	}
	for _, e := range p.Entries {
		if e.Encrypted() {
			return true
		}
	}
	return false
}

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

// streamIndexMin is the size above which an unencrypted index is parsed
// as it is read rather than read into memory first.
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
	if !f.EncryptedIndex && f.IndexSize > streamIndexMin {
		// Parsed as it is read, after its hash is checked the same way:
		// the index of a pak of hundreds of thousands of files is tens
		// of MiB, on top of the entries made from it.
		if err := p.checkBlob(f.IndexOffset, f.IndexSize, f.IndexHash, "index"); err != nil {
			return err
		}
		r = binread.New(io.NewSectionReader(p.r, f.IndexOffset, f.IndexSize), f.IndexSize)
	} else {
		idx, err := p.readBlob(f.IndexOffset, f.IndexSize, f.IndexHash, f.IndexIV, "index")
		if err != nil {
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
		err = p.readIndexLegacy(r)
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
func (p *Reader) readIndexLegacy(r *binread.Reader) error {
	// Each record is at least a 1-char string (4+1) and the smallest entry.
	minRecord := 5 + entrySize(p.Footer.Version, p.Footer.SubVersion8A, false, 0)
	n := r.Count("Index.NumEntries", minRecord)
	p.Entries = make([]*Entry, 0, binread.SliceCap(n))
	backing := make([]Entry, 0, binread.SliceCap(n))
	for i := range n {
		name, err := p.readString(r, "Index.Filename")
		if err != nil {
			return &FormatError{Offset: p.Footer.IndexOffset, What: fmt.Sprintf("index record %d", i), Err: rebase(err, p.Footer.IndexOffset)}
		}
		e := p.readEntry(r)
		if err := r.Err(); err != nil {
			return &FormatError{Offset: p.Footer.IndexOffset, What: fmt.Sprintf("index record %d (%q)", i, name), Err: rebase(err, p.Footer.IndexOffset)}
		}
		e.Path, e.Name = p.pathName(name)
		if len(backing) == cap(backing) {
			backing = make([]Entry, 0, 1024)
		}
		backing = append(backing, e)
		p.Entries = append(p.Entries, &backing[len(backing)-1])
	}
	if err := r.Err(); err != nil {
		return &FormatError{Offset: p.Footer.IndexOffset, What: "index", Err: rebase(err, p.Footer.IndexOffset)}
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
	encR := memReader(encoded, encStart, "EncodedPakEntries")

	// Entries are allocated in one backing array (one allocation instead of
	// one per entry); it is sized before the first entryAt call.
	var backing []Entry
	entryAt := func(loc int32, path, name string) (*Entry, error) {
		var e Entry
		switch {
		case loc >= 0:
			if int64(loc) >= int64(len(encoded)) {
				return nil, fmt.Errorf("encoded entry offset %d outside the %d-byte table", loc, len(encoded))
			}
			e = p.decodeEntry(encR, loc)
			if err := encR.Err(); err != nil {
				encR.ClearErr()
				return nil, rebase(err, encStart)
			}
		default:
			i := -int64(loc) - 1
			if i >= int64(len(plain)) {
				return nil, fmt.Errorf("non-encoded entry %d of %d", i, len(plain))
			}
			e = plain[i]
		}
		e.Path, e.Name = path, name
		if len(backing) == cap(backing) {
			backing = make([]Entry, 0, 1024)
		}
		backing = append(backing, e)
		return &backing[len(backing)-1], nil
	}

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
		// The entries are made as the directory index is read (no list
		// of its files in between); the index's entry count sizes them,
		// bounded by what the bytes read can hold: a file of the
		// directory index takes at least 8, an encoded entry at least 12.
		hint := min(int64(numEntries), int64(len(b))/8, int64(len(encoded))/12+int64(len(plain)))
		p.Entries = make([]*Entry, 0, hint)
		backing = make([]Entry, 0, hint)
		// Each file's path repeats its folder's name, which the index
		// stores once: a long name given to many files would take
		// memory out of all proportion to the index (a 200 KB folder
		// of 2,000 files, 400 MB). What the paths and entries take is
		// bounded at 24 times the bytes read, plus 4 MiB (real paks take
		// 5-6 times, a synthetic one of paths 40 folders deep 16).
		budget := 24*(int64(len(b))+int64(len(encoded))) + int64(len(plain))*entryMemory + 4<<20
		spent := int64(0)
		add := func(df dirFile) error {
			if spent += int64(len(df.name)) + entryMemory; spent > budget {
				return &FormatError{Offset: fdi.offset, What: "full directory index", Err: fmt.Errorf("its %d files' paths take over %d bytes of memory, more than 24 times the index (a long folder name repeated for each file?)", len(p.Entries)+1, budget)}
			}
			if df.loc == math.MinInt32 {
				return nil // a removed file (FPakEntryLocation invalid)
			}
			e, err := entryAt(df.loc, df.path, df.name)
			if err != nil {
				return &FormatError{Offset: encStart, What: fmt.Sprintf("entry %q", df.path), Err: err}
			}
			// The last of the hashes at df.loc, if any.
			if k, _ := slices.BinarySearchFunc(hashes, df.loc+1, func(h phiEntry, loc int32) int { return cmp.Compare(h.loc, loc) }); k > 0 && hashes[k-1].loc == df.loc {
				e.PathHash, e.hasPathHash = hashes[k-1].hash, true
			}
			p.Entries = append(p.Entries, e)
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
		return nil
	}
	if phi.has {
		// No directory index: the files are known only by their path hashes.
		p.Entries = make([]*Entry, 0, len(hashes))
		backing = make([]Entry, 0, len(hashes))
		for _, h := range hashes {
			if h.loc == math.MinInt32 {
				continue
			}
			e, err := entryAt(h.loc, "", "")
			if err != nil {
				return &FormatError{Offset: phi.offset, What: fmt.Sprintf("path hash %016x", h.hash), Err: err}
			}
			e.PathHash, e.hasPathHash = h.hash, true
			p.Entries = append(p.Entries, e)
		}
		return nil
	}
	return fail("primary index", fmt.Errorf("neither a path hash index nor a full directory index"))
}

// entryMemory is what an entry takes in memory besides its path: the Entry
// and the pointer to it.
const entryMemory = int64(unsafe.Sizeof(Entry{})) + 8

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
	loc        int32
}

// readDirectoryIndex reads FDirectoryIndex: TMap<FString directory,
// TMap<FString file, FPakEntryLocation>>, giving add each file in order
// (an error of add's ends the read with it).
func (p *Reader) readDirectoryIndex(r *binread.Reader, add func(dirFile) error) error {
	nDirs := r.Count("DirectoryIndex.Num", 8)
	for range nDirs {
		dir, err := p.readString(r, "DirectoryIndex.Directory")
		if err != nil {
			return err
		}
		n := r.Count("DirectoryIndex.Files", 8)
		for range n {
			name, err := p.readString(r, "DirectoryIndex.Filename")
			if err != nil {
				return err
			}
			loc := r.I32("DirectoryIndex.Location")
			if err := r.Err(); err != nil {
				return err
			}
			if err := add(p.dirFile(dir, name, loc)); err != nil {
				return err
			}
		}
	}
	return r.Err()
}

// readFlatDirectoryIndex reads FPakFlatDirectoryIndex (version 13+): sorted
// path hashes, front-coded directory names and a flat file-name blob. It
// gives add each file in order, as readDirectoryIndex does.
func (p *Reader) readFlatDirectoryIndex(r *binread.Reader, add func(dirFile) error) error {
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
		name := append(prev[:shared:shared], dirs[pos:pos+suffix]...)
		pos += suffix
		prev = name
		lo, hi := int64(dirStart[d]), int64(dirStart[d+1])
		if lo < 0 || hi < lo || hi > numFiles {
			return fmt.Errorf("directory %d: file range [%d, %d) outside %d files", d, lo, hi, numFiles)
		}
		for i := lo; i < hi; i++ {
			a, b := int64(nameOff[i]), int64(nameOff[i+1])
			if a < 0 || b < a || b > int64(len(names)) {
				return fmt.Errorf("file %d: name range [%d, %d) outside the %d-byte blob", i, a, b, len(names))
			}
			if err := add(p.dirFile(string(name), string(names[a:b]), locs[i])); err != nil {
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
func (p *Reader) dirFile(dir, name string, loc int32) dirFile {
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
		return dirFile{path: path, name: full, loc: loc}
	}
	full := p.prefix + dir + sep + name
	return dirFile{path: full[len(p.prefix):], name: full, loc: loc}
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

// finish validates the entries (the name lookup is made at first use:
// names).
func (p *Reader) finish() error {
	for _, e := range p.Entries {
		e.p = p
		if err := p.validate(e); err != nil {
			return err
		}
	}
	return nil
}

// names returns the readable entries by fs name, made at the first call:
// a pak of hundreds of thousands of files listed or verified never needs
// the map. Of entries of the same name the last wins.
func (p *Reader) names() map[string]*Entry {
	p.namesOnce.Do(func() {
		p.byName = make(map[string]*Entry, len(p.Entries))
		for _, e := range p.Entries {
			if e.Deleted() {
				continue
			}
			if n := fsName(e.Name); n != "" {
				p.byName[n] = e
			}
		}
	})
	return p.byName
}

// Lookup finds an entry by name: its fs name ("Game/Content/X.uasset"),
// its index path ("Content/X.uasset"), or the path with the mount point
// as stored ("../../../Game/Content/X.uasset"). A leading "/" is ignored.
// Unreal paths are case-insensitive: when no name matches exactly, a
// case-insensitive match is returned.
func (p *Reader) Lookup(name string) (*Entry, bool) {
	if e, ok := p.names()[trimSlash(name)]; ok {
		return e, true
	}
	var fold *Entry
	t := trimSlash(name)
	rest, mounted := strings.CutPrefix(name, p.MountPoint)
	for _, e := range p.Entries {
		if e.Deleted() || e.Path == "" {
			continue
		}
		if e.Path == t || mounted && e.Path == rest {
			return e, true
		}
		if fold == nil && (strings.EqualFold(e.Name, t) || strings.EqualFold(e.Path, t) || strings.EqualFold(p.MountPoint+e.Path, name)) {
			fold = e
		}
	}
	if fold == nil {
		fold = p.lookupPathHash(t)
	}
	return fold, fold != nil
}

// lookupPathHash finds, in a pak whose entries are known only by their
// path hashes (no full directory index, as shipped games often strip it),
// the entry of name: its fs name ("Game/Content/X.uasset") or its path
// from the mount point ("Content/X.uasset"), hashed as the engine does
// (PathHash, version 11+). It is nil when none matches.
func (p *Reader) lookupPathHash(name string) *Entry {
	if p.Footer.Version < VersionFnv64BugFix || name == "" {
		return nil
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
	for _, e := range p.Entries {
		if e.hasPathHash && e.Path == "" && !e.Deleted() && slices.Contains(want, e.PathHash) {
			return e
		}
	}
	return nil
}

// LookupName finds an entry by its fs name exactly ("Game/Content/X.uexp"),
// in constant time: for a package's companion files, which most packages
// lack (Lookup goes on to try every entry). A name that is no valid fs
// path is looked up as Lookup does.
func (p *Reader) LookupName(name string) (*Entry, bool) {
	if !fs.ValidPath(name) {
		return p.Lookup(name)
	}
	e, ok := p.names()[name]
	return e, ok
}

func trimSlash(s string) string {
	for len(s) > 0 && s[0] == '/' {
		s = s[1:]
	}
	return s
}

// Names returns the fs names of all readable files, sorted.
func (p *Reader) Names() []string {
	out := make([]string, 0, len(p.names()))
	for n := range p.names() {
		out = append(out, n)
	}
	sort.StringSlice(out).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	return out
}
