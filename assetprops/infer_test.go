package assetprops

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
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
