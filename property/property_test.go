package property

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/binwrite"
	"github.com/upkg/upkg/ue"
	"github.com/upkg/upkg/usmap"
)

// stream builds synthetic property data against a name map.
type stream struct {
	*binwrite.Writer
	names []string
}

func newStream() *stream { return &stream{Writer: binwrite.New()} }

func (s *stream) name(n string) {
	for i, x := range s.names {
		if x == n {
			s.I32(int32(i))
			s.I32(0)
			return
		}
	}
	s.names = append(s.names, n)
	s.I32(int32(len(s.names) - 1))
	s.I32(0)
}

// tag4 writes a UE4 tag header (before the per-type extras) and returns the
// offset of the size field to patch.
func (s *stream) tag4(name, typ string) int {
	s.name(name)
	s.name(typ)
	off := s.Len()
	s.I32(0) // size, patched
	s.I32(0) // array index
	return off
}

// structTag4 writes a UE4 StructProperty tag of struct structName (no
// GUIDs) and returns the size field's offset and where the value starts,
// for patch.
func (s *stream) structTag4(name, structName string) (off, mark int) {
	off = s.tag4(name, "StructProperty")
	s.name(structName)
	ue.WriteGuid(s.Writer, ue.Guid{})
	s.U8(0)
	return off, s.Len()
}

// value patches the size at off to cover the bytes written since mark.
func (s *stream) patch(off, mark int) { s.PatchU32(off, uint32(s.Len()-mark)) }

func ctxFor(s *stream, ue4, ue5 int32) *Context {
	return &Context{FileVersionUE4: ue4, FileVersionUE5: ue5, Names: s.names, FilterEditorOnly: true}
}

func find(props []*Property, name string) *Property {
	for _, p := range props {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// TestTaggedUE4 covers the UE4 tag forms: per-type extras, property GUIDs,
// inner struct tags of arrays, maps and sets, and the terminator.
func TestTaggedUE4(t *testing.T) {
	s := newStream()
	// IntProperty with a property GUID.
	off := s.tag4("Count", "IntProperty")
	s.U8(1)
	ue.WriteGuid(s.Writer, ue.Guid{1, 2, 3, 4})
	m := s.Len()
	s.I32(42)
	s.patch(off, m)
	// BoolProperty: the value is in the tag.
	s.tag4("bOn", "BoolProperty")
	s.U8(1)
	s.U8(0)
	// StructProperty<Vector> with the struct GUID, floats (UE4).
	off, m = s.structTag4("Where", "Vector")
	s.F32(1)
	s.F32(2)
	s.F32(3)
	s.patch(off, m)
	// ByteProperty with an enum: an FName.
	off = s.tag4("Mode", "ByteProperty")
	s.name("EMode")
	s.U8(0)
	m = s.Len()
	s.name("EMode::Fast")
	s.patch(off, m)
	// ArrayProperty<StructProperty> with the inner tag, two tagged structs.
	off = s.tag4("Items", "ArrayProperty")
	s.name("StructProperty")
	s.U8(0)
	m = s.Len()
	s.I32(2)
	inner := s.tag4("Items", "StructProperty")
	s.name("ItemRow")
	ue.WriteGuid(s.Writer, ue.Guid{})
	s.U8(0)
	im := s.Len()
	for i := range 2 {
		o := s.tag4("Id", "IntProperty")
		s.U8(0)
		vm := s.Len()
		s.I32(int32(10 + i))
		s.patch(o, vm)
		s.name("None")
	}
	s.patch(inner, im)
	s.patch(off, m)
	// MapProperty<NameProperty, IntProperty> with no removed keys.
	off = s.tag4("Scores", "MapProperty")
	s.name("NameProperty")
	s.name("IntProperty")
	s.U8(0)
	m = s.Len()
	s.I32(0)
	s.I32(1)
	s.name("Alice")
	s.I32(7)
	s.patch(off, m)
	// SetProperty<StrProperty>.
	off = s.tag4("Tags", "SetProperty")
	s.name("StrProperty")
	s.U8(0)
	m = s.Len()
	s.I32(0)
	s.I32(1)
	s.FString("red")
	s.patch(off, m)
	// TextProperty: Base history.
	off = s.tag4("Title", "TextProperty")
	s.U8(0)
	m = s.Len()
	s.U32(0)
	s.I8(0)
	s.FString("NS")
	s.FString("KEY")
	s.FString("Hello")
	s.patch(off, m)
	// SoftObjectProperty (UE4.18+: FName path + sub-path).
	off = s.tag4("Asset", "SoftObjectProperty")
	s.U8(0)
	m = s.Len()
	s.name("/Game/A.A")
	s.FString("")
	s.patch(off, m)
	s.name("None")

	props, issues, ok := ReadTagged(ctxFor(s, 518, 0), s.Bytes())
	if !ok {
		t.Fatalf("not complete: %v", issues)
	}
	checks := map[string]string{
		"Count":  `42`,
		"bOn":    `true`,
		"Where":  `{"struct":"Vector","fields":{"X":1,"Y":2,"Z":3}}`,
		"Mode":   `{"enum":"EMode","value":"EMode::Fast"}`,
		"Scores": `{"entries":[{"key":"Alice","value":7}]}`,
		"Tags":   `{"elements":["red"]}`,
		"Asset":  `{"asset_path":"/Game/A.A"}`,
	}
	for name, want := range checks {
		p := find(props, name)
		if p == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		b, _ := json.Marshal(p.Value)
		if string(b) != want {
			t.Errorf("%s: have %s, want %s", name, b, want)
		}
	}
	if p := find(props, "Count"); p.Guid == nil || *p.Guid != (ue.Guid{1, 2, 3, 4}) {
		t.Errorf("Count: property GUID %v", p.Guid)
	}
	items := find(props, "Items").Value.([]any)
	if len(items) != 2 || items[1].(*Struct).Properties[0].Value != int64(11) {
		t.Errorf("Items: %+v", items)
	}
	title := find(props, "Title").Value.(Fields)
	if v, _ := title.Get("SourceString"); v != "Hello" {
		t.Errorf("Title: %v", title)
	}
}

// TestTaggedUE5 covers the UE5.4+ tag (type-name tree and flags) and the
// UE5.2+ class serialization control byte and tag extensions.
func TestTaggedUE5(t *testing.T) {
	s := newStream()
	s.U8(0x02) // serialization control: overridable information
	s.U8(3)    // operation
	// Vector (doubles), flagged native, with an array index and extensions.
	s.name("Where")
	s.name("StructProperty")
	s.I32(1)
	s.name("Vector")
	s.I32(1)
	s.name("/Script/CoreUObject")
	s.I32(0)
	s.I32(24)
	s.U8(uint8(TagHasArrayIndex | TagHasBinaryOrNativeSerialize | TagHasPropertyExtensions))
	s.I32(2)
	s.U8(0x02) // extension: overridable
	s.U8(1)
	s.U8(0)
	s.F64(1.5)
	s.F64(-2)
	s.F64(3)
	// BoolProperty true by flag, no bytes.
	s.name("bOn")
	s.name("BoolProperty")
	s.I32(0)
	s.I32(0)
	s.U8(uint8(TagBoolTrue))
	// ArrayProperty<EnumProperty<EKind(/Script/M), ByteProperty>>: FNames.
	s.name("Kinds")
	s.name("ArrayProperty")
	s.I32(1)
	s.name("EnumProperty")
	s.I32(2)
	s.name("EKind")
	s.I32(1)
	s.name("/Script/M")
	s.I32(0)
	s.name("ByteProperty")
	s.I32(0)
	s.I32(12)
	s.U8(0)
	s.I32(1)
	s.name("EKind::A")
	s.name("None")

	data := s.Bytes()
	o := ReadExport(ctxFor(s, 522, 1012), data, Export{Class: "Thing", ObjectFlags: rfClassDefaultObject})
	if !o.Complete {
		t.Fatalf("not complete: %v", o.Issues)
	}
	if o.SerializationControl == nil || *o.SerializationControl != 2 || o.OverrideOperation == nil || *o.OverrideOperation != 3 {
		t.Errorf("serialization control %v %v", o.SerializationControl, o.OverrideOperation)
	}
	w := find(o.Properties, "Where")
	if w.ArrayIndex != 2 || w.Type != "StructProperty<Vector>" {
		t.Errorf("Where: %+v", w)
	}
	if b, _ := json.Marshal(w.Value); string(b) != `{"struct":"Vector","fields":{"X":1.5,"Y":-2,"Z":3}}` {
		t.Errorf("Where = %s", b)
	}
	if find(o.Properties, "bOn").Value != true {
		t.Errorf("bOn not true")
	}
	if b, _ := json.Marshal(find(o.Properties, "Kinds").Value); string(b) != `[{"enum":"EKind","value":"EKind::A"}]` {
		t.Errorf("Kinds = %s", b)
	}
	if o.PropertiesEnd != int64(len(data)) {
		t.Errorf("ended at %d of %d", o.PropertiesEnd, len(data))
	}
}

// TestTagSizeMismatch checks that a value shorter than its tag is reported
// and decoding continues at the next tag.
func TestTagSizeMismatch(t *testing.T) {
	s := newStream()
	off := s.tag4("A", "IntProperty")
	s.U8(0)
	m := s.Len()
	s.I32(1)
	s.I32(99) // two spare bytes... four, in fact
	s.patch(off, m)
	off = s.tag4("B", "IntProperty")
	s.U8(0)
	m = s.Len()
	s.I32(2)
	s.patch(off, m)
	s.name("None")
	props, issues, ok := ReadTagged(ctxFor(s, 518, 0), s.Bytes())
	if ok || len(issues) != 1 || !strings.Contains(issues[0].Msg, "used 4 of its 8 bytes") {
		t.Fatalf("ok=%v issues=%v", ok, issues)
	}
	if b := find(props, "B"); b == nil || b.Value != int64(2) {
		t.Errorf("B after the mismatch: %+v", b)
	}
}

// TestUnknownNativeStruct checks that a struct neither known nor tagged is
// kept raw by name and the stream goes on.
func TestUnknownNativeStruct(t *testing.T) {
	s := newStream()
	off, m := s.structTag4("Blob", "MysteryStruct")
	s.Raw([]byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3})
	s.patch(off, m)
	s.name("None")
	o := ReadExport(ctxFor(s, 518, 0), s.Bytes(), Export{Class: "X", ObjectFlags: rfClassDefaultObject})
	if !o.Complete {
		t.Fatalf("issues %v", o.Issues)
	}
	raw, ok := o.Properties[0].Value.(*Raw)
	if !ok || raw.Struct != "MysteryStruct" || raw.Size != 7 || o.NativeStructs["MysteryStruct"] != 1 {
		t.Fatalf("value %#v natives %v", o.Properties[0].Value, o.NativeStructs)
	}
}

// TestUnversioned covers the fragment header, the zero mask, super-struct
// schema indices and values.
func TestUnversioned(t *testing.T) {
	names := []string{"None", "Hello"}
	base := usmap.NewStruct("Base", "", []usmap.Property{
		{Name: "BaseInt", Index: 0, ArraySize: 1, Type: &usmap.Type{Kind: usmap.IntProperty}},
	})
	thing := usmap.NewStruct("Thing", "Base", []usmap.Property{
		{Name: "A", Index: 0, ArraySize: 1, Type: &usmap.Type{Kind: usmap.IntProperty}},
		{Name: "Fixed", Index: 1, ArraySize: 2, Type: &usmap.Type{Kind: usmap.FloatProperty}},
		{Name: "N", Index: 3, ArraySize: 1, Type: &usmap.Type{Kind: usmap.NameProperty}},
		{Name: "Flag", Index: 4, ArraySize: 1, Type: &usmap.Type{Kind: usmap.BoolProperty}},
	})
	schemas := map[string]*usmap.Struct{"base": base, "thing": thing}
	ctx := &Context{FileVersionUE4: 522, FileVersionUE5: 1009, Names: names, Unversioned: true, FilterEditorOnly: true,
		LocalSchema: func(n string) *usmap.Struct { return schemas[strings.ToLower(n)] }}
	w := binwrite.New()
	// Fragment 1: skip 0, 3 values (A, Fixed[0], Fixed[1]) with zeroes.
	w.U16(0 | 0x80 | 3<<9)
	// Fragment 2: skip 1 (N), 2 values (Flag, BaseInt), last.
	w.U16(1 | 0x100 | 2<<9)
	w.U8(0b010) // Fixed[0] is zero
	w.I32(5)    // A
	w.F32(2.5)  // Fixed[1]
	w.U8(1)     // Flag
	w.I32(-9)   // BaseInt (the super struct's first index, 5)
	w.U32(0)    // object GUID flag
	o := ReadExport(ctx, w.Bytes(), Export{Class: "Thing"})
	if !o.Complete {
		t.Fatalf("issues %v", o.Issues)
	}
	var got []string
	for _, p := range o.Properties {
		b, _ := json.Marshal(p.Value)
		got = append(got, p.Name+"["+string(rune('0'+p.ArrayIndex))+"]="+string(b))
	}
	want := "A[0]=5 Fixed[0]=0 Fixed[1]=2.5 Flag[0]=true BaseInt[0]=-9"
	if strings.Join(got, " ") != want {
		t.Errorf("have %s\nwant %s", strings.Join(got, " "), want)
	}
	if o.Size != o.PropertiesEnd+4 || o.Tail != nil {
		t.Errorf("end %d size %d tail %v", o.PropertiesEnd, o.Size, o.Tail)
	}
}

func TestUnversionedNoSchema(t *testing.T) {
	ctx := &Context{FileVersionUE4: 522, Unversioned: true}
	o := ReadExport(ctx, []byte{0x00, 0x01}, Export{Class: "Thing"})
	if o.Complete || len(o.Issues) == 0 || !strings.Contains(o.Issues[0].Msg, "need a .usmap") {
		t.Fatalf("complete=%v issues=%v", o.Complete, o.Issues)
	}
}

// TestTextHistories decodes every FText history type.
func TestTextHistories(t *testing.T) {
	s := newStream()
	s.name("None")
	fmtText := func() { s.U32(0); s.I8(0); s.FString("ns"); s.FString("k"); s.FString("{0}") }
	type tc struct {
		history string
		write   func()
	}
	cases := []tc{
		{"None", func() { s.U32(0); s.I8(-1); s.U32(1); s.FString("inv") }},
		{"Base", fmtText},
		{"NamedFormat", func() {
			s.U32(0)
			s.I8(1)
			fmtText()
			s.I32(1)
			s.FString("x")
			s.I8(0)
			s.I64(5)
		}},
		{"OrderedFormat", func() {
			s.U32(0)
			s.I8(2)
			fmtText()
			s.I32(1)
			s.I8(3)
			s.F64(0.5)
		}},
		{"ArgumentFormat", func() {
			s.U32(0)
			s.I8(3)
			fmtText()
			s.I32(1)
			s.FString("g")
			s.I8(5)
			s.U8(1)
		}},
		{"AsNumber", func() {
			s.U32(0)
			s.I8(4)
			s.I8(2)
			s.F32(1.5)
			s.U32(0)
			s.FString("en")
		}},
		{"AsPercent", func() {
			s.U32(0)
			s.I8(5)
			s.I8(1)
			s.U64(3)
			s.U32(1)
			s.U32(1)
			s.U32(1)
			s.I8(0)
			s.I32(1)
			s.I32(3)
			s.I32(0)
			s.I32(2)
			s.FString("")
		}},
		{"AsCurrency", func() {
			s.U32(0)
			s.I8(6)
			s.FString("EUR")
			s.I8(0)
			s.I64(100)
			s.U32(0)
			s.FString("")
		}},
		{"AsDate", func() {
			s.U32(0)
			s.I8(7)
			s.I64(630822816000000000)
			s.I8(1)
			s.FString("UTC")
			s.FString("")
		}},
		{"AsTime", func() {
			s.U32(0)
			s.I8(8)
			s.I64(0)
			s.I8(2)
			s.FString("UTC")
			s.FString("")
		}},
		{"AsDateTime", func() {
			s.U32(0)
			s.I8(9)
			s.I64(0)
			s.I8(3)
			s.I8(4)
			s.FString("UTC")
			s.FString("")
		}},
		{"Transform", func() { s.U32(0); s.I8(10); fmtText(); s.U8(1) }},
		{"StringTableEntry", func() { s.U32(0); s.I8(11); s.name("/Game/ST.ST"); s.FString("Key") }},
		{"TextGenerator", func() { s.U32(0); s.I8(12); s.name("Gen"); s.I32(3); s.Raw([]byte{1, 2, 3}) }},
	}
	for _, c := range cases {
		start := s.Len()
		c.write()
		end := s.Len()
		ctx := ctxFor(s, 522, 1009)
		ctx.CustomVersion = func(ue.Guid) (int32, bool) { return 1000, true }
		d := newDecoder(ctx)
		data := s.Bytes()[start:end]
		r := binreadFrom(data)
		v := d.text(r, 0)
		if r.Err() != nil || r.Offset() != int64(len(data)) {
			t.Errorf("%s: err %v, read %d of %d", c.history, r.Err(), r.Offset(), len(data))
			continue
		}
		if h, _ := v.(Fields).Get("History"); h != c.history {
			t.Errorf("%s: history %v", c.history, h)
		}
	}
}

func binreadFrom(b []byte) *binread.Reader { return binread.FromBytes(b) }

// TestFloat32Shortest checks that float32 values (FloatProperty, the
// float components of a UE4 Vector) keep their type: JSON and the tree
// print the shortest decimal that reads back as the same float32, as the
// editor shows them (0.3, not the widened 0.30000001192092896). A
// non-finite one is a string, as a double's is.
func TestFloat32Shortest(t *testing.T) {
	s := newStream()
	off := s.tag4("Threshold", "FloatProperty")
	s.U8(0)
	m := s.Len()
	s.F32(0.3)
	s.patch(off, m)
	off, m = s.structTag4("Where", "Vector")
	s.F32(50.1)
	s.F32(-0.11249924)
	s.F32(3599.9998)
	s.patch(off, m)
	off = s.tag4("Bad", "FloatProperty")
	s.U8(0)
	m = s.Len()
	s.U32(0x7fc00000) // a quiet NaN
	s.patch(off, m)
	s.name("None")

	props, issues, ok := ReadTagged(ctxFor(s, 518, 0), s.Bytes())
	if !ok {
		t.Fatalf("not complete: %v", issues)
	}
	if v := find(props, "Threshold").Value; v != float32(0.3) {
		t.Errorf("Threshold: %T %v, want float32 0.3", v, v)
	}
	for name, want := range map[string]string{
		"Threshold": `0.3`,
		"Where":     `{"struct":"Vector","fields":{"X":50.1,"Y":-0.11249924,"Z":3599.9998}}`,
		"Bad":       `"NaN"`,
	} {
		b, _ := json.Marshal(find(props, name).Value)
		if string(b) != want {
			t.Errorf("%s: JSON %s, want %s", name, b, want)
		}
	}
	var tree strings.Builder
	if err := (&Object{Properties: props}).WriteTree(&tree, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Threshold (FloatProperty) = 0.3\n",
		"Where (StructProperty<Vector>) = {X: 50.1, Y: -0.11249924, Z: 3599.9998}\n",
		"Bad (FloatProperty) = \"NaN\"\n",
	} {
		if !strings.Contains(tree.String(), want) {
			t.Errorf("tree lacks %q:\n%s", want, tree.String())
		}
	}
}

// TestRichCurveKeyModes checks that RichCurveKey's mode bytes carry their
// enums' names, and that a value no enum has stays a number.
func TestRichCurveKeyModes(t *testing.T) {
	s := newStream()
	off, m := s.structTag4("Key", "RichCurveKey")
	s.U8(2) // RCIM_Cubic
	s.U8(4) // RCTM_SmartAuto (5.3+)
	s.U8(9) // no such weight mode
	for _, f := range []float32{0.5, 1.25, 0, 0, 0, 0} {
		s.F32(f)
	}
	s.patch(off, m)
	s.name("None")
	props, issues, ok := ReadTagged(ctxFor(s, 518, 0), s.Bytes())
	if !ok {
		t.Fatalf("not complete: %v", issues)
	}
	b, _ := json.Marshal(find(props, "Key").Value)
	want := `{"struct":"RichCurveKey","fields":{"InterpMode":{"enum":"ERichCurveInterpMode","value":"RCIM_Cubic"},` +
		`"TangentMode":{"enum":"ERichCurveTangentMode","value":"RCTM_SmartAuto"},"TangentWeightMode":9,` +
		`"Time":0.5,"Value":1.25,"ArriveTangent":0,"ArriveTangentWeight":0,"LeaveTangent":0,"LeaveTangentWeight":0}}`
	if string(b) != want {
		t.Errorf("have %s\nwant %s", b, want)
	}
}

// TestChannelValues checks the key values of Sequencer float and double
// channels (FMovieSceneFloatValue, 28 bytes; FMovieSceneDoubleValue, 32),
// decoded from their in-memory layout, and that another size stays raw.
func TestChannelValues(t *testing.T) {
	key := func(valueSize int, value float64) []byte {
		w := binwrite.New()
		if valueSize == 8 {
			w.F64(value)
		} else {
			w.F32(float32(value))
		}
		w.F32(0.5)   // ArriveTangent
		w.F32(-0.25) // LeaveTangent
		w.F32(1)     // ArriveTangentWeight
		w.F32(2)     // LeaveTangentWeight
		w.U8(3)      // RCTWM_WeightedBoth
		w.Zeros(3)
		w.U8(2) // RCIM_Cubic
		w.U8(1) // RCTM_User
		w.U8(0) // padding
		for w.Len()%valueSize != 0 {
			w.U8(0)
		}
		return w.Bytes()
	}
	for _, tc := range []struct {
		valueSize int
		value     float64
		want      string
	}{
		{4, 0.1, `0.1`},
		{8, 0.1, `0.1`},
	} {
		b := append(key(tc.valueSize, tc.value), key(tc.valueSize, 7)...)
		es := len(b) / 2
		got, _ := json.Marshal(channelValues(b, 2, es, tc.valueSize))
		want := `[{"Value":` + tc.want + `,"Tangent":{"ArriveTangent":0.5,"LeaveTangent":-0.25,"ArriveTangentWeight":1,"LeaveTangentWeight":2,` +
			`"TangentWeightMode":{"enum":"ERichCurveTangentWeightMode","value":"RCTWM_WeightedBoth"}},` +
			`"InterpMode":{"enum":"ERichCurveInterpMode","value":"RCIM_Cubic"},"TangentMode":{"enum":"ERichCurveTangentMode","value":"RCTM_User"}},`
		if es != 20+tc.valueSize+4 || !strings.HasPrefix(string(got), want) || !strings.Contains(string(got), `{"Value":7,`) {
			t.Errorf("value size %d (%d bytes a key): %s", tc.valueSize, es, got)
		}
	}
	if v, ok := channelValues(make([]byte, 48), 2, 24, 4).(*Raw); !ok || v.Size != 48 {
		t.Errorf("24-byte keys: %#v, want them raw", v)
	}
}
