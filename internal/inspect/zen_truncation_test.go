package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/zen"
)

// TestZenTruncation opens every prefix of zen packages (UE 4.27, 5.4, 5.6
// and a UE 5.8 package from the CUE4Parse fixtures) that cuts their export
// data: the header still reads, the ExportData section reports the cut
// with the offset where the package ends and the export it cuts, verify
// fails naming it, and ExportData of the cut export names the offset too.
// Prefixes inside the header fail to open, never panic. All of it holds
// with the packages read whole and read lazily (zen.Options.Body, as
// packages over zenWholeMax are).
func TestZenTruncation(t *testing.T) {
	t.Run("whole", testZenTruncation)
	t.Run("lazy", func(t *testing.T) {
		oldMax, oldPrefix := zenWholeMax, zenPrefix
		zenWholeMax, zenPrefix = -1, 16 // the header too is read through Body
		defer func() { zenWholeMax, zenPrefix = oldMax, oldPrefix }()
		testZenTruncation(t)
	})
}

func testZenTruncation(t *testing.T) {
	dir := corpus.Dir(t)
	type sample struct {
		name string
		data []byte
	}
	var samples []sample
	for _, rel := range []string{
		"cooked/trumank+retoc/retoc/tests/UE4.27/TestModUI.uzenasset",
		"cooked/trumank+retoc/retoc/tests/UE5.4/BP_Table_Lamp.uzenasset",
		"cooked/trumank+retoc/retoc/tests/UE5.6/SM_Cube.uzenasset",
	} {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, sample{rel, b})
	}
	// A UE5.8 package, taken out of its container.
	utoc := filepath.Join(dir, fixtureIoStore, "Tagged", "Uncompressed", "CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc")
	in, err := OpenInput(utoc+ContainerSep+"CUE4ParseFixtures/Content/Fixtures/Curves/CT_Simple.uasset", &Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, in.Size)
	if _, err := in.R.ReadAt(b, 0); err != nil {
		t.Fatal(err)
	}
	in.Close()
	samples = append(samples, sample{"CT_Simple.uzenasset (UE5.8)", b})

	globals := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	for _, s := range samples {
		// A global script table keeps each open cheap (without one, script
		// imports are named by hashing candidate names).
		if strings.Contains(s.name, "UE4.27") {
			t.Setenv(GlobalEnv, filepath.Join(globals, "UE4.27"))
		} else {
			t.Setenv(GlobalEnv, filepath.Join(globals, "UE5.3", "ScriptObjects.bin"))
		}
		full, err := zen.Parse(s.data, zen.Options{Auto: true})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		header := int64(full.Summary.HeaderSize)
		end := full.ExportDataEnd()
		cuts := 0
		step := max(1, int(end-header)/60)
		for n := int64(0); n < end; n += int64(step) {
			if n < header && n%int64(max(1, int(header)/40)) != 0 {
				continue
			}
			name := filepath.Base(s.name)
			name = strings.TrimSuffix(name, filepath.Ext(name)) + ".uzenasset"
			p, err := OpenPackage(BytesInput(name, map[string][]byte{name: s.data[:n]}), &Options{})
			if n < header {
				if err == nil && p.Format == "zen" {
					t.Errorf("%s: prefix of %d bytes (header %d) opened", s.name, n, header)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: prefix of %d bytes (header %d) does not open: %v", s.name, n, header, err)
				continue
			}
			cuts++
			var sec *Section
			for i := range p.Sections {
				if p.Sections[i].Name == "ExportData" {
					sec = &p.Sections[i]
				}
			}
			want := fmt.Sprintf("ends at offset 0x%x", n)
			if sec == nil || !strings.Contains(sec.Error, want) || !strings.Contains(sec.Error, "export") {
				t.Errorf("%s: cut at %d: ExportData section %+v, want an error with %q", s.name, n, sec, want)
				continue
			}
			if r := ResultFor(p); r.OK || !strings.Contains(r.Error, want) {
				t.Errorf("%s: cut at %d: verify %+v", s.name, n, r)
			}
			// The export the cut falls in reports the offset.
			zp := p.Dump.(*zen.Package)
			for _, r := range zp.DataRanges() {
				if r.Cell || r.Offset+r.Size <= n {
					continue
				}
				_, err := zp.ExportData(r.Export)
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("offset %d", r.Offset)) {
					t.Errorf("%s: cut at %d: export %d at %d: %v", s.name, n, r.Export, r.Offset, err)
				}
				break
			}
			if n == header+int64(step) && testing.Verbose() {
				t.Logf("%s: %s", s.name, sec.Error)
			}
		}
		if cuts == 0 {
			t.Errorf("%s: no cut inside the export data", s.name)
		}
	}
}
