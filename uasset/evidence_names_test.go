package uasset

import (
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

// keptBy runs probe over a fresh evidence for the releases named and
// returns those it keeps (nil when it says nothing).
func keptBy(probe func(*evidence), names ...string) []string {
	ev := &evidence{out: map[string]string{}}
	for _, n := range names {
		e, _ := LookupEngine(n)
		ev.cands = append(ev.cands, e)
	}
	probe(ev)
	if len(ev.out) == 0 {
		return nil
	}
	var kept []string
	for _, e := range ev.cands {
		if _, gone := ev.out[e.Name]; !gone {
			kept = append(kept, e.Name)
		}
	}
	return kept
}

// TestNameHashEvidence checks the wide-name hash rule on hand-made name
// maps: unextended hashes rule out 4.20, sign-extended ones keep it alone,
// and hashes that match neither (or names without 128–255) say nothing.
func TestNameHashEvidence(t *testing.T) {
	entry := func(s string, signExtend bool) NameEntry {
		u := utf16.Encode([]rune(s))
		return NameEntry{Name: String{S: s, Enc: binread.StrUTF16},
			NonCasePreservingHash: uint16(wideStrihash(u, signExtend)), CasePreservingHash: uint16(wideStrCrc32(u))}
	}
	cands := []string{"4.19", "4.20", "4.21"}
	for _, c := range []struct {
		what  string
		names []NameEntry
		kept  []string
	}{
		{"unextended", []NameEntry{entry("Consommé", false)}, []string{"4.19", "4.21"}},
		{"sign-extended", []NameEntry{entry("Consommé", true)}, []string{"4.20"}},
		{"both kinds", []NameEntry{entry("Consommé", true), entry("Różne", false)}, nil},
		{"no character in 128–255", []NameEntry{entry("長柄", false)}, nil},
		{"case-preserving hash wrong", []NameEntry{{Name: String{S: "é", Enc: binread.StrUTF16}}}, nil},
	} {
		f := &File{Names: c.names}
		got := keptBy(func(ev *evidence) { (&prober{f: f}).probeNameHashes(ev) }, cands...)
		if !slices.Equal(got, c.kept) {
			t.Errorf("%s: kept %v, want %v", c.what, got, c.kept)
		}
	}
	// The sign extension changes the hash of a unit in 128–255 only.
	ascii := utf16.Encode([]rune("Name_é"))
	if wideStrihash(ascii[:4], false) != wideStrihash(ascii[:4], true) || wideStrihash(ascii, false) == wideStrihash(ascii, true) {
		t.Error("sign extension must change only units in 128–255")
	}
}

// TestNameHashesOfKnownReleases verifies the hash functions on the corpus:
// every UTF-16 name of a package whose engine is known hashes as that
// release's engine does (both hashes; sign-extended only for 4.20).
func TestNameHashesOfKnownReleases(t *testing.T) {
	root := corpus.Dir(t)
	var checked int
	for _, dir := range []string{"uncooked", "cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			f, err := openCorpus(t, p, corpus.Engine(rel))
			if err != nil || f.Versions.UE4 < VerUE4NameHashesSerialized {
				continue
			}
			for _, n := range f.Names {
				if n.Name.Enc != binread.StrUTF16 {
					continue
				}
				u := utf16.Encode([]rune(n.Name.S))
				signed := f.Engine.Version == wideHashBugRelease
				if uint16(wideStrCrc32(u)) != n.CasePreservingHash || uint16(wideStrihash(u, signed)) != n.NonCasePreservingHash {
					t.Errorf("%s (%s): name %q hashes %04x %04x, stored %04x %04x", rel, f.Engine.Version, n.Name.S,
						uint16(wideStrihash(u, signed)), uint16(wideStrCrc32(u)), n.NonCasePreservingHash, n.CasePreservingHash)
				}
				checked++
			}
		}
	}
	t.Logf("%d UTF-16 names hash as their release does", checked)
}

// TestNameEvidence checks the rules on module and property names.
func TestNameEvidence(t *testing.T) {
	cands := []string{"4.19", "4.20", "4.21", "4.27"}
	f := &File{Names: []NameEntry{{Name: String{S: "/Script/NavigationSystem"}}, {Name: String{S: "Package"}}, {Name: String{S: "/Script/Engine"}}}}
	f.Imports = []ObjectImport{{ClassName: Name{Index: 1}, ObjectName: Name{Index: 0}}}
	got := keptBy(func(ev *evidence) { (&prober{f: f}).probeImportNames(ev) }, cands...)
	if !slices.Equal(got, []string{"4.20", "4.21", "4.27"}) {
		t.Errorf("NavigationSystem import: kept %v", got)
	}
	f.Imports[0].ObjectName = Name{Index: 2}
	if got := keptBy(func(ev *evidence) { (&prober{f: f}).probeImportNames(ev) }, cands...); got != nil {
		t.Errorf("Engine import: kept %v, want no evidence", got)
	}
	// The cloth module ClothingSystemRuntime until 4.23 (its successors
	// say nothing: the rule for them did not fit the page's size budget).
	clothCands := []string{"4.18", "4.23", "4.24", "4.27", "5.3"}
	for _, c := range []struct {
		pkg  string
		kept []string
	}{
		{"/Script/ClothingSystemRuntime", []string{"4.18", "4.23"}},
		{"/Script/ClothingSystemRuntimeNv", nil},
		{"/Script/ClothingSystemRuntimeInterface", nil},
	} {
		f := &File{Names: []NameEntry{{Name: String{S: c.pkg}}, {Name: String{S: "Package"}}}}
		f.Imports = []ObjectImport{{ClassName: Name{Index: 1}, ObjectName: Name{Index: 0}}}
		if got := keptBy(func(ev *evidence) { (&prober{f: f}).probeImportNames(ev) }, clothCands...); !slices.Equal(got, c.kept) {
			t.Errorf("%s import: kept %v, want %v", c.pkg, got, c.kept)
		}
	}
	// Properties inside structs: TriangleSortSettings of a skeletal mesh
	// LOD info until 4.18.
	for _, c := range []struct {
		structName, name, typ string
		kept                  []string
	}{
		{"SkeletalMeshLODInfo", "TriangleSortSettings", "ArrayProperty", []string{"4.16", "4.18"}},
		{"SkeletalMeshLODInfo", "TriangleSortSettings", "StructProperty", nil},
		{"MyLODInfo", "TriangleSortSettings", "ArrayProperty", nil},
		{"SkeletalMeshLODInfo", "LODHysteresis", "FloatProperty", nil},
	} {
		got := keptBy(func(ev *evidence) {
			(&prober{f: f}).structTagName(ev, &place{name: "tag"}, c.structName, c.name, c.typ)
		}, "4.16", "4.18", "4.19", "4.27")
		if !slices.Equal(got, c.kept) {
			t.Errorf("%s.%s: kept %v, want %v", c.structName, c.name, got, c.kept)
		}
	}
	for _, c := range []struct {
		class, name, typ string
		kept             []string
	}{
		{"WorldSettings", "BookmarkArray", "ArrayProperty", []string{"4.21", "4.27"}},
		{"AstroWorldSettings", "BookmarkArray", "ArrayProperty", []string{"4.21", "4.27"}},
		{"WorldSettings", "BookMarks", "ObjectProperty", nil},
		{"MyActor", "BookmarkArray", "ArrayProperty", nil},
	} {
		got := keptBy(func(ev *evidence) { (&prober{f: f}).tagName(ev, &place{name: "tag"}, c.class, c.name, c.typ) }, cands...)
		if !slices.Equal(got, c.kept) {
			t.Errorf("%s.%s: kept %v, want %v", c.class, c.name, got, c.kept)
		}
	}
}
