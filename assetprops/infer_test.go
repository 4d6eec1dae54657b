package assetprops

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/uasset"
)

// TestCandidateCheck opens cooked packages without an engine version: the
// property check must keep the package readable and never keep a layout
// under which the property streams fail.
func TestCandidateCheck(t *testing.T) {
	dir := corpus.Dir(t)
	for _, rel := range []string{
		"uassetapi/TestManyAssets/Astroneer/DebugMenu.uasset",
		"uassetapi/TestManyAssets/Bloodstained/PB_DT_ItemMaster.uasset",
		"uassetapi/TestManyAssets/MISC_426/RaceSimDataAsset.uasset",
	} {
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(p, filepath.Ext(p))
		sib := uasset.WithSibling(func(ext string) (io.ReaderAt, int64, error) {
			d, err := os.ReadFile(base + ext)
			if err != nil {
				return nil, 0, err
			}
			return bytes.NewReader(d), int64(len(d)), nil
		})
		plain, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)), sib)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		checked, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)), sib, uasset.WithCandidateCheck(CandidateCheck(nil)))
		if err != nil {
			t.Fatalf("%s with the property check: %v", rel, err)
		}
		t.Logf("%s: candidates %v, with the property check %v", rel, plain.Engine.Candidates, checked.Engine.Candidates)
		_, st, err := DecodeAll(checked, Context(checked, nil))
		if err != nil || st.Failed > 0 {
			t.Errorf("%s: read as %s, %d of %d exports fail (%v)", rel, checked.Engine.Version, st.Failed, st.Exports, err)
		}
	}
}

// TestCandidateCheckerPrior opens the cooked packages of UAssetAPI's test
// set without an engine version and checks that the statistics taken from
// what the candidate checks decoded equal those of decoding every export
// again, and that the checks' memo leaves inference unchanged.
func TestCandidateCheckerPrior(t *testing.T) {
	files := corpus.Files(t, "uassetapi/TestManyAssets", ".uasset", ".umap")
	reused := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(p, filepath.Ext(p))
		sib := uasset.WithSibling(func(ext string) (io.ReaderAt, int64, error) {
			d, err := os.ReadFile(base + ext)
			if err != nil {
				return nil, 0, err
			}
			return bytes.NewReader(d), int64(len(d)), nil
		})
		c := NewCandidateChecker(nil, nil)
		f, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)), sib, uasset.WithCandidateCheck(c.Check))
		if err != nil {
			continue
		}
		// The same inference with a fresh check per candidate (no memo).
		g, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)), sib, uasset.WithCandidateCheck(func(f *uasset.File) error {
			return NewCandidateChecker(nil, nil).Check(f)
		}))
		if err != nil {
			t.Errorf("%s: opens with the memo but not without: %v", p, err)
			continue
		}
		if f.Engine.Version != g.Engine.Version || strings.Join(f.Engine.Candidates, ",") != strings.Join(g.Engine.Candidates, ",") {
			t.Errorf("%s: inferred %s %v with the memo, %s %v without", p, f.Engine.Version, f.Engine.Candidates, g.Engine.Version, g.Engine.Candidates)
		}
		ctx := Context(f, nil)
		prior := c.Prior(f)
		if prior != nil && !ctx.Unversioned {
			reused++
		}
		got, err1 := DecodeStatsWith(f, ctx, prior)
		want, err2 := DecodeStats(f, Context(f, nil))
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: stats with the check's results %+v (%v), decoding again %+v (%v)", p, got, err1, want, err2)
		}
	}
	if reused == 0 && len(files) > 0 {
		t.Error("no package reused its check's results")
	}
	t.Logf("%d of %d packages reused their check's results", reused, len(files))
}
