package uasset

import (
	"path/filepath"
	"testing"

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
