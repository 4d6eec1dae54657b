package property

import (
	"fmt"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/usmap"
)

// FieldDef is a serialized FProperty (UE4.25+ FField): the definition of one
// property of a class or struct the package defines.
type FieldDef struct {
	Type          string    `json:"type"` // "IntProperty", ...
	Name          string    `json:"name"`
	Flags         uint32    `json:"flags,omitempty"` // EObjectFlags
	ArrayDim      int32     `json:"array_dim"`
	ElementSize   int32     `json:"element_size"`
	PropertyFlags uint64    `json:"property_flags"`
	RepIndex      uint16    `json:"rep_index,omitempty"`
	RepNotifyFunc string    `json:"rep_notify_func,omitempty"`
	RepCondition  uint8     `json:"rep_condition,omitempty"`
	Ref           ObjectRef `json:"ref,omitempty"`         // struct, enum, class or signature function
	MetaClass     ObjectRef `json:"meta_class,omitempty"`  // ClassProperty, SoftClassProperty
	FieldClass    string    `json:"field_class,omitempty"` // FieldPathProperty
	Inner         *FieldDef `json:"inner,omitempty"`       // Array/Set/Optional element, Map key, Enum underlying
	Value         *FieldDef `json:"value,omitempty"`       // Map value
	Bool          []uint8   `json:"bool,omitempty"`        // BoolProperty: FieldSize, ByteOffset, ByteMask, FieldMask, BoolSize, NativeBool
}

// StructHeader is what UStruct::Serialize writes after the object's
// properties: the super struct, the children, the FProperty definitions
// (UE4.25+) and the Kismet bytecode (kept raw with its sizes).
type StructHeader struct {
	SuperStruct    ObjectRef   `json:"super_struct"`
	Children       []ObjectRef `json:"children,omitempty"`
	Properties     []*FieldDef `json:"properties,omitempty"`
	BytecodeSize   int32       `json:"bytecode_size"`
	ScriptSize     int32       `json:"script_storage_size"`
	ScriptBytecode *Raw        `json:"script_bytecode,omitempty"`
	// Function holds UFunction's fields, Class UClass's (when the export
	// is one).
	Function *FunctionInfo `json:"function,omitempty"`
	Class    *ClassInfo    `json:"class,omitempty"`
	// StructFlags is UScriptStruct's EStructFlags (script and user-defined
	// structs), and DefaultInstance a user-defined struct's default values.
	StructFlags     *uint32 `json:"struct_flags,omitempty"`
	DefaultInstance *Struct `json:"default_instance,omitempty"`
}

// FunctionInfo is what UFunction::Serialize adds to the struct.
type FunctionInfo struct {
	Flags                uint32    `json:"function_flags"`
	RepOffset            *int16    `json:"rep_offset,omitempty"`
	EventGraphFunction   ObjectRef `json:"event_graph_function"`
	EventGraphCallOffset int32     `json:"event_graph_call_offset"`
}

// ClassInfo is what UClass::Serialize adds to the struct.
type ClassInfo struct {
	FuncMap            []MapEntry  `json:"func_map,omitempty"`
	ClassFlags         uint32      `json:"class_flags"`
	ClassWithin        ObjectRef   `json:"class_within"`
	ClassConfigName    string      `json:"class_config_name"`
	ClassGeneratedBy   ObjectRef   `json:"class_generated_by"`
	Interfaces         []Interface `json:"interfaces,omitempty"`
	Cooked             bool        `json:"cooked"`
	ClassDefaultObject ObjectRef   `json:"class_default_object"`
}

// Interface is FImplementedInterface.
type Interface struct {
	Class           ObjectRef `json:"class"`
	PointerOffset   int32     `json:"pointer_offset"`
	ImplementedByK2 bool      `json:"implemented_by_k2"`
}

// UFunction and UClass versions.
const (
	funcNet                            = 0x40 // FUNC_Net
	verUE4NoInterfaceProperty          = 182
	verUE4AddCookedToUClass            = 241
	verUE4BlueprintEventgraphFastcalls = 451
)

// readFunction reads UFunction's part after the struct.
func (d *decoder) readFunction(r *binread.Reader) *FunctionInfo {
	f := &FunctionInfo{Flags: r.U32("Function.FunctionFlags")}
	if f.Flags&funcNet != 0 {
		v := r.I16("Function.RepOffset")
		f.RepOffset = &v
	}
	if d.ctx.ue4(verUE4BlueprintEventgraphFastcalls) {
		f.EventGraphFunction = d.labelRef(r, "Function.EventGraphFunction")
		f.EventGraphCallOffset = r.I32("Function.EventGraphCallOffset")
	}
	return f
}

// readClass reads UClass's part after the struct.
func (d *decoder) readClass(r *binread.Reader) *ClassInfo {
	c := &ClassInfo{}
	n := r.Count("Class.FuncMap", 12)
	for range n {
		k := d.name(r, "Class.FuncMap.Name")
		c.FuncMap = append(c.FuncMap, MapEntry{k, d.labelRef(r, "Class.FuncMap.Function")})
	}
	c.ClassFlags = r.U32("Class.ClassFlags")
	c.ClassWithin = d.labelRef(r, "Class.ClassWithin")
	c.ClassConfigName = d.name(r, "Class.ClassConfigName")
	c.ClassGeneratedBy = d.labelRef(r, "Class.ClassGeneratedBy")
	in := r.Count("Class.Interfaces", 12)
	for range in {
		var it Interface
		it.Class = d.labelRef(r, "Class.Interface.Class")
		if d.ctx.ue4(verUE4NoInterfaceProperty) {
			it.PointerOffset = r.I32("Class.Interface.PointerOffset")
		} else {
			d.labelRef(r, "Class.Interface.PointerProperty")
		}
		it.ImplementedByK2 = r.U32("Class.Interface.bImplementedByK2") != 0
		c.Interfaces = append(c.Interfaces, it)
	}
	r.U32("Class.bDeprecatedForceScriptOrder")
	d.name(r, "Class.Dummy")
	if d.ctx.ue4(verUE4AddCookedToUClass) {
		c.Cooked = r.U32("Class.bCooked") != 0
	}
	c.ClassDefaultObject = d.labelRef(r, "Class.ClassDefaultObject")
	return c
}

// maxFieldDepth bounds nested FProperty definitions (Map<Array<...>>).
const maxFieldDepth = 16

// custom version thresholds for UStruct.
const (
	frameworkRemoveUFieldNext              = 29
	coreFProperties                        = 4
	releasePropertiesSerializeRepCondition = 21
)

// readStructHeader reads a UStruct's serialization after its UObject part.
func (d *decoder) readStructHeader(r *binread.Reader) *StructHeader {
	h := &StructHeader{}
	// A lite decode reads the same fields but keeps no children,
	// definitions or bytecode: class data is not part of its outcome.
	keep := !d.bare()
	d.readUFieldNext(r)
	h.SuperStruct = d.labelRef(r, "Struct.SuperStruct")
	if d.ctx.cvIn(cvFramework, 0, frameworkRemoveUFieldNext, false) {
		c := d.labelRef(r, "Struct.Children")
		if c.Index != 0 && keep {
			h.Children = append(h.Children, c)
		}
	} else {
		n := r.Count("Struct.Children", 4)
		if !keep {
			r.Skip(int64(n)*4, "Struct.Child") // the count was checked
		} else {
			h.Children = make([]ObjectRef, 0, n)
			for range n {
				h.Children = append(h.Children, d.objectRef(r, "Struct.Child"))
			}
		}
	}
	if d.ctx.cvAtLeast(cvCore, coreFProperties) {
		n := r.Count("Struct.ChildProperties", 12)
		if keep {
			h.Properties = make([]*FieldDef, 0, n)
		}
		for range n {
			f := d.readField(r, 0)
			if r.Err() != nil {
				return h
			}
			if keep {
				h.Properties = append(h.Properties, f)
			}
		}
	}
	h.BytecodeSize = r.I32("Struct.BytecodeBufferSize")
	h.ScriptSize = r.I32("Struct.SerializedScriptSize")
	if r.Err() == nil {
		if h.ScriptSize < 0 || int64(h.ScriptSize) > r.Remaining() {
			r.Failf("Struct.SerializedScriptSize", "script of %d bytes, %d left", h.ScriptSize, r.Remaining())
			return h
		}
		if h.ScriptSize > 0 && !keep {
			r.Skip(int64(h.ScriptSize), "Struct.Script") // the size was checked
		} else if h.ScriptSize > 0 {
			h.ScriptBytecode = &Raw{Reason: "Kismet bytecode (not decoded)", Size: int64(h.ScriptSize), Data: r.Bytes(int64(h.ScriptSize), "Struct.Script")}
		}
	}
	return h
}

// readField reads one serialized FField: its class name, then the field
// (SerializeSingleField). It returns nil for the "None" class.
func (d *decoder) readField(r *binread.Reader, depth int) *FieldDef {
	if depth > maxFieldDepth {
		r.Fail("Field", errDepth)
		return nil
	}
	typ := d.name(r, "Field.Class")
	if r.Err() != nil || typ == "None" {
		return nil
	}
	var f *FieldDef
	if d.bare() {
		// Not kept: the definitions are read into one scratch value.
		f = &d.bareFieldDef
		*f = FieldDef{}
	} else {
		f = &FieldDef{Type: typ}
	}
	f.Name = d.name(r, "Field.Name")
	if !d.noFieldFlags {
		f.Flags = r.U32("Field.Flags")
	}
	if !d.ctx.FilterEditorOnly {
		// Editor data: bHasMetaData and the metadata map.
		if r.U32("Field.bHasMetaData") != 0 {
			n := r.Count("Field.MetaData", 12)
			for range n {
				d.name(r, "Field.MetaData.Key")
				r.FString("Field.MetaData.Value")
			}
		}
	}
	f.ArrayDim = r.I32("Property.ArrayDim")
	f.ElementSize = r.I32("Property.ElementSize")
	f.PropertyFlags = r.U64("Property.PropertyFlags")
	f.RepIndex = r.U16("Property.RepIndex")
	f.RepNotifyFunc = d.name(r, "Property.RepNotifyFunc")
	if d.ctx.cvAtLeast(cvRelease, releasePropertiesSerializeRepCondition) {
		f.RepCondition = r.U8("Property.BlueprintReplicationCondition")
	}
	switch typ {
	case "BoolProperty":
		if f == &d.bareFieldDef && r.Remaining() >= 6 {
			r.Skip(6, "BoolProperty") // the read cannot fail
		} else {
			f.Bool = r.Bytes(6, "BoolProperty")
		}
	case "ByteProperty", "StructProperty", "InterfaceProperty", "DelegateProperty",
		"MulticastDelegateProperty", "MulticastInlineDelegateProperty", "MulticastSparseDelegateProperty",
		"ObjectProperty", "ObjectPtrProperty", "WeakObjectProperty", "LazyObjectProperty", "SoftObjectProperty":
		f.Ref = d.labelRef(r, typ)
	case "ClassProperty", "ClassPtrProperty", "SoftClassProperty":
		f.Ref = d.labelRef(r, typ)
		f.MetaClass = d.labelRef(r, typ+".MetaClass")
	case "EnumProperty":
		f.Ref = d.labelRef(r, "EnumProperty.Enum")
		f.Inner = d.readField(r, depth+1)
	case "FieldPathProperty":
		f.FieldClass = d.name(r, "FieldPathProperty.PropertyClass")
	case "ArrayProperty", "SetProperty", "OptionalProperty":
		f.Inner = d.readField(r, depth+1)
	case "MapProperty":
		f.Inner = d.readField(r, depth+1)
		f.Value = d.readField(r, depth+1)
	case "IntProperty", "Int8Property", "Int16Property", "Int64Property", "UInt16Property", "UInt32Property",
		"UInt64Property", "FloatProperty", "DoubleProperty", "NameProperty", "StrProperty", "TextProperty",
		"Utf8StrProperty", "AnsiStrProperty":
	default:
		r.Failf("Field.Class", "unknown property class %q", typ)
	}
	return f
}

// usmapType converts a field definition to a schema type.
func (f *FieldDef) usmapType() *usmap.Type {
	if f == nil {
		return nil
	}
	t := &usmap.Type{}
	name := f.Type
	switch name {
	case "ObjectPtrProperty":
		name = "ObjectProperty"
	case "ClassPtrProperty":
		name = "ClassProperty"
	}
	k, ok := kindByName[name]
	if !ok {
		k = usmap.UnknownProperty
	}
	t.Kind = k
	switch name {
	case "StructProperty":
		t.Struct = lastPathElem(f.Ref.Path)
	case "EnumProperty":
		t.Enum = lastPathElem(f.Ref.Path)
		t.Inner = f.Inner.usmapType()
	case "ByteProperty":
		if f.Ref.Index != 0 {
			t.Enum = lastPathElem(f.Ref.Path)
		}
	case "ArrayProperty", "SetProperty", "OptionalProperty":
		t.Inner = f.Inner.usmapType()
	case "MapProperty":
		t.Inner = f.Inner.usmapType()
		t.Value = f.Value.usmapType()
	}
	return t
}

var kindByName = func() map[string]usmap.PropertyKind {
	m := map[string]usmap.PropertyKind{}
	for k := usmap.PropertyKind(0); k < 64; k++ {
		if s := k.String(); !strings.HasPrefix(s, "PropertyKind(") {
			m[s] = k
		}
	}
	m["ClassProperty"] = usmap.ObjectProperty
	m["SoftClassProperty"] = usmap.SoftObjectProperty
	m["MulticastInlineDelegateProperty"] = usmap.MulticastDelegateProperty
	m["MulticastSparseDelegateProperty"] = usmap.MulticastDelegateProperty
	return m
}()

// Schema turns a struct header into a schema for unversioned data: the
// properties in order, each static-array element taking one index.
func (h *StructHeader) Schema(name string) *usmap.Struct {
	var props []usmap.Property
	idx := 0
	for _, f := range h.Properties {
		dim := int(f.ArrayDim)
		if dim < 1 || dim > 255 {
			dim = 1
		}
		props = append(props, usmap.Property{Name: f.Name, Index: uint16(idx), ArraySize: uint8(dim), Type: f.usmapType(), Flags: f.PropertyFlags})
		idx += dim
	}
	return usmap.NewStruct(name, lastPathElem(h.SuperStruct.Path), props)
}

// ReadStructHeader reads the UStruct part of a class, struct or function
// export whose UObject part ends at offset off of data.
func ReadStructHeader(ctx *Context, data []byte, off int64) (*StructHeader, error) {
	d := newDecoder(ctx)
	r := binread.FromBytes(data)
	r.SeekTo(off, "Struct")
	h := d.readStructHeader(r)
	if err := r.Err(); err != nil {
		return h, fmt.Errorf("struct header: %w", err)
	}
	return h, nil
}
