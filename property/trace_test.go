package property

import (
	"testing"

	"github.com/upkg/upkg/ue"
)

// TestVersionTrace records questions under one context and replays them
// under others.
func TestVersionTrace(t *testing.T) {
	custom := func(v int32) func(ue.Guid) (int32, bool) {
		return func(key ue.Guid) (int32, bool) {
			if key == cvEditor {
				return v, true
			}
			return 0, false
		}
	}
	tr := &VersionTrace{}
	c := &Context{FileVersionUE4: 517, CustomVersion: custom(30), Trace: tr}
	if !c.ue4(verUE4PropertyGuidInPropertyTag) || c.ue5(verUE5LargeWorldCoordinates) {
		t.Fatal("object version answers")
	}
	if c.cvAtLeast(cvEditor, editorCultureInvariantTextSerializationKeyStb) || !c.cvBelow(cvEditor, 31) || c.cvRecorded(cvFortniteMain) {
		t.Fatal("custom version answers")
	}
	c.ue4(verUE4PropertyGuidInPropertyTag) // asked again: recorded once
	if tr.Len() != 5 {
		t.Errorf("Len = %d, want 5", tr.Len())
	}
	for _, tc := range []struct {
		name string
		c    *Context
		want bool
	}{
		{"same", &Context{FileVersionUE4: 517, CustomVersion: custom(30)}, true},
		{"other versions, same answers", &Context{FileVersionUE4: 510, CustomVersion: custom(25)}, true},
		{"UE4 below a threshold asked", &Context{FileVersionUE4: 502, CustomVersion: custom(30)}, false},
		{"UE5", &Context{FileVersionUE4: 522, FileVersionUE5: 1004, CustomVersion: custom(30)}, false},
		{"custom version past a threshold", &Context{FileVersionUE4: 517, CustomVersion: custom(32)}, false},
		{"custom version missing (taken as older)", &Context{FileVersionUE4: 517}, true},
		{"custom version missing, unversioned (taken as current)", &Context{FileVersionUE4: 517, Unversioned: true}, false},
	} {
		if got := tr.Holds(tc.c); got != tc.want {
			t.Errorf("%s: Holds = %v, want %v", tc.name, got, tc.want)
		}
	}
}
