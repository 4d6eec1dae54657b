package legacy

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// Property is one tagged property (FPropertyTag plus its value) of an
// object. Value is JSON-friendly: numbers, strings, bools, object paths,
// nested property lists for tagged structs, and hex for values whose
// layout needs the class (arrays, maps, native structs).
type Property struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	StructName string `json:"struct,omitempty"`
	EnumName   string `json:"enum,omitempty"`
	ArrayIndex int32  `json:"array_index,omitempty"`
	Size       int32  `json:"size"`
	Offset     int64  `json:"offset"` // of the tag, relative to the export data
	Value      any    `json:"value"`
	// Ref is the raw object reference of object-typed values.
	Ref int32 `json:"ref,omitempty"`
}

// Object is the decoded start of an export's data: its object header
// fields and tagged properties, and where the native data that follows
// them begins.
type Object struct {
	// Export is the export's 0-based index; not in JSON, where what holds
	// the object names its export (1-based, as upkg exports numbers them).
	Export     int         `json:"-"`
	Class      string      `json:"class"`
	StateFrame *StateFrame `json:"state_frame,omitempty"`
	// TemplateOwnerClass and TemplateName are the UE3 component header.
	TemplateOwnerClass string     `json:"template_owner_class,omitempty"`
	TemplateName       string     `json:"template_name,omitempty"`
	NetIndex           *int32     `json:"net_index,omitempty"`
	Properties         []Property `json:"properties"`
	// PropertiesStart and PropertiesEnd bound the tagged list (End is just
	// past the None terminator) within the export data.
	PropertiesStart int64 `json:"properties_start"`
	PropertiesEnd   int64 `json:"properties_end"`
	// NativeSize is what follows the properties: the class's own
	// serialized data.
	NativeSize int64 `json:"native_size"`
	// ClassDefaults is set for a UClass export whose default properties
	// (at the end of the export, after the script) were found.
	ClassDefaults bool `json:"class_defaults,omitempty"`
	// Actors is the actor list of a Level object (null entries are
	// deleted actors), when it could be read.
	Actors []string `json:"actors,omitempty"`
}

// StateFrame is FStateFrame, present when the object has RF_HasStack.
type StateFrame struct {
	Node         string `json:"node"`
	StateNode    string `json:"state_node"`
	ProbeMask    ue.ID  `json:"probe_mask"` // hex in JSON: often all ones, past 2^53
	LatentAction uint32 `json:"latent_action"`
	StateStack   int32  `json:"state_stack,omitempty"`
	Offset       int32  `json:"offset"`
}

// ErrNoProperties is returned by [File.Object] for exports that start with
// no tagged property list: UClass objects (their defaults follow the
// compiled script) and empty exports.
var ErrNoProperties = errors.New("legacy: object has no leading property list")

// UE1/UE2 property type numbers of the tag's info byte.
const (
	ptByte        = 1
	ptInt         = 2
	ptBool        = 3
	ptFloat       = 4
	ptObject      = 5
	ptName        = 6
	ptString      = 7 // fixed-length string in UE1, DelegateProperty from UE2
	ptClass       = 8
	ptArray       = 9
	ptStruct      = 10
	ptVector      = 11
	ptRotator     = 12
	ptStr         = 13
	ptMap         = 14
	ptFixedArray  = 15
	ptPointer     = 16
	infoTypeMask  = 0x0F
	infoSizeMask  = 0x70
	infoArrayFlag = 0x80
)

var ue1TypeNames = [...]string{
	"", "ByteProperty", "IntProperty", "BoolProperty", "FloatProperty", "ObjectProperty", "NameProperty",
	"StringProperty", "ClassProperty", "ArrayProperty", "StructProperty", "VectorProperty", "RotatorProperty",
	"StrProperty", "MapProperty", "FixedArrayProperty", "PointerProperty",
}

// verRefactoredTags is where UE3 moves to the FName-typed tag with an
// explicit int32 size and array index.
const verRefactoredTags = 223

// Limits of the property decoder.
const (
	maxStructDepth = 8       // nested tagged structs
	maxHexValue    = 256     // raw values longer than this are summarised
	maxProps       = 1 << 16 // tags per list
)

type propReader struct {
	f *File
	// r is held by value: a pointer would escape with data (escape
	// analysis does not tell the fields of *p apart) and cost a heap
	// Reader per list.
	r     binread.Reader
	depth int
	// budget, when set, bounds the tags read across many attempts (the
	// class-defaults search), so crafted data cannot make it quadratic.
	budget *int
	// keep says to build the property list and values; without it the
	// tags and values are read and checked the same way and dropped.
	keep bool
	// data, when set, is what r reads (offset 0 = data[0]): values are
	// then sliced from it instead of copied.
	data []byte
}

// Object decodes the object header and tagged properties of export i.
func (f *File) Object(i int) (*Object, error) {
	// The Object keeps no slice of data: the bytes may be shared.
	data, pin, err := f.view(i)
	if err != nil {
		return nil, err
	}
	defer f.unpin(pin)
	return f.decodeObject(i, data)
}

// CheckObject decodes export i as [File.Object] does, with the same
// checks and errors, but keeps none of the decoded values: it returns
// only the size of the native data after the properties (0 for class
// defaults). Verification uses it to decode every export cheaply.
func (f *File) CheckObject(i int) (nativeSize int64, err error) {
	data, pin, err := f.view(i)
	if err != nil {
		return 0, err
	}
	defer f.unpin(pin)
	var o Object
	if err := f.decodeObjectInto(&o, i, data, false); err != nil {
		return 0, err
	}
	return o.NativeSize, nil
}

func (f *File) decodeObject(i int, data []byte) (*Object, error) {
	o := new(Object)
	err := f.decodeObjectInto(o, i, data, true)
	return o, err
}

// decodeObjectInto decodes export i into o; on failure o holds only the
// export and class. keep=false decodes and checks the same way but builds
// no property values, object paths or lists (o gets only the offsets and
// sizes).
func (f *File) decodeObjectInto(o *Object, i int, data []byte, keep bool) error {
	if f.memo != nil {
		f.memo.widen(i, len(f.Exports), int64(len(data)))
	}
	e := &f.Exports[i]
	*o = Object{Export: i}
	if keep {
		o.Class = f.ClassName(i)
	}
	if e.ClassIndex == 0 {
		if props, start, ok := f.classDefaults(data, keep); ok {
			o.Properties, o.PropertiesStart, o.PropertiesEnd = props, start, int64(len(data))
			o.ClassDefaults = true
			return nil
		}
		return ErrNoProperties
	}
	if len(data) == 0 {
		return ErrNoProperties
	}
	var firstErr error
	var pr propReader
	for _, v := range f.headerVariants(i) {
		// The header and the list are read by one reader, pr.r.
		// Field by field: assigning a whole propReader (its Reader)
		// copies it through the runtime.
		pr.f, pr.depth, pr.budget, pr.keep, pr.data = f, 0, nil, keep, data
		binread.FromBytes(data).SectionInto(&pr.r, 0, int64(len(data)), "")
		r := &pr.r
		f.setOrder(r)
		cand := Object{Export: i, Class: o.Class}
		f.readObjectHeader(r, e, v, &cand, keep)
		if r.Err() != nil {
			if firstErr == nil {
				firstErr = r.Err()
			}
			continue
		}
		cand.PropertiesStart = r.Offset()
		props, err := pr.list()
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		cand.Properties = props
		cand.PropertiesEnd = r.Offset()
		cand.NativeSize = int64(len(data)) - cand.PropertiesEnd
		if !keep {
			// The offsets and sizes, without copying a whole Object.
			o.PropertiesStart, o.PropertiesEnd, o.NativeSize = cand.PropertiesStart, cand.PropertiesEnd, cand.NativeSize
			return nil
		}
		if cand.Class == "Level" {
			if refs, err := f.levelActors(data[cand.PropertiesEnd:]); err == nil {
				cand.Actors = make([]string, len(refs))
				for j, ref := range refs {
					cand.Actors[j] = f.ObjectPath(ref)
				}
			}
		}
		*o = cand
		return nil
	}
	return fmt.Errorf("legacy: export %d (%s): properties: %w", i, e.ObjectName, firstErr)
}

// headerVariant says which optional object-header fields to read. UE3
// components carry a template header only under conditions that need the
// class hierarchy; the decoder tries the plausible layouts in turn and
// keeps the first whose property list ends in a clean terminator.
type headerVariant struct {
	templateOwner bool
	templateName  bool
}

// The orders in which headerVariants tries the layouts (shared, never
// modified).
var (
	variantsPlain     = []headerVariant{{}}
	variantsTemplate  = []headerVariant{{true, true}, {true, false}, {}}
	variantsComponent = []headerVariant{{true, false}, {true, true}, {}}
	variantsObject    = []headerVariant{{}, {true, false}, {true, true}}
)

func (f *File) headerVariants(i int) []headerVariant {
	if f.Summary.FileVersion < verComponentTmpl {
		return variantsPlain
	}
	e := &f.Exports[i]
	// Distributions (DistributionFloatConstant, ...) are UComponents in UE3
	// without the name saying so.
	class := f.ClassName(i)
	isComp := strings.HasSuffix(class, "Component") || strings.HasPrefix(class, "Distribution")
	tmpl := e.ObjectFlags&(rfArchetypeUE3|rfCDOUE3) != 0 || strings.HasPrefix(e.ObjectName, "Default__")
	switch {
	case isComp && tmpl:
		return variantsTemplate
	case isComp:
		return variantsComponent
	}
	return variantsObject
}

// readObjectHeader reads the object header fields into o; keep=false
// skips resolving the component template's class path.
func (f *File) readObjectHeader(r *binread.Reader, e *Export, v headerVariant, o *Object, keep bool) {
	ver := int(f.Summary.FileVersion)
	if f.game == gameME3 {
		// Mass Effect 3 on Wii U reports version 845 but serializes
		// objects like the 684 engine it was built from.
		ver = min(ver, 684)
	}
	ue3 := f.ue3()
	hasStack := e.ObjectFlags&rfHasStack != 0
	if ver < verOuterIndex {
		// Pre-release packages (version 44) give every object a frame
		// without the code offset.
		f.objRef(r, "StateFrame.Node")
		f.objRef(r, "StateFrame.StateNode")
		r.U64("StateFrame.ProbeMask")
		r.U32("StateFrame.LatentAction")
		hasStack = false
	}
	if ue3 && ver >= verUE3ObjectFlags {
		hasStack = e.ObjectFlags&rfHasStackUE3 != 0
	}
	if hasStack {
		var sf StateFrame
		node := f.objRef(r, "StateFrame.Node")
		stateNode := f.objRef(r, "StateFrame.StateNode")
		if keep {
			sf.Node, sf.StateNode = f.ObjectPath(node), f.ObjectPath(stateNode)
		}
		if ver < verProbeMask32 {
			sf.ProbeMask = ue.ID(r.U64("StateFrame.ProbeMask"))
		} else {
			sf.ProbeMask = ue.ID(r.U32("StateFrame.ProbeMask"))
		}
		if ue3 && ver >= verLatentAction16 {
			sf.LatentAction = uint32(r.U16("StateFrame.LatentAction"))
		} else {
			sf.LatentAction = r.U32("StateFrame.LatentAction")
		}
		if ue3 && ver >= verStateStack {
			start := r.Offset()
			sf.StateStack = r.I32("StateFrame.StateStack")
			n := r.CheckCount(start, int64(sf.StateStack), 12, "StateFrame.StateStack")
			r.Skip(int64(n)*12, "StateFrame.StateStack")
		}
		if !f.pathIsNone(node) {
			sf.Offset = f.objRef(r, "StateFrame.Offset")
		}
		if keep {
			kept := sf
			o.StateFrame = &kept
		}
	}
	if v.templateOwner {
		owner := r.I32("Component.TemplateOwnerClass")
		if keep {
			o.TemplateOwnerClass = f.ObjectPath(owner)
		}
		if v.templateName {
			o.TemplateName = f.readNameRef(r, "Component.TemplateName")
		}
	}
	if ue3 && ver >= verNetObjectCount {
		n := r.I32("Object.NetIndex")
		if keep {
			kept := n
			o.NetIndex = &kept
		}
	}
}

// list reads tags until None (and returns nil unless p.keep).
func (p *propReader) list() ([]Property, error) {
	var props []Property
	var prop Property
	for n := 0; ; n++ {
		if n >= maxProps {
			return props, fmt.Errorf("more than %d properties", maxProps)
		}
		if p.budget != nil {
			if *p.budget <= 0 {
				return props, errors.New("search budget exhausted")
			}
			*p.budget--
		}
		done, err := p.tag(&prop)
		if err != nil {
			return props, err
		}
		if done {
			return props, nil
		}
		if p.keep {
			props = append(props, prop)
		}
	}
}

func (p *propReader) fail(field, format string, args ...any) error {
	return &FormatError{Off: p.r.Abs(), Field: field, Msg: fmt.Sprintf(format, args...)}
}

// tag reads one property tag and its value into prop (filled in place:
// a Property is large to return); done is true at None.
func (p *propReader) tag(prop *Property) (bool, error) {
	f, r := p.f, &p.r
	*prop = Property{Offset: r.Offset()}
	name := f.readNameRef(r, "PropertyTag.Name")
	if err := r.Err(); err != nil {
		return false, err
	}
	if name == "None" {
		return true, nil
	}
	prop.Name = name
	var typ int
	var boolVal bool
	if f.Summary.FileVersion < verRefactoredTags {
		info := r.U8("PropertyTag.Info")
		typ = int(info & infoTypeMask)
		if typ == 0 {
			return false, p.fail("PropertyTag.Info", "property %q has type 0", name)
		}
		prop.Type = ue1TypeNames[typ]
		if typ == ptString && f.Summary.FileVersion >= verUE2 {
			prop.Type = "DelegateProperty"
		}
		if typ == ptStruct {
			prop.StructName = f.readNameRef(r, "PropertyTag.StructName")
		}
		switch info & infoSizeMask {
		case 0x00:
			prop.Size = 1
		case 0x10:
			prop.Size = 2
		case 0x20:
			prop.Size = 4
		case 0x30:
			prop.Size = 12
		case 0x40:
			prop.Size = 16
		case 0x50:
			prop.Size = int32(r.U8("PropertyTag.Size"))
		case 0x60:
			prop.Size = int32(r.U16("PropertyTag.Size"))
		case 0x70:
			prop.Size = r.I32("PropertyTag.Size")
		}
		if typ == ptBool {
			boolVal = info&infoArrayFlag != 0
			prop.Size = 0
		} else if info&infoArrayFlag != 0 {
			b := int32(r.U8("PropertyTag.ArrayIndex"))
			switch {
			case b&0x80 == 0:
				prop.ArrayIndex = b
			case b&0xC0 == 0x80:
				prop.ArrayIndex = (b&0x7F)<<8 | int32(r.U8("PropertyTag.ArrayIndex"))
			default:
				c, d, e := int32(r.U8("PropertyTag.ArrayIndex")), int32(r.U8("PropertyTag.ArrayIndex")), int32(r.U8("PropertyTag.ArrayIndex"))
				prop.ArrayIndex = (b&0x3F)<<24 | c<<16 | d<<8 | e
			}
		}
	} else {
		prop.Type = f.readNameRef(r, "PropertyTag.Type")
		if r.Err() == nil && !strings.HasSuffix(prop.Type, "Property") {
			// No property type: the tag was read at the wrong place (the
			// object header read in the wrong layout).
			return false, p.fail("PropertyTag.Type", "property %q has type %q, no property type", name, prop.Type)
		}
		prop.Size = r.I32("PropertyTag.Size")
		prop.ArrayIndex = r.I32("PropertyTag.ArrayIndex")
		switch prop.Type {
		case "StructProperty":
			prop.StructName = f.readNameRef(r, "PropertyTag.StructName")
		case "ByteProperty":
			if f.Summary.FileVersion >= verEnumName {
				prop.EnumName = f.readNameRef(r, "PropertyTag.EnumName")
			}
		case "BoolProperty":
			if f.Summary.FileVersion >= verBoolByte {
				v := r.U8("PropertyTag.BoolVal")
				boolVal = v != 0
			} else {
				boolVal = r.U32("PropertyTag.BoolVal") != 0
			}
		}
		typ = -1
	}
	if err := r.Err(); err != nil {
		return false, err
	}
	if prop.Size < 0 || int64(prop.Size) > r.Remaining() {
		return false, p.fail("PropertyTag.Size", "property %q of %d bytes, %d left", name, prop.Size, r.Remaining())
	}
	if prop.ArrayIndex < 0 || prop.ArrayIndex > 1<<20 {
		return false, p.fail("PropertyTag.ArrayIndex", "property %q has array index %d", name, prop.ArrayIndex)
	}
	if prop.Type == "BoolProperty" {
		prop.Value = boolVal
		if prop.Size != 0 && f.ue3() && f.Summary.FileVersion >= verRefactoredTags {
			return false, p.fail("PropertyTag.Size", "bool property %q has size %d", name, prop.Size)
		}
		r.Skip(int64(prop.Size), "PropertyValue")
		return false, r.Err()
	}
	start := r.Offset()
	var val []byte
	if p.data != nil {
		r.Skip(int64(prop.Size), "PropertyValue")
		if r.Err() == nil {
			val = p.data[start : start+int64(prop.Size)]
		}
	} else {
		val = r.Bytes(int64(prop.Size), "PropertyValue")
	}
	if err := r.Err(); err != nil {
		return false, err
	}
	v, err := p.value(prop, val, r.Base()+start)
	if err != nil {
		return false, err
	}
	prop.Value = v
	return false, nil
}

// value decodes a property value from its bytes. Errors are returned only
// where the size contradicts the type (a sign of a misread list); values
// whose layout is unknown are kept as hex.
func (p *propReader) value(prop *Property, b []byte, abs int64) (any, error) {
	f := p.f
	vr := binread.FromBytes(b)
	f.setOrder(vr)
	want := func(n int) error {
		if len(b) != n {
			return &FormatError{Off: abs, Field: "PropertyValue", Msg: fmt.Sprintf("%s %q has %d bytes, want %d", prop.Type, prop.Name, len(b), n)}
		}
		return nil
	}
	switch prop.Type {
	case "IntProperty", "StringRefProperty":
		if err := want(4); err != nil || !p.keep {
			return nil, err
		}
		return vr.I32("IntProperty"), nil
	case "FloatProperty":
		if err := want(4); err != nil || !p.keep {
			return nil, err
		}
		return jsonFloat(vr.F32("FloatProperty")), nil
	case "QWordProperty":
		if err := want(8); err != nil || !p.keep {
			return nil, err
		}
		return vr.U64("QWordProperty"), nil
	case "ByteProperty":
		if len(b) == 1 {
			return b[0], nil
		}
		if f.ue3() && (len(b) == 8 || len(b) == 4) {
			idx, num := f.nameIndex(vr, "ByteProperty")
			if !p.keep {
				if f.validName(idx) && vr.Remaining() == 0 {
					return nil, nil
				}
			} else if s, ok := f.name(idx, num); ok && vr.Remaining() == 0 {
				return s, nil
			}
		}
		return nil, &FormatError{Off: abs, Field: "PropertyValue", Msg: fmt.Sprintf("ByteProperty %q has %d bytes", prop.Name, len(b))}
	case "ObjectProperty", "ClassProperty", "ComponentProperty", "InterfaceProperty":
		ref := f.objRef(vr, prop.Type)
		if vr.Err() != nil || vr.Remaining() != 0 || !f.validRef(ref) {
			return nil, &FormatError{Off: abs, Field: "PropertyValue", Msg: fmt.Sprintf("%s %q is not one object reference", prop.Type, prop.Name)}
		}
		prop.Ref = ref
		if !p.keep {
			return nil, nil
		}
		return f.ObjectPath(ref), nil
	case "NameProperty":
		idx, num := f.nameIndex(vr, prop.Type)
		if vr.Err() != nil || !f.validName(idx) || vr.Remaining() != 0 {
			return nil, &FormatError{Off: abs, Field: "PropertyValue", Msg: fmt.Sprintf("NameProperty %q is not one name", prop.Name)}
		}
		if !p.keep {
			return nil, nil
		}
		s, _ := f.name(idx, num)
		return s, nil
	case "StrProperty":
		if !p.keep {
			// Nothing here fails: the string or hex is only kept.
			return nil, nil
		}
		var s string
		if f.ue3() {
			s = vr.FString("StrProperty")
		} else {
			s = readCompactString(vr, "StrProperty")
		}
		if vr.Err() != nil || vr.Remaining() != 0 {
			return hexValue(b), nil
		}
		return s, nil
	case "StringProperty":
		if !p.keep {
			return nil, nil
		}
		return strings.TrimRight(latin1String(b), "\x00"), nil
	case "DelegateProperty":
		if len(b) == 0 || !p.keep {
			// (The delegate is kept as a map or as hex; neither fails.)
			return nil, nil
		}
		obj := f.objRef(vr, "Delegate.Object")
		idx, num := f.nameIndex(vr, "Delegate.Function")
		fn, ok := f.name(idx, num)
		if vr.Err() != nil || !ok || !f.validRef(obj) {
			return hexValue(b), nil
		}
		return map[string]any{"object": f.ObjectPath(obj), "function": fn}, nil
	case "VectorProperty":
		return p.structValue("Vector", b, abs)
	case "RotatorProperty":
		return p.structValue("Rotator", b, abs)
	case "StructProperty":
		return p.structValue(prop.StructName, b, abs)
	case "ArrayProperty":
		var n int32
		if f.ue3() {
			n = vr.I32("ArrayProperty.Count")
		} else {
			n = vr.CompactIndex("ArrayProperty.Count")
		}
		if vr.Err() != nil || n < 0 || int64(n) > vr.Remaining() {
			return nil, &FormatError{Off: abs, Field: "PropertyValue", Msg: fmt.Sprintf("ArrayProperty %q count %d does not fit %d bytes", prop.Name, n, len(b))}
		}
		if !p.keep {
			return nil, nil
		}
		out := map[string]any{"count": n}
		rest := b[len(b)-int(vr.Remaining()):]
		if n > 0 && len(rest) > 0 {
			out["data"] = hexValue(rest)
		}
		return out, nil
	}
	if !p.keep {
		return nil, nil
	}
	return hexValue(b), nil
}

// validName reports whether idx is an index into the name table (what
// name checks besides formatting the name).
func (f *File) validName(idx int32) bool { return idx >= 0 && int(idx) < len(f.Names) }

// validRef reports whether ref points into the tables.
func (f *File) validRef(ref int32) bool {
	switch {
	case ref < 0:
		return int64(-int64(ref)-1) < int64(len(f.Imports))
	case ref > 0:
		return int(ref-1) < len(f.Exports)
	}
	return true
}

// structValue decodes the immutable structs by name, then tries a nested
// tagged list (UE2 >= 118 and UE3 serialize most structs that way), and
// falls back to hex.
func (p *propReader) structValue(name string, b []byte, abs int64) (any, error) {
	f := p.f
	if !p.keep {
		// Nothing here fails; only a nested tagged list is decoded, for
		// its effect on the search budget and as a check of its own.
		if p.depth < maxStructDepth && (f.Summary.FileVersion >= verStructTags) && len(b) > 0 && !p.fixedStruct(name, len(b)) {
			sub := propReader{f: f, r: *binread.FromBytes(b), depth: p.depth + 1, budget: p.budget}
			f.setOrder(&sub.r)
			sub.list()
		}
		return nil, nil
	}
	vr := binread.FromBytes(b)
	f.setOrder(vr)
	floats := func(keys ...string) map[string]any {
		m := make(map[string]any, len(keys))
		for _, k := range keys {
			m[k] = jsonFloat(vr.F32(name))
		}
		return m
	}
	ints := func(keys ...string) map[string]any {
		m := make(map[string]any, len(keys))
		for _, k := range keys {
			m[k] = vr.I32(name)
		}
		return m
	}
	var v any
	switch {
	case (name == "Vector" || name == "Scale") && len(b) == 12:
		v = floats("X", "Y", "Z")
	case name == "Scale" && len(b) == 17:
		// UE1/UE2: a Vector, SheerRate, then the ESheerAxis byte.
		m := map[string]any{"Scale": floats("X", "Y", "Z"), "SheerRate": vr.F32(name)}
		axis := vr.U8(name)
		if int(axis) < len(sheerAxes) {
			m["SheerAxis"] = sheerAxes[axis]
		} else {
			m["SheerAxis"] = int64(axis)
		}
		v = m
	case name == "PointRegion" && len(b) >= 6:
		// Zone (an object reference: a compact index before UE3), iLeaf,
		// ZoneNumber.
		zone := f.objRef(vr, "PointRegion.Zone")
		leaf := vr.I32("PointRegion.iLeaf")
		num := vr.U8("PointRegion.ZoneNumber")
		if vr.Err() == nil && vr.Remaining() == 0 && f.validRef(zone) {
			v = map[string]any{"Zone": f.ObjectPath(zone), "iLeaf": int64(leaf), "ZoneNumber": int64(num)}
		}
	case name == "Matrix" && len(b) == 64:
		// Four Planes, each W first (see Plane): a transform's WPlane
		// reads (W=1, X=tx, Y=ty, Z=tz).
		v = map[string]any{"XPlane": floats("W", "X", "Y", "Z"), "YPlane": floats("W", "X", "Y", "Z"), "ZPlane": floats("W", "X", "Y", "Z"), "WPlane": floats("W", "X", "Y", "Z")}
	case name == "Coords" && len(b) == 48:
		v = map[string]any{"Origin": floats("X", "Y", "Z"), "XAxis": floats("X", "Y", "Z"), "YAxis": floats("X", "Y", "Z"), "ZAxis": floats("X", "Y", "Z")}
	case name == "Vector2D" && len(b) == 8:
		v = floats("X", "Y")
	case name == "Rotator" && len(b) == 12:
		v = ints("Pitch", "Yaw", "Roll")
	case name == "Plane" && len(b) == 16:
		// struct Plane extends Vector { var float W; }: as a binary
		// struct (UE1 and UE3 alike) its own W comes first.
		v = floats("W", "X", "Y", "Z")
	case (name == "Quat" || name == "Vector4") && len(b) == 16:
		v = floats("X", "Y", "Z", "W")
	case name == "LinearColor" && len(b) == 16:
		v = floats("R", "G", "B", "A")
	case name == "Color" && len(b) == 4:
		if f.ue3() {
			v = map[string]any{"B": b[0], "G": b[1], "R": b[2], "A": b[3]}
		} else {
			v = map[string]any{"R": b[0], "G": b[1], "B": b[2], "A": b[3]}
		}
	case name == "Guid" && len(b) == 16:
		v = fmt.Sprintf("%08X%08X%08X%08X", vr.U32(name), vr.U32(name), vr.U32(name), vr.U32(name))
	case name == "IntPoint" && len(b) == 8:
		v = ints("X", "Y")
	case name == "Box" && len(b) == 25:
		m := map[string]any{"Min": floats("X", "Y", "Z"), "Max": floats("X", "Y", "Z")}
		m["IsValid"] = vr.U8(name)
		v = m
	}
	if v != nil {
		return v, nil
	}
	if p.depth < maxStructDepth && (f.Summary.FileVersion >= verStructTags) && len(b) > 0 {
		sub := propReader{f: f, r: *binread.FromBytes(b), depth: p.depth + 1, budget: p.budget, keep: true}
		f.setOrder(&sub.r)
		if props, err := sub.list(); err == nil && sub.r.Remaining() == 0 {
			return props, nil
		}
	}
	return hexValue(b), nil
}

// sheerAxes are ESheerAxis's names (UE1/UE2 Object.uc), by value.
var sheerAxes = []string{"SHEER_None", "SHEER_XY", "SHEER_XZ", "SHEER_YX", "SHEER_YZ", "SHEER_ZX", "SHEER_ZY"}

// fixedStruct reports whether structValue decodes a struct of this name
// and size by its fixed layout (the cases of its switch).
func (p *propReader) fixedStruct(name string, n int) bool {
	switch name {
	case "Vector", "Rotator":
		return n == 12
	case "Scale":
		return n == 12 || n == 17
	case "Coords":
		return n == 48
	case "Matrix":
		return n == 64
	case "PointRegion":
		return n >= 6 && n <= 9
	case "Vector2D", "IntPoint":
		return n == 8
	case "Plane", "Quat", "Vector4", "LinearColor", "Guid":
		return n == 16
	case "Color":
		return n == 4
	case "Box":
		return n == 25
	}
	return false
}

// hexValue renders raw bytes, summarising long ones.
func hexValue(b []byte) any {
	if len(b) <= maxHexValue {
		return map[string]any{"raw": hex.EncodeToString(b)}
	}
	return map[string]any{"raw": hex.EncodeToString(b[:maxHexValue]), "raw_size": len(b)}
}

// jsonFloat keeps NaN and infinities out of JSON (encoding/json rejects them).
func jsonFloat(v float32) any {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return fmt.Sprint(v)
	}
	return v
}
