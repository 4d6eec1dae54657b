package legacy

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// synthPackage builds a small version-69 package in memory: names, one
// import (Core.Package), exports whose serialized data are datas. It is the
// fixture of the property tests and the fuzz targets' fallback seed.
func synthPackage(names []string, exportClass []int32, datas [][]byte) []byte {
	le := binary.LittleEndian
	var body bytes.Buffer
	const headerSize = 64
	nameOff := headerSize
	for _, n := range names {
		body.Write(binread.AppendCompactIndex(nil, int32(len(n)+1)))
		body.WriteString(n)
		body.WriteByte(0)
		body.Write(le.AppendUint32(nil, 0x00070010))
	}
	importOff := headerSize + body.Len()
	// Import 0: Core.Package'Core' — names 1..3 must be Core, Package, Class.
	body.Write(binread.AppendCompactIndex(nil, 1))
	body.Write(binread.AppendCompactIndex(nil, 2))
	body.Write(le.AppendUint32(nil, 0))
	body.Write(binread.AppendCompactIndex(nil, 1))
	offs := make([]int, len(datas))
	for i, d := range datas {
		offs[i] = headerSize + body.Len()
		body.Write(d)
	}
	exportOff := headerSize + body.Len()
	for i, d := range datas {
		body.Write(binread.AppendCompactIndex(nil, exportClass[i]))
		body.Write(binread.AppendCompactIndex(nil, 0))
		body.Write(le.AppendUint32(nil, 0))
		body.Write(binread.AppendCompactIndex(nil, int32(4+i))) // names 4.. are the export names
		body.Write(le.AppendUint32(nil, 0x00070004))
		body.Write(binread.AppendCompactIndex(nil, int32(len(d))))
		if len(d) > 0 {
			body.Write(binread.AppendCompactIndex(nil, int32(offs[i])))
		}
	}
	var h bytes.Buffer
	for _, v := range []uint32{PackageTag, 69, 1, uint32(len(names)), uint32(nameOff), uint32(len(datas)), uint32(exportOff), 1, uint32(importOff)} {
		h.Write(le.AppendUint32(nil, v))
	}
	h.Write(make([]byte, 16)) // Guid
	for _, v := range []uint32{1, uint32(len(datas)), uint32(len(names))} {
		h.Write(le.AppendUint32(nil, v))
	}
	for h.Len() < headerSize {
		h.WriteByte(0)
	}
	return append(h.Bytes(), body.Bytes()...)
}

var synthNames = []string{"None", "Core", "Package", "Obj", "Thing",
	"Count", "Scale", "bOn", "bOff", "Label", "Text", "Other", "Pos", "Vector", "Slots", "Big", "Mode"}

// name index helpers for the synthetic names.
const (
	snNone, snCore, snPackage, snObj, snThing = 0, 1, 2, 3, 4
	snCount, snScale, snBOn, snBOff, snLabel  = 5, 6, 7, 8, 9
	snText, snOther, snPos, snVector, snSlots = 10, 11, 12, 13, 14
	snBig, snMode                             = 15, 16
)

func synthProps() []byte {
	le := binary.LittleEndian
	var b []byte
	ci := func(v int32) { b = binread.AppendCompactIndex(b, v) }
	ci(snCount)
	b = append(b, 0x22) // IntProperty, size code 2 (4 bytes)
	minus7 := int32(-7)
	b = le.AppendUint32(b, uint32(minus7))
	ci(snScale)
	b = append(b, 0x24) // FloatProperty
	b = le.AppendUint32(b, math.Float32bits(1.5))
	ci(snBOn)
	b = append(b, 0x83) // BoolProperty, true in the array bit
	ci(snBOff)
	b = append(b, 0x03)
	ci(snLabel)
	b = append(b, 0x06) // NameProperty, 1 byte
	ci(snThing)
	ci(snOther)
	b = append(b, 0x05) // ObjectProperty -> import 0
	ci(-1)
	ci(snText)
	b = append(b, 0x5D, 7) // StrProperty, size in a byte
	ci(6)                  // length includes the NUL
	b = append(b, "hello"...)
	b = append(b, 0)
	ci(snPos)
	b = append(b, 0x3A) // StructProperty, 12 bytes
	ci(snVector)
	for _, v := range []float32{1, 2, 3} {
		b = le.AppendUint32(b, math.Float32bits(v))
	}
	ci(snSlots)
	b = append(b, 0xA2, 3) // IntProperty[3]
	b = le.AppendUint32(b, 42)
	ci(snBig)
	b = append(b, 0xA2, 0x81, 0x02) // IntProperty[258], two-byte index
	b = le.AppendUint32(b, 43)
	ci(snMode)
	b = append(b, 0x01, 9) // ByteProperty
	ci(snNone)
	b = append(b, 0xDE, 0xAD) // native data
	return b
}

func TestSyntheticProperties(t *testing.T) {
	pkg := synthPackage(synthNames, []int32{-1}, [][]byte{synthProps()})
	f, err := NewFile(bytes.NewReader(pkg), int64(len(pkg)), WithName("Synth.u"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.ExportPath(0); got != "Synth.Thing" {
		t.Errorf("ExportPath = %q", got)
	}
	if got := f.ImportPath(0); got != "Core" {
		t.Errorf("ImportPath = %q", got)
	}
	o, err := f.Object(0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		typ  string
		idx  int32
		val  any
	}{
		{"Count", "IntProperty", 0, int32(-7)},
		{"Scale", "FloatProperty", 0, float32(1.5)},
		{"bOn", "BoolProperty", 0, true},
		{"bOff", "BoolProperty", 0, false},
		{"Label", "NameProperty", 0, "Thing"},
		{"Other", "ObjectProperty", 0, "Core"},
		{"Text", "StrProperty", 0, "hello"},
		{"Pos", "StructProperty", 0, nil},
		{"Slots", "IntProperty", 3, int32(42)},
		{"Big", "IntProperty", 258, int32(43)},
		{"Mode", "ByteProperty", 0, uint8(9)},
	}
	if len(o.Properties) != len(want) {
		t.Fatalf("%d properties, want %d: %+v", len(o.Properties), len(want), o.Properties)
	}
	for i, w := range want {
		p := o.Properties[i]
		if p.Name != w.name || p.Type != w.typ || p.ArrayIndex != w.idx {
			t.Errorf("property %d = %s %s[%d], want %s %s[%d]", i, p.Name, p.Type, p.ArrayIndex, w.name, w.typ, w.idx)
		}
		if w.val != nil && p.Value != w.val {
			t.Errorf("property %s = %#v, want %#v", p.Name, p.Value, w.val)
		}
	}
	if v, ok := o.Properties[7].Value.(map[string]any); !ok || v["Y"] != float32(2) || o.Properties[7].StructName != "Vector" {
		t.Errorf("Pos = %#v (%s)", o.Properties[7].Value, o.Properties[7].StructName)
	}
	if o.NativeSize != 2 {
		t.Errorf("NativeSize = %d, want 2", o.NativeSize)
	}
}

func TestSyntheticErrors(t *testing.T) {
	tests := []struct {
		name  string
		props []byte
	}{
		{"name index past table", []byte{0x3F}},
		{"type zero", []byte{snCount, 0x00}},
		{"size past data", []byte{snCount, 0x72, 0xFF, 0xFF, 0xFF, 0x7F}},
		{"int with 1 byte", []byte{snCount, 0x02, 1, snNone}},
		{"no terminator", []byte{snCount, 0x22, 1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := synthPackage(synthNames, []int32{-1}, [][]byte{tt.props})
			f, err := NewFile(bytes.NewReader(pkg), int64(len(pkg)))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Object(0); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

func TestSyntheticTableErrors(t *testing.T) {
	good := synthPackage(synthNames, []int32{-1}, [][]byte{synthProps()})
	le := binary.LittleEndian
	mod := func(off int, v uint32) []byte {
		b := bytes.Clone(good)
		le.PutUint32(b[off:], v)
		return b
	}
	tests := []struct {
		name string
		pkg  []byte
	}{
		{"not a package", mod(0, 0x12345678)},
		{"name count too large", mod(12, 1<<30)},
		{"name offset negative", mod(16, 0x80000000)},
		{"export offset past end", mod(24, uint32(len(good)+10))},
		{"import count negative", mod(28, 0xFFFFFFFF)},
		{"generation count huge", mod(52, 1<<30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewFile(bytes.NewReader(tt.pkg), int64(len(tt.pkg))); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
