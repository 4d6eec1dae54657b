package web

import (
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/inspect"
)

// TestSample reads the built-in sample back with upkg: every section reads
// cleanly and the model is what Sample wrote.
func TestSample(t *testing.T) {
	b := Sample()
	p, err := inspect.OpenPackage(inspect.BytesInput(SampleName, map[string][]byte{SampleName: b}), &inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Sections {
		if s.Error != "" {
			t.Errorf("section %s: %s", s.Name, s.Error)
		}
	}
	if len(p.Warnings) > 0 {
		t.Errorf("warnings: %q", p.Warnings)
	}
	if p.Engine == "" || len(p.Names) != 16 || len(p.Imports) != 4 || len(p.Exports) != 1 || len(p.Thumbnails) != 1 || len(p.AssetRegistry) != 1 {
		t.Errorf("engine %q names %d imports %d exports %d thumbnails %d registry %d", p.Engine, len(p.Names), len(p.Imports), len(p.Exports), len(p.Thumbnails), len(p.AssetRegistry))
	}
	if e := p.Exports[0]; !e.IsAsset || !strings.HasSuffix(e.Path, "/upkgSample.upkgSample") || e.Class != "/Script/Engine.DataAsset" {
		t.Errorf("export: %+v", e)
	}
	if p.Thumbnails[0].Format != "png" {
		t.Errorf("thumbnail: %+v", p.Thumbnails[0])
	}
	if p.ExportData != nil {
		d, err := p.ExportData(0)
		if err != nil || len(d) == 0 {
			t.Errorf("export data: %v", err)
		}
	}
	if p.HeaderRoundtrip != nil && !*p.HeaderRoundtrip {
		t.Error("header rewrite differs")
	}
}
