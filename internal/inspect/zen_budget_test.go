package inspect

import (
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/zentest"
)

// TestZenPathBudget: a package whose exports hang below a chain of 64
// exports with 32 KB names (83 KB of file, gigabytes of paths) fails with
// what its paths would take, within alloctest's bound; the same package
// with short names reads, its deepest export's path joining the chain.
func TestZenPathBudget(t *testing.T) {
	chain := func(i int) int {
		switch {
		case i == 0:
			return -1
		case i < 64:
			return i - 1
		}
		return 63
	}
	zero := func(int) uint32 { return 0 }
	data := zentest.Package53(32767, 464, chain, zero)
	alloctest.Check(t, len(data), func() {
		_, err := OpenPackage(BytesInput("Deep.uasset", map[string][]byte{"Deep.uasset": data}), &Options{})
		if err == nil || !strings.Contains(err.Error(), "the paths of its 464 exports take more than") {
			t.Errorf("deep chain of long names: %v", err)
		}
	})
	short := zentest.Package53(4, 464, chain, zero)
	p, err := OpenPackage(BytesInput("Short.uasset", map[string][]byte{"Short.uasset": short}), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "/Game/P.AAAA:" + strings.Repeat("AAAA.", 63) + "AAAA"
	if got := p.Exports[463].Path; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
}
