package property_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/ue"
)

// le builds little-endian test data.
type le []byte

func (b le) u8(v uint8) le   { return append(b, v) }
func (b le) u32(v uint32) le { return binary.LittleEndian.AppendUint32(b, v) }
func (b le) i32(v int32) le  { return b.u32(uint32(v)) }
func (b le) u64(v uint64) le { return binary.LittleEndian.AppendUint64(b, v) }
func (b le) f32(v float32) le {
	return b.u32(math.Float32bits(v))
}
func (b le) str(s string) le {
	if s == "" {
		return b.i32(0)
	}
	return append(b.i32(int32(len(s)+1)), s+"\x00"...)
}
func (b le) guid(a, bb, c, d uint32) le { return b.u32(a).u32(bb).u32(c).u32(d) }

var (
	guidNNE          = ue.Guid{0x9513202E, 0xEBA1B279, 0xF17FE5BA, 0xAB90C3F2}
	guidControlRig   = ue.Guid{0xA7820CFB, 0x20A74359, 0x8C542C14, 0x9623CF50}
	guidInterchange  = ue.Guid{0x92738C43, 0x29884D9C, 0x9A3D9BBE, 0x6EFF9FC0}
	guidRigVM        = ue.Guid{0xDC49959B, 0x53C04DE7, 0x9156EA88, 0x5E7C5D39}
	guidAnimObject   = ue.Guid{0xAF43A65D, 0x7FD34947, 0x98733E8E, 0xD9C1BB05}
	ownSerializeTags = []string{"NNEModelData", "RigHierarchy", "RigVM", "InterchangeTexture2DFactoryNode"}
)

func customCtx(versions map[ue.Guid]int32) *property.Context {
	return &property.Context{
		FileVersionUE4: 522, FileVersionUE5: 1012, FilterEditorOnly: true,
		Names: []string{"None", "Root", "Joint"},
		CustomVersion: func(k ue.Guid) (int32, bool) {
			v, ok := versions[k]
			return v, ok
		},
	}
}

// nneV5 is a cooked NNE model (version 5): the empty editor fields, then
// one runtime's model data.
func nneV5(model []byte) []byte {
	b := le{}.i32(0).str("").u64(0).i32(0).i32(0).guid(0, 0, 0, 0)
	b = b.i32(1).str("NNERuntimeORTCpu").u32(16).u64(uint64(len(model)))
	return append(b, model...)
}

// rigHierarchy43 is a RigHierarchy with compact-transform settings and a
// stored (uncompressed) element archive.
func rigHierarchy43(elements []byte) []byte {
	b := le{}.i32(43)
	for _, v := range []uint32{1, 1, 1, 1, 0, 1, 0} {
		b = b.u32(v)
	}
	b = b.u32(0).i32(2).i32(1).i32(0).i32(2).i32(3) // phase, names Root, Joint_2
	b = b.u32(uint32(len(elements))).u32(0).i32(int32(len(elements)))
	return append(b, elements...)
}

// interchangeStorage is an FAttributeStorage with one bool attribute.
func interchangeStorage() []byte {
	b := le{}.u64(0).f32(0.1).i32(1).str("AllowNonPowerOfTwo").u64(0).u64(1).i32(1).u32(0).guid(1, 2, 3, 4)
	return append(b.u64(1), 1)
}

func TestOwnSerialize(t *testing.T) {
	for _, tc := range []struct {
		class    string
		versions map[ue.Guid]int32
		data     []byte
		tail     int64
		want     []string
	}{
		{"NNEModelData", map[ue.Guid]int32{guidNNE: 5}, nneV5([]byte("onnx-model")), 0,
			[]string{`"TargetRuntimes":[]`, `"key":"NNERuntimeORTCpu"`, `"MemoryAlignment":16`, `"size":10`}},
		// An unknown future version: everything stays labelled.
		{"NNEModelData", map[ue.Guid]int32{guidNNE: 9}, nneV5([]byte("x")), int64(len(nneV5([]byte("x")))), nil},
		{"RigHierarchy", map[ue.Guid]int32{guidControlRig: 43}, rigHierarchy43([]byte{1, 2, 3}), 0,
			[]string{`"ControlRigVersion":43`, `"UniqueNames":["Root","Joint_2"]`, `"UncompressedSize":3`, `"size":3`}},
		// Before RigHierarchyCompressElements the elements follow inline.
		{"RigHierarchy", map[ue.Guid]int32{guidControlRig: 20}, []byte{1, 0, 0, 0}, 4, nil},
		{"RigVM", nil, []byte{1, 2, 3, 4, 5}, 5, nil},
		{"RigVM", map[ue.Guid]int32{guidRigVM: 26}, append(le{}.u32(7).u32(8).i32(1).i32(3).str("float").str("X").i32(1).i32(2).i32(0), 9), 1,
			[]string{`"CachedVMHash":7,"CachedCanonicalVMHash":8`, `"HeadCPPType":"float","SegmentPath":"X"`, `"FunctionNames":["Joint"]`}},
		// Before StoreMarkerNamesOnSkeleton the VM stored nothing.
		{"RigVM", map[ue.Guid]int32{guidRigVM: 26, guidAnimObject: 1}, []byte{}, 0, nil},
		{"InterchangeTexture2DFactoryNode", map[ue.Guid]int32{}, interchangeStorage(), 0,
			[]string{`"key":"AllowNonPowerOfTwo"`, `"Offset":0,"Size":1,"Type":1`, `"Hash":"00000001000000020000000300000004"`}},
		// Offsets and sizes as arrays from MultipleAllocationsPerAttributeInStorageFixed.
		{"InterchangeSceneNode", map[ue.Guid]int32{guidInterchange: 3},
			append(le{}.u64(0).f32(0.1).i32(1).str("K").i32(1).u64(0).i32(1).u64(2).i32(18).u32(0).guid(0, 0, 0, 0).u64(2), 'a', 'b'), 0,
			[]string{`"Offset":[0],"Size":[2],"Type":18`}},
	} {
		o := property.ReadExport(customCtx(tc.versions), tc.data, property.Export{Class: tc.class, Name: "X"})
		if !o.Complete || len(o.Properties) != 0 {
			t.Errorf("%s: complete=%v properties=%d issues=%v", tc.class, o.Complete, len(o.Properties), o.Issues)
		}
		var tail int64
		if o.Tail != nil {
			tail = o.Tail.Size
		}
		if tail != tc.tail {
			t.Errorf("%s: tail %d, want %d", tc.class, tail, tc.tail)
		}
		b, _ := json.Marshal(o.ClassData)
		for _, w := range tc.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: class data %s lacks %s", tc.class, b, w)
			}
		}
	}
}

// TestOwnSerializeTruncated reads every prefix: no panic, and whatever does
// not decode is in the tail.
func TestOwnSerializeTruncated(t *testing.T) {
	ctx := customCtx(map[ue.Guid]int32{guidNNE: 5, guidControlRig: 43})
	for _, tc := range []struct {
		class string
		data  []byte
	}{
		{"NNEModelData", nneV5([]byte("model"))},
		{"RigHierarchy", rigHierarchy43([]byte{9, 9})},
		{"InterchangeBaseNode", interchangeStorage()},
	} {
		for n := range len(tc.data) {
			o := property.ReadExport(ctx, tc.data[:n], property.Export{Class: tc.class})
			check(t, o, n)
			if o.ClassData == nil && n > 0 && (o.Tail == nil || o.Tail.Size != int64(n)) {
				t.Fatalf("%s prefix %d: undecoded bytes not in the tail", tc.class, n)
			}
		}
	}
}

func FuzzOwnSerialize(f *testing.F) {
	f.Add(nneV5([]byte("model")), uint8(0))
	f.Add(rigHierarchy43([]byte{1, 2}), uint8(1))
	f.Add(interchangeStorage(), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		if len(data) > maxFuzzInput {
			return
		}
		ctx := customCtx(map[ue.Guid]int32{guidNNE: int32(which % 6), guidControlRig: 30 + int32(which%16), guidInterchange: int32(which % 4), guidRigVM: int32(which % 28)})
		o := property.ReadExport(ctx, data, property.Export{Class: ownSerializeTags[int(which)%len(ownSerializeTags)]})
		check(t, o, len(data))
	})
}
