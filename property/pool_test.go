package property

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// numberedName writes an FName reference to n with number num (shown as
// n_<num-1>).
func (s *stream) numberedName(n string, num int32) {
	i := slices.Index(s.names, n)
	if i < 0 {
		s.names = append(s.names, n)
		i = len(s.names) - 1
	}
	s.I32(int32(i))
	s.I32(num)
}

// TestDecoderReuse decodes the same bytes under name maps that give the
// same indices other names, in turn: a decoder taken from the pool must
// not answer from another package's interned types or numbered names.
func TestDecoderReuse(t *testing.T) {
	ue4 := func(s *stream) {
		off := s.tag4("Where", "StructProperty")
		s.name("Vector")
		s.Zeros(16) // struct GUID
		s.U8(0)     // no property GUID
		m := s.Len()
		s.F32(1)
		s.F32(2)
		s.F32(3)
		s.patch(off, m)
		off = s.tag4("N", "NameProperty")
		s.U8(0)
		m = s.Len()
		s.numberedName("Foo", 3)
		s.patch(off, m)
		s.name("None")
	}
	ue54 := func(s *stream) {
		s.U8(0) // serialization control
		s.name("Where")
		s.name("StructProperty")
		s.I32(1)
		s.name("Vector")
		s.I32(1)
		s.name("/Script/CoreUObject")
		s.I32(0)
		s.I32(24)
		s.U8(uint8(TagHasBinaryOrNativeSerialize))
		s.F64(1)
		s.F64(2)
		s.F64(3)
		s.name("N")
		s.name("NameProperty")
		s.I32(0)
		s.I32(8)
		s.U8(0)
		s.numberedName("Foo", 3)
		s.name("None")
	}
	for _, c := range []struct {
		name  string
		ue5   int32
		write func(*stream)
	}{{"UE4", 0, ue4}, {"UE5.4", 1012, ue54}} {
		t.Run(c.name, func(t *testing.T) {
			s := newStream()
			c.write(s)
			data := s.Bytes()
			namesA := s.names
			namesB := slices.Clone(namesA)
			namesB[slices.Index(namesB, "Vector")] = "Rotator"
			namesB[slices.Index(namesB, "Foo")] = "Bar"
			ctxA := &Context{FileVersionUE4: 522, FileVersionUE5: c.ue5, Names: namesA, FilterEditorOnly: true}
			ctxB := &Context{FileVersionUE4: 522, FileVersionUE5: c.ue5, Names: namesB, FilterEditorOnly: true}
			decode := func(ctx *Context) string {
				o := ReadExport(ctx, data, Export{Class: "Thing", ObjectFlags: rfClassDefaultObject})
				if !o.Complete {
					t.Fatalf("not complete: %v", o.Issues)
				}
				b, err := json.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			a, b := decode(ctxA), decode(ctxB)
			if !strings.Contains(a, `"StructProperty\u003cVector\u003e"`) || !strings.Contains(a, `"Foo_2"`) {
				t.Fatalf("name map A: %s", a)
			}
			if !strings.Contains(b, `"StructProperty\u003cRotator\u003e"`) || !strings.Contains(b, `"Bar_2"`) {
				t.Fatalf("name map B: %s", b)
			}
			for range 3 {
				if x := decode(ctxA); x != a {
					t.Errorf("A again:\n%s\nwant\n%s", x, a)
				}
				if x := decode(ctxB); x != b {
					t.Errorf("B again:\n%s\nwant\n%s", x, b)
				}
			}
			// The same context with another name map.
			ctxA.Names = namesB
			if x := decode(ctxA); x != b {
				t.Errorf("context with name map B:\n%s\nwant\n%s", x, b)
			}
		})
	}
}

// TestReadExportLiteInto decodes into an Object left over from other
// decodes: nothing of them may remain.
func TestReadExportLiteInto(t *testing.T) {
	s := newStream()
	off := s.tag4("N", "NameProperty")
	s.U8(0)
	m := s.Len()
	s.numberedName("Foo", 3)
	s.patch(off, m)
	s.name("None")
	good := s.Bytes()
	bad := good[:len(good)-3] // the terminator cut short
	ctx := &Context{FileVersionUE4: 522, Names: s.names, FilterEditorOnly: true}
	ex := Export{Class: "Thing"}
	var o Object
	for _, data := range [][]byte{bad, good, append(slices.Clone(good), 1, 2, 3, 4, 5), bad, good} {
		want := ReadExportLite(ctx, data, ex)
		ReadExportLiteInto(ctx, data, ex, &o)
		a, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(&o)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("into a used Object:\n%s\nwant\n%s", b, a)
		}
	}
}
