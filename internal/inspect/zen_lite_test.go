//go:build !upkg_only || upkg_iostore

package inspect

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/proptest"
	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/zen"
)

// TestCorpusZenLite decodes every export of every zen package in the
// corpus's IoStore containers (opened with the corpus keys) in both modes,
// property.ReadExport and property.ReadExportLite, and checks that they
// agree on everything verify's statistics take from a decode. The
// CUE4Parse fixture containers are decoded with their mappings too.
func TestCorpusZenLite(t *testing.T) {
	dir := corpus.Dir(t)
	tocs := corpus.Files(t, "iostore", ".utoc")
	mappings := map[string]string{
		"/UE5_8/": filepath.Join(dir, fixtureMappings),
		"/UE6_0/": filepath.Join(dir, "usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/Mappings/CUE4ParseFixtures-Zstandard.usmap"),
	}
	packages, exports, complete := 0, 0, 0
	for _, p := range tocs {
		rel, _ := filepath.Rel(dir, p)
		opts := []*Options{{AESKey: corpusKeys}}
		for k, m := range mappings {
			if strings.Contains(filepath.ToSlash(p), k) {
				opts = append(opts, &Options{AESKey: corpusKeys, Mappings: m})
			}
		}
		c, err := openUtoc(p, opts[0])
		if err != nil || c.f.DirectoryIndex == nil || !c.f.HasData() {
			continue
		}
		for _, fe := range c.f.DirectoryIndex.Files() {
			id := c.f.ChunkIDs[fe.Chunk]
			if id.Type().Canonical(c.f.Header.Version) != iostore.ChunkExportBundleData || !fe.Valid {
				continue
			}
			data, err := c.f.ReadChunk(fe.Chunk)
			if err != nil {
				continue
			}
			name := c.path + ContainerSep + fe.Path
			for _, o := range opts {
				in := &Input{Name: name, R: &zenChunk{Reader: *bytes.NewReader(data), data: data, c: c, chunk: fe.Chunk}, Size: int64(len(data))}
				pkg, err := openZen(in, o)
				if err != nil {
					continue
				}
				zp, ok := pkg.Dump.(*zen.Package)
				if !ok {
					continue
				}
				m, err := loadMappings(o)
				if err != nil {
					t.Fatal(err)
				}
				ctx := zenContext(pkg, zp)
				ctx.Mappings = m
				ctx.LocalSchema = zenLocalSchemas(pkg, zp, ctx)
				packages++
				for i := range zp.Exports {
					data, err := zp.ExportData(i)
					if err != nil {
						continue
					}
					e := &zp.Exports[i]
					ex := property.Export{Class: propsLastElem(pkg.Exports[i].Class), Name: e.Name, ObjectFlags: e.ObjectFlags}
					ex.ClassIsBlueprint = strings.HasSuffix(ex.Class, "_C")
					full := property.ReadExport(ctx, data, ex)
					lite := property.ReadExportLite(ctx, data, ex)
					exports++
					if full.Complete {
						complete++
					}
					if d := proptest.LiteDiff(full, lite); d != "" {
						t.Errorf("%s %s export %d (%s): %s", rel, fe.Path, i, ex.Class, d)
					}
				}
			}
		}
		c.Close()
	}
	if packages == 0 {
		t.Skip("no zen packages in the corpus")
	}
	t.Logf("%d zen package decodings, %d exports (%d complete) decoded alike in both modes", packages, exports, complete)
}
