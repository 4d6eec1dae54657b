package zen

import (
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/zentest"
)

// TestExportNameBudget: 2,000 exports (144 KB of export map) named by a
// 32 KB name with as many numbers would make 64 MB of names: the parse
// fails within alloctest's bound, saying why; with a short name it reads.
func TestExportNameBudget(t *testing.T) {
	flat := func(int) int { return -1 }
	numbered := func(i int) uint32 { return uint32(i + 1) }
	data := zentest.Package53(32767, 2000, flat, numbered)
	alloctest.Check(t, len(data), func() {
		_, err := Parse(data, Options{HeaderVersion: HeaderNoExportInfo})
		if err == nil || !strings.Contains(err.Error(), "numbered names of the exports up to it take more than") {
			t.Errorf("long numbered names: %v", err)
		}
	})
	p, err := Parse(zentest.Package53(4, 2000, flat, numbered), Options{HeaderVersion: HeaderNoExportInfo})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Exports[1999].Name; got != "AAAA_1999" {
		t.Errorf("export 1999 named %q", got)
	}
}
