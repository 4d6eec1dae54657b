package main

import "testing"

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
