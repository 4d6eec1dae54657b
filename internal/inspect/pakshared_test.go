package inspect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/pak/paktest"
)

// TestVerifyPakSharedData: a pak whose 200 entries all point at one 1 MiB
// file's bytes (200 MiB to hash from a 1 MiB pak) fails without hashing
// them, also when they are compressed and claim a stored size of 1 byte
// or of 2^62 (the blocks are what is hashed); 20 such entries are checked.
func TestVerifyPakSharedData(t *testing.T) {
	data := paktest.TextLike(1<<20, 5)
	for _, tc := range []struct {
		n        int
		compress bool
		size     int64
		ok       bool
	}{{200, false, 0, false}, {200, true, 1, false}, {200, true, 1 << 62, false}, {20, false, 0, true}, {20, true, 0, true}} {
		var files []paktest.File
		for i := range tc.n {
			files = append(files, paktest.File{Path: fmt.Sprintf("Game/F%d.bin", i), Data: data, SharedData: true, Compress: tc.compress, StoredSize: tc.size})
		}
		b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, files)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "Shared.pak")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var lines []VerifyResult
		VerifyOne(p, &Options{}, func(r VerifyResult) { lines = append(lines, r) })
		last := lines[len(lines)-1]
		if last.OK != tc.ok || (!tc.ok && !strings.Contains(last.Error, "entries share data")) {
			t.Errorf("%d entries sharing data (compressed %v, stored size %d): %+v", tc.n, tc.compress, tc.size, last)
		}
	}
}
