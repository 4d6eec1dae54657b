package inspect

import (
	"errors"
	"fmt"
	"testing"
)

// TestFirstErrors adds failures out of order: the line names the lowest
// three, in order, and counts the rest.
func TestFirstErrors(t *testing.T) {
	for _, tc := range []struct {
		add  []int32
		want string
	}{
		{nil, ""},
		{[]int32{7}, "e7"},
		{[]int32{9, 2}, "e2, e9"},
		{[]int32{5, 1, 3}, "e1, e3, e5"},
		{[]int32{8, 6, 4, 2, 0}, "e0, e2, e4, and 2 more"},
		{[]int32{0, 1, 2, 3, 4, 5}, "e0, e1, e2, and 3 more"},
		{[]int32{5, 4, 3, 2, 1, 0}, "e0, e1, e2, and 3 more"},
		{[]int32{3, 9, 1, 7, 0, 8}, "e0, e1, e3, and 3 more"},
	} {
		var e firstErrors
		for _, i := range tc.add {
			e.add(i, fmt.Errorf("e%d", i))
		}
		got := e.list(func(i int32, err error) string {
			if err.Error() != fmt.Sprintf("e%d", i) {
				t.Errorf("%v: entry %d kept with error %v", tc.add, i, err)
			}
			return err.Error()
		})
		if got != tc.want || e.n != len(tc.add) {
			t.Errorf("%v: %q (%d), want %q (%d)", tc.add, got, e.n, tc.want, len(tc.add))
		}
	}
}

// TestChunkFailures counts a chunk once however many checks fail it, and
// sorts unsupported compression apart.
func TestChunkFailures(t *testing.T) {
	c := newChunkFailures(10)
	c.add(4, nil)
	c.add(3, errors.New("hash"))
	c.add(3, errors.New("again"))
	c.add(1, errors.New("short"))
	if c.n != 2 || c.other.n != 2 || c.unsupported.n != 0 || c.failed[4] || !c.failed[3] {
		t.Errorf("%d failed (%d other, %d unsupported), flags %v", c.n, c.other.n, c.unsupported.n, c.failed)
	}
	if got := c.other.list(func(_ int32, err error) string { return err.Error() }); got != "short, hash" {
		t.Errorf("other: %q", got)
	}
}
