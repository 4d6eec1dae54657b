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

// TestCandidateCheckerPrior opens the cooked packages of the corpus
// (cooked/ and uassetapi/) without an engine version and checks that the
// checks' memo leaves inference unchanged (the engine chosen, the
// candidates and the note equal those of a fresh check per candidate,
// which decodes every export it looks at), and that the statistics taken
// from what the candidate checks decoded equal those of decoding every
// export again. It logs how many export decodings the memo saved.
func TestCandidateCheckerPrior(t *testing.T) {
	var files []string
	for _, dir := range []string{"cooked", "uassetapi"} {
		files = append(files, corpus.Files(t, dir, ".uasset", ".umap")...)
	}
	reused, opened := 0, 0
	var decoded, fresh, taken int
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
		// The same inference with a fresh check per candidate (no memo).
		freshDecoded := 0
		g, err2 := uasset.NewFile(bytes.NewReader(b), int64(len(b)), sib, uasset.WithCandidateCheck(func(f *uasset.File) error {
			c := NewCandidateChecker(nil, nil)
			err := c.Check(f)
			freshDecoded += c.decoded
			return err
		}))
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Errorf("%s: opening with the memo: %v; without: %v", p, err, err2)
			continue
		}
		if err != nil {
			continue
		}
		opened++
		decoded += c.decoded
		taken += c.reused
		fresh += freshDecoded
		if f.Engine.Version != g.Engine.Version || f.Engine.Note != g.Engine.Note || strings.Join(f.Engine.Candidates, ",") != strings.Join(g.Engine.Candidates, ",") {
			t.Errorf("%s: inferred %s %v (%s) with the memo, %s %v (%s) without", p, f.Engine.Version, f.Engine.Candidates, f.Engine.Note, g.Engine.Version, g.Engine.Candidates, g.Engine.Note)
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
	if decoded > fresh {
		t.Errorf("the checks decoded %d exports with the memo, %d without", decoded, fresh)
	}
	t.Logf("%d packages opened, %d reused their check's results", opened, reused)
	t.Logf("candidate checks decoded %d exports with the memo (%d outcomes reused), %d without: %d decodings saved", decoded, taken, fresh, fresh-decoded)
}
