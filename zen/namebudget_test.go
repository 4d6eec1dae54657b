package zen

import (
	"bytes"
	"encoding/binary"
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

// scriptObjects writes a script objects table: a root object named
// /Script/M, a chain of 63 objects under it and n more under the chain's
// end, all named by one name of nameLen bytes.
func scriptObjects(nameLen, n int) []byte {
	var b bytes.Buffer
	writeNameBatch(&b, []string{"/Script/M", strings.Repeat("A", nameLen)})
	le := binary.LittleEndian
	total := 1 + 63 + n
	binary.Write(&b, le, uint32(total))
	for i := range total {
		name, outer := uint32(1), uint64(i) // the object before (global index i)
		switch {
		case i == 0:
			name, outer = 0, uint64(NullIndex)
		case i > 63:
			outer = 63 + 1
		}
		binary.Write(&b, le, name)
		binary.Write(&b, le, uint32(0))         // number
		binary.Write(&b, le, uint64(i+1))       // GlobalIndex
		binary.Write(&b, le, outer)             // OuterIndex
		binary.Write(&b, le, uint64(NullIndex)) // CDOClassIndex
	}
	return b.Bytes()
}

// TestScriptObjectPathBudget: 400 script objects below a chain of 63 with
// 32 KB names (2 MB a path, kept once made) are refused as the table is
// read, within alloctest's bound; with a short name the table reads and
// the paths join the chain.
func TestScriptObjectPathBudget(t *testing.T) {
	data := scriptObjects(32767, 400)
	alloctest.Check(t, len(data), func() {
		if _, err := ParseScriptObjects(data); err == nil || !strings.Contains(err.Error(), "the paths of its 464 objects take more than") {
			t.Errorf("long names: %v", err)
		}
	})
	s, err := ParseScriptObjects(scriptObjects(4, 400))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Object(463).Path, "/Script/M.AAAA:AAAA"+strings.Repeat(".AAAA", 62); got != want {
		t.Errorf("path %q, want %q", got, want)
	}
}

// TestEmptyExternalArcsAlloc: a 5.0-5.2 package whose graph data ends in a
// million empty external arc arrays (4 bytes each) reads within
// alloctest's bound: the arrays are counted before they are allocated.
func TestEmptyExternalArcsAlloc(t *testing.T) {
	b, _ := buildZen50(false, false)
	p, err := Parse(b, Options{HeaderVersion: HeaderOptionalSegmentPackages})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 20
	hs := int(p.Summary.HeaderSize)
	data := append(append(append([]byte(nil), b[:hs]...), make([]byte, 4*n)...), b[hs:]...)
	binary.LittleEndian.PutUint32(data[4:], uint32(hs+4*n))  // HeaderSize
	binary.LittleEndian.PutUint32(data[20:], uint32(hs+4*n)) // CookedHeaderSize
	alloctest.Check(t, len(data), func() {
		p, err := Parse(data, Options{HeaderVersion: HeaderOptionalSegmentPackages})
		if err != nil || len(p.PackageArcs) != n+1 {
			t.Errorf("%v, %d package arcs", err, len(p.PackageArcs))
		}
	})
}
