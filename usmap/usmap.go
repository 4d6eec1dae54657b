// Package usmap reads .usmap type-mapping files: the property schemas of a
// game's native classes and structs, dumped from a running game, which cooked
// packages with unversioned property serialization need to be read at all.
//
// The format (magic 0x30C4) has versions 0 (Initial) to 4
// (ExplicitEnumValues): a header with optional package versioning (v1+),
// a compression method (none, Oodle, Brotli, Zstandard) and the payload: a
// name table, the enums, the schemas, and optional extensions ("CEXT": PPTH
// module paths, EATR attributes, ENVP enum values; legacy MODL).
//
// # Security
//
// Every count is checked against the bytes that remain before anything is
// allocated, the decompressed size is capped at [MaxDecompressedSize], and
// nested property types are bounded in depth, so hostile files fail with a
// [*FormatError] rather than exhausting memory.
package usmap

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/brotli"
	"github.com/upkg/upkg/ue"
)

// Magic is the first two bytes of every .usmap file (little-endian uint16).
const Magic = 0x30C4

// Version is the .usmap format version (EUsmapVersion).
type Version uint8

// The .usmap versions.
const (
	VersionInitial            Version = iota // initial format
	VersionPackageVersioning                 // adds optional package versioning
	VersionLongFName                         // 16-bit name lengths
	VersionLargeEnums                        // 16-bit enum entry counts
	VersionExplicitEnumValues                // int64 value per enum entry
	VersionLatest             = VersionExplicitEnumValues
)

// Compression is the payload compression method (EUsmapCompressionMethod).
type Compression uint8

// The compression methods.
const (
	CompressionNone Compression = iota
	CompressionOodle
	CompressionBrotli
	CompressionZstd
)

func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "None"
	case CompressionOodle:
		return "Oodle"
	case CompressionBrotli:
		return "Brotli"
	case CompressionZstd:
		return "Zstd"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// MaxDecompressedSize bounds the payload a .usmap may declare. The largest
// mappings in the wild (Fortnite) are around 20 MiB uncompressed.
const MaxDecompressedSize = 256 << 20

// maxRatio bounds the expansion of a compressed payload. Real mappings
// compress about 3.5:1 (Zstd, Brotli); the bound leaves a wide margin.
const maxRatio = 256

// maxTypeDepth bounds nested property types (Map<Array<Struct>>...). Real
// files nest three or four levels; the limit stops stack exhaustion.
const maxTypeDepth = 32

// FormatError reports a malformed .usmap file.
type FormatError struct {
	Offset int64 // offset in the file, or in the decompressed payload when InPayload
	// InPayload is set when Offset counts from the start of the decompressed payload.
	InPayload bool
	Msg       string
	Err       error
}

func (e *FormatError) Error() string {
	where := "file"
	if e.InPayload {
		where = "payload"
	}
	s := fmt.Sprintf("usmap: %s at %s offset 0x%x", e.Msg, where, e.Offset)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid file this package cannot read (a newer
// version, or a compression method with no decoder such as Oodle).
type UnsupportedError struct{ Msg string }

func (e *UnsupportedError) Error() string { return "usmap: unsupported: " + e.Msg }

// ErrOodle is wrapped by the error for Oodle-compressed mappings when no
// Oodle decoder is registered with package compression.
var ErrOodle = errors.New("Oodle not available")

// PropertyKind is EPropertyType as usmap stores it.
type PropertyKind uint8

// The property kinds, in .usmap order.
const (
	ByteProperty PropertyKind = iota
	BoolProperty
	IntProperty
	FloatProperty
	ObjectProperty
	NameProperty
	DelegateProperty
	DoubleProperty
	ArrayProperty
	StructProperty
	StrProperty
	TextProperty
	InterfaceProperty
	MulticastDelegateProperty
	WeakObjectProperty
	LazyObjectProperty
	AssetObjectProperty
	SoftObjectProperty
	UInt64Property
	UInt32Property
	UInt16Property
	Int64Property
	Int16Property
	Int8Property
	MapProperty
	SetProperty
	EnumProperty
	FieldPathProperty
	OptionalProperty
	Utf8StrProperty
	AnsiStrProperty
	numKinds

	// UnknownProperty marks a property whose class the dumper did not know.
	UnknownProperty PropertyKind = 0xFF
)

var kindNames = [...]string{
	"ByteProperty", "BoolProperty", "IntProperty", "FloatProperty", "ObjectProperty", "NameProperty",
	"DelegateProperty", "DoubleProperty", "ArrayProperty", "StructProperty", "StrProperty", "TextProperty",
	"InterfaceProperty", "MulticastDelegateProperty", "WeakObjectProperty", "LazyObjectProperty",
	"AssetObjectProperty", "SoftObjectProperty", "UInt64Property", "UInt32Property", "UInt16Property",
	"Int64Property", "Int16Property", "Int8Property", "MapProperty", "SetProperty", "EnumProperty",
	"FieldPathProperty", "OptionalProperty", "Utf8StrProperty", "AnsiStrProperty",
}

// String returns the engine's property class name, e.g. "IntProperty".
func (k PropertyKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("PropertyKind(%d)", uint8(k))
}

// Type is a property type, with its parameters.
type Type struct {
	Kind   PropertyKind
	Struct string // StructProperty: the struct's name
	Enum   string // EnumProperty: the enum's name
	Inner  *Type  // Array/Set/Optional element, Map key, Enum underlying type
	Value  *Type  // Map value
}

// String formats the type like "MapProperty<NameProperty, StructProperty<Vector>>".
func (t *Type) String() string {
	if t == nil {
		return "None"
	}
	switch t.Kind {
	case StructProperty:
		return t.Kind.String() + "<" + t.Struct + ">"
	case EnumProperty:
		return t.Kind.String() + "<" + t.Enum + ", " + t.Inner.String() + ">"
	case ArrayProperty, SetProperty, OptionalProperty:
		return t.Kind.String() + "<" + t.Inner.String() + ">"
	case MapProperty:
		return t.Kind.String() + "<" + t.Inner.String() + ", " + t.Value.String() + ">"
	}
	return t.Kind.String()
}

// Property is one serializable property of a schema.
type Property struct {
	Name string
	// Index is the property's schema index within its own struct (not
	// counting the super struct); a static array occupies ArraySize
	// consecutive indices.
	Index     uint16
	ArraySize uint8
	Type      *Type
	Flags     uint64 // EPropertyFlags, from the EATR extension when present
}

// Struct is the schema of a class or struct.
type Struct struct {
	Name  string
	Super string // "" when none
	// PropertyCount counts the schema indices of this struct alone (static
	// arrays count once per element).
	PropertyCount uint16
	Properties    []Property
	ModulePath    string // from the PPTH or MODL extension, "" when absent
	// Kind and Flags come from the EATR extension: 1 UScriptStruct, 2 UClass.
	Kind  uint8
	Flags uint32

	byIndex []int16       // schema index -> position in Properties, -1 when none
	sparse  map[int]int16 // the same for sparse indices
}

// Enum is an enum with its entries.
type Enum struct {
	Name       string
	ModulePath string
	Flags      uint32
	Entries    []EnumEntry
}

// EnumEntry is one enum value.
type EnumEntry struct {
	Name  string
	Value int64
}

// ValueName returns the name of the entry with value v.
func (e *Enum) ValueName(v int64) (string, bool) {
	for _, x := range e.Entries {
		if x.Value == v {
			return x.Name, true
		}
	}
	return "", false
}

// CustomVersion is one entry of the optional package versioning block.
type CustomVersion struct {
	Key     ue.Guid
	Version int32
}

// File is a parsed .usmap file.
type File struct {
	Version     Version
	Compression Compression
	// Package versioning (v1+, when HasVersioning).
	HasVersioning  bool
	FileVersionUE4 int32
	FileVersionUE5 int32
	CustomVersions []CustomVersion
	NetCL          uint32

	Names   []string
	Enums   []*Enum
	Structs []*Struct
	// Extensions lists the extension ids found ("PPTH", "EATR", ...).
	Extensions []string
	// Warnings lists tolerated defects (an extension that could not be read,
	// a payload shorter than recorded).
	Warnings []string

	structs map[string]*Struct // lower-cased name (and Module.Name) -> struct
	enums   map[string]*Enum
}

// Open reads the named .usmap file.
func Open(name string) (*File, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// NewReader reads a .usmap of the given size from r.
func NewReader(r io.ReaderAt, size int64) (*File, error) {
	if size < 0 || size > MaxDecompressedSize {
		return nil, &FormatError{Msg: fmt.Sprintf("file size %d out of range", size)}
	}
	b := make([]byte, size)
	if n, err := r.ReadAt(b, 0); int64(n) < size {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return Parse(b)
}

// Parse reads a .usmap file held in memory.
func Parse(data []byte) (*File, error) {
	r := binread.FromBytes(data)
	f := &File{}
	magic := r.U16("Usmap.Magic")
	if r.Err() == nil && magic != Magic {
		return nil, &FormatError{Msg: fmt.Sprintf("bad magic 0x%04X (want 0x%04X): not a .usmap file", magic, Magic)}
	}
	f.Version = Version(r.U8("Usmap.Version"))
	if r.Err() == nil && f.Version > VersionLatest {
		return nil, &UnsupportedError{Msg: fmt.Sprintf("version %d (newest known is %d)", f.Version, VersionLatest)}
	}
	if f.Version >= VersionPackageVersioning {
		f.HasVersioning = r.I32("Usmap.bHasVersioning") != 0
		if f.HasVersioning {
			f.FileVersionUE4 = r.I32("Usmap.FileVersionUE4")
			f.FileVersionUE5 = r.I32("Usmap.FileVersionUE5")
			n := r.Count("Usmap.CustomVersions", 20)
			for range n {
				var cv CustomVersion
				cv.Key = ue.ReadGuid(r, "Usmap.CustomVersion.Key")
				cv.Version = r.I32("Usmap.CustomVersion.Version")
				f.CustomVersions = append(f.CustomVersions, cv)
			}
			f.NetCL = r.U32("Usmap.NetCL")
		}
	}
	f.Compression = Compression(r.U8("Usmap.CompressionMethod"))
	compSize := r.U32("Usmap.CompressedSize")
	decompSize := r.U32("Usmap.DecompressedSize")
	if err := r.Err(); err != nil {
		return nil, wrapRead(err, false)
	}
	if f.Compression == CompressionNone && compSize == decompSize && int64(compSize) > r.Remaining() {
		// Some dumpers record sizes larger than the payload they wrote
		// (UAssetAPI's F1Manager2023.usmap); the payload is read as far as it goes.
		f.Warnings = append(f.Warnings, fmt.Sprintf("payload size %d recorded, only %d bytes present", compSize, r.Remaining()))
		compSize = uint32(r.Remaining())
		decompSize = compSize
	}
	if int64(compSize) > r.Remaining() {
		return nil, &FormatError{Offset: r.Abs(), Msg: fmt.Sprintf("compressed size %d exceeds the %d bytes left", compSize, r.Remaining())}
	}
	if decompSize > MaxDecompressedSize {
		return nil, &FormatError{Offset: r.Abs(), Msg: fmt.Sprintf("decompressed size %d exceeds the %d limit", decompSize, MaxDecompressedSize)}
	}
	if f.Compression != CompressionNone && int64(decompSize) > int64(compSize)*maxRatio+1<<20 {
		// Checked before the output buffer is allocated: a lying header
		// must not cost more memory than the input could really expand to.
		return nil, &FormatError{Offset: r.Abs(), Msg: fmt.Sprintf("decompressed size %d is implausible for %d compressed bytes", decompSize, compSize)}
	}
	src := data[r.Offset() : r.Offset()+int64(compSize)]
	var payload []byte
	switch f.Compression {
	case CompressionNone:
		if compSize != decompSize {
			return nil, &FormatError{Offset: r.Abs(), Msg: fmt.Sprintf("uncompressed payload with compressed size %d != decompressed size %d", compSize, decompSize)}
		}
		payload = src
	case CompressionOodle:
		if !compression.Supported("Oodle") {
			return nil, &UnsupportedError{Msg: fmt.Sprintf("the mappings payload is Oodle-compressed: %v (no Oodle decoder is registered; use an uncompressed, Brotli or Zstd .usmap)", ErrOodle)}
		}
		payload = make([]byte, decompSize)
		if err := compression.Decompress("Oodle", payload, src); err != nil {
			var ue *compression.UnsupportedError
			if errors.As(err, &ue) {
				return nil, &UnsupportedError{Msg: fmt.Sprintf("the mappings payload is %s-compressed: %v", ue.Method, err)}
			}
			return nil, &FormatError{Offset: r.Abs(), Msg: "Oodle payload", Err: err}
		}
	case CompressionBrotli:
		var err error
		payload, err = readBrotli(src, int64(decompSize))
		if err != nil {
			return nil, &FormatError{Offset: r.Abs(), Msg: "Brotli payload", Err: err}
		}
	case CompressionZstd:
		payload = make([]byte, decompSize)
		if err := compression.Decompress("Zstd", payload, src); err != nil {
			return nil, &FormatError{Offset: r.Abs(), Msg: "Zstd payload", Err: err}
		}
	default:
		return nil, &UnsupportedError{Msg: fmt.Sprintf("compression method %d", f.Compression)}
	}
	if err := f.readPayload(payload); err != nil {
		return nil, err
	}
	return f, nil
}

// readBrotli decodes a Brotli stream that must produce exactly size bytes
// (internal/brotli: andybalholm/brotli's package would link net/http into
// every importer, the page's WebAssembly included).
func readBrotli(src []byte, size int64) ([]byte, error) {
	// The size was checked against the compressed size (maxRatio) before
	// this allocation; the decoder writes into it and never past it.
	out := make([]byte, size)
	n, err := brotli.Decode(out, src)
	if err != nil {
		return nil, fmt.Errorf("%w (wanted %d bytes)", err, size)
	}
	if int64(n) != size {
		return nil, fmt.Errorf("stream ends after %d bytes (wanted %d bytes)", n, size)
	}
	return out, nil
}

func wrapRead(err error, inPayload bool) error {
	var be *binread.Error
	if errors.As(err, &be) {
		return &FormatError{Offset: be.Offset, InPayload: inPayload, Msg: be.Field, Err: be.Err}
	}
	return &FormatError{InPayload: inPayload, Msg: "read", Err: err}
}

// payloadReader reads names by index from the name table.
type payloadReader struct {
	*binread.Reader
	names []string
}

func (p *payloadReader) name(field string) string {
	start := p.Offset()
	i := p.I32(field)
	if p.Err() != nil {
		return ""
	}
	if i == -1 {
		return ""
	}
	if i < 0 || int(i) >= len(p.names) {
		p.FailAt(start, field, fmt.Errorf("name index %d outside the name table of %d", i, len(p.names)))
		return ""
	}
	return p.names[i]
}

func (f *File) readPayload(b []byte) error {
	p := &payloadReader{Reader: binread.FromBytes(b)}
	nameLen := int64(1)
	if f.Version >= VersionLongFName {
		nameLen = 2
	}
	n := p.Count("Usmap.Names", nameLen)
	f.Names = make([]string, 0, binread.SliceCap(n))
	for range n {
		var l int64
		if f.Version >= VersionLongFName {
			l = int64(p.U16("Usmap.Name.Length"))
		} else {
			l = int64(p.U8("Usmap.Name.Length"))
		}
		s := p.Bytes(l, "Usmap.Name")
		f.Names = append(f.Names, string(s))
	}
	p.names = f.Names

	// Enums.
	n = p.Count("Usmap.Enums", 5)
	f.enums = make(map[string]*Enum, binread.SliceCap(n))
	f.Enums = make([]*Enum, 0, binread.SliceCap(n))
	for range n {
		e := &Enum{Name: p.name("Usmap.Enum.Name")}
		var cnt int
		if f.Version >= VersionLargeEnums {
			cnt = int(p.U16("Usmap.Enum.EntryCount"))
		} else {
			cnt = int(p.U8("Usmap.Enum.EntryCount"))
		}
		entrySize := int64(4)
		if f.Version >= VersionExplicitEnumValues {
			entrySize = 12
		}
		cnt = p.CheckCount(p.Offset(), int64(cnt), entrySize, "Usmap.Enum.Entries")
		e.Entries = make([]EnumEntry, 0, cnt)
		for j := range cnt {
			if f.Version >= VersionExplicitEnumValues {
				v := p.I64("Usmap.Enum.Value")
				e.Entries = append(e.Entries, EnumEntry{Value: v, Name: p.name("Usmap.Enum.EntryName")})
			} else {
				e.Entries = append(e.Entries, EnumEntry{Value: int64(j), Name: p.name("Usmap.Enum.EntryName")})
			}
		}
		if p.Err() != nil {
			break
		}
		f.Enums = append(f.Enums, e)
		key := strings.ToLower(e.Name)
		if _, dup := f.enums[key]; !dup { // some games ship duplicate enums; the first wins
			f.enums[key] = e
		}
	}

	// Schemas.
	n = p.Count("Usmap.Schemas", 12)
	f.structs = make(map[string]*Struct, binread.SliceCap(n))
	f.Structs = make([]*Struct, 0, binread.SliceCap(n))
	for range n {
		s := &Struct{Name: p.name("Usmap.Schema.Name"), Super: p.name("Usmap.Schema.Super")}
		s.PropertyCount = p.U16("Usmap.Schema.PropertyCount")
		cnt := int(p.U16("Usmap.Schema.SerializablePropertyCount"))
		cnt = p.CheckCount(p.Offset(), int64(cnt), 8, "Usmap.Schema.Properties")
		s.Properties = make([]Property, 0, cnt)
		for range cnt {
			var pr Property
			pr.Index = p.U16("Usmap.Property.SchemaIndex")
			pr.ArraySize = p.U8("Usmap.Property.ArraySize")
			pr.Name = p.name("Usmap.Property.Name")
			pr.Type = f.readType(p, 0)
			s.Properties = append(s.Properties, pr)
		}
		if p.Err() != nil {
			break
		}
		s.buildIndex()
		f.Structs = append(f.Structs, s)
		f.structs[strings.ToLower(s.Name)] = s
	}
	if err := p.Err(); err != nil {
		return wrapRead(err, true)
	}
	if p.Remaining() >= 4 {
		// Extensions only add module paths and flags; the schemas are
		// complete without them, so a defect there is a warning.
		f.readExtensions(p)
		if err := p.Err(); err != nil {
			f.Warnings = append(f.Warnings, "extensions: "+wrapRead(err, true).Error())
		}
	}
	return nil
}

func (f *File) readType(p *payloadReader, depth int) *Type {
	if depth > maxTypeDepth {
		p.Failf("Usmap.PropertyType", "property types nested deeper than %d", maxTypeDepth)
		return nil
	}
	start := p.Offset()
	k := PropertyKind(p.U8("Usmap.PropertyType"))
	if p.Err() != nil {
		return nil
	}
	t := &Type{Kind: k}
	switch k {
	case EnumProperty:
		t.Inner = f.readType(p, depth+1)
		t.Enum = p.name("Usmap.PropertyType.EnumName")
	case StructProperty:
		t.Struct = p.name("Usmap.PropertyType.StructName")
	case ArrayProperty, SetProperty, OptionalProperty:
		t.Inner = f.readType(p, depth+1)
	case MapProperty:
		t.Inner = f.readType(p, depth+1)
		t.Value = f.readType(p, depth+1)
	default:
		// Dumpers write 0xFF (Unknown) for property classes they do not
		// know (Bellwright, TheForeverWinter); such a type has no
		// parameters, so the schema stays readable.
		if k >= numKinds && k != UnknownProperty {
			p.FailAt(start, "Usmap.PropertyType", fmt.Errorf("unknown property type %d", k))
			return nil
		}
	}
	return t
}

func (s *Struct) buildIndex() {
	// The index covers the indices the properties really use: a lying
	// PropertyCount must not cost memory (a dense slice when the indices
	// are compact, a map otherwise).
	n := 0
	for _, p := range s.Properties {
		n = max(n, int(p.Index)+max(1, int(p.ArraySize)))
	}
	n = min(n, int(s.PropertyCount))
	dense := n <= 4*len(s.Properties)+64
	if dense {
		s.byIndex = make([]int16, n)
		for i := range s.byIndex {
			s.byIndex[i] = -1
		}
	} else {
		s.sparse = make(map[int]int16, len(s.Properties))
	}
	for i, p := range s.Properties {
		if i >= 1<<15 {
			break
		}
		for k := 0; k < max(1, int(p.ArraySize)); k++ {
			idx := int(p.Index) + k
			if idx >= n {
				break
			}
			if dense {
				s.byIndex[idx] = int16(i)
			} else {
				s.sparse[idx] = int16(i)
			}
		}
	}
}

// lookup returns the position in Properties of schema index i, or -1.
func (s *Struct) lookup(i int) int {
	if s.sparse != nil {
		if v, ok := s.sparse[i]; ok {
			return int(v)
		}
		return -1
	}
	if i < 0 || i >= len(s.byIndex) {
		return -1
	}
	return int(s.byIndex[i])
}

// readExtensions reads the optional trailer: "CEXT" with a list of tagged
// extensions, or the legacy MODL block flagged by a uint32 1.
func (f *File) readExtensions(p *payloadReader) {
	magic := p.U32("Usmap.ExtensionsMagic")
	switch magic {
	case 0x54584543: // "CEXT"
		layout := p.U8("Usmap.Extensions.LayoutVersion")
		if layout != 0 {
			return // unknown layout: the schemas are complete without it
		}
		n := p.Count("Usmap.Extensions", 8)
		for range n {
			id := string(p.Bytes(4, "Usmap.Extension.Id"))
			size := int64(p.U32("Usmap.Extension.Size"))
			if p.Err() != nil {
				return
			}
			start := p.Offset()
			if size > p.Remaining() {
				p.Failf("Usmap.Extension.Size", "extension %q of %d bytes, %d left", id, size, p.Remaining())
				return
			}
			sub := &payloadReader{Reader: p.Section(start, size, "Usmap.Extension."+id), names: p.names}
			f.Extensions = append(f.Extensions, id)
			f.readExtension(id, sub)
			p.SeekTo(start+size, "Usmap.Extension")
		}
	case 1:
		f.Extensions = append(f.Extensions, "MODL")
		f.readMODL(p)
	}
}

// readExtension reads one CEXT extension. A malformed extension is ignored:
// the core schemas do not depend on it.
func (f *File) readExtension(id string, p *payloadReader) {
	switch id {
	case "PPTH":
		if p.U8("PPTH.Version") != 0 {
			return
		}
		n := p.Count("PPTH.Enums", 4)
		paths := make([]string, 0, binread.SliceCap(n))
		for range n {
			paths = append(paths, p.name("PPTH.EnumPath"))
		}
		m := p.Count("PPTH.Schemas", 4)
		spaths := make([]string, 0, binread.SliceCap(m))
		for range m {
			spaths = append(spaths, p.name("PPTH.SchemaPath"))
		}
		if p.Err() != nil {
			return
		}
		for i, e := range f.Enums {
			if i < len(paths) {
				e.ModulePath = paths[i]
			}
		}
		for i, s := range f.Structs {
			if i < len(spaths) {
				s.ModulePath = spaths[i]
				if s.ModulePath != "" {
					f.structs[strings.ToLower(s.ModulePath+"."+s.Name)] = s
				}
			}
		}
	case "EATR":
		if p.U8("EATR.Version") != 0 {
			return
		}
		n := p.Count("EATR.Enums", 4)
		flags := make([]uint32, 0, binread.SliceCap(n))
		for range n {
			flags = append(flags, p.U32("EATR.EnumFlags"))
		}
		m := p.Count("EATR.Schemas", 9)
		for i := range m {
			kind := p.U8("EATR.StructKind")
			sflags := p.U32("EATR.StructFlags")
			np := p.Count("EATR.PropertyFlags", 8)
			for j := range np {
				v := p.U64("EATR.PropertyFlags")
				if i < len(f.Structs) && j < len(f.Structs[i].Properties) {
					f.Structs[i].Properties[j].Flags = v
				}
			}
			if i < len(f.Structs) {
				f.Structs[i].Kind, f.Structs[i].Flags = kind, sflags
			}
		}
		for i, e := range f.Enums {
			if i < len(flags) {
				e.Flags = flags[i]
			}
		}
	case "ENVP":
		if p.U8("ENVP.Version") != 0 {
			return
		}
		n := p.Count("ENVP.Enums", 4)
		for i := range n {
			cnt := p.Count("ENVP.Entries", 12)
			entries := make([]EnumEntry, 0, cnt)
			for range cnt {
				name := p.name("ENVP.EntryName")
				entries = append(entries, EnumEntry{Name: name, Value: p.I64("ENVP.EntryValue")})
			}
			if p.Err() == nil && i < len(f.Enums) {
				f.Enums[i].Entries = entries
			}
		}
	case "MODL":
		f.readMODL(p)
	}
}

func (f *File) readMODL(p *payloadReader) {
	n := int(p.U16("MODL.Count"))
	n = p.CheckCount(p.Offset(), int64(n), 1, "MODL.Paths")
	paths := make([]string, 0, n)
	for range n {
		// A byte length and the characters (no terminator).
		l := int64(p.U8("MODL.Path.Length"))
		paths = append(paths, string(p.Bytes(l, "MODL.Path")))
	}
	for _, s := range f.Structs {
		var i int
		if n > 255 {
			i = int(p.U16("MODL.Index"))
		} else {
			i = int(p.U8("MODL.Index"))
		}
		if p.Err() != nil {
			return
		}
		if i < len(paths) {
			s.ModulePath = paths[i]
			if _, dup := f.structs[strings.ToLower(s.ModulePath+"."+s.Name)]; !dup {
				f.structs[strings.ToLower(s.ModulePath+"."+s.Name)] = s
			}
		}
	}
}

// Struct returns the schema named name (case-insensitive; "Module.Name" also
// works when the file has module paths), or nil.
func (f *File) Struct(name string) *Struct {
	if f == nil {
		return nil
	}
	if s := f.structs[strings.ToLower(name)]; s != nil {
		return s
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return f.structs[strings.ToLower(name[i+1:])]
	}
	return nil
}

// Enum returns the enum named name (case-insensitive), or nil.
func (f *File) Enum(name string) *Enum {
	if f == nil {
		return nil
	}
	if e := f.enums[strings.ToLower(name)]; e != nil {
		return e
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return f.enums[strings.ToLower(name[i+1:])]
	}
	return nil
}

// maxSuperChain bounds super-struct chains; a cycle in a hostile file would
// otherwise loop forever.
const maxSuperChain = 64

// PropertyAt resolves a flat unversioned schema index for struct name: the
// struct's own properties come first, then its super struct's, and so on (the
// order of TFieldIterator). It returns the property, the static-array index of
// the element, and whether the index exists.
func (f *File) PropertyAt(name string, index int) (*Property, int, bool) {
	s := f.Struct(name)
	for depth := 0; s != nil && depth < maxSuperChain; depth++ {
		if index < int(s.PropertyCount) {
			j := s.lookup(index)
			if j < 0 {
				return nil, 0, false
			}
			p := &s.Properties[j]
			return p, index - int(p.Index), true
		}
		index -= int(s.PropertyCount)
		if s.Super == "" {
			return nil, 0, false
		}
		s = f.Struct(s.Super)
	}
	return nil, 0, false
}

// TotalProperties counts the schema indices of name including its supers.
func (f *File) TotalProperties(name string) int {
	n := 0
	s := f.Struct(name)
	for depth := 0; s != nil && depth < maxSuperChain; depth++ {
		n += int(s.PropertyCount)
		if s.Super == "" {
			break
		}
		s = f.Struct(s.Super)
	}
	return n
}

// NewStruct builds a schema from properties (for classes and structs a
// package defines itself). PropertyCount is derived from the properties.
func NewStruct(name, super string, props []Property) *Struct {
	s := &Struct{Name: name, Super: super, Properties: props}
	n := 0
	for _, p := range props {
		n = max(n, int(p.Index)+max(1, int(p.ArraySize)))
	}
	s.PropertyCount = uint16(min(n, 1<<16-1))
	s.buildIndex()
	return s
}

// At returns the property at schema index i of this struct alone, with the
// static-array element index.
func (s *Struct) At(i int) (*Property, int, bool) {
	if s == nil {
		return nil, 0, false
	}
	j := s.lookup(i)
	if j < 0 {
		return nil, 0, false
	}
	p := &s.Properties[j]
	return p, i - int(p.Index), true
}
