package pak_test

import (
	"testing"

	"github.com/upkg/upkg/pak"
)

// TestPathHash checks PathHash against hashes stored in corpus paks
// (repak's v11 pack, CUE4Parse's UE5.8 and UE6.0 minimal paks).
func TestPathHash(t *testing.T) {
	for _, tc := range []struct {
		path string
		seed uint64
		want uint64
	}{
		{"test.png", 0x205c5a7d, 0x20704bb513057fc3},
		{"test.txt", 0x205c5a7d, 0x505f79362ba172ea},
		{"AssetRegistry.bin", 0xfb7d82, 0x36667639a5851039},
		{"Config/DefaultGame.ini", 0xfb7d82, 0xfe4b3bfcd913c80f},
		{"Config/DefaultGame.ini", 0xf83c58b8, 0x289edd2e20be30a5},
	} {
		if got := pak.PathHash(tc.path, tc.seed); got != tc.want {
			t.Errorf("PathHash(%q, %#x) = %#x, want %#x", tc.path, tc.seed, got, tc.want)
		}
	}
}
