package inspect

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestUE58Fixtures reads packages cooked with UE 5.8 and 6.0 (the CUE4Parse
// test fixtures): both write UE5 1018 like 5.7, but their cooked import
// entries hold PackageName (the import's ObjectName standing for None). Versioned ones name their release from the
// custom versions they record; unversioned ones read as 5.8 or 6.0, which
// nothing in the header tells apart.
func TestUE58Fixtures(t *testing.T) {
	const inner = "::/CUE4ParseFixtures/Content/Fixtures/Properties/DA_AllProperties.uasset"
	for _, tc := range []struct {
		engine, serialization string
		wantEngine, source    string
		names                 int
		candidates            []string
	}{
		{"UE5_8", "Tagged", "5.8", "header", 147, nil},
		{"UE6_0", "Tagged", "6.0", "header", 147, nil},
		{"UE5_8", "Unversioned", "6.0", "detected", 44, []string{"5.8", "6.0"}},
		{"UE6_0", "Unversioned", "6.0", "detected", 44, []string{"5.8", "6.0"}},
	} {
		t.Run(tc.engine+"/"+tc.serialization, func(t *testing.T) {
			p := fixtures(t, tc.engine, "LegacyPak", tc.serialization, "Uncompressed",
				"CUE4ParseFixtures-Legacy-"+tc.serialization+"-Uncompressed.pak")
			in, err := OpenInput(p+inner, &Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			pkg, err := OpenPackage(in, &Options{Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			if pkg.Engine != tc.wantEngine || pkg.EngineSource != tc.source {
				t.Errorf("engine %s (%s), want %s (%s)", pkg.Engine, pkg.EngineSource, tc.wantEngine, tc.source)
			}
			if len(tc.candidates) > 0 && len(pkg.EngineCandidates) != len(tc.candidates) {
				t.Errorf("candidates %v, want %v", pkg.EngineCandidates, tc.candidates)
			}
			if len(pkg.Names) != tc.names || len(pkg.Imports) != 15 || len(pkg.Exports) != 2 {
				t.Errorf("names/imports/exports = %d/%d/%d", len(pkg.Names), len(pkg.Imports), len(pkg.Exports))
			}
			// The entry stores a PackageName; for an import of none it is
			// the import's own ObjectName, which the engine's loader (and
			// upkg) turns back into None.
			if pkg.Imports[0].PackageName != "" {
				t.Errorf("import 0 %s has package name %q, want none (the placeholder undone)", pkg.Imports[0].Name, pkg.Imports[0].PackageName)
			}
			res := ResultFor(pkg)
			if !res.OK || res.HeaderRoundtrip == nil || !*res.HeaderRoundtrip {
				t.Errorf("verify: %+v", res)
			}
		})
	}
}

// TestUE58Truncation cuts a 5.8 cooked package (header and .uexp) at every
// length: each cut fails with an error that says where.
func TestUE58Truncation(t *testing.T) {
	p := fixtures(t, "UE5_8", "LegacyPak", "Tagged", "Uncompressed", "CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak")
	in, err := OpenInput(p+"::/CUE4ParseFixtures/Content/Fixtures/Textures/T_Streaming.uasset", &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	read := func(r io.ReaderAt, n int64) []byte {
		b := make([]byte, n)
		if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		return b
	}
	hdr := read(in.R, in.Size)
	ur, un, err := in.Sibling(".uexp")
	if err != nil {
		t.Fatal(err)
	}
	uexp := read(ur, un)
	opts := &Options{Verify: true}
	open := func(h, u []byte) error {
		pkg, err := OpenPackage(BytesInput("T_Streaming.uasset", map[string][]byte{"T_Streaming.uasset": h, "T_Streaming.uexp": u}), opts)
		if err == nil {
			if r := ResultFor(pkg); !r.OK {
				err = errors.New(r.Error)
			}
		}
		return err
	}
	if err := open(hdr, uexp); err != nil {
		t.Fatalf("whole package: %v", err)
	}
	for n := 0; n < len(hdr); n++ {
		err := open(hdr[:n], uexp)
		if err == nil {
			t.Errorf("header cut at %d: no error", n)
		} else if n > 8 && !strings.Contains(err.Error(), "offset") && !strings.Contains(err.Error(), "0x") {
			t.Errorf("header cut at %d: error does not say where: %v", n, err)
		}
	}
	for n := 0; n < len(uexp); n++ {
		err := open(hdr, uexp[:n])
		if err == nil {
			t.Errorf(".uexp cut at %d: no error", n)
		} else if !strings.Contains(err.Error(), "offset") && !strings.Contains(err.Error(), "0x") {
			t.Errorf(".uexp cut at %d: error does not say where: %v", n, err)
		}
	}
}
