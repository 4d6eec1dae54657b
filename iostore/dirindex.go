package iostore

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
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
	// Files lists every file reachable from the root, in traversal order.
	Files []FileEntry

	chunkFile []int32 // chunk → index in Files, -1 for none
}

// decryptIndex decrypts the directory index bytes in place.
func (f *File) decryptIndex(b []byte) error {
	switch f.Header.EncryptionMethod {
	case EncryptAESECB:
		if len(b)%aes.BlockSize != 0 {
			return &FormatError{Offset: -1, Msg: fmt.Sprintf("encrypted directory index of %d bytes is not a multiple of 16", len(b))}
		}
		return f.ecb.DecryptECB(b)
	case EncryptAESCTR:
		if len(f.EncryptionIVs) == 0 {
			return &FormatError{Offset: -1, Msg: "AES-CTR container without a directory index IV"}
		}
		ctr, err := f.ctr(f.EncryptionIVs[len(f.EncryptionIVs)-1])
		if err != nil {
			return err
		}
		ctr.XORKeyStream(b, b)
		return nil
	}
	return &UnsupportedError{What: fmt.Sprintf("encryption method %s", f.Header.EncryptionMethod)}
}

// ctr returns Unreal's AES-CTR stream: the 12-byte IV followed by a
// big-endian 32-bit block counter starting at 0.
func (f *File) ctr(iv [encryptionIVSize]byte) (cipher.Stream, error) {
	blk, err := aes.NewCipher(f.key)
	if err != nil {
		return nil, err
	}
	var full [aes.BlockSize]byte
	copy(full[:], iv[:])
	return cipher.NewCTR(blk, full[:]), nil
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
	v, err := r.u32(what)
	if err != nil {
		return "", err
	}
	n := int32(v)
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
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
				return latin1(s), nil
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
		return string(utf16.Decode(u[:len(u)-1])), nil
	}
}

func latin1(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		sb.WriteRune(rune(s[i]))
	}
	return sb.String()
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
	for i := range d.Strings {
		if d.Strings[i], err = r.fstring("StringTable"); err != nil {
			return nil, err
		}
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
	if err := d.walk(base); err != nil {
		return nil, err
	}
	d.chunkFile = make([]int32, chunks)
	for i := range d.chunkFile {
		d.chunkFile[i] = -1
	}
	for i, fe := range d.Files {
		if d.chunkFile[fe.Chunk] == -1 {
			d.chunkFile[fe.Chunk] = int32(i)
		}
	}
	return d, nil
}

// walk builds Files from the trees, refusing cycles and shared nodes. All
// paths share one string; each name of the string table is checked once for
// being a safe path element.
func (d *DirectoryIndex) walk(base int64) error {
	seenDir := make([]bool, len(d.Directories))
	seenFile := make([]bool, len(d.FileEntries))
	mount := cleanMount(d.MountPoint)
	mountOK := mount == "" || validPath(strings.TrimSuffix(mount, "/"))
	elemOK := make([]bool, len(d.Strings))
	for i, s := range d.Strings {
		elemOK[i] = validElem(s)
	}
	var sb strings.Builder
	sb.Grow(len(mount) + 96*len(d.FileEntries))
	type span struct {
		start, end, chunk int
		ok                bool
	}
	spans := make([]span, 0, len(d.FileEntries))
	type frame struct {
		dir  uint32
		path string
		ok   bool
	}
	fr := []frame{{0, mount, mountOK}}
	for len(fr) > 0 {
		it := fr[len(fr)-1]
		fr = fr[:len(fr)-1]
		if seenDir[it.dir] {
			return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: directory entry %d is reached twice (cycle)", it.dir)}
		}
		seenDir[it.dir] = true
		e := d.Directories[it.dir]
		p, ok := it.path, it.ok
		if e.Name != invalidHandle && d.Strings[e.Name] != "" {
			p = joinPath(p, d.Strings[e.Name])
			ok = ok && elemOK[e.Name]
		}
		if e.NextSiblingEntry != invalidHandle {
			fr = append(fr, frame{e.NextSiblingEntry, it.path, it.ok})
		}
		if e.FirstChildEntry != invalidHandle {
			fr = append(fr, frame{e.FirstChildEntry, p, ok})
		}
		for fi := e.FirstFileEntry; fi != invalidHandle; fi = d.FileEntries[fi].NextFileEntry {
			if seenFile[fi] {
				return &FormatError{Offset: base, Msg: fmt.Sprintf("directory index: file entry %d is reached twice (cycle)", fi)}
			}
			seenFile[fi] = true
			fe := d.FileEntries[fi]
			start := sb.Len()
			sb.WriteString(p)
			if len(p) > 0 && p[len(p)-1] != '/' {
				sb.WriteByte('/')
			}
			sb.WriteString(d.Strings[fe.Name])
			spans = append(spans, span{start, sb.Len(), int(fe.UserData), ok && elemOK[fe.Name]})
		}
	}
	all := sb.String()
	d.Files = make([]FileEntry, len(spans))
	for i, s := range spans {
		p := all[s.start:s.end]
		if len(p) > 0 && p[0] == '/' {
			p = strings.TrimLeft(p, "/")
			s.ok = validPath(p)
		}
		d.Files[i] = FileEntry{Path: p, Chunk: s.chunk, Valid: s.ok && p != ""}
	}
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

func joinPath(dir, name string) string {
	if dir == "" || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
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
