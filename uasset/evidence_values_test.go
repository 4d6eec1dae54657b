package uasset

import (
	"encoding/binary"
	"fmt"
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

// TestNestedEvidenceTakenBack checks that what a struct value's tagged
// stream says counts only when the stream reads exactly to the value's
// end: the evidence of one that does not is taken back (and its rule can
// still apply later), for nested structs and for data table rows.
func TestNestedEvidenceTakenBack(t *testing.T) {
	names := []string{"None", "Inner", "StructProperty", "Foo", "Txt", "TextProperty", "Row1"}
	f := &File{}
	for _, n := range names {
		f.Names = append(f.Names, NameEntry{Name: String{S: n}})
	}
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	name := func(i uint32) []byte { return cat(u32(i), u32(0)) }
	// A text without history and without bHasCultureInvariantString:
	// written before 4.23 only.
	text := cat(u32(0), []byte{0xFF})
	inner := cat(name(4), name(5), u32(uint32(len(text))), u32(0), []byte{0}, text, name(0))
	strct := func(extra int) []byte {
		v := cat(inner, make([]byte, extra))
		return cat(name(1), name(2), u32(uint32(len(v))), u32(0), name(3), make([]byte, 16), []byte{0}, v)
	}
	kept := func(ev *evidence) []string {
		var k []string
		for _, e := range ev.cands {
			if _, gone := ev.out[e.Name]; !gone {
				k = append(k, e.Name)
			}
		}
		return k
	}
	newEvidence := func() *evidence {
		ev := &evidence{out: map[string]string{}}
		for _, n := range []string{"4.18", "4.22", "4.23", "4.27"} {
			e, _ := LookupEngine(n)
			ev.cands = append(ev.cands, e)
		}
		return ev
	}
	p := &prober{f: f}
	for _, c := range []struct {
		what   string
		stream []byte
		table  bool
		kept   []string // nil: no evidence
	}{
		{"exact struct", cat(strct(0), name(0)), false, []string{"4.18", "4.22"}},
		{"struct with a trailing byte", cat(strct(1), name(0)), false, nil},
		{"trailing struct, then exact struct", cat(strct(1), strct(0), name(0)), false, []string{"4.18", "4.22"}},
		{"table rows", cat(u32(1), name(6), inner), true, []string{"4.18", "4.22"}},
		{"table rows with a trailing byte", cat(u32(1), name(6), inner, []byte{0}), true, nil},
	} {
		t.Run(c.what, func(t *testing.T) {
			ev := newEvidence()
			r := binread.FromBytes(c.stream)
			if c.table {
				p.dataTableRows(r, ev, &place{name: "table"})
			} else {
				var st tagStats
				if !p.tags(r, ev, &place{name: "export"}, "Thing", 0, &st) {
					t.Fatal("stream did not read")
				}
			}
			got := kept(ev)
			if len(ev.out) == 0 {
				got = nil
			}
			if fmt.Sprint(got) != fmt.Sprint(c.kept) {
				t.Fatalf("kept %v, want %v (%v)", got, c.kept, ev.out)
			}
		})
	}
}
