package legacy

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
)

// ue3Import is an import of ue3Package: its class package, class and
// object names (name index, number) and its outer.
type ue3Import struct {
	classPackage, className, objectName [2]int32
	outer                               int32
}

// ue3Package writes a version 343 (UE3) package with the given names and
// imports, and no exports.
func ue3Package(names []string, imports []ue3Import) []byte {
	le := binary.LittleEndian
	var b []byte
	i32 := func(v int32) { b = le.AppendUint32(b, uint32(v)) }
	fstring := func(s string) {
		i32(int32(len(s) + 1))
		b = append(b, s...)
		b = append(b, 0)
	}
	b = le.AppendUint32(b, PackageTag)
	i32(343)
	headersAt := len(b)
	i32(0) // HeadersSize
	fstring("None")
	i32(0) // PackageFlags
	i32(int32(len(names)))
	nameOffAt := len(b)
	i32(0)
	i32(0) // ExportCount
	i32(0) // ExportOffset
	i32(int32(len(imports)))
	importOffAt := len(b)
	i32(0)
	b = append(b, make([]byte, 16)...) // Guid
	i32(1)                             // one generation:
	i32(0)                             // exports,
	i32(int32(len(names)))             // names,
	i32(0)                             // net objects
	i32(0)                             // EngineVersion
	i32(0)                             // CookerVersion
	i32(0)                             // CompressionFlags
	i32(0)                             // no compressed chunks
	le.PutUint32(b[nameOffAt:], uint32(len(b)))
	for _, s := range names {
		fstring(s)
		b = le.AppendUint64(b, 0) // flags
	}
	le.PutUint32(b[importOffAt:], uint32(len(b)))
	for _, im := range imports {
		for _, v := range []int32{im.classPackage[0], im.classPackage[1], im.className[0], im.className[1], im.outer, im.objectName[0], im.objectName[1]} {
			i32(v)
		}
	}
	le.PutUint32(b[headersAt:], uint32(len(b)))
	return b
}

// TestTextBudget: imports hung below a chain of 63 imports with 64 KB
// names (4 MB a path), or 2,000 naming a 1 MB name with as many numbers
// (each formatted as it is read), are refused as the package is read,
// within alloctest's bound; with a short name both read, with their paths
// and numbers.
func TestTextBudget(t *testing.T) {
	deep := func(name int32, n int) []ue3Import {
		var ims []ue3Import
		for i := range n {
			outer := int32(0)
			if i > 0 {
				outer = -int32(min(i, 63)) // the import before, or the chain's end
			}
			ims = append(ims, ue3Import{[2]int32{1, 0}, [2]int32{2, 0}, [2]int32{name, 0}, outer})
		}
		return ims
	}
	numbered := func(name int32, n int) []ue3Import {
		var ims []ue3Import
		for i := range n {
			ims = append(ims, ue3Import{[2]int32{1, 0}, [2]int32{2, 0}, [2]int32{name, int32(i + 1)}, 0})
		}
		return ims
	}
	for _, tc := range []struct {
		what    string
		nameLen int
		imports func(int32, int) []ue3Import
		n       int
		want    string
	}{
		{"deep", 64 << 10, deep, 300, "the paths of its 300 imports"},
		{"numbered", 1 << 20, numbered, 2000, "numbered names take more than"},
	} {
		names := []string{"None", "Core", "Package", strings.Repeat("N", tc.nameLen)}
		data := ue3Package(names, tc.imports(3, tc.n))
		alloctest.Check(t, len(data), func() {
			_, err := NewFile(bytes.NewReader(data), int64(len(data)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: %v", tc.what, err)
			}
		})
		names[3] = "Short"
		data = ue3Package(names, tc.imports(3, tc.n))
		f, err := NewFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s, short name: %v", tc.what, err)
		}
		last := f.ImportPath(tc.n - 1)
		if want := map[string]string{"deep": strings.Repeat("Short.", 63) + "Short", "numbered": "Short_1999"}[tc.what]; last != want {
			t.Errorf("%s, short name: last import's path %q, want %q", tc.what, last, want)
		}
	}
}
