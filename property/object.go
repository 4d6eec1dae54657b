package property

import (
	"fmt"
	"sort"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// rfClassDefaultObject is RF_ClassDefaultObject in EObjectFlags.
const rfClassDefaultObject = 0x10

// Export describes the export whose data is decoded.
type Export struct {
	// Class is the name of the export's class object ("StaticMesh",
	// "DataTable", "BP_Hero_C"), the key for its schema in the mappings.
	Class string
	// ClassIsBlueprint is set when the class is a Blueprint-generated class
	// (its CDO then carries sparse class data in UE5.2+).
	ClassIsBlueprint bool
	// ObjectFlags are the export's EObjectFlags.
	ObjectFlags uint32
	// Name is the export's object name (a user-defined struct's own schema
	// is looked up by it).
	Name string
	// ScriptStart and ScriptEnd are the UE5.3+ script serialization offsets
	// (relative to the export's data); both 0 when the file has none.
	ScriptStart, ScriptEnd int64
}

// Object is an export's decoded data.
type Object struct {
	// Leading holds bytes before the property stream (when the script
	// serialization offsets say the properties start later).
	Leading *Raw `json:"leading,omitempty"`
	// ImportDataJSON is the source-file JSON an AssetImportData object
	// writes before its properties (editor data).
	ImportDataJSON string `json:"import_data_json,omitempty"`
	// SerializationControl is EClassSerializationControlExtension (UE5.2+
	// tagged data) and OverrideOperation the overridable operation when
	// flagged.
	SerializationControl *uint8      `json:"serialization_control,omitempty"`
	OverrideOperation    *uint8      `json:"override_operation,omitempty"`
	Properties           []*Property `json:"properties"`
	// PropertiesEnd is the offset just past the property stream.
	PropertiesEnd int64 `json:"properties_end"`
	// Guid is the object GUID that follows the properties of non-CDO objects
	// when its flag is set.
	HasGuid bool     `json:"has_guid,omitempty"`
	Guid    *ue.Guid `json:"object_guid,omitempty"`
	// SparseClassData is the sparse class data of a Blueprint CDO (UE5.2+).
	SparseClassData *Struct `json:"sparse_class_data,omitempty"`
	// ClassData is the class-specific data after the properties that is
	// decoded (DataTable rows, StringTable entries, CurveTable rows).
	ClassData any `json:"class_data,omitempty"`
	// Tail holds bytes after everything decoded, labelled with what they are.
	Tail *Raw `json:"tail,omitempty"`
	// Notes lists observations that are not errors.
	Notes []string `json:"notes,omitempty"`
	// Issues lists where decoding did not go exactly as the data said.
	Issues []Issue `json:"issues,omitempty"`
	// NativeStructs counts native structs kept raw for want of a decoder.
	NativeStructs map[string]int `json:"native_structs,omitempty"`
	// Complete is set when the property stream decoded exactly: every tag's
	// value used its size, and the stream ended at its terminator (tagged)
	// or after its last value (unversioned).
	Complete bool `json:"complete"`
	// Unaccounted counts bytes neither decoded nor labelled (after a failure).
	Unaccounted int64 `json:"unaccounted,omitempty"`
	Size        int64 `json:"size"`

	// tail, serializationControl and overrideOperation hold what Tail,
	// SerializationControl and OverrideOperation point at, so that an
	// Object takes one allocation (and a reused one none).
	tail                                    Raw
	serializationControl, overrideOperation uint8
}

// Err summarizes why the object is not complete, or returns nil.
func (o *Object) Err() error {
	if o.Complete {
		return nil
	}
	if len(o.Issues) > 0 {
		return fmt.Errorf("%s", o.Issues[0])
	}
	return fmt.Errorf("property stream incomplete")
}

// ReadExport decodes an export's serialized data: the property stream and
// what surrounds it. It always returns an Object; Complete says whether the
// property stream decoded exactly.
func ReadExport(ctx *Context, data []byte, ex Export) *Object {
	d := getDecoder(ctx)
	o := d.readExport(data, ex)
	putDecoder(d)
	return o
}

// ReadExportLite is ReadExport for callers that want only the outcome:
// Complete, Issues, Unaccounted, Size, PropertiesEnd, NativeStructs, Tail
// and Notes. Every byte is read and checked exactly as ReadExport does, so
// these come out the same, but the decoded values are not kept:
// Properties is empty (except for data tables, whose rows need the
// RowStruct property: then it holds the object's own properties with their
// immediate values), and struct members, elements, strings, texts, sparse
// class data and class data are left out or empty.
func ReadExportLite(ctx *Context, data []byte, ex Export) *Object {
	o := new(Object)
	ReadExportLiteInto(ctx, data, ex, o)
	return o
}

// ReadExportLiteInto is [ReadExportLite] decoding into o, whatever o held
// before, for callers that look at each outcome before the next decode and
// so can reuse one Object for all of them.
func ReadExportLiteInto(ctx *Context, data []byte, ex Export, o *Object) {
	d := getDecoder(ctx)
	d.lite = true
	d.readExportInto(data, ex, o)
	putDecoder(d)
}

func (d *decoder) readExport(data []byte, ex Export) *Object {
	o := new(Object)
	d.readExportInto(data, ex, o)
	return o
}

func (d *decoder) readExportInto(data []byte, ex Export, o *Object) {
	ctx := d.ctx
	d.budget = maxStepsPerByte*int64(len(data)) + 1<<16
	d.startText(len(data))
	defer d.endText()
	*o = Object{Size: int64(len(data)), Properties: []*Property{}}
	d.root = *binread.FromBytes(data)
	r := &d.root
	propsEnd := int64(-1)
	if ex.ScriptEnd > ex.ScriptStart && ex.ScriptStart >= 0 && ex.ScriptEnd <= int64(len(data)) {
		if ex.ScriptStart > 0 {
			o.Leading = &Raw{Reason: "export data before the script properties", Size: ex.ScriptStart, Data: data[:ex.ScriptStart]}
			r.SeekTo(ex.ScriptStart, "ScriptSerializationStartOffset")
		}
		propsEnd = ex.ScriptEnd
	}
	// UAssetImportData (and its Fbx*ImportData subclasses) writes its source
	// file list as a JSON FString before the properties, in editor data
	// since VER_UE4_ASSET_IMPORT_DATA_AS_JSON.
	if !ctx.FilterEditorOnly && ctx.ue4(verUE4AssetImportDataAsJSON) && strings.HasSuffix(ex.Class, "ImportData") && o.Leading == nil {
		start := r.Offset()
		js := r.FString("AssetImportData.Json")
		if r.Err() == nil && strings.HasPrefix(js, "[") {
			o.ImportDataJSON = js
		} else {
			r.ClearErr()
			r.SeekTo(start, "AssetImportData.Json")
		}
	}
	if fn, own := ownSerializer(ex.Class); own {
		d.push(ex.Class)
		d.readOwnSerialize(r, o, ex, fn)
		return
	}
	d.push(ex.Class)
	ok := false
	// A lite decode keeps the object's own properties only for the class
	// data that reads them.
	d.top = classDataReadsProperties(ex.Class)
	if ctx.Unversioned {
		if props := d.unversioned(r, ex.Class); props != nil {
			o.Properties = props
		}
		if err := r.Err(); err != nil {
			d.issue(r.Abs(), "%v", err)
		} else {
			ok = true
		}
	} else {
		if ctx.ue5(verUE5PropertyTagExtension) {
			o.serializationControl = r.U8("SerializationControl")
			o.SerializationControl = &o.serializationControl
			if o.serializationControl&0x02 != 0 {
				o.overrideOperation = r.U8("OverridableOperation")
				o.OverrideOperation = &o.overrideOperation
			}
		}
		var props []*Property
		props, ok = d.tagged(r)
		if props != nil {
			o.Properties = props
		}
		ok = ok && r.Err() == nil
	}
	d.top = false
	o.PropertiesEnd = r.Offset()
	if ok && propsEnd >= 0 && o.PropertiesEnd != propsEnd {
		// Some classes (cooked textures) count their native data inside the
		// recorded script range; the stream itself ended at its terminator.
		o.Notes = append(o.Notes, fmt.Sprintf("property stream ended at 0x%x, the export's script serialization end offset is 0x%x", o.PropertiesEnd, propsEnd))
	}
	o.Complete = ok && len(d.issues) == 0
	if !ok {
		o.finish(d)
		o.Unaccounted = int64(len(data)) - o.PropertiesEnd
		return
	}
	// The object GUID of non-CDO objects (UObject::Serialize).
	if ex.ObjectFlags&rfClassDefaultObject == 0 && r.Remaining() >= 4 {
		start := r.Offset()
		v := r.U32("ObjectGuid.bHasGuid")
		switch {
		case v == 1 && r.Remaining() >= 16:
			g := ue.ReadGuid(r, "ObjectGuid")
			o.HasGuid, o.Guid = true, &g
		case v == 0:
		default:
			r.SeekTo(start, "ObjectGuid") // not a flag: class data follows directly
		}
	} else if ex.ObjectFlags&rfClassDefaultObject != 0 && ex.ClassIsBlueprint && ctx.cvAtLeast(cvUE5Main, ue5MainSparseClassDataStructSerialization) && r.Remaining() >= 4 {
		d.sparseClassData(r, o)
	}
	o.ClassData = d.classData(r, o, ex)
	if r.Err() != nil {
		d.issue(r.Abs(), "class data: %v", r.Err())
		r.ClearErr()
	}
	if rest := r.Remaining(); rest > 0 {
		o.tail = Raw{Reason: d.tailReason(ex.Class), Size: rest, Data: data[r.Offset():]}
		o.Tail = &o.tail
	}
	o.finish(d)
}

// classDataReadsProperties reports the classes whose class data depends on
// the object's properties (see dataTable).
func classDataReadsProperties(class string) bool {
	return strings.HasSuffix(class, "DataTable")
}

// tailReason labels the undecoded data after an object of class, once per
// class and package.
func (d *decoder) tailReason(class string) string {
	if s, ok := d.tailReasons[class]; ok {
		return s
	}
	s := "class-specific data of " + class + " (not decoded)"
	if d.tailReasons == nil || len(d.tailReasons) >= maxInterned {
		d.tailReasons = make(map[string]string)
	}
	d.tailReasons[strings.Clone(class)] = s // kept past the package
	return s
}

func (o *Object) finish(d *decoder) {
	o.Issues = d.issues
	if len(o.Issues) > 0 {
		o.Complete = false
	}
	o.NativeStructs = d.rawNative
}

// sparseClassData reads the sparse class data struct of a Blueprint CDO:
// the struct's package index and the struct's properties.
func (d *decoder) sparseClassData(r *binread.Reader, o *Object) {
	start := r.Offset()
	ref := d.objectRef(r, "SparseClassDataStruct")
	if r.Err() != nil || ref.Index == 0 {
		if ref.Index != 0 || r.Err() != nil {
			r.ClearErr()
			r.SeekTo(start, "SparseClassDataStruct")
		}
		return
	}
	name := lastPathElem(ref.Path)
	mark := len(d.issues)
	var props []*Property
	d.spec++ // issues are kept only when there are none
	if d.ctx.Unversioned {
		props = d.unversioned(r, name)
	} else {
		props, _ = d.tagged(r)
	}
	d.spec--
	if r.Err() != nil || len(d.issues) > mark {
		d.issues = d.issues[:mark]
		r.ClearErr()
		r.SeekTo(start, "SparseClassData")
		return
	}
	o.SparseClassData = &Struct{Type: name, Properties: props}
}

// classData decodes the data some classes write after their properties.
func (d *decoder) classData(r *binread.Reader, o *Object, ex Export) any {
	switch ex.Class {
	case "DataTable", "CompositeDataTable":
		return d.dataTable(r, o)
	case "StringTable":
		return d.stringTable(r)
	case "CurveTable", "CompositeCurveTable":
		return d.curveTable(r)
	case "UserDefinedEnum", "Enum":
		return d.tryClassData(r, d.enumData)
	case "MetaData":
		return d.tryClassData(r, d.metaData)
	case "Level":
		if ex.ObjectFlags&rfClassDefaultObject == 0 {
			return d.tryClassData(r, d.levelData)
		}
		return nil
	}
	if strings.HasSuffix(ex.Class, "DataTable") {
		// Game subclasses of UDataTable (ImalVersionizedDataTable) keep
		// its layout; decoded only when the rows read cleanly.
		return d.tryClassData(r, func(r *binread.Reader) any { return d.dataTable(r, o) })
	}
	if IsStructClass(ex.Class) {
		start := r.Offset()
		mark := len(d.issues)
		h := d.readStructHeader(r)
		if r.Err() != nil && d.ctx.FilterEditorOnly {
			// UE5.8 cooks FField definitions without their flags, and
			// its package versions do not say so: try that layout.
			r.ClearErr()
			r.SeekTo(start, "Struct")
			d.noFieldFlags = true
			h = d.readStructHeader(r)
			d.noFieldFlags = false
		}
		if r.Err() != nil {
			// Keep the bytes labelled rather than half-read.
			d.issues = d.issues[:mark]
			r.ClearErr()
			r.SeekTo(start, "Struct")
			return nil
		}
		// The function or class part: kept only when it reads cleanly.
		mid := r.Offset()
		switch {
		case strings.HasSuffix(ex.Class, "Function"):
			if f := d.readFunction(r); r.Err() == nil {
				h.Function = f
			}
		case ex.Class == "Class" || strings.HasSuffix(ex.Class, "GeneratedClass"):
			if c := d.readClass(r); r.Err() == nil {
				h.Class = c
			}
		case ex.Class == "ScriptStruct" || ex.Class == "UserDefinedStruct":
			// UScriptStruct's flags; a user-defined struct then writes its
			// default instance with the package's property serialization.
			fl := r.U32("ScriptStruct.StructFlags")
			if r.Err() == nil {
				h.StructFlags = &fl
				if ex.Class == "UserDefinedStruct" && r.Remaining() > 0 {
					// The default instance is written like an object's
					// properties, with the serialization control byte
					// (tagged, UE 5.2 on), or, as the 5.8 cooks write
					// it, without: each tried in turn.
					control := !d.ctx.Unversioned && d.ctx.ue5(verUE5PropertyTagExtension)
					at, mk := r.Offset(), len(d.issues)
					for {
						if control && r.U8("UserDefinedStruct.SerializationControl")&0x02 != 0 {
							r.U8("UserDefinedStruct.OverridableOperation")
						}
						d.spec++ // issues are kept only when there are none
						v := d.propsStruct(r, ex.Name)
						d.spec--
						if r.Err() == nil && len(d.issues) == mk {
							h.DefaultInstance = v
							break
						}
						d.issues = d.issues[:mk]
						r.ClearErr()
						r.SeekTo(at, "UserDefinedStruct.DefaultInstance")
						if !control {
							break
						}
						control = false // then without the byte
					}
				}
			}
		}
		if r.Err() != nil {
			r.ClearErr()
			r.SeekTo(mid, "Struct")
		}
		return h
	}
	return nil
}

// IsStructClass reports whether objects of class are UStructs (classes,
// structs, functions), whose export data continues with a struct header.
func IsStructClass(class string) bool {
	switch class {
	case "Class", "BlueprintGeneratedClass", "WidgetBlueprintGeneratedClass", "AnimBlueprintGeneratedClass",
		"ScriptStruct", "UserDefinedStruct", "Function", "DelegateFunction", "SparseDelegateFunction",
		"GameplayAbilityBlueprintGeneratedClass", "ControlRigBlueprintGeneratedClass", "RigVMBlueprintGeneratedClass":
		return true
	}
	return strings.HasSuffix(class, "BlueprintGeneratedClass")
}

// tryClassData runs a class-data reader; when it fails, the bytes stay
// for the labelled tail and no issue is recorded (the data is optional to
// decode, and never mis-read).
func (d *decoder) tryClassData(r *binread.Reader, fn func(*binread.Reader) any) any {
	start := r.Offset()
	mark := len(d.issues)
	d.spec++ // issues are kept only when there are none
	v := fn(r)
	d.spec--
	if r.Err() != nil || len(d.issues) > mark {
		d.issues = d.issues[:mark]
		r.ClearErr()
		r.SeekTo(start, "ClassData")
		return nil
	}
	return v
}

// UEnum versions.
const (
	verUE4EnumClassSupport         = 390
	verUE4TightlyPackedEnums       = 463
	coreEnumProperties             = 2
	fortniteEnumUnderlyingType     = 255
	releaseLevelTransArrayToTArray = 3
)

// enumData reads UEnum::Serialize: the entries (names only before
// VER_UE4_TIGHTLY_PACKED_ENUMS, with a byte value before FCoreObjectVersion
// EnumProperties, an int64 after), the C++ form and, from
// FFortniteMainBranchObjectVersion EnumUnderlyingType, the underlying type.
func (d *decoder) enumData(r *binread.Reader) any {
	d.readUFieldNext(r)
	n := r.Count("Enum.Names", 8)
	entries := make([]MapEntry, 0, n)
	for i := range n {
		name := d.name(r, "Enum.Name")
		var v int64
		switch {
		case !d.ctx.ue4(verUE4TightlyPackedEnums):
			v = int64(i)
		case d.ctx.cvBelow(cvCore, coreEnumProperties):
			v = int64(r.U8("Enum.Value"))
		default:
			v = r.I64("Enum.Value")
		}
		entries = append(entries, MapEntry{name, v})
	}
	fs := Fields{{"Names", entries}}
	if d.ctx.ue4(verUE4EnumClassSupport) {
		fs = append(fs, Field{"CppForm", uint64(r.U8("Enum.CppForm"))})
	} else {
		fs = append(fs, Field{"IsNamespace", r.U32("Enum.bIsNamespace") != 0})
	}
	// The version is trusted only when recorded (licensee branches number
	// it their own way); an unversioned cook records none, and its one
	// byte left is the underlying type.
	if d.ctx.cvRecordedAtLeast(cvFortniteMain, fortniteEnumUnderlyingType) || enumTailByte && d.ctx.Unversioned && r.Remaining() == 1 {
		fs = append(fs, Field{"UnderlyingType", uint64(r.U8("Enum.UnderlyingType"))})
	}
	return fs
}

// metaData reads UMetaData (editor packages): per object a map of metadata
// keys to strings, and from FEditorObjectVersion RootMetaDataSupport the
// package's own metadata.
func (d *decoder) metaData(r *binread.Reader) any {
	const editorRootMetaDataSupport = 3
	keep := !d.bare() // a lite decode reads the maps without keeping them
	readMap := func(field, keyField, valueField string) []MapEntry {
		n := r.Count(field, 12)
		if !keep {
			for range n {
				d.readNameRef(r, keyField)
				r.SkipFString(valueField)
			}
			return nil
		}
		out := make([]MapEntry, 0, n)
		for range n {
			k := d.name(r, keyField)
			out = append(out, MapEntry{k, r.FString(valueField)})
		}
		return out
	}
	n := r.Count("MetaData.ObjectMetaDataMap", 8)
	var objs []MapEntry
	if keep {
		objs = make([]MapEntry, 0, n)
	}
	for range n {
		o := d.labelRef(r, "MetaData.Object")
		m := readMap("MetaData.Values", "MetaData.Values.Key", "MetaData.Values.Value")
		if keep {
			objs = append(objs, MapEntry{o, m})
		}
		if r.Err() != nil {
			return nil
		}
	}
	fs := Fields{{"ObjectMetaData", objs}}
	if d.ctx.cvAtLeast(cvEditor, editorRootMetaDataSupport) {
		fs = append(fs, Field{"RootMetaData", readMap("MetaData.Root", "MetaData.Root.Key", "MetaData.Root.Value")})
	}
	return fs
}

// readUFieldNext reads UField's Next pointer, which packages before
// FFrameworkObjectVersion RemoveUField_Next carry.
func (d *decoder) readUFieldNext(r *binread.Reader) {
	if d.ctx.cvIn(cvFramework, 0, frameworkRemoveUFieldNext, false) {
		r.I32("Field.Next") // an object reference, not kept
	}
}

// levelData reads the start of ULevel::Serialize: the actor list, the URL,
// the model and its components and the level script actor. What follows
// (navigation list, precomputed lighting and visibility) stays in the tail.
func (d *decoder) levelData(r *binread.Reader) any {
	if d.ctx.cvIn(cvRelease, 0, releaseLevelTransArrayToTArray, false) {
		r.Skip(4, "Level.TransArrayOwner")
	}
	n := r.Count("Level.Actors", 4)
	if d.bare() {
		// A lite decode keeps nothing: the same reads, without the paths.
		r.Skip(int64(n)*4, "Level.Actor") // the count was checked
		for _, f := range [...]string{"Level.URL.Protocol", "Level.URL.Host", "Level.URL.Map", "Level.URL.Portal"} {
			r.SkipFString(f)
		}
		on := r.Count("Level.URL.Op", 4)
		for range on {
			r.SkipFString("Level.URL.Op")
		}
		r.I32("Level.URL.Port")
		r.U32("Level.URL.Valid")
		r.I32("Level.Model")
		mn := r.Count("Level.ModelComponents", 4)
		r.Skip(int64(mn)*4, "Level.ModelComponent") // the count was checked
		r.I32("Level.LevelScriptActor")
		return Fields{}
	}
	actors := make([]any, 0, n)
	for range n {
		actors = append(actors, d.objectRef(r, "Level.Actor"))
	}
	url := Fields{
		{"Protocol", r.FString("Level.URL.Protocol")},
		{"Host", r.FString("Level.URL.Host")},
		{"Map", r.FString("Level.URL.Map")},
		{"Portal", r.FString("Level.URL.Portal")},
	}
	on := r.Count("Level.URL.Op", 4)
	ops := make([]string, 0, on)
	for range on {
		ops = append(ops, r.FString("Level.URL.Op"))
	}
	url = append(url, Field{"Op", ops}, Field{"Port", int64(r.I32("Level.URL.Port"))}, Field{"Valid", r.U32("Level.URL.Valid") != 0})
	fs := Fields{{"Actors", actors}, {"URL", url}, {"Model", d.objectRef(r, "Level.Model")}}
	mn := r.Count("Level.ModelComponents", 4)
	mcs := make([]any, 0, mn)
	for range mn {
		mcs = append(mcs, d.objectRef(r, "Level.ModelComponent"))
	}
	fs = append(fs, Field{"ModelComponents", mcs}, Field{"LevelScriptActor", d.objectRef(r, "Level.LevelScriptActor")})
	return fs
}

// Row is one named row of a DataTable or CurveTable.
type Row struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// dataTable reads UDataTable's rows: a count, then each row's name and the
// row struct (RowStruct) serialized like an object's properties.
func (d *decoder) dataTable(r *binread.Reader, o *Object) any {
	rowStruct := ""
	for _, p := range o.Properties {
		if p.Name == "RowStruct" {
			if ref, ok := p.Value.(ObjectRef); ok {
				rowStruct = lastPathElem(ref.Path)
			}
		}
	}
	start := r.Offset()
	n := r.Count("DataTable.NumRows", 8)
	if r.Err() != nil {
		return nil
	}
	// A lite decode reads the rows without keeping them.
	keep := !d.bare()
	var rows []Row
	if keep {
		rows = make([]Row, 0, n)
	}
	d.push("Rows")
	defer d.pop()
	for i := range n {
		name := d.name(r, "DataTable.RowName")
		d.push(name)
		var props []*Property
		if d.ctx.Unversioned {
			props = d.unversioned(r, rowStruct)
		} else {
			var done bool
			props, done = d.tagged(r)
			if !done {
				r.Failf("DataTable.Row", "row %d (%s) did not end at its terminator", i, name)
			}
		}
		d.pop()
		if keep {
			rows = append(rows, Row{name, &Struct{Type: rowStruct, Properties: props}})
		}
		if r.Err() != nil {
			break
		}
	}
	if r.Err() != nil {
		d.issue(r.Base()+start, "data table rows: %v", r.Err())
	}
	return Fields{{"RowStruct", rowStruct}, {"Rows", rows}}
}

// stringTable reads FStringTable: the namespace, the key/source-string
// entries and the per-key metadata.
func (d *decoder) stringTable(r *binread.Reader) any {
	ns := r.FString("StringTable.Namespace")
	n := r.Count("StringTable.Entries", 8)
	entries := make([]MapEntry, 0, n)
	for range n {
		k := r.FString("StringTable.Key")
		entries = append(entries, MapEntry{k, r.FString("StringTable.SourceString")})
	}
	out := Fields{{"Namespace", ns}, {"Entries", entries}}
	if r.Remaining() >= 4 {
		m := r.Count("StringTable.MetaData", 8)
		meta := make([]MapEntry, 0, m)
		for range m {
			k := r.FString("StringTable.MetaDataKey")
			c := r.Count("StringTable.MetaDataEntries", 12)
			var inner []MapEntry
			for range c {
				id := d.name(r, "StringTable.MetaDataId")
				inner = append(inner, MapEntry{id, r.FString("StringTable.MetaData")})
			}
			meta = append(meta, MapEntry{k, inner})
		}
		out = append(out, Field{"MetaData", meta})
	}
	return out
}

// curveTable reads UCurveTable's rows: a count, the curve mode (from
// FFortniteMainBranchObjectVersion ShrinkCurveTableSize), then each row's
// name and curve (FRichCurve or FSimpleCurve, tagged).
func (d *decoder) curveTable(r *binread.Reader) any {
	const shrinkCurveTableSize = 23
	n := r.Count("CurveTable.NumRows", 8)
	mode := uint8(2)
	if d.ctx.cvAtLeast(cvFortniteMain, shrinkCurveTableSize) {
		mode = r.U8("CurveTable.CurveTableMode")
	}
	// ECurveTableMode: Empty (a table of no rows, as UE 6.0 stores a
	// CompositeCurveTable, whose rows come from its ParentTables),
	// SimpleCurves, RichCurves.
	curve := map[uint8]string{0: "Empty", 1: "SimpleCurve", 2: "RichCurve"}[mode]
	if curve == "" {
		r.Failf("CurveTable.CurveTableMode", "curve table mode %d", mode)
		return nil
	}
	rows := make([]Row, 0, n)
	d.push("Rows")
	defer d.pop()
	for range n {
		name := d.name(r, "CurveTable.RowName")
		var props []*Property
		if d.ctx.Unversioned {
			props = d.unversioned(r, curve)
		} else {
			props, _ = d.tagged(r)
		}
		rows = append(rows, Row{name, &Struct{Type: curve, Properties: props}})
		if r.Err() != nil {
			break
		}
	}
	return Fields{{"Mode", curve}, {"Rows", rows}}
}

// ReadTagged decodes a bare tagged property stream (a struct's or an
// object's) from data. It returns the properties and whether the stream
// reached its terminator with no issue.
func ReadTagged(ctx *Context, data []byte) ([]*Property, []Issue, bool) {
	d := getDecoder(ctx)
	d.startText(len(data))
	r := binread.FromBytes(data)
	props, ok := d.tagged(r)
	d.endText()
	issues := d.issues
	putDecoder(d)
	return props, issues, ok && len(issues) == 0
}

// ReadUnversioned decodes a bare unversioned property stream of the struct
// or class structName from data.
func ReadUnversioned(ctx *Context, data []byte, structName string) ([]*Property, error) {
	d := newDecoder(ctx)
	r := binread.FromBytes(data)
	props := d.unversioned(r, structName)
	if err := r.Err(); err != nil {
		return props, err
	}
	if len(d.issues) > 0 {
		return props, fmt.Errorf("%s", d.issues[0])
	}
	return props, nil
}

// NativeStructNames lists the structs the decoder reads natively, sorted.
func NativeStructNames() []string {
	out := make([]string, 0, len(natives))
	for k := range natives {
		out = append(out, k)
	}
	sort.StringSlice(out).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	return out
}

// ToJSON converts decoded properties into plain maps and slices keyed by
// property name (array index appended as "Name[i]" for static arrays), for
// compact JSON output.
func ToJSON(props []*Property) map[string]any {
	out := make(map[string]any, len(props))
	for _, p := range props {
		k := p.Name
		if p.ArrayIndex > 0 {
			k = fmt.Sprintf("%s[%d]", p.Name, p.ArrayIndex)
		}
		out[k] = plain(p.Value)
	}
	return out
}

func plain(v any) any {
	switch x := v.(type) {
	case *Struct:
		if x == nil {
			return nil
		}
		if x.Properties != nil {
			return ToJSON(x.Properties)
		}
		if x.Fields != nil {
			return plain(x.Fields)
		}
		return plain(x.Value)
	case Fields:
		m := make(map[string]any, len(x))
		for _, f := range x {
			m[f.Name] = plain(f.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case *Map:
		out := make([]any, 0, len(x.Entries))
		for _, e := range x.Entries {
			out = append(out, map[string]any{"key": plain(e.Key), "value": plain(e.Value)})
		}
		return out
	case *Set:
		return plain(x.Elements)
	case ObjectRef:
		return x.String()
	case Enum:
		return x.Value
	case SoftObjectPath:
		return x.String()
	}
	return v
}
