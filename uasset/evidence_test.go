package uasset

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// TestEvidenceKeepsKnownEngine runs the export-data evidence over every
// cooked corpus package whose engine is known (from its header, or from the
// corpus README for unversioned ones), with every release as a candidate:
// the evidence must never rule out the release that wrote the package.
func TestEvidenceKeepsKnownEngine(t *testing.T) {
	root := corpus.Dir(t)
	all := EngineNames()
	var checked, narrowed int
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			want := corpus.Engine(rel)
			f, err := openCorpus(t, p, want)
			if err != nil || !f.Summary.FilterEditorOnly() {
				continue
			}
			if want == "" {
				want = f.Engine.Version
			}
			if _, ok := LookupEngine(want); !ok {
				continue // licensee or unknown saved-by version
			}
			checked++
			kept, why := f.narrowByEvidence(all)
			if len(kept) < len(all) {
				narrowed++
			}
			if !contains(kept, want) {
				t.Errorf("%s (%s): evidence keeps %v: %s", rel, want, kept, why)
			}
		}
	}
	t.Logf("evidence: %d cooked packages with a known engine, %d narrowed, none ruled out its own", checked, narrowed)
}

// TestDescribeRange checks how ruled-out releases are named.
func TestDescribeRange(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"4.16", "4.17", "4.18"}, "4.16–4.18"},
		{[]string{"4.16", "4.17"}, "4.16 and 4.17"},
		{[]string{"4.16", "4.18", "4.19"}, "4.16, 4.18 and 4.19"},
		{[]string{"4.25", "4.26", "4.27", "5.0EA"}, "4.25–5.0EA"},
	} {
		if got := describeRange(c.in); got != c.want {
			t.Errorf("describeRange(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzEvidence runs the evidence probes over arbitrary export data, with
// every release a candidate: they must not panic, and taking back all they
// found must leave the evidence empty (the undo log accounts for every
// release ruled out and every rule applied).
func FuzzEvidence(f *testing.F) {
	names := []string{"None", "StructProperty", "TextProperty", "ArrayProperty", "SoftObjectProperty", "SmartName",
		"SoftObjectPath", "StringAssetReference", "MovieSceneFrameRange", "FloatRange", "PlaybackRange", "BookmarkArray",
		"ByteProperty", "BoolProperty", "MapProperty", "IntProperty", "Status", "UDSS_UpToDate", "ObjectProperty"}
	file := &File{}
	for _, n := range names {
		file.Names = append(file.Names, NameEntry{Name: String{S: n}})
	}
	le := func(v ...uint32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
		return b
	}
	// A text tag, a struct tag holding a tagged stream, a row table.
	text := append(le(0), 0xFF)
	tagText := append(append(le(2, 0, 2, 0, uint32(len(text)), 0), 0), text...)
	inner := append(append([]byte{}, tagText...), le(0, 0)...)
	tagStruct := append(append(append(le(10, 0, 1, 0, uint32(len(inner)), 0, 9, 0), make([]byte, 17)...), inner...), le(0, 0)...)
	f.Add(tagStruct)
	f.Add(append(le(1, 10, 0), inner...))
	f.Add(append(le(2), append(le(10, 0), inner...)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			ev := &evidence{out: map[string]string{}, cands: engines}
			p := &prober{f: file}
			m := ev.mark()
			var st tagStats
			r := binread.FromBytes(data)
			if p.tags(r, ev, &place{name: "export"}, "MovieScene", 0, &st) {
				p.dataTableRows(r, ev, &place{name: "table"})
			}
			p.dataTableRows(binread.FromBytes(data), ev, &place{name: "table"})
			for _, kind := range []exportKind{kindFunction, kindClass, kindScriptStruct, kindUserDefinedStruct, kindProperty} {
				for _, tr := range []layoutTraits{{}, {ufieldNext: true}, {fproperties: true, repCondition: true, udsDefaults: true}} {
					p.fits(data, 0, kind, "ArrayProperty", tr, true)
				}
			}
			ev.undo(m)
			if len(ev.out) != 0 || len(ev.outLog) != 0 || len(ev.ruleLog) != 0 || ev.applied != [numRules]bool{} {
				t.Fatalf("undo left %v, applied %v", ev.out, ev.applied)
			}
		})
	})
}
