package iostore

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/binread"
)

// invalidHandle marks "no entry" in directory index links (~0u).
const invalidHandle = ^uint32(0)

// DirectoryEntry is FIoDirectoryIndexEntry.
type DirectoryEntry struct {
	Name             uint32 // string table index, or ~0 for the root
	FirstChildEntry  uint32
	NextSiblingEntry uint32
	FirstFileEntry   uint32
}

// FileIndexEntry is FIoFileIndexEntry.
type FileIndexEntry struct {
	Name          uint32
	NextFileEntry uint32
	UserData      uint32 // the TOC entry (chunk) index
}

// FileEntry is one file of the directory index with its full path.
type FileEntry struct {
	// Path is the path with the mount point applied, without leading "/" or
	// "../" ("Game/Content/Maps/L.umap"), the form io/fs uses.
	Path string
	// Chunk is the TOC entry index.
	Chunk int
	// Valid is false when Path is not a valid io/fs path (it would escape
	// the mount point, or has empty elements); such files are listed but not
	// served by [File.FS].
	Valid bool
}

// DirectoryIndex is FIoDirectoryIndexResource: the mount point, the
// directory and file trees and their string table.
type DirectoryIndex struct {
	MountPoint  string
	Directories []DirectoryEntry
	// The file entries are read from the index bytes when needed
	// (FileIndexEntry): 12 bytes a file less.
	fileEntries []byte

	// The string table: strs[i] is where string i is, in raw (the index
	// bytes, which hold names in printable ASCII as they are) or, with
	// inExtra set in its start, in extra (names converted from Latin-1 or
	// UTF-16). 8 bytes a string, with no pointer for the collector to
	// follow: a []string took 16 and one each.
	raw   string
	extra string
	strs  []strRef

	// The files reachable from the root, in traversal order. A file's
	// path is its folder's path, a slash and its name: File puts it
	// together when asked, so that the paths (tens of bytes a file, most
	// of them repeating the folders) are not all held.
	// dirs[k] is the path of the k-th folder holding files, with the mount
	// point applied, in dirPaths.
	files    []fileRec
	dirs     []strRef
	dirPaths string
	// chunkFile maps chunks to their first file (-1 for none), made when
	// first asked for (PathOf: the paths of chunks that fail).
	chunkFile     []int32
	chunkFileOnce sync.Once
	chunks        int

	filesOnce sync.Once
	fileList  []FileEntry
}

// strRef is a string's range [start, end) in one of a DirectoryIndex's
// buffers.
type strRef struct{ start, end uint32 }

// inExtra marks a string table entry held in DirectoryIndex.extra.
const inExtra = 1 << 31

// fileRec is one file of the directory index in the compact form: its
// file entry (which holds its name and chunk) and its folder in
// dirs, with validBit when its path is a valid io/fs path.
type fileRec struct {
	entry uint32
	dir   uint32 // index in dirs | validBit
}

const validBit = 1 << 31

// NumFileEntries returns the number of entries of the file table (files
// not reachable from the root included).
func (d *DirectoryIndex) NumFileEntries() int { return len(d.fileEntries) / 12 }

// FileIndexEntry returns entry i of the file table.
func (d *DirectoryIndex) FileIndexEntry(i int) FileIndexEntry {
	p := d.fileEntries[12*i : 12*i+12]
	return FileIndexEntry{binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:]), binary.LittleEndian.Uint32(p[8:])}
}

// fileEntry is FileIndexEntry with a table index.
func (d *DirectoryIndex) fileEntry(i uint32) FileIndexEntry { return d.FileIndexEntry(int(i)) }

// firstFiles returns the chunk → first file map, made at the first call.
func (d *DirectoryIndex) firstFiles() []int32 {
	d.chunkFileOnce.Do(func() {
		d.chunkFile = make([]int32, d.chunks)
		for i := range d.chunkFile {
			d.chunkFile[i] = -1
		}
		for i, fe := range d.files {
			if c := d.fileEntry(fe.entry).UserData; d.chunkFile[c] == -1 {
				d.chunkFile[c] = int32(i)
			}
		}
	})
	return d.chunkFile
}

// NumStrings returns the number of entries of the string table.
func (d *DirectoryIndex) NumStrings() int { return len(d.strs) }

// String returns entry i of the string table.
func (d *DirectoryIndex) String(i int) string {
	r := d.strs[i]
	if r.start&inExtra != 0 {
		return d.extra[r.start&^inExtra : r.end]
	}
	return d.raw[r.start:r.end]
}

// NumFiles returns the number of files reachable from the root.
func (d *DirectoryIndex) NumFiles() int { return len(d.files) }

// FileChunk returns the TOC entry index of file i (File without putting
// its path together).
func (d *DirectoryIndex) FileChunk(i int) int {
	return int(d.fileEntry(d.files[i].entry).UserData)
}

// FileValid reports whether file i's path is a valid io/fs path (File
// without putting it together).
func (d *DirectoryIndex) FileValid(i int) bool { return d.files[i].dir&validBit != 0 }

// File returns file i (in traversal order). Its path is put together at
// each call.
func (d *DirectoryIndex) File(i int) FileEntry {
	r := d.files[i]
	fe := d.fileEntry(r.entry)
	dr := d.dirs[r.dir&^validBit]
	return FileEntry{Path: joinPath(d.dirPaths[dr.start:dr.end], d.String(int(fe.Name))), Chunk: int(fe.UserData), Valid: r.dir&validBit != 0}
}

// joinPath is the path of file name in folder dir: with a slash between
// them unless dir is empty or ends in one, and without leading slashes.
func joinPath(dir, name string) string {
	p := name
	switch {
	case dir == "":
	case dir[len(dir)-1] == '/':
		p = dir + name
	default:
		p = dir + "/" + name
	}
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	return p
}

// Files lists every file reachable from the root, in traversal order. The
// list is built on first use and shared: callers must not modify it.
func (d *DirectoryIndex) Files() []FileEntry {
	d.filesOnce.Do(func() {
		d.fileList = make([]FileEntry, len(d.files))
		for i := range d.files {
			d.fileList[i] = d.File(i)
		}
	})
	return d.fileList
}

// decryptIndex decrypts the directory index bytes in place.
func (f *File) decryptIndex(b []byte) error {
	switch f.Header.EncryptionMethod {
	case EncryptAESECB:
		if len(b)%aeskey.BlockSize != 0 {
			return &FormatError{Offset: -1, Msg: fmt.Sprintf("encrypted directory index of %d bytes is not a multiple of 16", len(b))}
		}
		return f.ecb.DecryptECB(b)
	case EncryptAESCTR:
		if len(f.EncryptionIVs) == 0 {
			return &FormatError{Offset: -1, Msg: "AES-CTR container without a directory index IV"}
		}
		f.ctr(f.EncryptionIVs[len(f.EncryptionIVs)-1], b)
		return nil
	}
	return &UnsupportedError{What: fmt.Sprintf("encryption method %s", f.Header.EncryptionMethod)}
}

// ctr decrypts b in place with Unreal's AES-CTR: the counter block is the
// 12-byte IV followed by a big-endian 32-bit block counter starting at 0.
func (f *File) ctr(iv [encryptionIVSize]byte, b []byte) {
	var full [aeskey.BlockSize]byte
	copy(full[:], iv[:])
	f.ecb.XORKeyStreamCTR(full, b)
}

func (f *File) readDirectoryIndex(raw []byte, off int64) (*DirectoryIndex, error) {
	b := raw
	if f.Header.ContainerFlags&FlagEncrypted != 0 {
		if f.key == nil {
			return nil, ErrNeedKey
		}
		b = append([]byte(nil), raw...)
		if err := f.decryptIndex(b); err != nil {
			return nil, err
		}
		d, err := parseDirectoryIndex(b, off, len(f.ChunkIDs))
		if err != nil {
			return nil, fmt.Errorf("%w (key GUID %s): %v", ErrWrongKey, f.Header.EncryptionKeyGuid, err)
		}
		return d, nil
	}
	return parseDirectoryIndex(b, off, len(f.ChunkIDs))
}

// dirReader is a small bounded cursor for the directory index.
type dirReader struct {
	b    []byte
	off  int
	base int64
	s    string // the whole buffer as one string; ASCII names are substrings of it
	elem bool   // the last fstring is a safe path element (see validElem)
}

func (r *dirReader) fail(msg string, args ...any) error {
	return &FormatError{Offset: r.base + int64(r.off), Msg: "directory index: " + fmt.Sprintf(msg, args...)}
}

func (r *dirReader) u32(what string) (uint32, error) {
	if len(r.b)-r.off < 4 {
		return 0, r.fail("%s: truncated", what)
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

// count reads an int32 array count and checks elem-size bytes each remain.
func (r *dirReader) count(what string, elem int) (int, error) {
	v, err := r.u32(what)
	if err != nil {
		return 0, err
	}
	if int32(v) < 0 || uint64(v)*uint64(elem) > uint64(len(r.b)-r.off) {
		r.off -= 4
		return 0, r.fail("%s: count %d does not fit in the %d bytes left", what, int32(v), len(r.b)-r.off-4)
	}
	return int(v), nil
}

// fstring reads an FString (positive: ANSI with NUL, negative: UTF-16 with
// NUL). at is where the string is in the buffer when it is used as it is
// there, -1 when it was converted.
func (r *dirReader) fstring(what string) (s string, at int, err error) {
	start := r.off
	if len(r.b)-r.off < 4 {
		return "", -1, r.fail("%s: truncated", what)
	}
	n := int32(binary.LittleEndian.Uint32(r.b[r.off:]))
	r.off += 4
	switch {
	case n == 0:
		r.elem = false
		return "", r.off, nil
	case n > 0:
		if int(n) > len(r.b)-r.off {
			r.off = start
			return "", -1, r.fail("%s: string of %d bytes, %d left", what, n, len(r.b)-r.off-4)
		}
		p := r.b[r.off : r.off+int(n)]
		if p[n-1] != 0 {
			r.off = start
			return "", -1, r.fail("%s: string not NUL-terminated", what)
		}
		at = r.off
		s = r.s[r.off : r.off+int(n)-1]
		r.off += int(n)
		r.elem = s != "" && s != "." && s != ".."
		if plainName(p[:n-1]) {
			return s, at, nil
		}
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c >= utf8.RuneSelf || c < 0x20:
				l := binread.Latin1([]byte(s))
				r.elem = validElem(l)
				return l, -1, nil
			case c == '/' || c == '\\':
				r.elem = false
			}
		}
		return s, at, nil
	default:
		if n == -1<<31 || int64(-n)*2 > int64(len(r.b)-r.off) {
			r.off = start
			return "", -1, r.fail("%s: UTF-16 string of %d units, %d bytes left", what, -int64(n), len(r.b)-r.off-4)
		}
		u := make([]uint16, -n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(r.b[r.off+2*i:])
		}
		r.off += 2 * int(-n)
		if u[len(u)-1] != 0 {
			return "", -1, r.fail("%s: UTF-16 string not NUL-terminated", what)
		}
		s = string(utf16.Decode(u[:len(u)-1]))
		r.elem = validElem(s)
		return s, -1, nil
	}
}

// plainName reports whether b is printable ASCII without '/' or '\\' (the
// common case, which needs no conversion), eight bytes at a time.
func plainName(b []byte) bool {
	var acc uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		acc |= specialBytes(binary.LittleEndian.Uint64(b[i:]))
	}
	if i < len(b) {
		if len(b) >= 8 {
			// The last eight bytes, overlapping the ones checked.
			acc |= specialBytes(binary.LittleEndian.Uint64(b[len(b)-8:]))
		} else {
			for ; i < len(b); i++ {
				if c := b[i]; c >= utf8.RuneSelf || c < 0x20 || c == '/' || c == '\\' {
					return false
				}
			}
		}
	}
	return acc == 0
}

// specialBytes is non-zero when one of the eight bytes of x is >= 0x80,
// < 0x20, '/' or '\\' (exact as a yes/no answer; which byte is not told).
func specialBytes(x uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	slash, back := x^(lo*'/'), x^(lo*'\\')
	return (x | (x-lo*0x20)&^x | (slash-lo)&^slash | (back-lo)&^back) & hi
}

// parseDirectoryIndex decodes and validates a (decrypted) directory index;
// chunks is the number of TOC entries file user data may point at.
func parseDirectoryIndex(b []byte, base int64, chunks int) (*DirectoryIndex, error) {
	// The index bytes are this package's own copy and never change, so the
	// string table can be substrings of them without another copy.
	r := &dirReader{b: b, base: base, s: unsafe.String(unsafe.SliceData(b), len(b))}
	d := &DirectoryIndex{}
	var err error
	if int64(len(b)) >= inExtra {
		return nil, r.fail("%d bytes, more than this reader takes", len(b))
	}
	if d.MountPoint, _, err = r.fstring("MountPoint"); err != nil {
		return nil, err
	}
	for i := 0; i < len(d.MountPoint); i++ {
		if c := d.MountPoint[i]; c < 0x20 || c == 0x7f {
			return nil, r.fail("MountPoint %q has control characters", d.MountPoint)
		}
	}
	nd, err := r.count("DirectoryEntries", 16)
	if err != nil {
		return nil, err
	}
	d.Directories = make([]DirectoryEntry, nd)
	for i := range d.Directories {
		p := b[r.off+16*i:]
		d.Directories[i] = DirectoryEntry{binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:]), binary.LittleEndian.Uint32(p[8:]), binary.LittleEndian.Uint32(p[12:])}
	}
	r.off += 16 * nd
	nf, err := r.count("FileEntries", 12)
	if err != nil {
		return nil, err
	}
	d.fileEntries = b[r.off : r.off+12*nf : r.off+12*nf]
	r.off += 12 * nf
	ns, err := r.count("StringTable", 4)
	if err != nil {
		return nil, err
	}
	d.raw = r.s
	d.strs = make([]strRef, ns)
	elemOK := make([]bool, ns)
	var extra []byte
	for i := range d.strs {
		s, at, err := r.fstring("StringTable")
		if err != nil {
			return nil, err
		}
		if at >= 0 {
			d.strs[i] = strRef{uint32(at), uint32(at + len(s))}
		} else {
			// Converted names take at most twice their bytes in the
			// index.
			if int64(len(extra))+int64(len(s)) >= inExtra {
				return nil, r.fail("StringTable: names take more than this reader takes")
			}
			d.strs[i] = strRef{uint32(len(extra)) | inExtra, uint32(len(extra) + len(s))}
			extra = append(extra, s...)
		}
		elemOK[i] = r.elem
	}
	d.extra = string(extra)
	// The engine pads the index to the AES block size; anything else left
	// over means we misread it.
	if rest := len(b) - r.off; rest >= 16 {
		return nil, r.fail("%d bytes left after the string table", rest)
	}

	// Validate links before walking.
	for i, e := range d.Directories {
		if (e.Name != invalidHandle && int64(e.Name) >= int64(ns)) ||
			(e.FirstChildEntry != invalidHandle && int64(e.FirstChildEntry) >= int64(nd)) ||
			(e.NextSiblingEntry != invalidHandle && int64(e.NextSiblingEntry) >= int64(nd)) ||
			(e.FirstFileEntry != invalidHandle && int64(e.FirstFileEntry) >= int64(nf)) {
			return nil, &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: directory entry %d links outside the tables (%+v)", i, e)}
		}
	}
	for i := range nf {
		e := d.FileIndexEntry(i)
		if int64(e.Name) >= int64(ns) ||
			(e.NextFileEntry != invalidHandle && int64(e.NextFileEntry) >= int64(nf)) ||
			int64(e.UserData) >= int64(chunks) {
			return nil, &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: file entry %d links outside the tables (%+v, %d chunks)", i, e, chunks)}
		}
	}
	if nd == 0 {
		return d, nil
	}
	if int64(chunks) > validBit {
		return nil, &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: %d TOC entries", chunks)}
	}
	if err := d.walk(base, int64(len(b)), elemOK); err != nil {
		return nil, err
	}
	d.chunks = chunks
	return d, nil
}

// walk lists the files of the trees (d.files, d.dirs), refusing cycles and
// shared nodes. A first pass bounds the bytes of all paths.
func (d *DirectoryIndex) walk(base, size int64, elemOK []bool) error {
	mount := cleanMount(d.MountPoint)
	mountOK := mount == "" || validPath(strings.TrimSuffix(mount, "/"))
	type frame struct {
		dir uint32
		pl  int // the length of the parent directory's path in cur (second pass)
		n   int // its length (first pass)
		ok  bool
	}
	seen := make([]bool, len(d.Directories)+d.NumFileEntries())
	seenDir, seenFile := seen[:len(d.Directories)], seen[len(d.Directories):]
	// Pass 1: check the links and count the bytes of every path, and of
	// the paths of the folders holding files.
	total, dirTotal := 0, 0
	nfiles, ndirs := 0, 0
	fr := []frame{{dir: 0, n: len(mount)}}
	for len(fr) > 0 {
		it := fr[len(fr)-1]
		fr = fr[:len(fr)-1]
		if seenDir[it.dir] {
			return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: directory entry %d is reached twice (cycle)", it.dir)}
		}
		seenDir[it.dir] = true
		e := d.Directories[it.dir]
		n := it.n
		if e.Name != invalidHandle && d.String(int(e.Name)) != "" {
			if n > 0 {
				n++
			}
			n += len(d.String(int(e.Name)))
		}
		if e.NextSiblingEntry != invalidHandle {
			fr = append(fr, frame{dir: e.NextSiblingEntry, n: it.n})
		}
		if e.FirstChildEntry != invalidHandle {
			fr = append(fr, frame{dir: e.FirstChildEntry, n: n})
		}
		if e.FirstFileEntry != invalidHandle {
			dirTotal += n
			ndirs++
		}
		for fi := e.FirstFileEntry; fi != invalidHandle; fi = d.fileEntry(fi).NextFileEntry {
			if seenFile[fi] {
				return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: file entry %d is reached twice (cycle)", fi)}
			}
			seenFile[fi] = true
			total += n + 1 + len(d.String(int(d.fileEntry(fi).Name)))
			nfiles++
		}
	}
	// Each file's path repeats its folders' names, which the index
	// stores once: a long name given to many files would take memory out
	// of all proportion to the index when all paths are listed (Files).
	// The paths are bounded at 24 times its size plus 4 MiB (real
	// containers take a few times).
	if limit := 24*size + 4<<20; int64(total) > min(limit, math.MaxUint32) {
		return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: its %d files' paths take %d bytes, more than 24 times its %d bytes (a long folder name repeated for each file?)", nfiles, total, size)}
	}
	// Pass 2: list the files and write the paths of their folders (no
	// longer than the files' paths, so within the same bound) into one
	// buffer sized by pass 1.
	// cur is the path of the directory being visited. The walk is
	// depth-first, so when a frame is taken the path of its parent is a
	// prefix of cur: cutting cur to it and adding the name gives the path.
	cur := append(make([]byte, 0, 256), mount...)
	dp := make([]byte, 0, dirTotal)
	d.dirs = make([]strRef, 0, ndirs)
	d.files = make([]fileRec, 0, nfiles)
	var scratch []byte
	fr = append(fr[:0], frame{dir: 0, pl: len(mount), ok: mountOK})
	for len(fr) > 0 {
		it := fr[len(fr)-1]
		fr = fr[:len(fr)-1]
		e := d.Directories[it.dir]
		cur = cur[:it.pl]
		ok := it.ok
		if e.Name != invalidHandle && d.String(int(e.Name)) != "" {
			if len(cur) > 0 && cur[len(cur)-1] != '/' {
				cur = append(cur, '/')
			}
			cur = append(cur, d.String(int(e.Name))...)
			ok = ok && elemOK[e.Name]
		}
		if e.NextSiblingEntry != invalidHandle {
			fr = append(fr, frame{dir: e.NextSiblingEntry, pl: it.pl, ok: it.ok})
		}
		if e.FirstChildEntry != invalidHandle {
			fr = append(fr, frame{dir: e.FirstChildEntry, pl: len(cur), ok: ok})
		}
		if e.FirstFileEntry == invalidHandle {
			continue
		}
		if len(dp)+len(cur) > cap(dp) || len(d.dirs) == cap(d.dirs) {
			return &FormatError{Offset: base, Msg: "directory index: paths longer than counted"}
		}
		k := uint32(len(d.dirs))
		d.dirs = append(d.dirs, strRef{uint32(len(dp)), uint32(len(dp) + len(cur))})
		dp = append(dp, cur...)
		for fi := e.FirstFileEntry; fi != invalidHandle; fi = d.fileEntry(fi).NextFileEntry {
			fe := d.fileEntry(fi)
			name := d.String(int(fe.Name))
			valid := ok && elemOK[fe.Name]
			if (len(cur) > 0 && cur[0] == '/') || (len(cur) == 0 && name != "" && name[0] == '/') {
				// The path loses its leading slashes (joinPath): check
				// what is left.
				scratch = append(scratch[:0], cur...)
				if len(cur) > 0 && cur[len(cur)-1] != '/' {
					scratch = append(scratch, '/')
				}
				scratch = append(scratch, name...)
				p := strings.TrimLeft(string(scratch), "/")
				valid = p != "" && validPath(p)
			}
			rec := fileRec{entry: fi, dir: k}
			if valid {
				rec.dir |= validBit
			}
			d.files = append(d.files, rec)
		}
	}
	d.dirPaths = string(dp)
	return nil
}

// validElem reports whether s is one safe path element.
func validElem(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '/' || c == '\\':
			return false
		case c >= utf8.RuneSelf:
			return utf8.ValidString(s) && !strings.ContainsAny(s, "/\\")
		}
	}
	return true
}

// cleanMount turns a mount point such as "../../../" or
// "../../../Game/Content/" into the prefix used for io/fs paths ("",
// "Game/Content/"): leading "../" and "/" are dropped.
func cleanMount(m string) string {
	m = strings.ReplaceAll(m, "\\", "/")
	for {
		switch {
		case strings.HasPrefix(m, "../"):
			m = m[3:]
		case strings.HasPrefix(m, "./"):
			m = m[2:]
		case strings.HasPrefix(m, "/"):
			m = m[1:]
		case m == ".." || m == ".":
			m = ""
		default:
			return m
		}
	}
}

// validPath is fs.ValidPath for file names (never "."), in one pass: no
// empty, "." or ".." elements, no leading or trailing slash, valid UTF-8.
func validPath(p string) bool {
	if p == "" {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			if p[i] >= utf8.RuneSelf {
				return fs.ValidPath(p) && p != "."
			}
			continue
		}
		switch p[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}
