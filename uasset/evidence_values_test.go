package uasset

import (
	"encoding/binary"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// TestValueEvidence checks the value-layout rules on hand-made values: each
// rules out the releases whose layout does not fill the value exactly, and
// a value that fits neither layout says nothing.
func TestValueEvidence(t *testing.T) {
	f := &File{Names: []NameEntry{{Name: String{S: "None"}}, {Name: String{S: "Curve"}}}}
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	name := cat(u32(1), u32(0))
	fstr := cat(u32(3), []byte("ab\x00"))
	for _, c := range []struct {
		what, typ, strct string
		val              []byte
		kept             []string // of 4.16 4.17 4.18 4.22 4.23 4.27
	}{
		{"text without bHasCultureInvariantString", "TextProperty", "", cat(u32(0), []byte{0xFF}), []string{"4.16", "4.17", "4.18", "4.22"}},
		{"text with bHasCultureInvariantString 0", "TextProperty", "", cat(u32(0), []byte{0xFF}, u32(0)), []string{"4.23", "4.27"}},
		{"text with a culture invariant string", "TextProperty", "", cat(u32(0), []byte{0xFF}, u32(1), fstr), []string{"4.23", "4.27"}},
		{"text with trailing bytes", "TextProperty", "", cat(u32(0), []byte{0xFF}, u32(0), u32(0)), nil},
		{"SmartName with UID and GUID", "StructProperty", "SmartName", cat(name, []byte{1, 0}, make([]byte, 16)), []string{"4.16"}},
		{"SmartName with GUID", "StructProperty", "SmartName", cat(name, make([]byte, 16)), []string{"4.17"}},
		{"SmartName alone", "StructProperty", "SmartName", name, nil},
		{"soft object path as a string", "AssetObjectProperty", "", fstr, []string{"4.16", "4.17"}},
		{"soft object path as name and string", "SoftObjectProperty", "", cat(name, fstr), []string{"4.18", "4.22", "4.23", "4.27"}},
	} {
		t.Run(c.what, func(t *testing.T) {
			ev := &evidence{out: map[string]string{}}
			for _, n := range []string{"4.16", "4.17", "4.18", "4.22", "4.23", "4.27"} {
				e, _ := LookupEngine(n)
				ev.cands = append(ev.cands, e)
			}
			p := &prober{f: f}
			p.valueEvidence(binread.FromBytes(c.val), ev, &place{name: "value"}, c.typ, c.strct, 0, int64(len(c.val)))
			var kept []string
			for _, e := range ev.cands {
				if _, gone := ev.out[e.Name]; !gone {
					kept = append(kept, e.Name)
				}
			}
			if len(ev.out) == 0 {
				kept = nil // no evidence
			}
			if len(kept) != len(c.kept) {
				t.Fatalf("kept %v, want %v (%v)", kept, c.kept, ev.out)
			}
			for i := range kept {
				if kept[i] != c.kept[i] {
					t.Fatalf("kept %v, want %v (%v)", kept, c.kept, ev.out)
				}
			}
		})
	}
}
