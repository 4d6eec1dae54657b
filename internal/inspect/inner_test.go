package inspect

import (
	"strings"
	"testing"
)

// TestResolveInner resolves the spellings of inner paths users type
// against one listing, as every container kind does.
func TestResolveInner(t *testing.T) {
	stored := []string{
		"Game/Content/Maps/Level1.umap",
		"Game/Content/Maps/Level1.uexp",
		"Game/Content/Textures/T_Rock.uasset",
		"Game/Content/Textures/T_Rock.ubulk",
		"Engine/Content/Textures/T_Rock.uasset",
		"Game/Plugins/Fx/Content/Sparks.uasset",
		"Game/Config/DefaultGame.ini",
	}
	names := innerNames{
		names: func() []string { return stored },
		lookup: func(p string) (int, bool) {
			for i, s := range stored {
				if s == p {
					return i, true
				}
			}
			return 0, false
		},
		what: "the test",
	}
	for _, tc := range []struct{ inner, want string }{
		{"Game/Content/Maps/Level1.umap", "Game/Content/Maps/Level1.umap"},
		{"/Game/Content/Maps/Level1", "Game/Content/Maps/Level1.umap"},
		{`Game\Content\Maps\Level1`, "Game/Content/Maps/Level1.umap"},
		{"/Game/Maps/Level1", "Game/Content/Maps/Level1.umap"},
		{`\Game\Maps\Level1.umap`, "Game/Content/Maps/Level1.umap"},
		{"/Game/Maps/Level1.Level1", "Game/Content/Maps/Level1.umap"},
		{"/game/maps/LEVEL1", "Game/Content/Maps/Level1.umap"},
		{"Maps/Level1", "Game/Content/Maps/Level1.umap"},
		{"Level1", "Game/Content/Maps/Level1.umap"},
		{"Level1.uexp", "Game/Content/Maps/Level1.uexp"},
		{"/Game/Maps/Level1.uexp", "Game/Content/Maps/Level1.uexp"},
		{"/Game/Textures/T_Rock", "Game/Content/Textures/T_Rock.uasset"},
		{"/Game/Textures/T_Rock.ubulk", "Game/Content/Textures/T_Rock.ubulk"},
		{"/Engine/Textures/T_Rock", "Engine/Content/Textures/T_Rock.uasset"},
		{"/Fx/Sparks", "Game/Plugins/Fx/Content/Sparks.uasset"},
		{"Config/DefaultGame.ini", "Game/Config/DefaultGame.ini"},
		{"/Game/Maps/Level1.Wrong", "not in the test"},
		{"/Game/Maps/Level2", "not in the test"},
		{"Textures/T_Rock", "ambiguous in the test"},
		{"", "no path given"},
	} {
		got := ""
		if i, err := resolveInner(names, tc.inner); err != nil {
			got = err.Error()
		} else {
			got = stored[i]
		}
		if got != tc.want && !strings.Contains(got, tc.want) {
			t.Errorf("%q: %s, want %s", tc.inner, got, tc.want)
		}
	}
}
