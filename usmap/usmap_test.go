package usmap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
)

// corpusTests lists every .usmap of the corpus with its header facts and
// table sizes. Oodle-compressed files (Kraken, Leviathan) decode through
// the compression registry.
var corpusTests = []struct {
	path                  string
	version               Version
	comp                  Compression
	names, enums, structs int
}{
	{"uassetapi/TestManyAssets/Clay/Clay.usmap", 4, CompressionNone, 25862, 1219, 5809},
	{"uassetapi/TestManyAssets/F1Manager2023/F1Manager2023.usmap", 0, CompressionNone, 37480, 1537, 6657},
	{"uassetapi/TestManyAssets/LiesOfP/LiesOfP.usmap", 0, CompressionNone, 37512, 1599, 7211},
	{"uassetapi/TestManyAssets/Palia/Palia.usmap", 0, CompressionNone, 41003, 1720, 8383},
	{"uassetapi/TestManyAssets/Palworld/Palworld.usmap", 0, CompressionNone, 45066, 1848, 9071},
	{"uassetapi/TestUE5_1/UnderlyingEnumTypes/UnderlyingEnumTypes.usmap", 0, CompressionNone, 27628, 1212, 5770},
	{"uassetapi/TestUE5_3/Engine/Engine.usmap", 0, CompressionNone, 30636, 1323, 6796},
	{"uassetapi/TestUE5_3/RON/ReadyOrNot.usmap", 0, CompressionNone, 46501, 1793, 9073},
	{"uassetapi/TestUE5_4/Bellwright/Bellwright.usmap", 0, CompressionNone, 53693, 2254, 11290},
	{"uassetapi/TestUE5_4/Billiards/5.4.3-34507850+++UE5+Release-5.4-DeepSpace7.usmap", 3, CompressionZstd, 36197, 1741, 8326},
	{"uassetapi/TestUE5_4/BlankGame/BlankGame_Dumper-7.usmap", 3, CompressionZstd, 31948, 1565, 7657},
	{"uassetapi/TestUE5_4/JOY/5.4.3-34507850+++UE5+Release-5.4-JOY.usmap", 3, CompressionZstd, 33560, 1598, 7686},
	{"uassetapi/TestUE5_4/TheForeverWinter/TheForeverWinter.usmap", 0, CompressionNone, 46043, 1998, 9973},
	{"uassetapi/TestUE5_5/BlankGame/BlankUE5_5.usmap", 0, CompressionNone, 39662, 1811, 8973},
	{"uassetapi/TestUE5_7/FarFarWest/FarFarWest.usmap", 4, CompressionNone, 48174, 2192, 10888},
	{"uassetapi/TestUE5_7/NanosWorld/NanosWorld.usmap", 4, CompressionZstd, 48485, 2420, 12003},
	{"usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings/CUE4ParseFixtures-Brotli.usmap", 4, CompressionBrotli, 40567, 1833, 8991},
	{"usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings/CUE4ParseFixtures-Uncompressed.usmap", 4, CompressionNone, 40567, 1833, 8991},
	{"usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings/CUE4ParseFixtures-Zstandard.usmap", 4, CompressionZstd, 40567, 1833, 8991},
	{"usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings/CUE4ParseFixtures-Oodle.usmap", 4, CompressionOodle, 40567, 1833, 8991},
	{"usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Mappings/CUE4ParseFixtures-Zstandard.usmap", 4, CompressionZstd, 40479, 1837, 9051},
	{"usmap/WhiteheadDesign+Unreal-Mappings-Archive/Fortnite/15.10/br.usmap", 0, CompressionBrotli, 72952, 2292, 13303},
	{"usmap/WhiteheadDesign+Unreal-Mappings-Archive/Dark and Darker/Mappings.usmap", 0, CompressionOodle, 31428, 1271, 7136},
	{"usmap/WhiteheadDesign+Unreal-Mappings-Archive/Hello Neighbor 2/Demo/Mappings.usmap", 0, CompressionOodle, 29370, 1271, 5240},
	{"usmap/WhiteheadDesign+Unreal-Mappings-Archive/Ice Station Z/Mappings.usmap", 0, CompressionNone, 20355, 869, 3715},
}

func TestCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	for _, tt := range corpusTests {
		t.Run(filepath.Base(filepath.Dir(tt.path)), func(t *testing.T) {
			f, err := Open(filepath.Join(dir, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			if f.Version != tt.version || f.Compression != tt.comp || len(f.Names) != tt.names {
				t.Errorf("have v%d %v names=%d, want v%d %v names=%d", f.Version, f.Compression, len(f.Names), tt.version, tt.comp, tt.names)
			}
			if tt.enums >= 0 && (len(f.Enums) != tt.enums || len(f.Structs) != tt.structs) {
				t.Errorf("have enums=%d structs=%d, want %d %d", len(f.Enums), len(f.Structs), tt.enums, tt.structs)
			}
		})
	}
}

// TestFixtureSchemas checks the schemas CUE4Parse's own fixture tests assert
// (FixtureMappingsTests.MappingContainsNativeFixtureSchemas), and that the
// Brotli, Zstandard and Oodle (Leviathan) files hold exactly what the
// uncompressed one holds.
func TestFixtureSchemas(t *testing.T) {
	dir := corpus.Path(t, "usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings")
	plain, err := Open(filepath.Join(dir, "CUE4ParseFixtures-Uncompressed.usmap"))
	if err != nil {
		t.Fatal(err)
	}
	schemas := []struct {
		name, super string
		props       []string
	}{
		{"FixtureNestedStruct", "", []string{"Marker", "Label", "Position", "Samples", "bEnabled"}},
		{"FixtureTableRow", "TableRowBase", []string{"Number", "LargeNumber", "Message", "Kind", "Nested", "Values"}},
		{"FixtureInstancedScalar", "FixtureInstancedBase", []string{"Value", "Label"}},
		{"ParserFixtureBaseData", "DataAsset", []string{"BaseMarker", "BaseString"}},
	}
	for _, s := range schemas {
		st := plain.Struct(s.name)
		if st == nil {
			t.Errorf("%s: missing", s.name)
			continue
		}
		var names []string
		for _, p := range st.Properties {
			names = append(names, p.Name)
		}
		if st.Super != s.super || strings.Join(names, ",") != strings.Join(s.props, ",") {
			t.Errorf("%s: have super %q props %v, want %q %v", s.name, st.Super, names, s.super, s.props)
		}
	}
	fd := plain.Struct("ParserFixtureData")
	if fd == nil || fd.PropertyCount != 63 || fd.Super != "ParserFixtureBaseData" {
		t.Fatalf("ParserFixtureData: %+v", fd)
	}
	types := map[string]string{
		"Integer":               "IntProperty",
		"AnsiString":            "AnsiStrProperty",
		"Utf8String":            "Utf8StrProperty",
		"LazyObjectReference":   "LazyObjectProperty",
		"FieldPathReference":    "FieldPathProperty",
		"PresentOptional":       "OptionalProperty<IntProperty>",
		"IntegerArray":          "ArrayProperty<IntProperty>",
		"Nested":                "StructProperty<FixtureNestedStruct>",
		"NameSet":               "SetProperty<NameProperty>",
		"IntegerMap":            "MapProperty<NameProperty, IntProperty>",
		"ScalarInstancedStruct": "StructProperty<InstancedStruct>",
	}
	for _, p := range fd.Properties {
		if want, ok := types[p.Name]; ok {
			if have := p.Type.String(); have != want {
				t.Errorf("%s: have %s, want %s", p.Name, have, want)
			}
			delete(types, p.Name)
		}
		if p.Name == "FixedIntegerArray" && p.ArraySize != 3 {
			t.Errorf("FixedIntegerArray: array size %d, want 3", p.ArraySize)
		}
	}
	if len(types) > 0 {
		t.Errorf("properties not found: %v", types)
	}
	// Flat schema indices: own properties first, then the super struct's.
	if p, _, ok := plain.PropertyAt("ParserFixtureData", 63); !ok || p.Name != "BaseMarker" {
		t.Errorf("PropertyAt(63) = %+v %v, want BaseMarker of ParserFixtureBaseData", p, ok)
	}
	for _, name := range []string{"CUE4ParseFixtures-Brotli.usmap", "CUE4ParseFixtures-Zstandard.usmap", "CUE4ParseFixtures-Oodle.usmap"} {
		c, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Structs) != len(plain.Structs) || len(c.Enums) != len(plain.Enums) {
			t.Fatalf("%s: %d structs %d enums, uncompressed has %d %d", name, len(c.Structs), len(c.Enums), len(plain.Structs), len(plain.Enums))
		}
		for i, s := range plain.Structs {
			cs := c.Structs[i]
			if cs.Name != s.Name || cs.Super != s.Super || len(cs.Properties) != len(s.Properties) {
				t.Fatalf("%s: struct %d differs: %s vs %s", name, i, cs.Name, s.Name)
			}
			for j := range s.Properties {
				if s.Properties[j].Type.String() != cs.Properties[j].Type.String() {
					t.Fatalf("%s: %s.%s type differs", name, s.Name, s.Properties[j].Name)
				}
			}
		}
	}
}

// TestTruncated checks that prefixes of a real file fail cleanly.
func TestTruncated(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "uassetapi/TestUE5_4/BlankGame/BlankGame_Dumper-7.usmap"))
	if err != nil {
		t.Fatal(err)
	}
	step := max(1, len(b)/2000)
	for n := 0; n < len(b); n += step {
		if _, err := Parse(b[:n]); err == nil {
			t.Fatalf("prefix of %d bytes parsed without error", n)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "Usmap.Magic"},
		{"magic", []byte{1, 2, 3}, "bad magic"},
		{"version", []byte{0xC4, 0x30, 9}, "version 9"},
		{"huge", []byte{0xC4, 0x30, 0, 3, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f}, "exceeds"},
		{"oodle", []byte{0xC4, 0x30, 0, 1, 3, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3}, "Oodle payload"},
		{"lzna", []byte{0xC4, 0x30, 0, 1, 5, 0, 0, 0, 4, 0, 0, 0, 0x8C, 0x05, 0, 0, 0}, "unsupported: the mappings payload is Oodle LZNA-compressed"},
		{"ratio", []byte{0xC4, 0x30, 0, 2, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3, 4}, "implausible"},
		{"names", []byte{0xC4, 0x30, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f}, "Usmap.Names"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("have %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		// The payload of the smallest real file, re-wrapped uncompressed, keeps
		// the seeds small enough for the fuzzer to mutate usefully.
		if b, err := os.ReadFile(filepath.Join(dir, "uassetapi/TestUE5_4/BlankGame/BlankGame_Dumper-7.usmap")); err == nil {
			f.Add(b[:min(len(b), 4096)])
		}
	}
	f.Add([]byte{0xC4, 0x30, 4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		alloctest.Check(t, len(b), func() {
			uf, err := Parse(b)
			if err != nil {
				return
			}
			for _, s := range uf.Structs {
				uf.TotalProperties(s.Name)
				uf.PropertyAt(s.Name, 0)
			}
		})
	})
}

// TestExtensions checks what the CEXT extensions add (LiesOfP's mappings
// carry PPTH, EATR and ENVP): module paths, flags and explicit enum values.
func TestExtensions(t *testing.T) {
	f, err := Open(corpus.Path(t, "uassetapi/TestManyAssets/LiesOfP/LiesOfP.usmap"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.Extensions, ",") != "PPTH,EATR,ENVP" || len(f.Warnings) != 0 {
		t.Fatalf("extensions %v warnings %v", f.Extensions, f.Warnings)
	}
	e := f.Enum("ELBladeShapeType")
	if e == nil || e.ModulePath != "/Script/ProjectPContentInfo" {
		t.Fatalf("ELBladeShapeType: %+v", e)
	}
	if n, ok := e.ValueName(4); !ok || n != "E_BLUNT" {
		t.Errorf("ELBladeShapeType value 4 = %q %v, want E_BLUNT", n, ok)
	}
	s := f.Struct("/Script/ProjectPContentInfo.ItemInfoAsset")
	if s == nil || s.ModulePath != "/Script/ProjectPContentInfo" || s.Kind != 2 {
		t.Errorf("ItemInfoAsset by module path: %+v", s)
	}
}

// TestLegacyMODL checks the legacy module-path block (flagged by a uint32 1
// after the schemas) of Palia's mappings.
func TestLegacyMODL(t *testing.T) {
	f, err := Open(corpus.Path(t, "uassetapi/TestManyAssets/Palia/Palia.usmap"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 0 || strings.Join(f.Extensions, ",") != "MODL" {
		t.Fatalf("extensions %v warnings %v", f.Extensions, f.Warnings)
	}
	withPath := 0
	for _, s := range f.Structs {
		if strings.HasPrefix(s.ModulePath, "/") {
			withPath++
		}
	}
	if withPath != len(f.Structs) {
		t.Errorf("%d of %d structs have a module path", withPath, len(f.Structs))
	}
}
