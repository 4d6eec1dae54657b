package property

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// TestNativeReaders reads hand-built native structs with each layout the
// versions select, checking the values and that every byte is used.
func TestNativeReaders(t *testing.T) {
	type build func(s *stream)
	for _, tc := range []struct {
		desc, native string
		ue4          int32
		ue5          int32 // 0: 1012 for ue4 522
		versions     map[ue.Guid]int32
		editor       bool
		data         build
		want         []string
	}{
		{"smart name, cooked, current", "SmartName", 522, 0, map[ue.Guid]int32{cvAnimPhys: 17}, false,
			func(s *stream) { s.name("Curve_A") }, []string{`"DisplayName":"Curve_A"`}},
		{"smart name, editor, with UID and GUID", "SmartName", 516, 0, map[ue.Guid]int32{cvAnimPhys: 2}, true,
			func(s *stream) { s.name("Curve_A"); s.U16(7); s.Zeros(16) }, []string{`"UID":7`, `"Guid":"00000000000000000000000000000000"`}},
		{"pin type, UE5 editor", "EdGraphPinType", 522, 0,
			map[ue.Guid]int32{cvFramework: 40, cvRelease: 40, cvUE5Release: 40}, true,
			func(s *stream) {
				s.name("object")
				s.name("None")
				s.I32(-1)   // subcategory object
				s.U8(0)     // container: none
				s.U32(0)    // reference
				s.U32(0)    // weak
				s.I32(0)    // member parent
				s.name("X") // member name
				s.Zeros(16) // member guid
				s.U32(1)    // const
				s.U32(0)    // wrapper
				s.U32(1)    // single precision
			}, []string{`"Category":"object"`, `"ContainerType":0`, `"IsConst":true`, `"SerializeAsSinglePrecisionFloat":true`}},
		{"pin type, map value", "EdGraphPinType", 522, 0, map[ue.Guid]int32{cvFramework: 40, cvRelease: 0}, false,
			func(s *stream) {
				s.name("int")
				s.name("None")
				s.I32(0)
				s.U8(3) // map
				s.name("string")
				s.name("None")
				s.I32(0)
				s.U32(0)
				s.U32(0) // terminal: const, weak
				s.U32(1) // reference
				s.U32(0)
				s.I32(0)
				s.name("None")
				s.Zeros(16)
				s.U32(0)
			}, []string{`"ContainerType":3`, `"ValueType":{"Category":"string"`, `"IsReference":true`}},
		{"pin type, flags before container type", "EdGraphPinType", 500, 0, map[ue.Guid]int32{cvFramework: 10, cvBlueprints: 6}, false,
			func(s *stream) {
				s.FString("bool")
				s.FString("")
				s.I32(0)
				s.U32(0) // map
				s.U32(1) // set
				s.U32(0) // array
				s.U32(0)
				s.U32(0)
				s.I32(0)
				s.name("None")
				s.Zeros(16)
				s.U32(0)
			}, []string{`"Category":"bool"`, `"IsSet":true`, `"IsArray":false`}},
		{"unique net id", "UniqueNetIdRepl", 522, 0, nil, false,
			func(s *stream) { s.I32(5); s.name("Steam"); s.FString("7656") }, []string{`"Type":"Steam","Contents":"7656"`}},
		{"segment with frame range", "MovieSceneSegment", 522, 0, map[ue.Guid]int32{cvSequencer: 12}, false,
			func(s *stream) {
				s.U8(1)
				s.I32(0)
				s.U8(0)
				s.I32(100)
				s.I32(3)
				s.U32(1)
				s.I32(0) // no impls
			}, []string{`"UpperBoundValue":100`, `"ID":3`, `"AllowEmpty":true`, `"Impls":[]`}},
		{"entity tree", "MovieSceneEvaluationFieldEntityTree", 522, 0, nil, false,
			func(s *stream) {
				s.U8(2)
				s.I32(0)
				s.U8(2)
				s.I32(0)
				s.I32(-1)
				s.I32(-1)
				s.I32(0)
				s.I32(-1) // root
				s.I32(0)  // no child entries
				s.I32(0)  // no child nodes
				s.I32(1)
				s.I32(0)
				s.I32(1)
				s.I32(1) // one data entry
				s.I32(1)
				s.I32(4)
				s.I32(5) // one item
			}, []string{`"EntityIndex":4,"MetaDataIndex":5`, `"StartIndex":0,"Size":1,"Capacity":1`}},
		{"sub-sequence tree, UE 5.5+", "MovieSceneSubSequenceTree", 522, 1013, map[ue.Guid]int32{cvRelease: 47}, false,
			func(s *stream) {
				s.U8(2)
				s.I32(0)
				s.U8(2)
				s.I32(0)
				s.I32(-1)
				s.I32(-1)
				s.I32(-1)
				s.I32(0) // root
				s.I32(0) // no child entries
				s.I32(0) // no child nodes
				s.I32(1)
				s.I32(0)
				s.I32(1)
				s.I32(1) // one data entry
				s.I32(1)
				s.U32(0x7f028f4f)
				s.U8(0) // one item: sequence id, flags

			}, []string{`"SequenceID":2130874191,"Flags":0}`}},
		{"sub-sequence tree with warp counter, 4.27", "MovieSceneSubSequenceTree", 522, 0, map[ue.Guid]int32{cvRelease: 43}, false,
			func(s *stream) {
				s.U8(2)
				s.I32(0)
				s.U8(2)
				s.I32(0)
				s.I32(-1)
				s.I32(-1)
				s.I32(-1)
				s.I32(0) // root
				s.I32(0) // no child entries
				s.I32(0) // no child nodes
				s.I32(1)
				s.I32(0)
				s.I32(1)
				s.I32(1) // one data entry
				s.I32(1)
				s.U32(0x7f028f4f)
				s.U8(0)        // one item: sequence id, flags
				s.name("None") // warp counter: empty property stream
			}, []string{`"RootToSequenceWarpCounter":{"struct":"MovieSceneWarpCounter"`}},
		{"event parameters", "MovieSceneEventParameters", 522, 0, map[ue.Guid]int32{cvRelease: 4}, false,
			func(s *stream) { s.I32(-2); s.I32(3); s.Raw([]byte{1, 2, 3}) }, []string{`"size":3`}},
	} {
		s := newStream()
		tc.data(s)
		ctx := ctxFor(s, tc.ue4, 0)
		if tc.ue4 == 522 {
			ctx.FileVersionUE5 = 1012
		}
		if tc.ue5 != 0 {
			ctx.FileVersionUE5 = tc.ue5
		}
		ctx.FilterEditorOnly = !tc.editor
		vers := tc.versions
		ctx.CustomVersion = func(k ue.Guid) (int32, bool) { v, ok := vers[k]; return v, ok }
		ctx.Object = func(i int32) string { return "/Game/X" }
		d := newDecoder(ctx)
		data := s.Bytes()
		r := binread.FromBytes(data)
		v := d.native(r, tc.native, natives[tc.native], int64(len(data)))
		if err := r.Err(); err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if r.Offset() != int64(len(data)) {
			t.Errorf("%s: read %d of %d bytes", tc.desc, r.Offset(), len(data))
		}
		b, _ := json.Marshal(v)
		for _, w := range tc.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: %s lacks %s", tc.desc, b, w)
			}
		}
	}
}

// TestNativeTablesUnique checks that no struct is listed twice in the
// tables natives is built from (a map literal would not compile with a
// duplicate key; the tables need this test instead).
func TestNativeTablesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range nativeTable {
		if seen[n.name] || n.fn == nil {
			t.Errorf("native %q listed twice or without a reader", n.name)
		}
		seen[n.name] = true
	}
	for _, f := range fixedNatives {
		if seen[f.name] || f.names == "" {
			t.Errorf("native %q listed twice or without components", f.name)
		}
		seen[f.name] = true
	}
	if len(natives) != len(seen) {
		t.Errorf("natives has %d entries, the tables %d", len(natives), len(seen))
	}
}
