package main

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"*.uasset", "Game/Content/Maps/A.uasset", true},
		{"*.uasset", "Game/Content/Maps/A.uexp", false},
		{"Game/**", "Game/Content/Maps/A.uasset", true},
		{"Game/**/*.umap", "Game/Content/Maps/A.umap", true},
		{"Game/**/*.umap", "Game/A.umap", true},
		{"Game/**/Maps/*", "Game/Content/Maps/A.umap", true},
		{"Game/**/Maps/*", "Game/Content/Other/A.umap", false},
		{"**/maps/*.UMAP", "Game/Content/Maps/A.umap", true},
		{"Game/Content/*", "Game/Content/Maps/A.umap", false},
		{"/Game/Content/Maps/A.umap", "Game/Content/Maps/A.umap", true},
		{"**", "anything/at/all", true},
		{"Game/**/**/x", "Game/x", true},
	} {
		got, err := globMatch(tc.pattern, tc.name)
		if err != nil || got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, %v; want %v", tc.pattern, tc.name, got, err, tc.want)
		}
	}
	if _, err := globMatch("[", "x"); err == nil {
		t.Error("bad pattern accepted")
	}
	f := globFilter{include: []string{"**/*.uasset", "*.umap"}, exclude: []string{"**/Test/**"}}
	for name, want := range map[string]bool{
		"Game/A.uasset": true, "Game/A.umap": true, "Game/Test/B.uasset": false, "Game/A.uexp": false,
	} {
		if got := f.match(name); got != want {
			t.Errorf("filter.match(%q) = %v, want %v", name, got, want)
		}
	}
}

// matchElemsBacktrack is matchElems as it was written first (every split
// point of each "**" tried in turn), to compare against.
func matchElemsBacktrack(pat, elems []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(elems); i++ {
				if matchElemsBacktrack(pat, elems[i:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], elems[0]); !ok {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

// TestMatchElems compares matchElems with the backtracking matcher over
// random short patterns and paths, and one of many "**" over a deep path.
func TestMatchElems(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	parts := []string{"**", "*", "a", "b", "a*", "?", "c"}
	names := []string{"a", "b", "c", "ab", "ba"}
	for range 20000 {
		pat := make([]string, rnd.IntN(5))
		for i := range pat {
			pat[i] = parts[rnd.IntN(len(parts))]
		}
		elems := make([]string, rnd.IntN(6))
		for i := range elems {
			elems[i] = names[rnd.IntN(len(names))]
		}
		if got, want := matchElems(pat, elems), matchElemsBacktrack(pat, elems); got != want {
			t.Fatalf("%q against %q: %v, want %v", pat, elems, got, want)
		}
	}
	// Six "**" over 61 elements: the backtracking matcher would not end
	// within the test's time limit.
	deep := strings.Split(strings.Repeat("Lx/", 60)+"Y", "/")
	if matchElems(strings.Split("**/L*/**/L*/**/L*/**/L*/**/L*/**/X*", "/"), deep) {
		t.Error("matched a path with no X* element")
	}
}
