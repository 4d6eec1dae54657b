package binread

import "testing"

// BenchmarkFixed reads a buffer held in memory as fixed-size fields, the
// shape of table and property-tag reading.
func BenchmarkFixed(b *testing.B) {
	data := make([]byte, 1<<16)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := FromBytes(data)
		for r.Remaining() >= 16 {
			r.U8("a")
			r.U16("b")
			r.I32("c")
			r.U64("d")
			r.U8("e")
		}
	}
}
