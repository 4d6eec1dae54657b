package legacy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/osfile"
	"github.com/upkg/upkg/internal/reuse"
	"github.com/upkg/upkg/ue"
)

// File is an open package: its summary and tables, parsed eagerly, and the
// package image (decompressed and decrypted when the file needed it) from
// which object payloads are read on demand.
type File struct {
	Summary  Summary
	Names    []Name
	Imports  []Import
	Exports  []Export
	Heritage []ue.Guid // versions < 68

	// PackageName is the package's own name (the file name without its
	// extension), the outermost component of export paths.
	PackageName string
	// BigEndian is set for console packages with a byte-swapped tag.
	BigEndian bool
	// Wrapper names the layer removed before reading: "Lineage2Ver121
	// (XOR 0x..)", "fully compressed (LZMA)", "compressed chunks (Zlib)".
	Wrapper string
	// Game names the licensee build whose quirks were applied, if any.
	Game string
	// NameTableSize, ImportTableSize and ExportTableSize are the bytes
	// each table occupies.
	NameTableSize, ImportTableSize, ExportTableSize int64

	game game
	// cNames is set when names are NUL-terminated without a length prefix:
	// every version before 64, and early UE2 builds that kept the format.
	cNames bool
	img    io.ReaderAt // the package image the offsets refer to
	size   int64
	// pooled is img when decompressChunks built it: Release gives it
	// back for reuse.
	pooled []byte
	order  binary.ByteOrder
	closer io.Closer
	// memo holds what ObjectPath and name made (nil: nothing is kept).
	memo *fileMemo
}

// fileMemo is what a File's ObjectPath and name made, shared by copies of
// the File.
type fileMemo struct {
	// paths holds the paths ObjectPath made, by reference + len(Imports):
	// a property value naming an object takes its path from here.
	mu    sync.Mutex
	paths []string
	// formatted counts the bytes of numbered names made (see name);
	// decoded the bytes of export data decoded, which widen the bound:
	// each export's once (widened, guarded by mu), however often it is
	// decoded.
	formatted, decoded atomic.Int64
	widened            []bool
}

// widen counts the size bytes of export i of n among those decoded, the
// first time it is decoded.
func (m *fileMemo) widen(i, n int, size int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.widened == nil {
		m.widened = make([]bool, n)
	}
	if i < len(m.widened) && !m.widened[i] {
		m.widened[i] = true
		m.decoded.Add(size)
	}
}

// Name is one name table entry (FNameEntry).
type Name struct {
	Name  string `json:"name"`
	Flags uint64 `json:"flags"` // 32-bit before UE3 version 195, 64-bit after; absent in ME3
}

// Import is FObjectImport: an object in another package this one uses.
type Import struct {
	ClassPackage string `json:"class_package"` // package of the class, e.g. "Core"
	ClassName    string `json:"class_name"`    // e.g. "Class", "Package", "Texture"
	OuterIndex   int32  `json:"outer_index"`   // PackageIndex: object reference of the outer
	ObjectName   string `json:"object_name"`
	// PackageName is the package as a plain name, which versions before 50
	// store instead of OuterIndex.
	PackageName string `json:"package_name"`
}

// Export is FObjectExport: an object stored in this package.
type Export struct {
	ClassIndex     int32   `json:"class_index"` // object reference; 0 means the export is a UClass
	SuperIndex     int32   `json:"super_index"` // object reference of the parent struct/class
	OuterIndex     int32   `json:"outer_index"` // PackageIndex (group); 0 for top-level objects
	ObjectName     string  `json:"object_name"`
	ArchetypeIndex int32   `json:"archetype_index"` // UE3 >= 220
	ObjectFlags    uint64  `json:"object_flags"`    // 32-bit before UE3 version 195
	SerialSize     int64   `json:"serial_size"`
	SerialOffset   int64   `json:"serial_offset"`
	ComponentMap   int32   `json:"component_map"`    // entry count of the UE3 (< 543) component map
	ExportFlags    uint32  `json:"export_flags"`     // UE3 >= 247
	NetObjectCount []int32 `json:"net_object_count"` // per generation, UE3 >= 322
	PackageGuid    ue.Guid `json:"package_guid"`     // UE3 >= 322
	PackageFlags   uint32  `json:"package_flags"`    // UE3 >= 475

	// Offset is where the table entry starts (for error messages and dumps).
	Offset int64 `json:"offset"`
}

// Option configures [NewFile].
type Option func(*options)

type options struct {
	name   string
	aesKey []byte
}

// WithName gives the file name, which supplies the package name that
// starts export paths. (Lineage II's XOR key is derived from the data, so
// renamed files still open.)
func WithName(name string) Option { return func(o *options) { o.name = name } }

// WithAESKey supplies the AES-256 key for Rocket League's encrypted headers.
func WithAESKey(key []byte) Option { return func(o *options) { o.aesKey = key } }

// Open opens the named file with [NewFile]; Close closes it.
func Open(name string) (*File, error) {
	f, size, err := osfile.Open(name)
	if err != nil {
		return nil, err
	}
	lf, err := NewFile(f, size, WithName(name))
	if err != nil {
		f.Close()
		return nil, err
	}
	lf.closer = f
	return lf, nil
}

// Close closes the file opened by [Open]; it does nothing for [NewFile].
func (f *File) Close() error {
	if f.closer != nil {
		err := f.closer.Close()
		f.closer = nil
		return err
	}
	return nil
}

// Release gives the memory of the name, import and export tables and of a
// decompressed package image back for reuse by later [NewFile] calls, for
// callers that open many packages in turn and keep nothing of them (the
// slices Names, Imports and Exports had included). Afterwards f reads as
// an empty package: it has no objects (and the ReadAt of a decompressed
// image fails).
func (f *File) Release() {
	releaseTables(f)
	f.Names, f.Imports, f.Exports = nil, nil, nil
	if m := f.memo; m != nil {
		m.mu.Lock()
		m.paths, m.widened = nil, nil
		m.mu.Unlock()
	}
	if ci, ok := f.img.(*chunkedImage); ok {
		ci.release()
		f.img, f.size = binread.Mem(nil), 0
		return
	}
	if f.pooled == nil {
		return
	}
	b := f.pooled[:0]
	f.pooled, f.img, f.size = nil, binread.Mem(nil), 0
	imagePool.Put(&b)
}

// The caches below keep the table storage of released Files, so that
// verifying many packages reuses it instead of faulting in fresh memory
// for each (verify collects garbage rarely). Unlike a sync.Pool they
// survive garbage collections. Reused storage is not cleared: the tables
// are filled by append, and what lies past their end is never read.
// Each keeps slices of at most maxCachedEntries entries (16 MiB of
// exports), so what it keeps stays small.
var (
	nameCache   = reuse.Slices[Name]{Max: maxCachedEntries}
	importCache = reuse.Slices[Import]{Max: maxCachedEntries}
	exportCache = reuse.Slices[Export]{Max: maxCachedEntries}
)

const maxCachedEntries = 1 << 17

func releaseTables(f *File) {
	nameCache.Put(f.Names)
	importCache.Put(f.Imports)
	exportCache.Put(f.Exports)
}

// NewFile reads a package from r, size bytes long.
func NewFile(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	var o options
	for _, fn := range opts {
		fn(&o)
	}
	f := &File{img: r, size: size, memo: &fileMemo{}}
	if o.name != "" {
		base := filepath.Base(strings.ReplaceAll(o.name, "\\", "/"))
		f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	}
	head := make([]byte, min(64, size))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if IsLineage2(head) {
		img, isize, desc, err := unwrapLineage2(r, size, head)
		if err != nil {
			return nil, err
		}
		f.img, f.size, f.Wrapper = img, isize, desc
		head = make([]byte, min(64, isize))
		if _, err := img.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
	order, ok := orderFromTag(head)
	if !ok {
		return nil, ErrNotPackage
	}
	f.order = order
	f.BigEndian = order == binary.BigEndian
	if isFullyCompressed(head, order) {
		img, isize, desc, err := fullyCompressedImage(f.img, f.size, order)
		if err != nil {
			return nil, err
		}
		f.img, f.size, f.Wrapper = img, isize, desc
		// The chunk header and the package inside may differ in byte
		// order (PS3 packages: little-endian header, big-endian package).
		var tag [4]byte
		if _, err := img.ReadAt(tag[:], 0); err != nil {
			return nil, err
		}
		f.order, _ = orderFromTag(tag[:])
		f.BigEndian = f.order == binary.BigEndian
	}
	if err := f.readSummary(); err != nil {
		return nil, err
	}
	if s := &f.Summary; s.CompressionFlags != 0 && len(s.CompressedChunks) > 0 {
		if err := f.expand(s); err != nil {
			// The summary did read: say what the package is.
			what := "package version " + s.Version()
			if f.Game != "" {
				what = f.Game + " " + what
			}
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	if f.game == gameRocketLeague && rocketLeagueEncrypted(f) {
		img, err := decryptRocketLeague(f, o.aesKey)
		if err != nil {
			return nil, err
		}
		f.img = img
		f.pooled, _ = img.(binread.Mem) // from decompressChunks
		if f.Wrapper != "" {
			f.Wrapper += ", "
		}
		f.Wrapper += "Rocket League AES-256-ECB (decrypted)"
	}
	if err := f.readTables(); err != nil {
		return nil, err
	}
	if err := f.checkPaths(); err != nil {
		return nil, err
	}
	return f, nil
}

// expand makes f's image that of a package stored in the compressed
// chunks s lists: expanded chunk by chunk (or block by block) as reads
// reach it when it is big (chunkedImage), else expanded whole. The first
// chunk or block, where the tables start, is expanded at once, so that a
// package whose body does not start expanding fails to open as before.
func (f *File) expand(s *Summary) error {
	ci, isize, desc, err := newChunkedImage(f.img, f.size, f.order, s, f.game)
	switch {
	case err != nil:
		return err
	case ci != nil:
		ci.mu.Lock()
		_, err = ci.expand(0)
		ci.mu.Unlock()
		if err != nil {
			return err
		}
		f.img, f.size = ci, isize
	default:
		var img binread.Mem
		img, isize, desc, err = decompressChunks(f.img, f.size, f.order, s, f.game)
		if err != nil {
			return err
		}
		f.img, f.size, f.pooled = img, isize, img
	}
	if f.Wrapper != "" {
		f.Wrapper += ", "
	}
	f.Wrapper += desc
	return nil
}

// CheckChunks expands the compressed chunks of the package that no read
// has reached yet and returns the first error (nil for packages not
// stored in several chunks). Reading every export need not reach every
// chunk; verification calls it after.
func (f *File) CheckChunks() error {
	if ci, ok := f.img.(*chunkedImage); ok {
		return ci.check()
	}
	return nil
}

// setOrder puts r in the package's byte order, for integers and for
// UTF-16 strings (see game.littleEndianUTF16).
func (f *File) setOrder(r *binread.Reader) {
	r.SetOrder(f.order)
	if f.game.littleEndianUTF16() {
		r.SetUTF16Order(binary.LittleEndian)
	}
}

func (f *File) reader() *binread.Reader {
	r := binread.New(f.img, f.size)
	f.setOrder(r)
	return r
}

func (f *File) readSummary() error {
	r := f.reader()
	s, g, err := readSummary(r)
	if err != nil {
		return fmt.Errorf("legacy: reading summary: %w", err)
	}
	f.Summary = *s
	f.game = g
	f.Game = g.String()
	if s.FileVersion == 684 && s.LicenseeVersion == 150 {
		f.Game = "Mass Effect 2 (PS3)"
	}
	return nil
}

// ue3 reports whether the package uses the UE3 table and property layouts.
func (f *File) ue3() bool { return f.Summary.FileVersion >= verUE3 }

// table returns a reader over [off, end of image) for a table, failing
// cleanly for offsets outside the image.
func (f *File) table(off int32, count int32, field string) (*binread.Reader, error) {
	if count < 0 {
		return nil, &FormatError{Off: 0, Field: "Summary." + field + "Count", Msg: fmt.Sprintf("negative count %d", count)}
	}
	if count == 0 {
		return nil, nil
	}
	if off < 0 || int64(off) >= f.size {
		return nil, &FormatError{Off: 0, Field: "Summary." + field + "Offset", Msg: fmt.Sprintf("offset %d outside the %d-byte package", off, f.size)}
	}
	r := f.reader()
	r.SeekTo(int64(off), field)
	return r, nil
}

func (f *File) readTables() error {
	s := &f.Summary
	ver := int(s.FileVersion)
	ue3 := f.ue3()

	// Names.
	r, err := f.table(s.NameOffset, s.NameCount, "Name")
	if err != nil {
		return err
	}
	if r != nil {
		minSize := int64(5)
		if ue3 {
			minSize = 4
		}
		f.cNames = ver < verNameLength || (!ue3 && looksLikeCString(r))
		n := r.CheckCount(0, int64(s.NameCount), minSize, "Summary.NameCount")
		f.Names = nameCache.Get(n)
		for i := 0; i < n && r.Err() == nil; i++ {
			f.Names = append(f.Names, f.readName(r))
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("legacy: name table entry %d: %w", len(f.Names), err)
		}
		f.NameTableSize = r.Offset() - int64(s.NameOffset)
	}

	// Heritage table of the oldest versions.
	if s.heritage && s.HeritageCount > 0 {
		r, err := f.table(s.HeritageOffset, s.HeritageCount, "Heritage")
		if err != nil {
			return err
		}
		n := r.CheckCount(0, int64(s.HeritageCount), 16, "Summary.HeritageCount")
		for i := 0; i < n && r.Err() == nil; i++ {
			f.Heritage = append(f.Heritage, ue.ReadGuid(r, "Heritage.Guid"))
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("legacy: heritage table: %w", err)
		}
		if len(f.Heritage) > 0 {
			s.Guid = f.Heritage[len(f.Heritage)-1]
		}
	}

	// Imports.
	r, err = f.table(s.ImportOffset, s.ImportCount, "Import")
	if err != nil {
		return err
	}
	if r != nil {
		minSize := int64(7)
		if ue3 {
			minSize = 16
		}
		n := r.CheckCount(0, int64(s.ImportCount), minSize, "Summary.ImportCount")
		f.Imports = importCache.Get(n)
		for i := 0; i < n && r.Err() == nil; i++ {
			var im Import
			im.ClassPackage = f.readNameRef(r, "Import.ClassPackage")
			im.ClassName = f.readNameRef(r, "Import.ClassName")
			if ver < verOuterIndex {
				im.PackageName = f.readNameRef(r, "Import.PackageName")
			} else {
				im.OuterIndex = r.I32("Import.PackageIndex")
			}
			im.ObjectName = f.readNameRef(r, "Import.ObjectName")
			f.Imports = append(f.Imports, im)
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("legacy: import table entry %d: %w", len(f.Imports), err)
		}
		f.ImportTableSize = r.Offset() - int64(s.ImportOffset)
	}

	// Exports.
	r, err = f.table(s.ExportOffset, s.ExportCount, "Export")
	if err != nil {
		return err
	}
	if r != nil {
		minSize := int64(12)
		switch {
		case ue3:
			minSize = 32
		case ver < verOuterIndex:
			minSize = 8
		}
		n := r.CheckCount(0, int64(s.ExportCount), minSize, "Summary.ExportCount")
		f.Exports = exportCache.Get(n)
		for i := 0; i < n && r.Err() == nil; i++ {
			f.Exports = append(f.Exports, f.readExport(r))
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("legacy: export table entry %d: %w", len(f.Exports), err)
		}
		f.ExportTableSize = r.Offset() - int64(s.ExportOffset)
	}
	return f.checkRefs()
}

// maxNameLen bounds a single name (NAME_SIZE is 64 in UE1–UE3; some tools
// write longer, so allow generous room while refusing megabyte "names").
const maxNameLen = 1 << 12

func (f *File) readName(r *binread.Reader) Name {
	ver := int(f.Summary.FileVersion)
	var n Name
	switch {
	case f.cNames:
		n.Name = readCString(r, "Name.Name")
	case ver < verUE3:
		n.Name = readCompactString(r, "Name.Name")
	default:
		n.Name = r.FString("Name.Name")
	}
	lic := meLicensee(f.game, f.Summary.LicenseeVersion)
	switch {
	case (f.game == gameME3 || f.game == gameMELE) && lic >= 142:
		// Mass Effect 3 and the Legendary Edition store no name flags.
	case f.game == gameME2 || (f.game >= gameME1 && f.game <= gameMELE && lic >= 102):
		n.Flags = uint64(r.U32("Name.Flags"))
	case ver >= verUE3ObjectFlags:
		n.Flags = r.U64("Name.Flags")
	default:
		n.Flags = uint64(r.U32("Name.Flags"))
	}
	return n
}

// looksLikeCString peeks at the first name: a compact length is below 0x40
// for any name shorter than 64 characters, while a NUL-terminated name starts
// with two printable characters.
func looksLikeCString(r *binread.Reader) bool {
	at := r.Offset()
	a, b := r.U8("Name"), r.U8("Name")
	r.SeekTo(at, "Name")
	return r.Err() == nil && a >= 'A' && a <= 'z' && b >= ' ' && b < 0x7F
}

// readCString reads a NUL-terminated string (names before version 64).
func readCString(r *binread.Reader, field string) string {
	var b []byte
	for r.Err() == nil {
		c := r.U8(field)
		if r.Err() != nil || c == 0 {
			break
		}
		if len(b) >= maxNameLen {
			r.Failf(field, "unterminated string longer than %d bytes", maxNameLen)
			break
		}
		b = append(b, c)
	}
	return latin1String(b)
}

// readCompactString reads a UE1/UE2 string: compact-index length (including
// the NUL; negative for UTF-16 code units) followed by the characters.
func readCompactString(r *binread.Reader, field string) string {
	start := r.Offset()
	n := r.CompactIndex(field)
	if r.Err() != nil || n == 0 {
		return ""
	}
	if n > 0 {
		if int64(n) > r.Remaining() {
			r.FailAt(start, field, fmt.Errorf("%w: string of %d bytes, %d left", binread.ErrCount, n, r.Remaining()))
			return ""
		}
		var buf [256]byte
		var b []byte
		if int(n) <= len(buf) {
			// Names and most strings: no copy of the bytes on the heap.
			b = buf[:n]
			r.Fixed(b, field)
		} else {
			b = r.Bytes(int64(n), field)
		}
		return latin1String(bytes.TrimRight(b, "\x00"))
	}
	units := -int64(n)
	if units*2 > r.Remaining() {
		r.FailAt(start, field, fmt.Errorf("%w: UTF-16 string of %d units, %d left", binread.ErrCount, units, r.Remaining()))
		return ""
	}
	b := r.Bytes(units*2, field)
	u := make([]rune, 0, units)
	for i := 0; i+1 < len(b); i += 2 {
		c := rune(r.Order().Uint16(b[i:]))
		if c == 0 {
			break
		}
		u = append(u, c)
	}
	return string(u)
}

func latin1String(b []byte) string {
	for _, c := range b {
		if c >= 0x80 {
			rs := make([]rune, len(b))
			for i, c := range b {
				rs[i] = rune(c)
			}
			return string(rs)
		}
	}
	return string(b)
}

// nameIndex reads a name table index: compact index before UE3, int32 after.
func (f *File) nameIndex(r *binread.Reader, field string) (idx int32, number int32) {
	if !f.ue3() {
		return r.CompactIndex(field), 0
	}
	if f.Summary.FileVersion >= verNameNumber {
		if r.Err() == nil && r.Remaining() >= 8 {
			// Both halves at once; with 8 bytes left neither read fails.
			v := r.U64(field)
			if r.BigEndian() {
				return int32(v >> 32), int32(v)
			}
			return int32(v), int32(v >> 32)
		}
		idx = r.I32(field)
		number = r.I32Sub(field, ".Number")
		return idx, number
	}
	return r.I32(field), 0
}

// readNameRef reads a name reference and resolves it; an index outside the
// name table fails the reader.
func (f *File) readNameRef(r *binread.Reader, field string) string {
	start := r.Offset()
	idx, num := f.nameIndex(r, field)
	if r.Err() != nil {
		return ""
	}
	s, ok := f.name(idx, num)
	switch {
	case ok:
	case f.validName(idx):
		r.FailAt(start, field, errTextBudget)
	default:
		// Formatted only if shown: the property decoder tries layouts
		// that fail here before the one that reads.
		r.FailAt(start, field, binread.NewLazyError(nil, "name index %d outside the %d-entry name table", int64(idx), int64(len(f.Names))))
	}
	return s
}

// errTextBudget reports a package whose numbered names, each formatted
// anew, would take too many bytes.
var errTextBudget = errors.New("its numbered names take more than 8 times its size and its exports decoded, and 4 MiB (a long name referenced many times?)")

// textBudget bounds the bytes of its objects' paths, 8 times its size and
// 4 MiB, and of names with numbers made for a package (formatted anew for
// each reference: a long one referenced by many 8-byte references could
// take gigabytes): that and 8 times the export data decoded so far, so
// that decoding again is never refused.
func (f *File) textBudget() int64 { return 8*f.size + 4<<20 }

// name returns the display string of a name reference; false for an index
// outside the name table, or a numbered name past the package's text
// budget.
func (f *File) name(idx, number int32) (string, bool) {
	if idx < 0 || int(idx) >= len(f.Names) {
		return "", false
	}
	base := f.Names[idx].Name
	if m := f.memo; number != 0 && m != nil && m.formatted.Add(int64(len(base))+12) > f.textBudget()+8*m.decoded.Load() {
		return "", false
	}
	return ue.FormatName(base, number), true
}

// objRef reads an object reference: compact index before UE3, int32 after.
func (f *File) objRef(r *binread.Reader, field string) int32 {
	if f.ue3() {
		return r.I32(field)
	}
	return r.CompactIndex(field)
}

func (f *File) readExport(r *binread.Reader) Export {
	s := &f.Summary
	ver := int(s.FileVersion)
	e := Export{Offset: r.Abs()}
	e.ClassIndex = f.objRef(r, "Export.ClassIndex")
	e.SuperIndex = f.objRef(r, "Export.SuperIndex")
	if ver >= verOuterIndex {
		e.OuterIndex = r.I32("Export.PackageIndex")
	}
	e.ObjectName = f.readNameRef(r, "Export.ObjectName")
	if !f.ue3() {
		e.ObjectFlags = uint64(r.U32("Export.ObjectFlags"))
		start := r.Offset()
		e.SerialSize = int64(r.CompactIndex("Export.SerialSize"))
		if e.SerialSize < 0 {
			r.FailAt(start, "Export.SerialSize", binread.ErrNegative)
		}
		if e.SerialSize > 0 {
			e.SerialOffset = int64(r.CompactIndex("Export.SerialOffset"))
		}
		return e
	}
	if ver >= verArchetype {
		e.ArchetypeIndex = r.I32("Export.ArchetypeIndex")
	}
	if ver >= verUE3ObjectFlags {
		e.ObjectFlags = r.U64("Export.ObjectFlags")
	} else {
		e.ObjectFlags = uint64(r.U32("Export.ObjectFlags"))
	}
	e.SerialSize = int64(r.I32("Export.SerialSize"))
	if e.SerialSize != 0 || ver >= verHeadersSize {
		e.SerialOffset = int64(r.I32("Export.SerialOffset"))
	}
	if f.game == gameRocketLeague && s.LicenseeVersion >= 22 {
		// Rocket League widens SerialOffset to 64 bits.
		e.SerialOffset |= int64(r.U32("Export.SerialOffsetUpper")) << 32
	}
	if ver < verNoComponentMap {
		start := r.Offset()
		e.ComponentMap = r.I32("Export.ComponentMapCount")
		n := r.CheckCount(start, int64(e.ComponentMap), 12, "Export.ComponentMapCount")
		if f.Summary.FileVersion >= verNameNumber {
			r.Skip(int64(n)*12, "Export.ComponentMap")
		} else {
			r.Skip(int64(n)*8, "Export.ComponentMap")
		}
	}
	if ver >= verExportFlags {
		e.ExportFlags = r.U32("Export.ExportFlags")
	}
	if ver >= verNetObjectCount {
		n := r.Count("Export.NetObjectCount", 4)
		if n > 0 {
			e.NetObjectCount = make([]int32, 0, binread.SliceCap(n))
			for range n {
				e.NetObjectCount = append(e.NetObjectCount, r.I32("Export.NetObjectCount"))
			}
		}
		e.PackageGuid = ue.ReadGuid(r, "Export.PackageGuid")
	}
	if ver >= verExportPkgFlags {
		e.PackageFlags = r.U32("Export.PackageFlags")
	}
	if e.SerialSize < 0 {
		r.Failf("Export.SerialSize", "negative size %d", e.SerialSize)
	}
	return e
}

// checkRefs validates every object reference in the tables, so that path
// resolution never indexes outside them.
func (f *File) checkRefs() error {
	bad := func(ref int32) bool {
		switch {
		case ref < 0:
			return int64(-int64(ref)-1) >= int64(len(f.Imports))
		case ref > 0:
			return int(ref-1) >= len(f.Exports)
		}
		return false
	}
	for i, im := range f.Imports {
		if bad(im.OuterIndex) {
			return &FormatError{Field: "Import.PackageIndex", Msg: fmt.Sprintf("import %d refers to object %d, outside the tables", i, im.OuterIndex)}
		}
	}
	for i, e := range f.Exports {
		for _, ref := range [...]int32{e.ClassIndex, e.SuperIndex, e.OuterIndex, e.ArchetypeIndex} {
			if bad(ref) {
				return &FormatError{Off: e.Offset, Field: "Export", Msg: fmt.Sprintf("export %d (%s) refers to object %d, outside the tables", i, e.ObjectName, ref)}
			}
		}
	}
	return nil
}

// maxDepth bounds outer chains; a cycle in a corrupt file ends there.
const maxDepth = 64

// ObjectName returns the name of the object an object reference points to
// ("None" for 0).
func (f *File) ObjectName(ref int32) string {
	switch {
	case ref < 0 && int(-ref-1) < len(f.Imports):
		return f.Imports[-ref-1].ObjectName
	case ref > 0 && int(ref-1) < len(f.Exports):
		return f.Exports[ref-1].ObjectName
	}
	return "None"
}

// outer returns the outer reference of the object a reference points to.
func (f *File) outer(ref int32) int32 {
	switch {
	case ref < 0 && int(-ref-1) < len(f.Imports):
		return f.Imports[-ref-1].OuterIndex
	case ref > 0 && int(ref-1) < len(f.Exports):
		return f.Exports[ref-1].OuterIndex
	}
	return 0
}

// ObjectPath returns the dotted full path of the object a reference points
// to: "Engine.Texture" for an import, "MyPackage.Group.Object" for an
// export (the package's own name first). Each object's is made once.
func (f *File) ObjectPath(ref int32) string {
	ni := len(f.Imports)
	m := f.memo
	if m == nil || ref == 0 || ref < -int32(ni) || ref > int32(len(f.Exports)) {
		return f.objectPath(ref)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.paths == nil {
		m.paths = make([]string, ni+len(f.Exports)+1)
	}
	p := &m.paths[int(ref)+ni]
	if *p == "" {
		*p = f.objectPath(ref)
	}
	return *p
}

// checkPaths fails when the paths of the package's imports and exports
// would take more than its text budget in all: long names repeated down
// deep outer chains could make a small file's paths take gigabytes.
func (f *File) checkPaths() error {
	total, limit := int64(0), f.textBudget()
	for k := range len(f.Imports) + len(f.Exports) {
		ref := -int32(k) - 1
		if k >= len(f.Imports) {
			ref = int32(k-len(f.Imports)) + 1
		}
		// At least len(f.objectPath(ref)).
		total += int64(len(f.PackageName)) + 1
		cur := ref
		for depth := 0; cur != 0 && depth < maxDepth; depth++ {
			total += int64(len(f.ObjectName(cur))) + 1
			if cur < 0 && int(-cur-1) < len(f.Imports) {
				total += int64(len(f.Imports[-cur-1].PackageName)) + 1
			}
			cur = f.outer(cur)
		}
		if total > limit {
			return fmt.Errorf("legacy: the paths of its %d imports and %d exports take more than %d bytes, 8 times its size and 4 MiB (long names repeated by deep outer chains?)", len(f.Imports), len(f.Exports), limit)
		}
	}
	return nil
}

// objectPath is ObjectPath, made anew.
func (f *File) objectPath(ref int32) string {
	if ref == 0 {
		return "None"
	}
	parts := make([]string, 0, 4)
	cur := ref
	for depth := 0; cur != 0 && depth < maxDepth; depth++ {
		parts = append(parts, f.ObjectName(cur))
		if cur < 0 && int(-cur-1) < len(f.Imports) && f.Imports[-cur-1].PackageName != "" {
			parts = append(parts, f.Imports[-cur-1].PackageName)
		}
		if cur > 0 && f.outer(cur) == 0 && f.PackageName != "" {
			parts = append(parts, f.PackageName)
		}
		cur = f.outer(cur)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// pathIsNone reports whether ObjectPath(ref) is "None" without building
// the path: the reference is 0, or the path has the one part "None" (an
// outermost object so named, with no package name before it).
func (f *File) pathIsNone(ref int32) bool {
	switch {
	case ref == 0:
		return true
	case ref < 0 && int(-ref-1) < len(f.Imports):
		im := &f.Imports[-ref-1]
		return im.ObjectName == "None" && im.OuterIndex == 0 && im.PackageName == ""
	case ref > 0 && int(ref-1) < len(f.Exports):
		e := &f.Exports[ref-1]
		return e.ObjectName == "None" && e.OuterIndex == 0 && f.PackageName == ""
	}
	// Outside the tables ObjectName gives "None", and ObjectPath puts the
	// package name before an export reference's.
	return ref < 0 || f.PackageName == ""
}

// ClassName returns the class name of export i (0-based): "Class" when its
// ClassIndex is 0.
func (f *File) ClassName(i int) string {
	if i < 0 || i >= len(f.Exports) {
		return ""
	}
	if c := f.Exports[i].ClassIndex; c != 0 {
		return f.ObjectName(c)
	}
	return "Class"
}

// ClassPath returns the full class path of export i: "Engine.Texture",
// "Core.Class" for classes.
func (f *File) ClassPath(i int) string {
	if i < 0 || i >= len(f.Exports) {
		return ""
	}
	if c := f.Exports[i].ClassIndex; c != 0 {
		return f.ObjectPath(c)
	}
	return "Core.Class"
}

// ImportPath returns the full path of import i.
func (f *File) ImportPath(i int) string { return f.ObjectPath(-int32(i) - 1) }

// ExportPath returns the full path of export i.
func (f *File) ExportPath(i int) string { return f.ObjectPath(int32(i) + 1) }

// maxExportSize bounds what Data reads for one object.
const maxExportSize = 1 << 30

// Data returns the serialized bytes of export i.
func (f *File) Data(i int) ([]byte, error) {
	if i < 0 || i >= len(f.Exports) {
		return nil, fmt.Errorf("legacy: export %d out of range (%d exports)", i, len(f.Exports))
	}
	e := &f.Exports[i]
	if e.SerialSize == 0 {
		return nil, nil
	}
	if e.SerialOffset < 0 || e.SerialSize < 0 || e.SerialSize > maxExportSize || e.SerialOffset > f.size || e.SerialSize > f.size-e.SerialOffset {
		return nil, &FormatError{Off: e.Offset, Field: "Export.SerialOffset", Msg: fmt.Sprintf("export %d (%s): bytes [%d, +%d) outside the %d-byte package", i, e.ObjectName, e.SerialOffset, e.SerialSize, f.size)}
	}
	b := make([]byte, e.SerialSize)
	if _, err := f.img.ReadAt(b, e.SerialOffset); err != nil && !(errors.Is(err, io.EOF)) {
		return nil, fmt.Errorf("legacy: export %d (%s): %w", i, e.ObjectName, err)
	}
	return b, nil
}

// view returns the serialized bytes of export i like [File.Data], sharing
// them with the package image when that is held in memory (callers must
// not modify them). A view of an expanded chunk keeps it pinned: the
// caller gives it back with unpin(pin) once done with the bytes.
func (f *File) view(i int) (data []byte, pin *expandedChunk, err error) {
	if i < 0 || i >= len(f.Exports) {
		data, err = f.Data(i)
		return data, nil, err
	}
	e := &f.Exports[i]
	if e.SerialSize == 0 || e.SerialOffset < 0 || e.SerialSize < 0 || e.SerialSize > maxExportSize || e.SerialOffset > f.size || e.SerialSize > f.size-e.SerialOffset {
		data, err = f.Data(i) // its result or its error
		return data, nil, err
	}
	switch img := f.img.(type) {
	case binread.Mem:
		if f.size <= int64(len(img)) {
			return img[e.SerialOffset : e.SerialOffset+e.SerialSize : e.SerialOffset+e.SerialSize], nil, nil
		}
	case *chunkedImage:
		b, pin, ok, err := img.view(e.SerialOffset, e.SerialSize)
		if err != nil {
			return nil, nil, fmt.Errorf("legacy: export %d (%s): %w", i, e.ObjectName, err)
		}
		if ok {
			return b, pin, nil
		}
	}
	if binread.CanSlice {
		// A file too big to read whole, mapped by its reader.
		if b, ok := binread.SliceOf(f.img, e.SerialOffset, e.SerialSize); ok {
			return b, nil, nil
		}
	}
	data, err = f.Data(i)
	return data, nil, err
}

// unpin gives back the chunk a view pinned (nil: none).
func (f *File) unpin(pin *expandedChunk) {
	if ci, ok := f.img.(*chunkedImage); ok {
		ci.unpin(pin)
	}
}

// Size returns the size of the package image (after unwrapping).
func (f *File) Size() int64 { return f.size }

// ReadAt reads from the package image (after unwrapping).
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.img.ReadAt(p, off) }
