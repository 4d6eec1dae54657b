package ue

import (
	"fmt"
	"math"
	"testing"
)

// TestFormatters checks the hand-written formatters against fmt.
func TestFormatters(t *testing.T) {
	for _, n := range []int32{1, 2, 11, math.MaxInt32, -1, math.MinInt32} {
		if have, want := FormatName("Name", n), fmt.Sprintf("%s_%d", "Name", n-1); have != want {
			t.Errorf("FormatName(%d): have %q, want %q", n, have, want)
		}
	}
	if have := FormatName("Name", 0); have != "Name" {
		t.Errorf("FormatName(0): have %q", have)
	}
	for _, g := range []Guid{{}, {0x01234567, 0x89ABCDEF, 0xFEDCBA98, 0x76543210}, {math.MaxUint32, 1, 0x10, 0xA0000000}} {
		if have, want := g.String(), fmt.Sprintf("%08X%08X%08X%08X", g[0], g[1], g[2], g[3]); have != want {
			t.Errorf("Guid.String: have %q, want %q", have, want)
		}
	}
}

func TestObjectFlagsString(t *testing.T) {
	for f, want := range map[uint32]string{
		0:          "",
		0x1:        "Public",
		0x00400021: "Public|ArchetypeObject|InheritableComponentTemplate",
		0x04000000: "0x4000000",
		0xE4000001: "Public|AllocatedInSharedPage|0x64000000",
	} {
		if got := ObjectFlagsString(f); got != want {
			t.Errorf("ObjectFlagsString(0x%x) = %q, want %q", f, got, want)
		}
	}
}
