package property

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
)

// mode says where a value sits, which changes how some types are stored.
type mode uint8

const (
	mTag  mode = iota // top-level value of a tagged stream (the tag is known)
	mElem             // element of an array, set, map or optional
	mUnv              // a property of an unversioned stream
)

// decoder holds the state of one decode.
type decoder struct {
	ctx    *Context
	issues []Issue
	depth  int
	path   []pathElem
	// rawNative counts the native structs kept raw because no decoder knows them.
	rawNative map[string]int
	// notTagged remembers regions (absolute offset, length) that failed to
	// read as a tagged struct, so nested guesses are never repeated: without
	// it, hostile data could make the guessing exponential.
	notTagged map[[2]int64]bool
	// steps counts values read; budget bounds it (see maxStepsPerByte).
	steps, budget int64
	// textBytes counts the bytes of strings built from names (numbered names,
	// soft object paths, type names); textBudget bounds it (see
	// spendText).
	textBytes, textBudget int64
	// types caches schema types converted for decoding.
	// noFieldFlags reads FField definitions without their object flags,
	// which UE5.8 cooked data leaves out.
	noFieldFlags bool
	types        map[*usmap.Type]*Type
	typeNames    map[*Type]string
	// schemas and flats remember schema lookups and resolved schema
	// indices for the rest of one decode (see schema, flatProperty).
	schemas map[string]*usmap.Struct
	flats   map[*usmap.Struct]*flatSchema
	// freeFlats are flatSchemas of earlier decodes, emptied for reuse.
	freeFlats []*flatSchema
	// flatScratch holds a resolved index flatSchema does not keep.
	flatScratch flatProp
	// props is the stack tagged collects properties on.
	props []*Property
	// propSlab hands out the decoded tree's properties a batch at a time
	// (see slab).
	propSlab slab[Property]
	// structSlab, listSlab and fieldSlab do the same for struct values,
	// property lists and native struct fields.
	structSlab slab[Struct]
	listSlab   sliceSlab[*Property]
	fieldSlab  sliceSlab[Field]
	// root is the reader of the export's data (see readExport).
	root binread.Reader
	// spec counts the speculative reads in progress (see tryTaggedStruct):
	// their issues are dropped, so they are not formatted.
	spec int
	// subs are the readers of tag values, one per nesting level in use,
	// reused from tag to tag (see taggedOnStack).
	subs []*binread.Reader
	// tagTypes interns the types of tags before UE5.4 by what the tag
	// says (by name, kept from package to package), and treeByName those
	// of UE5.4+ tags by the names of their type tree: tags of the same
	// type share one immutable *Type and its printed form.
	tagTypes map[tagTypeSpec]internedType
	// tagCache is a direct-mapped cache in front of tagTypes; its entries
	// of another tagGen are stale.
	tagCache [tagSlots]tagSlot
	tagGen   uint32
	// treeCache is the same in front of treeByName, by the name
	// references of the type trees.
	treeCache [tagSlots]treeSlot
	// names is the name map the caches were filled with.
	names []string
	// nameKeyBuf builds treeByName keys and keyBuf those of treeCache.
	treeByName map[string]internedType
	nameKeyBuf []byte
	keyBuf     []byte
	// numbered holds the names with a number read so far (see
	// numberedName), by name map index and number.
	numbered map[uint64]string
	// tailReasons holds the labels of undecoded class data by class (kept
	// from package to package).
	tailReasons map[string]string
	// lite is set when only the outcome of a decode is wanted (see
	// [ReadExportLite]): every byte is read and checked as usual, but values
	// below the object's own properties are not built. top is set while
	// the object's own property list is read.
	lite, top bool
	// bareProp and bareStruct stand in for the nodes a lite decode does not
	// keep; nothing reads them.
	bareProp   Property
	bareStruct Struct
	bareRaw    Raw
	bareFields [8]Field
	// bareFieldDef is the scratch FField definition of a lite decode.
	bareFieldDef FieldDef
}

// bare reports that the value being read (at d.depth) is not kept: in a
// lite decode, everything but the object's own properties and their
// immediate values.
func (d *decoder) bare() bool { return d.lite && !(d.top && d.depth <= 1) }

// keepChildren reports whether the elements, members or properties read
// below the current level are kept.
func (d *decoder) keepChildren() bool { return !d.lite || d.top && d.depth == 0 }

// str reads an FString value, or only checks it when the value is not kept
// (see bare).
func (d *decoder) str(r *binread.Reader, field string) string {
	if d.bare() {
		r.SkipFString(field)
		return ""
	}
	return r.FString(field)
}

// kept returns v as a value, or nil when the value is not kept (see bare).
func kept[T any](d *decoder, v T) any {
	if d.bare() {
		return nil
	}
	return v
}

// internedType is a shared tag type and its [Type.String].
type internedType struct {
	t *Type
	s string
}

// maxFreeFlats and maxFreeFlatProps bound the flatSchemas a decoder
// keeps for reuse.
const (
	maxFreeFlats     = 64
	maxFreeFlatProps = 512
)

// maxInterned bounds each interning table of a decoder; a table that
// fills up is emptied (real packages use a few dozen types).
const maxInterned = 4096

// decoders holds decoders between decodes: their stacks, readers and
// interned types are reused by the next export (interned types by name
// references only by one of the same package).
var decoders sync.Pool

// getDecoder returns a decoder for one decode under ctx; putDecoder gives
// it back once nothing it handed out (issues, native counts) is shared.
func getDecoder(ctx *Context) *decoder {
	d, _ := decoders.Get().(*decoder)
	if d == nil {
		return newDecoder(ctx)
	}
	if d.ctx != ctx || !sameNames(d.names, ctx.Names) {
		// The caches hold the previous package's names and schemas.
		clear(d.types)
		clear(d.typeNames)
		if d.tagGen++; d.tagGen == 0 {
			// Entries of every generation look current again.
			clear(d.tagCache[:])
			clear(d.treeCache[:])
		}
		clear(d.numbered)
	}
	d.ctx, d.names = ctx, ctx.Names
	d.lite, d.top = false, false
	return d
}

// sameNames reports whether a and b are the same name map.
func sameNames(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func putDecoder(d *decoder) {
	d.issues = nil
	d.depth = 0
	clear(d.path)
	d.path = d.path[:0]
	d.rawNative = nil
	clear(d.notTagged)
	d.steps, d.budget = 0, 0
	d.textBytes, d.textBudget = 0, 0
	d.noFieldFlags = false
	if len(d.schemas) > 0 {
		clear(d.schemas)
	}
	if len(d.flats) > 0 {
		// The resolved indices are kept for the next decode's structs,
		// emptied (every entry not ok, no references).
		for _, fs := range d.flats {
			if len(d.freeFlats) < maxFreeFlats && cap(fs.props) <= maxFreeFlatProps {
				clear(fs.props[:cap(fs.props)])
				fs.props = fs.props[:0]
				d.freeFlats = append(d.freeFlats, fs)
			}
		}
		clear(d.flats)
	}
	clear(d.props)
	d.props = d.props[:0]
	for _, s := range d.subs {
		*s = binread.Reader{} // drop the data
	}
	d.root = binread.Reader{}
	d.spec = 0
	d.lite, d.top = false, false
	d.bareProp, d.bareStruct, d.bareRaw, d.bareFields = Property{}, Struct{}, Raw{}, [8]Field{}
	d.bareFieldDef = FieldDef{}
	// A slab's array stays alive while any of its elements is: a decoder
	// kept with part of one would keep the whole decoded tree too.
	d.propSlab, d.structSlab = slab[Property]{}, slab[Struct]{}
	d.listSlab, d.fieldSlab = sliceSlab[*Property]{}, sliceSlab[Field]{}
	if len(d.types) > maxInterned {
		clear(d.types)
	}
	if len(d.typeNames) > maxInterned {
		clear(d.typeNames)
	}
	decoders.Put(d)
}

// slab hands out pointers to elements of arrays allocated a batch at a
// time: the decoded tree's many small nodes then cost one allocation per
// batch instead of one each. Batches start small and double, so an export
// with a few properties allocates little.
type slab[T any] struct {
	free []T
	next int // size of the next batch
}

const (
	slabFirst = 4
	slabMax   = 128
)

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(s.next*2, slabFirst), slabMax)
		s.free = make([]T, s.next)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// sliceSlab hands out small slices carved from shared arrays, each with
// its capacity capped so that appending to one never touches another.
// Like slab, its arrays start small and double.
type sliceSlab[T any] struct {
	free []T
	next int
}

// alloc returns an empty slice with capacity n.
func (s *sliceSlab[T]) alloc(n int) []T {
	if n > slabMax/4 {
		return make([]T, 0, n)
	}
	if len(s.free) < n {
		s.next = min(max(s.next*2, slabFirst, n), slabMax)
		s.free = make([]T, s.next)
	}
	out := s.free[:0:n]
	s.free = s.free[n:]
	return out
}

// typeOf converts a schema type once per decode.
func (d *decoder) typeOf(t *usmap.Type) *Type {
	if v, ok := d.types[t]; ok {
		return v
	}
	if d.types == nil {
		d.types = map[*usmap.Type]*Type{}
	}
	v := fromUsmap(t)
	d.types[t] = v
	return v
}

// maxStepsPerByte bounds the work per input byte; with the region memo real
// data needs a handful of steps per value, hostile data is cut off.
const maxStepsPerByte = 64

// errBudget reports input that takes too much work to decode.
var errBudget = errors.New("decoding takes too much work (hostile or corrupt data)")

// textBudgetFor bounds the bytes of strings the decodes of a package's
// data build from names, up to one of size bytes: 16 times the data they
// decoded and 4 MiB, for all of them (a package's exports are decoded one
// by one, and a dump keeps them all). Each 8-byte name reference can name
// a long name (up to megabytes) with a number, which formats it anew.
func (d *decoder) startText(size int) {
	ctx := d.ctx
	ctx.textData += int64(size)
	d.textBytes, d.textBudget = ctx.textUsed, 16*ctx.textData+4<<20
}

// endText keeps what the decode spent for the package's next ones.
func (d *decoder) endText() { d.ctx.textUsed = d.textBytes }

// errTextBudget reports data whose names would make too many bytes.
var errTextBudget = errors.New("its names would make strings of more than 16 times its size and 4 MiB (long names referenced many times with numbers?)")

// spendText counts n bytes of strings built from names against the
// decode's bound, failing r at field past it.
func (d *decoder) spendText(r *binread.Reader, field string, n int) bool {
	d.textBytes += int64(n)
	if d.textBudget > 0 && d.textBytes > d.textBudget {
		r.Fail(field, errTextBudget)
		return false
	}
	return true
}

func newDecoder(ctx *Context) *decoder {
	return &decoder{ctx: ctx, names: ctx.Names}
}

// pathElem is one step of the path to the value being decoded: a property
// name, or an element index (idx >= 0) that is formatted only when needed.
type pathElem struct {
	name string
	idx  int
}

func (d *decoder) where() string {
	var b strings.Builder
	for i, e := range d.path {
		if e.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.idx))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

func (d *decoder) issue(off int64, format string, args ...any) {
	if d.spec > 0 {
		// A speculative read drops its issues: only their number counts.
		d.issues = append(d.issues, Issue{Offset: off})
		return
	}
	d.issues = append(d.issues, Issue{Offset: off, Path: d.where(), Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) push(s string)   { d.path = append(d.path, pathElem{name: s, idx: -1}) }
func (d *decoder) pushIndex(i int) { d.path = append(d.path, pathElem{idx: i}) }
func (d *decoder) pop()            { d.path = d.path[:len(d.path)-1] }

// errDepth reports nesting beyond MaxDepth.
var errDepth = errors.New("values nested too deeply")

// errStop marks a failure after which an unversioned stream cannot continue.
var errStop = errors.New("cannot continue")

// tagged reads a tagged property stream up to and including its "None"
// terminator. It reports whether the terminator was reached.
func (d *decoder) tagged(r *binread.Reader) ([]*Property, bool) {
	// The properties collect on a stack shared by the nested streams, so
	// that each list is allocated once at its size.
	start := len(d.props)
	done := d.taggedOnStack(r)
	var props []*Property
	if n := len(d.props) - start; n > 0 {
		props = append(d.listSlab.alloc(n), d.props[start:]...)
	}
	clear(d.props[start:])
	d.props = d.props[:start]
	return props, done
}

// taggedOnStack is tagged with the properties pushed on d.props.
func (d *decoder) taggedOnStack(r *binread.Reader) bool {
	for {
		tagStart := r.Offset()
		var tagBuf Tag
		ok := d.readTagInto(r, &tagBuf)
		if r.Err() != nil {
			d.issue(r.Abs(), "property tag: %v", r.Err())
			return false
		}
		if !ok {
			return true
		}
		tag := &tagBuf
		var p *Property
		if d.keepChildren() {
			p = d.propSlab.new()
			*p = Property{Name: tag.Name, Type: tag.typeString(), ArrayIndex: tag.ArrayIndex, Guid: tag.Guid, Offset: r.Offset(), Size: int64(tag.Size)}
			d.props = append(d.props, p)
		} else {
			p = &d.bareProp
		}
		if tag.Size < 0 || int64(tag.Size) > r.Remaining() {
			d.issue(r.Base()+tagStart, "property %s: tag size %d, %d bytes left", tag.Name, tag.Size, r.Remaining())
			p.Error = fmt.Sprintf("tag size %d exceeds the %d bytes left", tag.Size, r.Remaining())
			p.Size = 0
			return false
		}
		if tag.Flags&TagSkippedSerialize != 0 {
			p.Value = nil
			r.Skip(int64(tag.Size), "PropertyTag.Value")
			continue
		}
		if sz := tag.Type.scalar; sz > 0 && int64(tag.Size) == int64(sz-1) && d.depth < MaxDepth && (d.budget <= 0 || d.steps < d.budget) &&
			(tag.Type.Name != "BoolProperty" || !d.ctx.Unversioned) {
			// A scalar that fills its tag exactly: its reads cannot fail
			// (the size was checked) nor pass the tag, so they are made
			// on r itself, without a reader of their own.
			p.Value = d.value(r, tag.Type, mTag, tag)
			continue
		}
		// The value's reader is taken from d.subs and given back once the
		// value is read: nested streams take the next ones, and no value
		// keeps its reader.
		sub := d.takeSub()
		r.SectionInto(sub, r.Offset(), int64(tag.Size), "PropertyTag.Value")
		d.push(tag.Name)
		p.Value = d.value(sub, tag.Type, mTag, tag)
		if err := sub.Err(); err != nil {
			p.Error = err.Error()
			d.issue(sub.Abs(), "%v", err)
			if p != &d.bareProp {
				p.Value = &Raw{Struct: tag.Type.Struct, Reason: "decode failed: " + err.Error(), Size: int64(tag.Size), Data: rawBytes(r, int64(tag.Size))}
			}
		} else if sub.Offset() != int64(tag.Size) {
			p.Error = fmt.Sprintf("value used %d of its %d bytes", sub.Offset(), tag.Size)
			d.issue(sub.Abs(), "%s", p.Error)
		}
		d.putSub(sub)
		d.pop()
		r.Skip(int64(tag.Size), "PropertyTag.Value")
	}
}

// takeSub returns a reader for a tag's value; putSub gives it back.
func (d *decoder) takeSub() *binread.Reader {
	if n := len(d.subs); n > 0 {
		sub := d.subs[n-1]
		d.subs = d.subs[:n-1]
		return sub
	}
	return new(binread.Reader)
}

func (d *decoder) putSub(sub *binread.Reader) { d.subs = append(d.subs, sub) }

// rawBytes returns the next n bytes of r without moving it.
func rawBytes(r *binread.Reader, n int64) []byte {
	off := r.Offset()
	b := r.Bytes(n, "raw")
	r.SeekTo(off, "raw")
	return b
}

// value reads one value of type t.
func (d *decoder) value(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	if t == nil {
		r.Fail("value", errors.New("missing type"))
		return nil
	}
	if d.depth >= MaxDepth {
		r.Fail(t.Name, errDepth)
		return nil
	}
	d.steps++
	if d.budget > 0 && d.steps > d.budget {
		r.Fail(t.Name, errBudget)
		return nil
	}
	d.depth++
	v := d.valueOf(r, t, m, tag)
	d.depth--
	return v
}

// valueOf is value after the checks.
func (d *decoder) valueOf(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	switch t.Name {
	case "BoolProperty":
		if m == mTag && !d.ctx.Unversioned {
			return tag.BoolVal
		}
		return r.U8("BoolProperty") != 0
	case "ByteProperty":
		return d.byteValue(r, t, m, tag)
	case "EnumProperty":
		return d.enumValue(r, t, m)
	case "Int8Property":
		return kept(d, int64(r.I8(t.Name)))
	case "Int16Property":
		return kept(d, int64(r.I16(t.Name)))
	case "IntProperty":
		return kept(d, int64(r.I32(t.Name)))
	case "Int64Property":
		return kept(d, r.I64(t.Name))
	case "UInt16Property":
		return kept(d, uint64(r.U16(t.Name)))
	case "UInt32Property":
		return kept(d, uint64(r.U32(t.Name)))
	case "UInt64Property":
		return kept(d, r.U64(t.Name))
	case "FloatProperty":
		f := r.F32(t.Name)
		if d.bare() {
			return nil
		}
		return jsonFloat32(f)
	case "DoubleProperty":
		f := r.F64(t.Name)
		if d.bare() {
			return nil
		}
		return jsonFloat(f)
	case "StrProperty", "VerseStringProperty":
		return kept(d, d.str(r, t.Name))
	case "AnsiStrProperty":
		return kept(d, d.ansiString(r, t.Name))
	case "Utf8StrProperty":
		return kept(d, d.utf8String(r, t.Name))
	case "NameProperty":
		if d.bare() {
			d.readNameRef(r, t.Name) // the same reads and checks, no name made
			return nil
		}
		n, _ := d.readName(r, t.Name)
		return kept(d, n)
	case "TextProperty":
		return d.text(r, 0)
	case "ObjectProperty", "ClassProperty", "WeakObjectProperty", "InterfaceProperty":
		if d.bare() {
			// The path (the context's Object) is only a label here.
			r.I32(t.Name)
			return nil
		}
		return d.objectRef(r, t.Name)
	case "LazyObjectProperty":
		return kept(d, ue.ReadGuid(r, t.Name))
	case "SoftObjectProperty", "SoftClassProperty":
		return kept(d, d.softObjectPath(r))
	case "AssetObjectProperty", "AssetClassProperty":
		return kept(d, d.str(r, t.Name))
	case "DelegateProperty":
		return kept(d, Delegate{Object: d.objectRef(r, t.Name), Function: d.name(r, t.Name)})
	case "MulticastDelegateProperty", "MulticastInlineDelegateProperty", "MulticastSparseDelegateProperty":
		n := r.Count(t.Name, 12)
		if d.bare() {
			for range n {
				d.objectRef(r, t.Name)
				d.name(r, t.Name)
			}
			return nil
		}
		out := make([]Delegate, 0, n)
		for range n {
			out = append(out, Delegate{Object: d.objectRef(r, t.Name), Function: d.name(r, t.Name)})
		}
		return out
	case "FieldPathProperty":
		n := r.Count(t.Name+".Path", 8)
		fp := FieldPath{Path: make([]string, 0, n)}
		for range n {
			fp.Path = append(fp.Path, d.name(r, t.Name+".Path"))
		}
		fp.Owner = d.objectRef(r, t.Name+".ResolvedOwner")
		return kept(d, fp)
	case "ArrayProperty":
		return d.array(r, t, m, tag)
	case "SetProperty":
		return d.set(r, t, m, tag)
	case "MapProperty":
		return d.mapValue(r, t, m, tag)
	case "OptionalProperty":
		if r.Bool32("OptionalProperty.IsSet") {
			return d.value(r, t.Inner, mElem, nil)
		}
		return nil
	case "StructProperty":
		return d.structValue(r, t, m, tag)
	}
	if m == mTag && tag != nil {
		// An unknown property class in a tagged stream: the tag's size lets
		// decoding go on.
		n := int64(tag.Size)
		if d.bare() && n <= r.Remaining() {
			r.Skip(n, t.Name) // the bytes are there: the read cannot fail
			return nil
		}
		return &Raw{Reason: "unknown property type " + t.Name, Size: n, Data: r.Bytes(n, t.Name)}
	}
	r.Failf(t.Name, "unknown property type %q", t.Name)
	return nil
}

// jsonFloat keeps non-finite floats printable as JSON (encoding/json rejects
// NaN and Inf).
func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprint(f)
	}
	return f
}

// jsonFloat32 is jsonFloat for a float32, kept as one: it prints as the
// shortest decimal that reads back as the same float32 (0.3, not the
// float64 0.30000001192092896 it widens to), as the engine's editor and
// the other readers show it.
func jsonFloat32(f float32) any {
	if f != f || f > math.MaxFloat32 || f < -math.MaxFloat32 {
		return fmt.Sprint(f)
	}
	return f
}

func (d *decoder) name(r *binread.Reader, field string) string {
	n, _ := d.readName(r, field)
	return n
}

// labelRef is objectRef for a reference whose path is only a label: a
// lite decode that does not keep it leaves the path out.
func (d *decoder) labelRef(r *binread.Reader, field string) ObjectRef {
	if d.bare() {
		return ObjectRef{Index: r.I32(field)}
	}
	return d.objectRef(r, field)
}

func (d *decoder) objectRef(r *binread.Reader, field string) ObjectRef {
	i := r.I32(field)
	o := ObjectRef{Index: i}
	if r.Err() == nil && i != 0 && d.ctx.Object != nil {
		o.Path = d.ctx.Object(i)
	}
	return o
}

// maxString bounds AnsiStr/Utf8Str values like binread's FString bound.
const maxString = 1 << 24

// sizedString reads the int32 byte count and the bytes of an AnsiStr or
// Utf8Str value (one byte per unit), without the terminating NUL.
func sizedString(r *binread.Reader, field string) []byte {
	n := r.I32(field)
	if r.Err() != nil || n == 0 {
		return nil
	}
	if n < 0 || n > maxString {
		r.Failf(field, "string length %d", n)
		return nil
	}
	b := r.Bytes(int64(n), field)
	if len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

func (d *decoder) ansiString(r *binread.Reader, field string) string {
	b := sizedString(r, field)
	rs := make([]rune, len(b))
	for i, c := range b {
		rs[i] = rune(c)
	}
	return string(rs)
}

func (d *decoder) utf8String(r *binread.Reader, field string) string {
	b := sizedString(r, field)
	if !utf8.Valid(b) {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(b)
}

// byteValue reads a ByteProperty: a byte, or an enum value stored as an FName
// when the property has an enum (tagged data only).
func (d *decoder) byteValue(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	hasEnum := t.Enum != "" && t.Enum != "None"
	if d.ctx.Unversioned {
		v := r.U8("ByteProperty")
		if hasEnum {
			return d.enumName(t.Enum, int64(v))
		}
		return kept(d, uint64(v))
	}
	if m == mTag && tag != nil {
		// The tag's size says which form was written.
		switch tag.Size {
		case 8:
			return kept(d, Enum{Enum: t.Enum, Value: d.name(r, "ByteProperty.Enum")})
		case 1:
			return kept(d, uint64(r.U8("ByteProperty")))
		}
		if hasEnum {
			return kept(d, Enum{Enum: t.Enum, Value: d.name(r, "ByteProperty.Enum")})
		}
		return kept(d, uint64(r.U8("ByteProperty")))
	}
	if hasEnum || t.elemNameHint {
		return kept(d, Enum{Enum: t.Enum, Value: d.name(r, "ByteProperty.Enum")})
	}
	return kept(d, uint64(r.U8("ByteProperty")))
}

// enumValue reads an EnumProperty: an FName in tagged data, the underlying
// integer in unversioned data.
//
// Inside arrays, sets and maps the engine writes enum values as FNames even
// in unversioned data (LiesOfP's ItemInfo shows it; CUE4Parse reads them so).
func (d *decoder) enumValue(r *binread.Reader, t *Type, m mode) any {
	if !d.ctx.Unversioned || m == mElem {
		return kept(d, Enum{Enum: t.Enum, Value: d.name(r, "EnumProperty")})
	}
	var v int64
	switch {
	case t.Inner == nil:
		v = int64(r.U8("EnumProperty"))
	default:
		switch t.Inner.Name {
		case "ByteProperty":
			v = int64(r.U8("EnumProperty"))
		case "Int8Property":
			v = int64(r.I8("EnumProperty"))
		case "Int16Property":
			v = int64(r.I16("EnumProperty"))
		case "UInt16Property":
			v = int64(r.U16("EnumProperty"))
		case "IntProperty":
			v = int64(r.I32("EnumProperty"))
		case "UInt32Property":
			v = int64(r.U32("EnumProperty"))
		case "Int64Property", "UInt64Property":
			v = r.I64("EnumProperty")
		default:
			r.Failf("EnumProperty", "underlying type %s", t.Inner.Name)
		}
	}
	return d.enumName(t.Enum, v)
}

// enumName names value v of the enum from the mappings (nil when the
// value is not kept).
func (d *decoder) enumName(enum string, v int64) any {
	if d.bare() {
		return nil
	}
	if e := d.ctx.Mappings.Enum(enum); e != nil {
		if n, ok := e.ValueName(v); ok {
			return Enum{Enum: enum, Value: enum + "::" + n}
		}
		if flagEnumNames {
			if n, ok := flagNames(e, v); ok {
				return Enum{Enum: enum, Value: enum + "::" + n}
			}
		}
	}
	return Enum{Enum: enum, Value: enum + "::" + strconv.FormatInt(v, 10)}
}

// flagNames names v, a value of a flags enum no single value names, as the
// engine writes one in tagged data: the names of its bits joined by " | ",
// when every bit has one.
func flagNames(e *usmap.Enum, v int64) (string, bool) {
	if v <= 0 || v&(v-1) == 0 {
		return "", false // not several bits
	}
	s := ""
	for rest := v; rest != 0; rest &= rest - 1 {
		n, ok := e.ValueName(rest & -rest)
		if !ok {
			return "", false
		}
		if s != "" {
			s += " | "
		}
		s += n
	}
	return s, true
}

// elemCount reads an element count; each element takes at least min bytes.
func elemCount(r *binread.Reader, field string, min int64) int {
	return r.Count(field, min)
}

// minSize is the fewest bytes a value of type t can take (used to check
// counts before allocating).
func minSize(t *Type) int64 {
	if t == nil {
		return 1
	}
	switch t.Name {
	case "Int16Property", "UInt16Property":
		return 2
	case "IntProperty", "UInt32Property", "FloatProperty", "ObjectProperty", "ClassProperty",
		"WeakObjectProperty", "InterfaceProperty", "StrProperty", "ArrayProperty", "SetProperty", "TextProperty":
		return 4
	case "Int64Property", "UInt64Property", "DoubleProperty", "NameProperty", "MapProperty":
		return 8
	case "LazyObjectProperty":
		return 16
	}
	return 1
}

func (d *decoder) array(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	start := r.Offset()
	inner := t.Inner
	n := elemCount(r, "ArrayProperty.Count", minSize(inner))
	if r.Err() != nil {
		return nil
	}
	if inner == nil {
		r.Fail("ArrayProperty", errors.New("array without an inner type"))
		return nil
	}
	// UE4.12+ tagged arrays of structs carry a full tag for the inner
	// struct (name, type, size, struct name and GUID); UE5.4+ tags name the
	// struct in the type tree instead.
	if !d.ctx.Unversioned && inner.Name == "StructProperty" && d.ctx.ue4(verUE4InnerArrayTagInfo) && !d.ctx.ue5(verUE5PropertyTagCompleteTypeName) {
		it := d.readTag(r)
		if r.Err() != nil {
			return nil
		}
		if it == nil || it.Type.Name != "StructProperty" {
			r.Failf("ArrayProperty.InnerTag", "inner tag is not a struct tag")
			return nil
		}
		inner = it.Type
	}
	if !d.ctx.Unversioned && inner.Name == "ByteProperty" && n > 0 && m == mTag && tag != nil {
		// An array of enum bytes stores FNames: the element size tells.
		if (int64(tag.Size)-(r.Offset()-start))/int64(n) == 8 {
			c := *inner
			c.elemNameHint = true
			inner = &c
		}
	}
	keep := d.keepChildren()
	var out []any
	if keep {
		out = make([]any, 0, n)
	}
	for i := range n {
		d.pushIndex(i)
		if inner.Name == "StructProperty" && !d.ctx.Unversioned {
			v, all := d.taggedElemStruct(r, inner, n-i)
			d.pop()
			if keep {
				if raw, ok := v.(*Raw); ok && all && raw.Size%int64(n-i) == 0 && n-i > 1 {
					// Unknown native elements of equal size: keep each raw.
					es := raw.Size / int64(n-i)
					for k := int64(0); k < int64(n-i); k++ {
						out = append(out, &Raw{Struct: raw.Struct, Reason: raw.Reason, Size: es, Data: raw.Data[k*es : (k+1)*es]})
					}
					break
				}
				out = append(out, v)
			}
			if all {
				break
			}
		} else {
			v := d.value(r, inner, mElem, nil)
			if keep {
				out = append(out, v)
			}
			d.pop()
		}
		if r.Err() != nil {
			break
		}
	}
	if !keep {
		return nil
	}
	return out
}

func (d *decoder) set(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	inner := t.Inner
	if inner == nil {
		r.Fail("SetProperty", errors.New("set without an inner type"))
		return nil
	}
	// A lite decode reads the elements without keeping them (s stays nil).
	var s *Set
	if d.keepChildren() {
		s = &Set{}
	}
	nr := elemCount(r, "SetProperty.NumRemoved", minSize(inner))
	for range nr {
		v, all := d.elem(r, inner, 0)
		if s != nil {
			s.Removed = append(s.Removed, v)
		}
		if r.Err() != nil || all {
			return setValue(s)
		}
	}
	n := elemCount(r, "SetProperty.Count", minSize(inner))
	if s != nil {
		s.Elements = make([]any, 0, n)
	}
	size := int64(0)
	if d.unnamedStruct(inner) && n > 0 && r.Remaining()%int64(n) == 0 {
		size = r.Remaining() / int64(n)
	}
	for i := range n {
		d.pushIndex(i)
		v, all := d.elem(r, inner, size)
		d.pop()
		if s != nil {
			s.Elements = append(s.Elements, v)
		}
		if r.Err() != nil || all {
			break
		}
	}
	return setValue(s)
}

// setValue returns s as a value: nil when it was not kept.
func setValue(s *Set) any {
	if s == nil {
		return nil
	}
	return s
}

// mapValueOf returns m as a value: nil when it was not kept.
func mapValueOf(m *Map) any {
	if m == nil {
		return nil
	}
	return m
}

// mapStructTypes names the key and value struct types of well-known engine
// map properties, which tagged data before UE5.4 does not record (the
// engine knows them from the class; CUE4Parse keeps the same list).
// (A table searched in turn: a map literal costs its own initialization
// code in the WebAssembly.)
var mapStructTypes = [...]struct{ prop, key, value string }{
	{"PropertyGuids", "", "Guid"},
	{"BindingIdToReferences", "Guid", ""},
	{"Tracks", "MovieSceneTrackIdentifier", ""},
	{"SubSequences", "MovieSceneSequenceID", ""},
	{"Hierarchy", "MovieSceneSequenceID", ""},
	{"TrackSignatureToTrackIdentifier", "Guid", "MovieSceneTrackIdentifier"},
	{"UserParameterRedirects", "NiagaraVariable", "NiagaraVariable"},
	// FMovieSceneTemplateGenerationLedger::SubSectionRanges.
	{"SubSectionRanges", "Guid", "MovieSceneFrameRange"},
}

// mapStructType returns the key and value struct types of the well-known
// map property prop.
func mapStructType(prop string) (kv [2]string, ok bool) {
	for _, m := range mapStructTypes {
		if m.prop == prop {
			return [2]string{m.key, m.value}, true
		}
	}
	return kv, false
}

// unnamedStruct reports a struct element whose type the tag does not name
// (tagged maps and sets before UE5.4).
func (d *decoder) unnamedStruct(t *Type) bool {
	return !d.ctx.Unversioned && t != nil && t.Name == "StructProperty" && t.Struct == ""
}

// fixedSize is the stored size of a tagged element of type t, or 0 when it
// varies.
func fixedSize(t *Type) int64 {
	switch t.Name {
	case "BoolProperty", "Int8Property":
		return 1
	case "Int16Property", "UInt16Property":
		return 2
	case "IntProperty", "UInt32Property", "FloatProperty", "ObjectProperty", "ClassProperty",
		"WeakObjectProperty", "InterfaceProperty":
		return 4
	case "Int64Property", "UInt64Property", "DoubleProperty", "NameProperty", "EnumProperty":
		return 8
	case "LazyObjectProperty":
		return 16
	}
	return 0
}

func (d *decoder) mapValue(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	if t.Inner == nil || t.Value == nil {
		r.Fail("MapProperty", errors.New("map without key or value type"))
		return nil
	}
	// A lite decode reads the entries without keeping them (mv stays nil).
	var mv *Map
	if d.keepChildren() {
		mv = &Map{}
	}
	if !d.ctx.Unversioned && (t.Inner.Struct == "" || t.Value.Struct == "") && len(d.path) > 0 {
		if kv, ok := mapStructType(d.path[len(d.path)-1].name); ok {
			c := *t
			if kv[0] != "" && c.Inner.Name == "StructProperty" && c.Inner.Struct == "" {
				c.Inner = &Type{Name: "StructProperty", Struct: kv[0], structHint: true}
			}
			if kv[1] != "" && c.Value.Name == "StructProperty" && c.Value.Struct == "" {
				c.Value = &Type{Name: "StructProperty", Struct: kv[1], structHint: true}
			}
			t = &c
		}
	}
	nr := elemCount(r, "MapProperty.NumKeysToRemove", minSize(t.Inner))
	for range nr {
		v, all := d.elem(r, t.Inner, 0)
		if mv != nil {
			mv.Removed = append(mv.Removed, v)
		}
		if r.Err() != nil || all {
			return mapValueOf(mv)
		}
	}
	n := elemCount(r, "MapProperty.Count", minSize(t.Inner)+minSize(t.Value))
	if mv != nil {
		mv.Entries = make([]MapEntry, 0, n)
	}
	// When one side is a struct of unnamed type and the other has a fixed
	// size, the entries' sizes follow from the bytes left.
	var ks, vs int64
	if n > 0 {
		rem := r.Remaining()
		switch {
		case d.unnamedStruct(t.Value) && fixedSize(t.Inner) > 0:
			ks = fixedSize(t.Inner)
			if left := rem - int64(n)*ks; left >= 0 && left%int64(n) == 0 {
				vs = left / int64(n)
			}
		case d.unnamedStruct(t.Inner) && fixedSize(t.Value) > 0:
			vs = fixedSize(t.Value)
			if left := rem - int64(n)*vs; left >= 0 && left%int64(n) == 0 {
				ks = left / int64(n)
			}
		}
	}
	for i := range n {
		d.pushIndex(i)
		k, all := d.elem(r, t.Inner, ks)
		var v any
		if !all && r.Err() == nil {
			v, all = d.elem(r, t.Value, vs)
		}
		d.pop()
		if mv != nil {
			mv.Entries = append(mv.Entries, MapEntry{k, v})
		}
		if r.Err() != nil || all {
			break
		}
	}
	return mapValueOf(mv)
}

// elem reads a set or map element. Tagged maps and sets before UE5.4 do not
// name the struct type of struct elements, nor whether a byte is an enum;
// the element is then recognised from its bytes. size is the element's
// size when known from the container (0 otherwise). all reports that the
// element took every byte left (an unrecognised struct kept raw).
func (d *decoder) elem(r *binread.Reader, t *Type, size int64) (any, bool) {
	if d.ctx.Unversioned {
		return d.value(r, t, mElem, nil), false
	}
	switch t.Name {
	case "StructProperty":
		if t.structHint {
			// Older engines stored a tagged struct where the table names a
			// native one (TrackSignatureToTrackIdentifier before UE4.19
			// held FMovieSceneTrackIdentifiers): a property stream that
			// reads cleanly is taken as such.
			start := r.Offset()
			if sv, ok := d.tryTaggedStruct(r, t.Struct); ok {
				return sv, false
			}
			r.SeekTo(start, "StructProperty")
		}
		if size > 0 && t.Struct == "" && size <= r.Remaining() {
			// A property stream is tried first (entries may differ in
			// size); else the computed size keeps the bytes raw.
			start := r.Offset()
			if sv, ok := d.tryTaggedStruct(r, ""); ok {
				return sv, false
			}
			r.SeekTo(start, "StructProperty")
			d.countNative("")
			if d.bare() {
				r.Skip(size, "StructProperty") // checked above: cannot fail
				return &d.bareRaw, false
			}
			v := &Raw{Reason: "struct of unrecorded type (tagged maps and sets before UE5.4 do not name it)", Size: size, Data: rawBytes(r, size)}
			r.Skip(size, "StructProperty")
			return v, false
		}
		return d.taggedElemStruct(r, t, 1)
	case "ByteProperty":
		if t.Enum == "" && d.looksLikeName(r) && r.Remaining() >= 8 {
			c := *t
			c.elemNameHint = true
			return d.value(r, &c, mElem, nil), false
		}
	}
	return d.value(r, t, mElem, nil), false
}

// looksLikeName reports whether the next 8 bytes read as a valid FName.
func (d *decoder) looksLikeName(r *binread.Reader) bool {
	if r.Remaining() < 8 {
		return false
	}
	b := rawBytes(r, 8)
	if len(b) < 8 {
		return false
	}
	i := int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	n := int32(uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24)
	return i > 0 && int(i) < len(d.ctx.Names) && n >= 0 && n < 1<<16
}
