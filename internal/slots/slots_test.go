package slots

import "testing"

// TestIndex puts keys with duplicates, first or last winning, and finds
// each; hashes that all collide still work, and past its room an index
// refuses new keys.
func TestIndex(t *testing.T) {
	keys := []uint64{5, 9, 5, 1 << 40, 7, 9, 0}
	for _, replace := range []bool{false, true} {
		for _, hash := range []func(uint64) uint64{Hash, func(uint64) uint64 { return 3 }} {
			x := New(len(keys))
			for i, k := range keys {
				x.Put(hash(k), int32(i), func(u int32) bool { return keys[u] == k }, replace)
			}
			for _, tc := range []struct {
				key   uint64
				first int32
				last  int32
			}{{5, 0, 2}, {9, 1, 5}, {1 << 40, 3, 3}, {7, 4, 4}, {0, 6, 6}} {
				want := tc.first
				if replace {
					want = tc.last
				}
				if v, ok := x.Get(hash(tc.key), func(u int32) bool { return keys[u] == tc.key }); !ok || v != want {
					t.Errorf("replace %v: key %d: %d, %v; want %d", replace, tc.key, v, ok, want)
				}
			}
			if _, ok := x.Get(hash(6), func(u int32) bool { return keys[u] == 6 }); ok {
				t.Errorf("replace %v: key 6 found", replace)
			}
		}
	}
	x := New(2) // 8 slots: 4 keys
	for i := range 6 {
		added := x.Put(Hash(uint64(i)), int32(i), func(u int32) bool { return u == int32(i) }, false)
		if added != (i < 4) {
			t.Errorf("key %d of an index with room for 4: added %v", i, added)
		}
	}
	if Hash2(1, 2) == Hash2(2, 1) || Hash(1) == Hash(2) {
		t.Error("hashes collide")
	}
}
