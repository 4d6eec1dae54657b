package binread

import (
	"math"
	"testing"
)

func TestCompactIndex(t *testing.T) {
	tests := []struct {
		in   []byte
		want int32
	}{
		{[]byte{0x00}, 0},
		{[]byte{0x01}, 1},
		{[]byte{0x3f}, 63},
		{[]byte{0x81}, -1},
		{[]byte{0x40, 0x01}, 64},
		{[]byte{0xc0, 0x01}, -64},
		{[]byte{0x7f, 0x7f}, 8191},
		{[]byte{0x40, 0x80, 0x01}, 8192},
		{[]byte{0x7f, 0xff, 0xff, 0xff, 0x0f}, math.MaxInt32},
		{[]byte{0xc0, 0x80, 0x80, 0x80, 0x10}, math.MinInt32},
	}
	for _, tt := range tests {
		r := FromBytes(tt.in)
		got := r.CompactIndex("x")
		if r.Err() != nil || got != tt.want || r.Remaining() != 0 {
			t.Errorf("CompactIndex(% x) = %d, rem %d, err %v; want %d", tt.in, got, r.Remaining(), r.Err(), tt.want)
		}
		if enc := AppendCompactIndex(nil, tt.want); string(enc) != string(tt.in) {
			t.Errorf("AppendCompactIndex(%d) = % x, want % x", tt.want, enc, tt.in)
		}
		if n := CompactIndexSize(tt.want); n != len(tt.in) {
			t.Errorf("CompactIndexSize(%d) = %d, want %d", tt.want, n, len(tt.in))
		}
	}
	t.Run("overflow", func(t *testing.T) {
		r := FromBytes([]byte{0x7f, 0xff, 0xff, 0xff, 0xff})
		r.CompactIndex("x")
		if r.Err() == nil {
			t.Fatal("no error for a 35-bit value")
		}
	})
	t.Run("truncated", func(t *testing.T) {
		r := FromBytes([]byte{0x40})
		r.CompactIndex("x")
		if r.Err() == nil {
			t.Fatal("no error for a truncated index")
		}
	})
}

func FuzzCompactIndex(f *testing.F) {
	f.Add([]byte{0x40, 0x01})
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := FromBytes(b)
		v := r.CompactIndex("x")
		if r.Err() != nil {
			return
		}
		// A decoded value re-encodes to a form that decodes to the same value.
		enc := AppendCompactIndex(nil, v)
		r2 := FromBytes(enc)
		if v2 := r2.CompactIndex("x"); v2 != v || r2.Err() != nil {
			t.Fatalf("round trip %d -> % x -> %d (%v)", v, enc, v2, r2.Err())
		}
	})
}
