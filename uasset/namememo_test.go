package uasset

import (
	"reflect"
	"testing"
)

// TestNameMemo checks that a package whose engine is inferred (its
// candidates sharing one decoded name map) reads exactly as when opened
// with the chosen engine directly: same names, same sections, same rewrite.
func TestNameMemo(t *testing.T) {
	files := corpusPackages(t, "uassetapi/TestManyAssets")
	checked := 0
	for _, p := range files {
		if !hasTag(p) {
			continue
		}
		inferred, err := openCorpus(t, p, "")
		if err != nil || inferred.Engine.Source != "detected" {
			continue
		}
		direct, err := openCorpus(t, p, inferred.Engine.Version)
		if err != nil {
			t.Errorf("%s: infers %s but does not open with it: %v", p, inferred.Engine.Version, err)
			continue
		}
		checked++
		if !reflect.DeepEqual(inferred.Names, direct.Names) {
			t.Errorf("%s: names differ between inference and --engine %s", p, inferred.Engine.Version)
		}
		if !reflect.DeepEqual(inferred.Sections, direct.Sections) {
			t.Errorf("%s: sections differ between inference and --engine %s", p, inferred.Engine.Version)
		}
		a, _, err1 := inferred.HeaderRoundTrip()
		b, _, err2 := direct.HeaderRoundTrip()
		if a != b || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: header round trip %v (%v) inferred, %v (%v) direct", p, a, err1, b, err2)
		}
	}
	if checked == 0 && len(files) > 0 {
		t.Error("no package was inferred")
	}
}
