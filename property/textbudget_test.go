package property

import (
	"fmt"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binwrite"
	"github.com/upkg/upkg/usmap"
)

// nameArray writes an ArrayProperty of n NameProperty values, all naming
// name with number number(i), and returns the data and its context.
func nameArray(name string, n int, number func(i int) int32) ([]byte, *Context) {
	s := newStream()
	off := s.tag4("Names", "ArrayProperty")
	s.name("NameProperty")
	s.U8(0) // no property GUID
	mark := s.Len()
	s.I32(int32(n))
	for i := range n {
		s.numberedName(name, number(i))
	}
	s.patch(off, mark)
	s.name("None")
	return s.Bytes(), ctxFor(s, 522, 0)
}

// TestTextBudget: 2,000 names of 16 KB of data naming a 1 MB name with as
// many numbers would make 2 GB of strings: the decode fails within
// alloctest's bound (the name map counted as input), saying why; the
// same array naming it with one number, or a short name with 2,000
// numbers, decodes.
func TestTextBudget(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	distinct := func(i int) int32 { return int32(i + 1) }
	data, ctx := nameArray(long, 2000, distinct)
	alloctest.Check(t, len(data)+len(long), func() {
		_, issues, ok := ReadTagged(ctx, data)
		if ok || len(issues) == 0 || !strings.Contains(issues[0].Msg, "strings of more than 16 times its size") {
			t.Errorf("distinct numbers of a long name: ok %v, issues %v", ok, issues)
		}
	})
	// The same references four at a time, in 500 decodes of one package:
	// the budget is the package's, not each decode's.
	next, input := int32(0), len(long)
	var datas [][]byte
	for range 500 {
		var data []byte
		data, ctx = nameArray(long, 4, func(int) int32 { next++; return next }) // (the same name map each time)
		datas = append(datas, data)
		input += len(data)
	}
	alloctest.Check(t, input, func() {
		failed := 0
		for _, data := range datas {
			if _, _, ok := ReadTagged(ctx, data); !ok {
				failed++
			}
		}
		if failed < 490 || failed == 500 {
			t.Errorf("500 decodes of 4 numbered references each to a long name: %d failed", failed)
		}
	})
	for _, tc := range []struct {
		name   string
		number func(int) int32
	}{{long, func(int) int32 { return 1 }}, {"Short", distinct}} {
		data, ctx := nameArray(tc.name, 2000, tc.number)
		props, issues, ok := ReadTagged(ctx, data)
		if !ok || len(props) != 1 {
			t.Errorf("%.8s...: ok %v, issues %v", tc.name, ok, issues)
		}
	}
}

// TestTypeNameBudget: a schema of 1,000 properties, each an array of
// arrays (30 deep) of a struct with a 64 KB name, would print 64 MB of
// type names for 4 KB of data: the decode fails within alloctest's bound
// (the name counted as input); with a short name it reads.
func TestTypeNameBudget(t *testing.T) {
	const n = 1000
	// setup makes the schema and data; its decode runs the decode.
	setup := func(structName string) (decode func() *Object) {
		props := make([]usmap.Property, n)
		for i := range props {
			typ := &usmap.Type{Kind: usmap.StructProperty, Struct: structName}
			for range 30 {
				typ = &usmap.Type{Kind: usmap.ArrayProperty, Inner: typ}
			}
			props[i] = usmap.Property{Name: fmt.Sprintf("P%d", i), Index: uint16(i), ArraySize: 1, Type: typ}
		}
		thing := usmap.NewStruct("Thing", "", props)
		ctx := &Context{FileVersionUE4: 522, FileVersionUE5: 1009, Names: []string{"None"}, Unversioned: true, FilterEditorOnly: true,
			LocalSchema: func(name string) *usmap.Struct {
				if strings.EqualFold(name, "Thing") {
					return thing
				}
				return nil
			}}
		w := binwrite.New()
		for f := range n / 125 { // 8 fragments of 125 values, no zeroes
			h := uint16(125 << 9)
			if f == n/125-1 {
				h |= 0x100
			}
			w.U16(h)
		}
		for range n {
			w.I32(0) // an empty array
		}
		w.U32(0) // object GUID flag
		data := w.Bytes()
		return func() *Object { return ReadExport(ctx, data, Export{Class: "Thing"}) }
	}
	long := strings.Repeat("S", 64<<10)
	decode := setup(long)
	var o *Object
	alloctest.Check(t, 4*n+len(long), func() { o = decode() })
	if o.Complete || len(o.Issues) == 0 || !strings.Contains(o.Issues[0].Msg, "strings of more than") {
		t.Errorf("long struct name: complete %v, issues %v", o.Complete, o.Issues)
	}
	if o := setup("Short")(); !o.Complete || len(o.Properties) != n {
		t.Errorf("short struct name: complete %v, %d properties, issues %v", o.Complete, len(o.Properties), o.Issues)
	}
}

// TestTypeString prints types as they are written in tags and schemas.
func TestTypeString(t *testing.T) {
	vec := &Type{Name: "StructProperty", Struct: "Vector"}
	for _, tc := range []struct {
		t    *Type
		want string
	}{
		{nil, "None"},
		{&Type{Name: "IntProperty"}, "IntProperty"},
		{&Type{Name: "StructProperty"}, "StructProperty"},
		{&Type{Name: "EnumProperty", Enum: "None"}, "EnumProperty"},
		{&Type{Name: "ByteProperty", Enum: "EMode"}, "ByteProperty<EMode>"},
		{&Type{Name: "ArrayProperty"}, "ArrayProperty<None>"},
		{&Type{Name: "SetProperty", Inner: vec}, "SetProperty<StructProperty<Vector>>"},
		{&Type{Name: "MapProperty", Inner: &Type{Name: "NameProperty"}, Value: &Type{Name: "OptionalProperty", Inner: vec}}, "MapProperty<NameProperty, OptionalProperty<StructProperty<Vector>>>"},
	} {
		if got := tc.t.String(); got != tc.want || typeLen(tc.t) != len(tc.want) {
			t.Errorf("%q (length %d), want %q", got, typeLen(tc.t), tc.want)
		}
	}
}
