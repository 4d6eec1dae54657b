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
	FileEntries []FileIndexEntry
	Strings     []string

	// The files reachable from the root, in traversal order: their paths
	// are paths[start:end] (one buffer for all), chunk holds the TOC entry
	// index and, in its top bit, whether the path is valid. Files builds
	// the []FileEntry form on first use.
	paths     string
	files     []fileRec
	chunkFile []int32 // chunk → index in files, -1 for none

	filesOnce sync.Once
	fileList  []FileEntry
}

// fileRec is one file of the directory index in the compact form.
type fileRec struct {
	start, end uint32
	chunk      uint32 // TOC entry index | validBit
}

const validBit = 1 << 31

// NumFiles returns the number of files reachable from the root.
func (d *DirectoryIndex) NumFiles() int { return len(d.files) }

// File returns file i (in traversal order).
func (d *DirectoryIndex) File(i int) FileEntry {
	r := d.files[i]
	return FileEntry{Path: d.paths[r.start:r.end], Chunk: int(r.chunk &^ validBit), Valid: r.chunk&validBit != 0}
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

// fstring reads an FString (positive: ANSI with NUL, negative: UTF-16 with NUL).
func (r *dirReader) fstring(what string) (string, error) {
	start := r.off
	if len(r.b)-r.off < 4 {
		return "", r.fail("%s: truncated", what)
	}
	n := int32(binary.LittleEndian.Uint32(r.b[r.off:]))
	r.off += 4
	switch {
	case n == 0:
		return "", nil
	case n > 0:
		if int(n) > len(r.b)-r.off {
			r.off = start
			return "", r.fail("%s: string of %d bytes, %d left", what, n, len(r.b)-r.off-4)
		}
		p := r.b[r.off : r.off+int(n)]
		if p[n-1] != 0 {
			r.off = start
			return "", r.fail("%s: string not NUL-terminated", what)
		}
		s := r.s[r.off : r.off+int(n)-1]
		r.off += int(n)
		r.elem = s != "" && s != "." && s != ".."
		if plainName(p[:n-1]) {
			return s, nil
		}
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c >= utf8.RuneSelf || c < 0x20:
				l := binread.Latin1([]byte(s))
				r.elem = validElem(l)
				return l, nil
			case c == '/' || c == '\\':
				r.elem = false
			}
		}
		return s, nil
	default:
		if n == -1<<31 || int64(-n)*2 > int64(len(r.b)-r.off) {
			r.off = start
			return "", r.fail("%s: UTF-16 string of %d units, %d bytes left", what, -int64(n), len(r.b)-r.off-4)
		}
		u := make([]uint16, -n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(r.b[r.off+2*i:])
		}
		r.off += 2 * int(-n)
		if u[len(u)-1] != 0 {
			return "", r.fail("%s: UTF-16 string not NUL-terminated", what)
		}
		s := string(utf16.Decode(u[:len(u)-1]))
		r.elem = validElem(s)
		return s, nil
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
	if d.MountPoint, err = r.fstring("MountPoint"); err != nil {
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
	d.FileEntries = make([]FileIndexEntry, nf)
	for i := range d.FileEntries {
		p := b[r.off+12*i:]
		d.FileEntries[i] = FileIndexEntry{binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:]), binary.LittleEndian.Uint32(p[8:])}
	}
	r.off += 12 * nf
	ns, err := r.count("StringTable", 4)
	if err != nil {
		return nil, err
	}
	d.Strings = make([]string, ns)
	elemOK := make([]bool, ns)
	for i := range d.Strings {
		if d.Strings[i], err = r.fstring("StringTable"); err != nil {
			return nil, err
		}
		elemOK[i] = r.elem
	}
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
	for i, e := range d.FileEntries {
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
	d.chunkFile = make([]int32, chunks)
	for i := range d.chunkFile {
		d.chunkFile[i] = -1
	}
	for i, fe := range d.files {
		if c := fe.chunk &^ validBit; d.chunkFile[c] == -1 {
			d.chunkFile[c] = int32(i)
		}
	}
	return d, nil
}

// walk lists the files of the trees (d.files, d.paths), refusing cycles and
// shared nodes. A first pass bounds the bytes of all paths, so that they
// are written into one buffer that never moves and are substrings of it
// (no byte is written twice, so earlier paths stay valid).
func (d *DirectoryIndex) walk(base, size int64, elemOK []bool) error {
	mount := cleanMount(d.MountPoint)
	mountOK := mount == "" || validPath(strings.TrimSuffix(mount, "/"))
	type frame struct {
		dir uint32
		pl  int // the length of the parent directory's path in cur (second pass)
		n   int // its length (first pass)
		ok  bool
	}
	seen := make([]bool, len(d.Directories)+len(d.FileEntries))
	seenDir, seenFile := seen[:len(d.Directories)], seen[len(d.Directories):]
	// Pass 1: check the links and count the bytes of every path.
	total := 0
	nfiles := 0
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
		if e.Name != invalidHandle && d.Strings[e.Name] != "" {
			if n > 0 {
				n++
			}
			n += len(d.Strings[e.Name])
		}
		if e.NextSiblingEntry != invalidHandle {
			fr = append(fr, frame{dir: e.NextSiblingEntry, n: it.n})
		}
		if e.FirstChildEntry != invalidHandle {
			fr = append(fr, frame{dir: e.FirstChildEntry, n: n})
		}
		for fi := e.FirstFileEntry; fi != invalidHandle; fi = d.FileEntries[fi].NextFileEntry {
			if seenFile[fi] {
				return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: file entry %d is reached twice (cycle)", fi)}
			}
			seenFile[fi] = true
			total += n + 1 + len(d.Strings[d.FileEntries[fi].Name])
			nfiles++
		}
	}
	// Pass 2: write the paths. Directory paths go to a scratch buffer
	// sized by pass 1; file paths to one string buffer.
	// cur is the path of the directory being visited. The walk is
	// depth-first, so when a frame is taken the path of its parent is a
	// prefix of cur: cutting cur to it and adding the name gives the path.
	cur := append(make([]byte, 0, 256), mount...)
	// File paths are written into one buffer sized by pass 1 (so it never
	// moves) and handed out as substrings of it; nothing writes a byte
	// after its path was taken.
	// Each file's path repeats its folders' names, which the index
	// stores once: a long name given to many files would take memory
	// out of all proportion to the index. The paths are bounded at 24
	// times its size plus 4 MiB (real containers take a few times).
	if limit := 24*size + 4<<20; int64(total) > min(limit, math.MaxUint32) {
		return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: its %d files' paths take %d bytes, more than 24 times its %d bytes (a long folder name repeated for each file?)", nfiles, total, size)}
	}
	pb := make([]byte, 0, total)
	pbs := unsafe.String(unsafe.SliceData(pb[:cap(pb)]), cap(pb))
	d.files = make([]fileRec, 0, nfiles)
	fr = append(fr[:0], frame{dir: 0, pl: len(mount), ok: mountOK})
	for len(fr) > 0 {
		it := fr[len(fr)-1]
		fr = fr[:len(fr)-1]
		e := d.Directories[it.dir]
		cur = cur[:it.pl]
		ok := it.ok
		if e.Name != invalidHandle && d.Strings[e.Name] != "" {
			if len(cur) > 0 && cur[len(cur)-1] != '/' {
				cur = append(cur, '/')
			}
			cur = append(cur, d.Strings[e.Name]...)
			ok = ok && elemOK[e.Name]
		}
		if e.NextSiblingEntry != invalidHandle {
			fr = append(fr, frame{dir: e.NextSiblingEntry, pl: it.pl, ok: it.ok})
		}
		if e.FirstChildEntry != invalidHandle {
			fr = append(fr, frame{dir: e.FirstChildEntry, pl: len(cur), ok: ok})
		}
		p := cur
		for fi := e.FirstFileEntry; fi != invalidHandle; fi = d.FileEntries[fi].NextFileEntry {
			fe := d.FileEntries[fi]
			if len(pb)+len(p)+1+len(d.Strings[fe.Name]) > cap(pb) {
				return &FormatError{Offset: base, Msg: "directory index: paths longer than counted"}
			}
			start := len(pb)
			pb = append(pb, p...)
			if len(p) > 0 && p[len(p)-1] != '/' {
				pb = append(pb, '/')
			}
			pb = append(pb, d.Strings[fe.Name]...)
			end := len(pb)
			valid := ok && elemOK[fe.Name]
			if start < end && pb[start] == '/' {
				for start < end && pb[start] == '/' {
					start++
				}
				valid = validPath(pbs[start:end])
			}
			rec := fileRec{start: uint32(start), end: uint32(end), chunk: fe.UserData}
			if valid && start < end {
				rec.chunk |= validBit
			}
			d.files = append(d.files, rec)
		}
	}
	d.paths = pbs[:len(pb)]
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
