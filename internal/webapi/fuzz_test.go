package webapi

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/corpus"
)

// exercise opens data as a dropped package and asks every follow-up
// question the page can ask. Whatever the bytes, each call returns a result
// or an *Error, and results marshal to JSON.
func exercise(t *testing.T, s *Session, name string, data []byte) {
	res, err := s.OpenPackage(name, map[string][]byte{name: data}, OpenOptions{})
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: error of type %T: %v", name, err, err)
		}
		return
	}
	defer s.Close(res.Handle)
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("%s: result does not marshal: %v", name, err)
	}
	p := res.Package
	for i := range p.Exports {
		s.Hex(res.Handle, HexRequest{Kind: "export", Index: i})
		if res.Capabilities.Props {
			s.Props(res.Handle, i)
		}
	}
	for _, sec := range p.Sections {
		s.Hex(res.Handle, HexRequest{Kind: "section", Name: sec.Name})
	}
	for i := range p.Thumbnails {
		s.Thumbnail(res.Handle, i)
		s.Hex(res.Handle, HexRequest{Kind: "thumbnail", Index: i})
	}
	if res.Capabilities.Dump {
		if _, err := s.Dump(res.Handle); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: dump error of type %T", name, err)
			}
		}
	}
}

// seedFiles are small real packages of each kind for the fuzz seeds and
// the truncation sweep.
func seedFiles(tb testing.TB) map[string][]byte {
	dir, ok := corpus.Find()
	out := map[string][]byte{}
	if !ok {
		return out
	}
	for _, rel := range []string{
		"uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/Variant_Combat/Input/Actions/IA_ToggleCameraSide.uasset",
		"uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/BP_WorldChunk.uasset",
		"cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uasset",
	} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			tb.Fatalf("seed %s: %v", rel, err)
		}
		out[filepath.Base(rel)] = b
	}
	return out
}

func FuzzOpenPackage(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	f.Add([]byte("TESTPKG"))
	f.Add([]byte{0xC1, 0x83, 0x2A, 0x9E})
	s := NewSession()
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			exercise(t, s, "Fuzz.uasset", data)
		})
	})
}

// TestTruncated opens every prefix of small real files (every 7th byte for
// speed) the way the page does: each fails cleanly or reads.
func TestTruncated(t *testing.T) {
	files := seedFiles(t)
	if len(files) == 0 {
		corpus.Dir(t)
	}
	s := NewSession()
	for name, b := range files {
		if len(b) > 40000 {
			b = b[:40000]
		}
		for n := 0; n < len(b); n += 7 {
			exercise(t, s, name, b[:n])
		}
	}
	s.mu.Lock()
	left := len(s.handles)
	s.mu.Unlock()
	if left != 0 {
		t.Errorf("%d handles left open", left)
	}
}
