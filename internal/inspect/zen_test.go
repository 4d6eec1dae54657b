package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// retocZen lists the retoc zen samples: .uzenasset files and .uasset files
// without the package tag.
func retocZen(t *testing.T) []string {
	var out []string
	for _, p := range corpus.Files(t, "cooked/trumank+retoc", ".uzenasset", ".uasset") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".uasset") && len(b) >= 4 && b[0] == 0xC1 && b[1] == 0x83 && b[2] == 0x2A && b[3] == 0x9E {
			continue
		}
		out = append(out, p)
	}
	return out
}

// TestLooseZen opens retoc's zen samples as loose files, with the global
// global data retoc ships (UE 4.27's name and meta chunks, UE 5.3's script
// objects), and counts what resolves.
func TestLooseZen(t *testing.T) {
	files := retocZen(t)
	if len(files) != 18 {
		t.Errorf("%d zen samples, want 18", len(files))
	}
	globals := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	total, named, scriptTotal, scriptNamed := 0, 0, 0, 0
	for _, p := range files {
		// Script import indices hash the object path, so 5.3's table names
		// the imports of later versions too.
		if strings.Contains(p, "UE4.27") {
			t.Setenv(GlobalEnv, filepath.Join(globals, "UE4.27"))
		} else {
			t.Setenv(GlobalEnv, filepath.Join(globals, "UE5.3", "ScriptObjects.bin"))
		}
		in, err := OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := OpenPackage(in, &Options{})
		in.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if pkg.Format != "zen" {
			t.Errorf("%s: format %s", p, pkg.Format)
		}
		for _, s := range pkg.Sections {
			if s.Error != "" {
				t.Errorf("%s: %s: %s", p, s.Name, s.Error)
			}
		}
		for _, o := range pkg.Imports {
			total++
			isScript := strings.HasPrefix(o.Path, "/Script/") || strings.HasPrefix(o.Path, "<script")
			if isScript {
				scriptTotal++
			}
			if !strings.Contains(o.Path, "<") {
				named++
				if isScript {
					scriptNamed++
				}
			} else if testing.Verbose() {
				t.Logf("%s: unnamed %s", filepath.Base(p), o.Path)
			}
		}
		for i := range pkg.Exports {
			if _, err := pkg.ExportData(i); err != nil {
				t.Errorf("%s: %v", filepath.Base(p), err)
			}
		}
	}
	t.Logf("%d samples: %d of %d imports named (script imports %d of %d)", len(files), named, total, scriptNamed, scriptTotal)
	// The rest are classes of game modules (TestModUI's mod, Persona's UI)
	// that the sample global data does not hold.
	if scriptNamed < 359 || named < 441 {
		t.Errorf("only %d of %d script imports, %d of %d imports named", scriptNamed, scriptTotal, named, total)
	}
}

// TestZenMatchesLegacy compares retoc's zen samples with the legacy
// .uasset/.uexp retoc converted from them: same exports (names, classes,
// serial sizes) and the same imports. (A loose legacy file does not know its
// mount, so local class paths are compared by object name.) The imports
// that differ are UE 4.27 package imports, which need the other packages of
// the container, and game-module script classes absent from the sample
// global data.
func TestZenMatchesLegacy(t *testing.T) {
	globals := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	t.Setenv(GlobalEnv, filepath.Join(globals, "UE5.3", "ScriptObjects.bin"))
	pairs, exportsSame, importsSame := 0, 0, 0
	for _, p := range corpus.Files(t, "cooked/trumank+retoc", ".uzenasset") {
		legacy := strings.TrimSuffix(p, ".uzenasset") + ".uasset"
		if _, err := os.Stat(legacy); err != nil {
			continue
		}
		open := func(name string) *Package {
			in, err := OpenFile(name)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			pkg, err := OpenPackage(in, &Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return pkg
		}
		z, l := open(p), open(legacy)
		if l.Format == "zen" {
			continue
		}
		pairs++
		if len(z.Exports) != len(l.Exports) {
			t.Errorf("%s: %d exports, legacy %d", filepath.Base(p), len(z.Exports), len(l.Exports))
			continue
		}
		same := true
		for i := range z.Exports {
			ze, le := z.Exports[i], l.Exports[i]
			if ze.Name != le.Name || ze.SerialSize != le.SerialSize || lastElem(ze.Class) != lastElem(le.Class) {
				t.Logf("%s export %d: zen %s %s %d, legacy %s %s %d", filepath.Base(p), i, ze.Name, ze.Class, ze.SerialSize, le.Name, le.Class, le.SerialSize)
				same = false
			}
		}
		if same {
			exportsSame++
		}
		zi := map[string]bool{}
		for _, o := range z.Imports {
			zi[o.Path] = true
		}
		missing := 0
		for _, o := range l.Imports {
			if !zi[o.Path] && !strings.HasPrefix(o.Class, "/Script/CoreUObject.Package") && o.Class != "Package" {
				missing++
			}
		}
		if missing == 0 {
			importsSame++
		} else {
			t.Logf("%s: %d legacy imports not among the zen imports", filepath.Base(p), missing)
		}
	}
	t.Logf("%d pairs: exports agree in %d, imports in %d", pairs, exportsSame, importsSame)
	if pairs != 11 || exportsSame != pairs || importsSame < 9 {
		t.Errorf("%d pairs, exports agree in %d, imports in %d", pairs, exportsSame, importsSame)
	}
}
