package inspect

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

func TestMatchLegacy(t *testing.T) {
	le := func(tag uint32, v int32) []byte {
		b := binary.LittleEndian.AppendUint32(nil, tag)
		return binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	be := func(v int32) []byte {
		b := binary.BigEndian.AppendUint32(nil, 0x9E2A83C1)
		return binary.BigEndian.AppendUint32(b, uint32(v))
	}
	tests := []struct {
		name string
		head []byte
		want bool
	}{
		{"UT99", le(0x9E2A83C1, 69), true},
		{"UE3 with licensee", le(0x9E2A83C1, 194<<16|684), true},
		{"UE4 negative legacy version", le(0x9E2A83C1, -7), false},
		{"big-endian UE3", be(391 | 92<<16), true},
		{"big-endian UE4", be(-7), false},
		{"not a package", le(0x12345678, 1), false},
		{"short", []byte{0xC1, 0x83}, false},
	}
	for _, tt := range tests {
		if got := matchLegacy(tt.head, "x"); got != tt.want {
			t.Errorf("%s: matchLegacy = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLegacyPackage opens corpus packages through the generic entry point
// and checks the fields the CLI and the page show.
func TestLegacyPackage(t *testing.T) {
	p := corpus.Path(t, "legacy_ue123", "HeffersonMan+UT2004", "System", "Fire.u")
	in, err := OpenInput(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pkg, err := OpenPackage(in, &Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Format != "legacy" || *pkg.PackageVersion != 128 || *pkg.LicenseeVersion != 29 {
		t.Fatalf("format %s, versions %d/%d", pkg.Format, *pkg.PackageVersion, *pkg.LicenseeVersion)
	}
	if len(pkg.Names) != 239 || len(pkg.Imports) != 16 || len(pkg.Exports) != 117 {
		t.Errorf("tables %d/%d/%d", len(pkg.Names), len(pkg.Imports), len(pkg.Exports))
	}
	for _, e := range pkg.Exports {
		if !strings.HasPrefix(e.Path, "Fire.") || e.Class == "" {
			t.Errorf("export %d: path %q class %q", e.Index, e.Path, e.Class)
		}
	}
	if st := pkg.Properties; st == nil || st.Failed != 0 || st.OK == 0 {
		t.Errorf("properties %+v", st)
	}
	if _, err := pkg.Props(0); err != nil && !strings.Contains(err.Error(), "no leading property list") {
		t.Errorf("Props(0): %v", err)
	}
	if d, err := pkg.ExportData(1); err != nil || int64(len(d)) != pkg.Exports[1].SerialSize {
		t.Errorf("ExportData(1): %d bytes, %v", len(d), err)
	}
	if b, err := pkg.Raw("Names"); err != nil || len(b) == 0 {
		t.Errorf("Raw(Names): %v", err)
	}
}

func TestLegacyExporter(t *testing.T) {
	p := corpus.Path(t, "legacy_ue123", "nrempel+ut-server", "Textures", "Faces.utx")
	in, err := OpenInput(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var files, fails int
	err = ExportContent(in, nil, ExportFilter{Class: "Texture"}, func(cf ContentFile, err error) error {
		if err != nil {
			fails++
			return nil
		}
		if !strings.HasSuffix(cf.Name, ".png") || len(cf.Data) == 0 {
			t.Errorf("%s: %q, %d bytes", cf.Object, cf.Name, len(cf.Data))
		}
		files++
		return nil
	})
	if err != nil || files != 18 || fails != 0 {
		t.Errorf("%d files, %d failures, %v", files, fails, err)
	}
	stop := errors.New("stop")
	if err := ExportContent(in, nil, ExportFilter{}, func(ContentFile, error) error { return stop }); err != stop {
		t.Errorf("emit error not returned: %v", err)
	}
}
