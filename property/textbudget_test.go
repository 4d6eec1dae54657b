package property

import (
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
)

// nameArray writes an ArrayProperty of n NameProperty values, all naming
// name with number number(i), and returns the data and its context.
func nameArray(name string, n int, number func(i int) int32) ([]byte, *Context) {
	s := newStream()
	off := s.tag4("Names", "ArrayProperty")
	s.name("NameProperty")
	s.U8(0) // no property GUID
	mark := s.Len()
	s.I32(int32(n))
	for i := range n {
		s.numberedName(name, number(i))
	}
	s.patch(off, mark)
	s.name("None")
	return s.Bytes(), ctxFor(s, 522, 0)
}

// TestTextBudget: 2,000 names of 16 KB of data naming a 1 MB name with as
// many numbers would make 2 GB of strings: the decode fails within
// alloctest's bound (the name map counted as input), saying why; the
// same array naming it with one number, or a short name with 2,000
// numbers, decodes.
func TestTextBudget(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	distinct := func(i int) int32 { return int32(i + 1) }
	data, ctx := nameArray(long, 2000, distinct)
	alloctest.Check(t, len(data)+len(long), func() {
		_, issues, ok := ReadTagged(ctx, data)
		if ok || len(issues) == 0 || !strings.Contains(issues[0].Msg, "strings of more than 16 times its size") {
			t.Errorf("distinct numbers of a long name: ok %v, issues %v", ok, issues)
		}
	})
	// The same references four at a time, in 500 decodes of one package:
	// the budget is the package's, not each decode's.
	next, input := int32(0), len(long)
	var datas [][]byte
	for range 500 {
		var data []byte
		data, ctx = nameArray(long, 4, func(int) int32 { next++; return next }) // (the same name map each time)
		datas = append(datas, data)
		input += len(data)
	}
	alloctest.Check(t, input, func() {
		failed := 0
		for _, data := range datas {
			if _, _, ok := ReadTagged(ctx, data); !ok {
				failed++
			}
		}
		if failed < 490 || failed == 500 {
			t.Errorf("500 decodes of 4 numbered references each to a long name: %d failed", failed)
		}
	})
	for _, tc := range []struct {
		name   string
		number func(int) int32
	}{{long, func(int) int32 { return 1 }}, {"Short", distinct}} {
		data, ctx := nameArray(tc.name, 2000, tc.number)
		props, issues, ok := ReadTagged(ctx, data)
		if !ok || len(props) != 1 {
			t.Errorf("%.8s...: ok %v, issues %v", tc.name, ok, issues)
		}
	}
}
