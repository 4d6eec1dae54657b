package property_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/upkg/upkg/assetprops"
	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/proptest"
	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/uasset"
	"github.com/upkg/upkg/usmap"
)

// seedPackage is a real package whose context and exports seed the tests.
type seedPackage struct {
	ctx     *property.Context
	exports [][]byte
	infos   []property.Export
}

func loadSeed(tb testing.TB, rel, engine, mappings string) *seedPackage {
	dir, ok := corpus.Find()
	if !ok {
		return nil
	}
	p := filepath.Join(dir, rel)
	var opts []uasset.Option
	if engine != "" {
		opts = append(opts, uasset.WithEngine(engine))
	}
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	base := strings.TrimSuffix(p, filepath.Ext(p))
	opts = append(opts, uasset.WithSibling(func(ext string) (io.ReaderAt, int64, error) {
		sb, err := os.ReadFile(base + ext)
		if err != nil {
			return nil, 0, err
		}
		return bytes.NewReader(sb), int64(len(sb)), nil
	}))
	f, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	var m *usmap.File
	if mappings != "" {
		if m, err = usmap.Open(filepath.Join(dir, mappings)); err != nil {
			tb.Fatal(err)
		}
	}
	s := &seedPackage{ctx: assetprops.Context(f, m)}
	for i := range f.Exports {
		d, err := f.Exports[i].Data()
		if err != nil {
			continue
		}
		s.exports = append(s.exports, d)
		s.infos = append(s.infos, assetprops.ExportInfo(f, i))
	}
	return s
}

var (
	seedOnce sync.Once
	tagged   *seedPackage
	unvers   *seedPackage
	// moreTagged are further tagged seeds, UE4.26 to UE5.7, with richer
	// name maps (levels, Blueprints) so the fuzzer reaches more natives.
	moreTagged []*seedPackage
)

func seeds(tb testing.TB) (*seedPackage, *seedPackage) {
	seedOnce.Do(func() {
		tagged = loadSeed(tb, "uncooked/EdwardDuduLiu+2_FPS_UE4.27/Content/ActionRoguelike/Monsters/DT_Monsters.uasset", "", "")
		unvers = loadSeed(tb, "uassetapi/TestUE5_5/BlankGame/BP_Test.uasset", "5.5", "uassetapi/TestUE5_5/BlankGame/BlankUE5_5.usmap")
		for _, rel := range []string{
			"uncooked/xiaoheige+VRTemplateUE426/Content/VirtualRealityBP/Maps/StartupMap.umap",
			"uncooked/TechnicallyArtist+UE5.3-FoW/Content/TopDown/Maps/TopDownMap.umap",
			"uassetapi/TestEditorUE5_7/Blueprints/BP_FirstPersonCharacter.uasset",
		} {
			if s := loadSeed(tb, rel, "", ""); s != nil {
				moreTagged = append(moreTagged, s)
			}
		}
	})
	return tagged, unvers
}

// check asserts the invariants every decode keeps, whatever the input.
func check(t *testing.T, o *property.Object, n int) {
	if o.PropertiesEnd < 0 || o.PropertiesEnd > int64(n) || o.Size != int64(n) {
		t.Fatalf("properties end %d, size %d of %d bytes", o.PropertiesEnd, o.Size, n)
	}
	if o.Complete && len(o.Issues) > 0 {
		t.Fatalf("complete with issues %v", o.Issues)
	}
	for _, p := range o.Properties {
		if p.Offset < 0 || p.Offset+p.Size > int64(n) {
			t.Fatalf("property %s at %d+%d outside %d bytes", p.Name, p.Offset, p.Size, n)
		}
	}
	if _, err := json.Marshal(o); err != nil {
		t.Fatalf("JSON: %v", err)
	}
}

// checkLite decodes data again in the lite mode and fails when the outcome
// differs from the full decode o.
func checkLite(t *testing.T, o *property.Object, ctx *property.Context, data []byte, ex property.Export) {
	if d := proptest.LiteDiff(o, property.ReadExportLite(ctx, data, ex)); d != "" {
		t.Fatalf("lite decode differs: %s", d)
	}
}

// TestTruncatedExports decodes every prefix of real exports: no panic, and
// no prefix that cuts the property stream decodes as complete.
func TestTruncatedExports(t *testing.T) {
	tg, un := seeds(t)
	if tg == nil {
		t.Skip("corpus not found")
	}
	for _, s := range []*seedPackage{tg, un} {
		for i, data := range s.exports {
			if len(data) > 4096 {
				continue // every prefix of big exports would take long
			}
			full := property.ReadExport(s.ctx, data, s.infos[i])
			for n := 0; n < len(data); n++ {
				o := property.ReadExport(s.ctx, data[:n], s.infos[i])
				check(t, o, n)
				checkLite(t, o, s.ctx, data[:n], s.infos[i])
				if o.Complete && int64(n) < full.PropertiesEnd {
					t.Fatalf("export %d: prefix %d of %d (stream ends at %d) decoded as complete", i, n, len(data), full.PropertiesEnd)
				}
			}
		}
	}
}

// maxFuzzInput keeps fuzz inputs small enough to mutate usefully.
const maxFuzzInput = 1 << 16

func FuzzTagged(f *testing.F) {
	tg, _ := seeds(f)
	all := append([]*seedPackage{tg}, moreTagged...)
	if tg != nil {
		for k, s := range all {
			for i, d := range s.exports {
				if len(d) <= maxFuzzInput && i < 64 {
					f.Add(d, uint8(3*k))
				}
			}
		}
	}
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, layout uint8) {
		alloctest.Check(t, len(data), func() {
			if len(data) > maxFuzzInput {
				return
			}
			ctx := &property.Context{FileVersionUE4: 522, Names: []string{"None", "IntProperty", "StructProperty", "ArrayProperty", "Vector", "MapProperty", "TextProperty", "X"}}
			if tg != nil {
				c := *all[int(layout/3)%len(all)].ctx
				ctx = &c
			}
			switch layout % 3 {
			case 1:
				ctx.FileVersionUE5 = 1011
			case 2:
				ctx.FileVersionUE5 = 1012
			}
			o := property.ReadExport(ctx, data, property.Export{Class: "DataTable"})
			check(t, o, len(data))
			checkLite(t, o, ctx, data, property.Export{Class: "DataTable"})
		})
	})
}

func FuzzUnversioned(f *testing.F) {
	_, un := seeds(f)
	if un == nil {
		f.Skip("corpus not found")
	}
	for i, d := range un.exports {
		if len(d) <= maxFuzzInput {
			f.Add(d, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		alloctest.Check(t, len(data), func() {
			if len(data) > maxFuzzInput {
				return
			}
			info := un.infos[int(which)%len(un.infos)]
			o := property.ReadExport(un.ctx, data, info)
			check(t, o, len(data))
			checkLite(t, o, un.ctx, data, info)
		})
	})
}
