package property

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
)

// Type is a property type with its parameters, from a tag or a schema.
type Type struct {
	Name         string // "IntProperty", "StructProperty", ...
	Struct       string // StructProperty: the struct's name
	StructModule string // UE5.4+ tags: the struct's package ("/Script/CoreUObject")
	StructGuid   ue.Guid
	Enum         string // ByteProperty/EnumProperty: the enum's name, "" for none
	Inner        *Type  // Array/Set/Optional element, Map key, Enum underlying type
	Value        *Type  // Map value

	// elemNameHint marks a ByteProperty element known to be stored as an
	// FName (an enum) although the tag did not name the enum.
	elemNameHint bool
	// structHint marks a struct element whose type comes from the table of
	// well-known map properties, not from the tag: some engine versions
	// stored another (tagged) struct there.
	structHint bool
	// scalar is, for the types of tags, 1 + the fixed size of a value
	// whose reads cannot fail given its bytes (see scalarSize); 0 for the
	// others.
	scalar int8
	// native is the struct's native reader when nativeSet (types made
	// once and shared resolve it when made; see nativeOf).
	native    nativeFunc
	nativeSet bool
}

// nativeOf returns the native reader of t's struct, as natives[t.Struct].
func (t *Type) nativeOf() (nativeFunc, bool) {
	if t.nativeSet {
		return t.native, t.native != nil
	}
	nf, ok := natives[t.Struct]
	return nf, ok
}

// resolveNative looks t's native reader up once (see nativeOf).
func (t *Type) resolveNative() {
	t.native = natives[t.Struct]
	t.nativeSet = true
}

// scalarSize returns 1 + the size of a value of the named type when the
// value is read by fixed-size reads that cannot fail once the bytes are
// there (a tagged BoolProperty reads none), else 0. The sizes are
// fixedSize's; names and enums (looked up in the name map) and lazy object
// pointers are read by readers that can fail.
func scalarSize(name string) int8 {
	switch name {
	case "BoolProperty":
		return 1
	case "NameProperty", "EnumProperty", "LazyObjectProperty":
		return 0
	}
	if n := fixedSize(&Type{Name: name}); n > 0 {
		return int8(n + 1)
	}
	return 0
}

// String formats the type with its parameters.
func (t *Type) String() string {
	if t == nil {
		return "None"
	}
	n := typeLen(t)
	if n == len(t.Name) {
		return t.Name // nothing around it (no copy)
	}
	// One allocation: joined level by level, a type nested deep around a
	// long name took its length at each level.
	var b strings.Builder
	b.Grow(n)
	t.writeTo(&b)
	return b.String()
}

// writeTo writes t.String() to b.
func (t *Type) writeTo(b *strings.Builder) {
	if t == nil {
		b.WriteString("None")
		return
	}
	b.WriteString(t.Name)
	switch t.Name {
	case "StructProperty":
		if t.Struct != "" {
			b.WriteByte('<')
			b.WriteString(t.Struct)
			b.WriteByte('>')
		}
	case "ByteProperty", "EnumProperty":
		if t.Enum != "" && t.Enum != "None" {
			b.WriteByte('<')
			b.WriteString(t.Enum)
			b.WriteByte('>')
		}
	case "ArrayProperty", "SetProperty", "OptionalProperty":
		b.WriteByte('<')
		t.Inner.writeTo(b)
		b.WriteByte('>')
	case "MapProperty":
		b.WriteByte('<')
		t.Inner.writeTo(b)
		b.WriteString(", ")
		t.Value.writeTo(b)
		b.WriteByte('>')
	}
}

// typeLen is len(t.String()), without making it.
func typeLen(t *Type) int {
	if t == nil {
		return len("None")
	}
	switch t.Name {
	case "StructProperty":
		if t.Struct != "" {
			return len(t.Name) + 2 + len(t.Struct)
		}
	case "ByteProperty", "EnumProperty":
		if t.Enum != "" && t.Enum != "None" {
			return len(t.Name) + 2 + len(t.Enum)
		}
	case "ArrayProperty", "SetProperty", "OptionalProperty":
		return len(t.Name) + 2 + typeLen(t.Inner)
	case "MapProperty":
		return len(t.Name) + 4 + typeLen(t.Inner) + typeLen(t.Value)
	}
	return len(t.Name)
}

// TagFlags is EPropertyTagFlags (UE5.4+ tags).
type TagFlags uint8

// The tag flags.
const (
	TagHasArrayIndex              TagFlags = 0x01
	TagHasPropertyGuid            TagFlags = 0x02
	TagHasPropertyExtensions      TagFlags = 0x04
	TagHasBinaryOrNativeSerialize TagFlags = 0x08
	TagBoolTrue                   TagFlags = 0x10
	TagSkippedSerialize           TagFlags = 0x20
)

// Tag is FPropertyTag from Engine/Source/Runtime/CoreUObject/Private/UObject/PropertyTag.cpp.
type Tag struct {
	Name       string
	Type       *Type
	Size       int32
	ArrayIndex int32
	BoolVal    bool
	Guid       *ue.Guid
	// Flags are the UE5.4+ serialization flags (0 before).
	Flags TagFlags
	// Extensions is EPropertyTagExtension (UE5.2+, 1011), with the
	// overridable operation when flagged.
	Extensions        uint8
	OverrideOperation uint8
	ExperimentalLogic bool

	// str is Type's printed form when known (an interned type).
	str string
}

// typeString returns t.Type.String(), from the interned form when there is
// one.
func (t *Tag) typeString() string {
	if t.str != "" {
		return t.str
	}
	return t.Type.String()
}

// tagTypeKey is what a tag before UE5.4 says about its type, as name
// references (index<<32 | number): the type's name, the struct, enum or
// inner type name (a), the map value type name (b), whether inner and
// value types were recorded, and the struct GUID.
type tagTypeKey struct {
	name, a, b   uint64
	inner, value bool
	guid         ue.Guid
}

// tagTypeNames are the names a tagTypeKey refers to.
type tagTypeNames struct{ name, a, b string }

// tagTypeSpec is a tagTypeKey by the names it refers to, which keys the
// types a decoder keeps from package to package.
type tagTypeSpec struct {
	ns           tagTypeNames
	inner, value bool
	guid         ue.Guid
}

// internTagType returns the shared type for k, whose names are ns. Types
// read with an error are not interned (their names are not the key's).
func (d *decoder) internTagType(k tagTypeKey, ns tagTypeNames, failed bool) internedType {
	if failed {
		return newTagType(k, ns)
	}
	slot := &d.tagCache[k.slot()]
	if slot.it.t != nil && slot.gen == d.tagGen && slot.k == k {
		return slot.it
	}
	spec := tagTypeSpec{ns, k.inner, k.value, k.guid}
	it, ok := d.tagTypes[spec]
	if !ok {
		// Kept across packages: the names are copied so as not to keep a
		// package's name map alive (they may share its memory).
		spec.ns = tagTypeNames{strings.Clone(ns.name), strings.Clone(ns.a), strings.Clone(ns.b)}
		it = newTagType(k, spec.ns)
		if d.tagTypes == nil || len(d.tagTypes) >= maxInterned {
			d.tagTypes = make(map[tagTypeSpec]internedType)
		}
		d.tagTypes[spec] = it
	}
	*slot = tagSlot{k: k, gen: d.tagGen, it: it}
	return it
}

// tagSlots is the size of a decoder's direct-mapped cache of tag types
// (see tagSlot), a power of two.
const tagSlots = 128

// tagSlot is an entry of the decoder's direct-mapped cache in front of
// tagTypes: most tags find their type there by a multiply and a compare,
// without hashing the whole key. An entry counts only when its gen is the
// decoder's tagGen (bumped when the caches are emptied).
type tagSlot struct {
	k   tagTypeKey
	gen uint32
	it  internedType
}

// slot returns the index of k's entry in the tag type cache.
func (k *tagTypeKey) slot() int {
	h := k.name*0x9E3779B97F4A7C15 ^ k.a*0xBF58476D1CE4E5B9 ^ k.b*0x94D049BB133111EB ^ uint64(k.guid[0])*0xD6E8FEB86659FD93
	return int(h >> 57) // 7 bits: tagSlots
}

// newTagType builds the type a tag before UE5.4 says, with its printed
// form.
func newTagType(k tagTypeKey, ns tagTypeNames) internedType {
	t := &Type{Name: ns.name, scalar: scalarSize(ns.name)}
	switch ns.name {
	case "StructProperty":
		t.Struct, t.StructGuid = ns.a, k.guid
		t.resolveNative()
	case "ByteProperty", "EnumProperty":
		t.Enum = ns.a
	}
	if k.inner {
		t.Inner = &Type{Name: ns.a}
	}
	if k.value {
		t.Value = &Type{Name: ns.b}
	}
	return internedType{t, t.String()}
}

// readNameKey is readName that also returns the name's reference
// (index<<32 | number).
func (d *decoder) readNameKey(r *binread.Reader, field string) (string, uint64) {
	i, n, ok := d.readNameRef(r, field)
	if !ok {
		return "", 0
	}
	ref := uint64(uint32(i))<<32 | uint64(uint32(n))
	if n == 0 {
		return d.ctx.Names[i], ref
	}
	return d.numberedName(r, field, i, n), ref
}

// readName reads an FName (index into the name map, number) and reports
// whether the index was valid.
func (d *decoder) readName(r *binread.Reader, field string) (string, bool) {
	i, n, ok := d.readNameRef(r, field)
	if !ok {
		return "", false
	}
	if n == 0 {
		return d.ctx.Names[i], true
	}
	return d.numberedName(r, field, i, n), true
}

// numberedName formats name i with number n (> 0) once per decoder and
// package (read at field of r: past the decode's text budget, r fails).
func (d *decoder) numberedName(r *binread.Reader, field string, i, n int32) string {
	k := uint64(uint32(i))<<32 | uint64(uint32(n))
	if s, ok := d.numbered[k]; ok {
		return s
	}
	if !d.spendText(r, field, len(d.ctx.Names[i])+12) {
		return ""
	}
	s := ue.FormatName(d.ctx.Names[i], n)
	if d.numbered == nil || len(d.numbered) >= maxInterned {
		d.numbered = make(map[uint64]string)
	}
	d.numbered[k] = s
	return s
}

// readNameRef reads and checks an FName: its name map index and number.
func (d *decoder) readNameRef(r *binread.Reader, field string) (i, n int32, ok bool) {
	start := r.Offset()
	if r.Remaining() >= 8 {
		// Both halves at once: with the bytes there, the reads cannot fail.
		v := r.U64(field)
		if r.BigEndian() {
			i, n = int32(v>>32), int32(v)
		} else {
			i, n = int32(v), int32(v>>32)
		}
	} else {
		i = r.I32(field)
		n = r.I32(field)
	}
	if r.Err() != nil {
		return 0, 0, false
	}
	if i < 0 || int(i) >= len(d.ctx.Names) {
		r.FailAt(start, field, nameIndexError{i, len(d.ctx.Names)})
		return 0, 0, false
	}
	if n < 0 {
		r.FailAt(start, field, nameNumberError(n))
		return 0, 0, false
	}
	return i, n, true
}

// nameIndexError reports an FName index outside the name map. Its text is
// made only when asked for: speculative reads (see tryTaggedStruct) fail
// this way often and drop the error.
type nameIndexError struct {
	index int32
	size  int
}

func (e nameIndexError) Error() string {
	return fmt.Sprintf("name index %d outside the name map of %d", e.index, e.size)
}

// nameNumberError reports a negative FName number (see nameIndexError).
type nameNumberError int32

func (e nameNumberError) Error() string { return fmt.Sprintf("name number %d", int32(e)) }

// maxTypeNameNodes bounds a UE5.4+ type-name tree; real trees have a handful.
const maxTypeNameNodes = 256

// readTag reads one FPropertyTag. It returns nil (with no error) at the
// "None" terminator.
func (d *decoder) readTag(r *binread.Reader) *Tag {
	t := new(Tag)
	if !d.readTagInto(r, t) {
		return nil
	}
	return t
}

// readTagInto is readTag into *t (which the caller may keep on its stack);
// it reports false at the terminator or on error.

// readTagInto is readTag into *t (which the caller may keep on its stack);
// it reports false at the terminator or on error.
func (d *decoder) readTagInto(r *binread.Reader, t *Tag) bool {
	name, _ := d.readName(r, "PropertyTag.Name")
	if r.Err() != nil {
		return false
	}
	if name == "None" {
		return false
	}
	*t = Tag{Name: name}
	if d.ctx.ue5(verUE5PropertyTagCompleteTypeName) {
		t.Type, t.str = d.readTypeName(r)
		t.Size = r.I32("PropertyTag.Size")
		t.Flags = TagFlags(r.U8("PropertyTag.Flags"))
		t.BoolVal = t.Flags&TagBoolTrue != 0
		if t.Flags&TagHasArrayIndex != 0 {
			t.ArrayIndex = r.I32("PropertyTag.ArrayIndex")
		}
		if t.Flags&TagHasPropertyGuid != 0 {
			g := readGuid(r, "PropertyTag.PropertyGuid")
			t.Guid = &g
		}
		if t.Flags&TagHasPropertyExtensions != 0 {
			d.readTagExtensions(r, t)
		}
		return true
	}
	var k tagTypeKey
	var ns tagTypeNames
	ns.name, k.name = d.readNameKey(r, "PropertyTag.Type")
	t.Size, t.ArrayIndex = readI32Pair(r, "PropertyTag.Size", "PropertyTag.ArrayIndex")
	switch ns.name {
	case "StructProperty":
		ns.a, k.a = d.readNameKey(r, "PropertyTag.StructName")
		if d.ctx.ue4(verUE4StructGuidInPropertyTag) {
			k.guid = readGuid(r, "PropertyTag.StructGuid")
		}
	case "BoolProperty":
		t.BoolVal = r.U8("PropertyTag.BoolVal") != 0
	case "ByteProperty", "EnumProperty":
		ns.a, k.a = d.readNameKey(r, "PropertyTag.EnumName")
	case "ArrayProperty":
		if d.ctx.ue4(verUE4ArrayPropertyInnerTags) {
			ns.a, k.a = d.readNameKey(r, "PropertyTag.InnerType")
			k.inner = true
		}
	case "SetProperty", "OptionalProperty":
		if d.ctx.ue4(verUE4PropertyTagSetMapSupport) {
			ns.a, k.a = d.readNameKey(r, "PropertyTag.InnerType")
			k.inner = true
		}
	case "MapProperty":
		if d.ctx.ue4(verUE4PropertyTagSetMapSupport) {
			ns.a, k.a = d.readNameKey(r, "PropertyTag.InnerType")
			ns.b, k.b = d.readNameKey(r, "PropertyTag.ValueType")
			k.inner, k.value = true, true
		}
	}
	it := d.internTagType(k, ns, r.Err() != nil)
	t.Type, t.str = it.t, it.s
	if d.ctx.ue4(verUE4PropertyGuidInPropertyTag) {
		if r.U8("PropertyTag.HasPropertyGuid") != 0 {
			g := readGuid(r, "PropertyTag.PropertyGuid")
			t.Guid = &g
		}
	}
	if d.ctx.ue5(verUE5PropertyTagExtension) {
		d.readTagExtensions(r, t)
	}
	return true
}

// readI32Pair reads two int32 fields, as two I32 reads do (named f1 and
// f2 in their errors), in one read when the bytes are there.
func readI32Pair(r *binread.Reader, f1, f2 string) (a, b int32) {
	if r.Remaining() < 8 {
		return r.I32(f1), r.I32(f2)
	}
	v := r.U64(f1)
	if r.BigEndian() {
		return int32(v >> 32), int32(v)
	}
	return int32(v), int32(v >> 32)
}

// readGuid is ue.ReadGuid (its four uint32 read as two uint64 when the
// bytes are there).
func readGuid(r *binread.Reader, field string) ue.Guid {
	if r.Remaining() < 16 {
		return ue.ReadGuid(r, field)
	}
	v, w := r.U64(field), r.U64(field)
	if r.BigEndian() {
		return ue.Guid{uint32(v >> 32), uint32(v), uint32(w >> 32), uint32(w)}
	}
	return ue.Guid{uint32(v), uint32(v >> 32), uint32(w), uint32(w >> 32)}
}

// readTagExtensions reads EPropertyTagExtension and, when flagged, the
// overridable-serialization information (EOverriddenPropertyOperation and
// bExperimentalOverridableLogic).
func (d *decoder) readTagExtensions(r *binread.Reader, t *Tag) {
	t.Extensions = r.U8("PropertyTag.Extensions")
	if t.Extensions&0x02 != 0 {
		t.OverrideOperation = r.U8("PropertyTag.OverrideOperation")
		t.ExperimentalLogic = r.U8("PropertyTag.bExperimentalOverridableLogic") != 0
	}
}

// readTypeName reads FPropertyTypeName (UE5.4+): the type tree in pre-order,
// each node an FName and its parameter count.
func (d *decoder) readTypeName(r *binread.Reader) (*Type, string) {
	key := d.keyBuf[:0]
	names := len(d.ctx.Names)
	remaining := 1
	for nodes := 0; remaining > 0; nodes++ {
		if nodes >= maxTypeNameNodes {
			r.Failf("PropertyTag.TypeName", "type name with more than %d nodes", maxTypeNameNodes)
			return &Type{}, ""
		}
		var i, n, c int32
		start := r.Offset()
		if r.Remaining() >= typeNodeSize {
			// The node's three fields at once: with the bytes there, the
			// reads cannot fail.
			v := r.U64("PropertyTag.TypeName")
			c = r.I32("PropertyTag.TypeName.InnerCount")
			if r.BigEndian() {
				i, n = int32(v>>32), int32(v)
			} else {
				i, n = int32(v), int32(v>>32)
			}
		}
		if r.Err() != nil || r.Offset() != start+typeNodeSize || i < 0 || int(i) >= names || n < 0 || c < 0 || c > maxTypeNameNodes {
			// Cut short or out of range: read the node again field by
			// field for the error those reads give.
			r.SeekTo(start, "PropertyTag.TypeName")
			d.readNameRef(r, "PropertyTag.TypeName")
			c = r.I32("PropertyTag.TypeName.InnerCount")
			if r.Err() == nil && (c < 0 || c > maxTypeNameNodes) {
				r.Failf("PropertyTag.TypeName.InnerCount", "parameter count %d", c)
			}
			if r.Err() == nil {
				r.Failf("PropertyTag.TypeName", "type name node at 0x%x", start)
			}
			return &Type{}, ""
		}
		key = binary.LittleEndian.AppendUint32(key, uint32(i))
		key = binary.LittleEndian.AppendUint32(key, uint32(n))
		key = binary.LittleEndian.AppendUint32(key, uint32(c))
		remaining += int(c) - 1
	}
	d.keyBuf = key
	var slot *treeSlot
	if len(key) <= treeSlotKey {
		slot = &d.treeCache[treeSlotOf(key)]
		if slot.it.t != nil && slot.gen == d.tagGen && string(slot.key[:slot.n]) == string(key) {
			return slot.it.t, slot.it.s
		}
	}
	// The package's first tag of this type: look the tree up by its names
	// among the types kept from package to package (formatting them:
	// counted against the text budget).
	size := 0
	for k := key; len(k) > 0; k = k[typeNodeSize:] {
		size += len(d.ctx.Names[binary.LittleEndian.Uint32(k)]) + 12
	}
	if !d.spendText(r, "PropertyTag.TypeName", size) {
		return &Type{}, ""
	}
	it := d.treeType(key)
	if slot != nil {
		slot.n = uint8(copy(slot.key[:], key))
		slot.gen, slot.it = d.tagGen, it
	}
	return it.t, it.s
}

// typeNodeSize is the size of a stored type-name node: FName (index,
// number) and parameter count.
const typeNodeSize = 12

// treeType returns the type of the tree whose nodes (name index, number,
// parameter count; checked) key holds, from treeByName.
func (d *decoder) treeType(key []byte) internedType {
	nk := d.nameKeyBuf[:0]
	for k := key; len(k) > 0; k = k[typeNodeSize:] {
		name := ue.FormatName(d.ctx.Names[binary.LittleEndian.Uint32(k)], int32(binary.LittleEndian.Uint32(k[4:])))
		nk = binary.LittleEndian.AppendUint32(nk, uint32(len(name)))
		nk = append(nk, name...)
		nk = append(nk, k[8:typeNodeSize]...)
	}
	d.nameKeyBuf = nk
	if it, ok := d.treeByName[string(nk)]; ok {
		return it
	}
	var nbuf [16]typeNode
	nodes := typeNodes(nbuf[:0])
	for k := key; len(k) > 0; k = k[typeNodeSize:] {
		// Copied, so as not to keep the package's name map alive.
		name := ue.FormatName(d.ctx.Names[binary.LittleEndian.Uint32(k)], int32(binary.LittleEndian.Uint32(k[4:])))
		nodes = append(nodes, typeNode{strings.Clone(name), int32(binary.LittleEndian.Uint32(k[8:]))})
	}
	t := nodes.toType(0)
	t.scalar = scalarSize(t.Name)
	it := internedType{t, t.String()}
	if d.treeByName == nil || len(d.treeByName) >= maxInterned {
		d.treeByName = make(map[string]internedType)
	}
	d.treeByName[string(nk)] = it
	return it
}

// treeSlotKey is the longest type-tree key (name references and parameter
// counts, 12 bytes a node) the direct-mapped tree type cache holds.
const treeSlotKey = 60

// treeSlot is an entry of the decoder's direct-mapped cache of UE5.4+ tag
// types by their trees' name references; like tagSlot, it counts only in
// its generation.
type treeSlot struct {
	key [treeSlotKey]byte
	n   uint8
	gen uint32
	it  internedType
}

// treeSlotOf returns the index of key's entry in the tree type cache.
func treeSlotOf(key []byte) int {
	h := uint64(len(key))
	for len(key) >= 4 {
		h = (h ^ uint64(binary.LittleEndian.Uint32(key))) * 0x100000001B3
		key = key[4:]
	}
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return int(h >> 57) // 7 bits: tagSlots
}

// tnode is one node of a UE5.4+ type-name tree.
// typeNode is one node of an FPropertyTypeName tree as stored: its name
// and how many parameters (subtrees) follow it.
type typeNode struct {
	name  string
	inner int32
}

// typeNodes is a whole tree in pre-order, read in full (every node's
// parameters are there), so subtrees are index ranges.
type typeNodes []typeNode

// end returns the index after the subtree at i.
func (ns typeNodes) end(i int) int {
	j := i + 1
	for range ns[i].inner {
		j = ns.end(j)
	}
	return j
}

// param returns the index of parameter k of node i, or -1.
func (ns typeNodes) param(i, k int) int {
	if i < 0 || k >= int(ns[i].inner) {
		return -1
	}
	j := i + 1
	for range k {
		j = ns.end(j)
	}
	return j
}

// toType converts the subtree at i (nil for -1).
func (ns typeNodes) toType(i int) *Type {
	if i < 0 {
		return nil
	}
	t := &Type{Name: ns[i].name}
	switch t.Name {
	case "StructProperty":
		if s := ns.param(i, 0); s >= 0 {
			t.Struct = ns[s].name
			if m := ns.param(s, 0); m >= 0 {
				t.StructModule = ns[m].name
			}
		}
		if g := ns.param(i, 1); g >= 0 {
			t.StructGuid = parseGuid(ns[g].name)
		}
		t.resolveNative()
	case "ByteProperty", "EnumProperty":
		if e := ns.param(i, 0); e >= 0 {
			t.Enum = ns[e].name
		}
		if u := ns.param(i, 1); u >= 0 {
			t.Inner = ns.toType(u)
		}
	case "ArrayProperty", "SetProperty", "OptionalProperty":
		t.Inner = ns.toType(ns.param(i, 0))
	case "MapProperty":
		t.Inner = ns.toType(ns.param(i, 0))
		t.Value = ns.toType(ns.param(i, 1))
	}
	return t
}

// parseGuid parses the 32-hex-digit GUID form the type-name tree uses.
func parseGuid(s string) ue.Guid {
	var g ue.Guid
	s = strings.ReplaceAll(s, "-", "")
	if len(s) != 32 {
		return g
	}
	for i := range 4 {
		var v uint32
		for _, c := range s[i*8 : i*8+8] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= uint32(c - '0')
			case c >= 'a' && c <= 'f':
				v |= uint32(c-'a') + 10
			case c >= 'A' && c <= 'F':
				v |= uint32(c-'A') + 10
			default:
				return ue.Guid{}
			}
		}
		g[i] = v
	}
	return g
}

// fromUsmap converts a mappings type.
func fromUsmap(t *usmap.Type) *Type {
	if t == nil {
		return nil
	}
	out := &Type{Name: t.Kind.String(), Struct: t.Struct, Enum: t.Enum}
	if t.Kind == usmap.UnknownProperty {
		out.Name = "UnknownProperty"
	}
	if out.Name == "StructProperty" {
		out.resolveNative()
	}
	out.Inner = fromUsmap(t.Inner)
	out.Value = fromUsmap(t.Value)
	return out
}
