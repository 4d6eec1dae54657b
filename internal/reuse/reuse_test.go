package reuse

import "testing"

func TestSlices(t *testing.T) {
	c := Slices[int]{Max: 100}
	if s := c.Get(10); len(s) != 0 || cap(s) < 10 {
		t.Fatalf("new slice: len %d cap %d", len(s), cap(s))
	}
	c.Put(make([]int, 5, 50))
	c.Put(make([]int, 0, 20))
	c.Put(make([]int, 0, 200)) // over Max: dropped
	if s := c.Get(15); cap(s) != 20 || len(s) != 0 {
		t.Errorf("Get(15): cap %d len %d, want the 20 one emptied", cap(s), len(s))
	}
	if s := c.Get(30); cap(s) != 50 {
		t.Errorf("Get(30): cap %d, want 50", cap(s))
	}
	if s := c.Get(30); cap(s) == 50 {
		t.Error("a slice handed out twice")
	}
	// Full: a larger slice replaces the smallest kept one.
	for _, n := range []int{10, 11, 12, 13, 90} {
		c.Put(make([]int, 0, n))
	}
	if len(c.free) != kept {
		t.Fatalf("keeps %d slices", len(c.free))
	}
	if s := c.Get(85); cap(s) != 90 {
		t.Errorf("Get(85): cap %d, want 90", cap(s))
	}
	for _, s := range c.free {
		if cap(s) == 10 {
			t.Error("the smallest slice was kept over a larger one")
		}
	}
}
