package zen

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// retocZenFiles lists the zen packages of the corpus: retoc's .uzenasset
// files and its .uasset files without the package tag.
func retocZenFiles(t testing.TB) []string {
	var out []string
	for _, p := range corpus.Files(t, "cooked/trumank+retoc", ".uzenasset", ".uasset") {
		if strings.HasSuffix(p, ".uasset") {
			b, err := os.ReadFile(p)
			if err != nil || len(b) < 4 || (b[0] == 0xC1 && b[1] == 0x83 && b[2] == 0x2A && b[3] == 0x9E) {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

func TestRetocSamples(t *testing.T) {
	files := retocZenFiles(t)
	if len(files) == 0 {
		t.Fatal("no zen samples")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := Parse(data, Options{Auto: true})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		ok, bad := pkg.NameHashes()
		if bad != 0 {
			t.Errorf("%s: %d of %d name hashes do not match", p, bad, ok+bad)
		}
		for i := range pkg.Exports {
			if _, err := pkg.ExportData(i); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		t.Logf("%s: layout %s name %s names %d imports %d exports %d bulk %d end %d/%d", filepath.Base(p), pkg.Layout, pkg.Name, len(pkg.Names), len(pkg.ImportMap), len(pkg.Exports), len(pkg.BulkData), pkg.ExportDataEnd(), len(data))
	}
}

// TestExportChainCycle: exports each other's outer (or super, or template)
// are a format error naming the export and field, not paths that repeat.
func TestExportChainCycle(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "cooked", "trumank+retoc", "retoc", "tests", "UE5.4", "BP_Table_Lamp.uzenasset"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data, Options{Auto: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Exports) < 2 {
		t.Fatalf("%d exports", len(p.Exports))
	}
	at := int(p.Summary.ExportMapOffset)
	for field, off := range map[string]int{"OuterIndex": 24, "SuperIndex": 40, "TemplateIndex": 48} {
		b := bytes.Clone(data)
		binary.LittleEndian.PutUint64(b[at+off:], 1)                 // export 0's: export 1
		binary.LittleEndian.PutUint64(b[at+exportEntrySize+off:], 0) // export 1's: export 0
		_, err := Parse(b, Options{Auto: true})
		if err == nil || !strings.Contains(err.Error(), "."+field) || !strings.Contains(err.Error(), "a cycle") {
			t.Errorf("%s: %v", field, err)
		} else {
			t.Logf("%s: %v", field, err)
		}
	}
}
