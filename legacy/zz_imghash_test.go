package legacy

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

func TestZZImageHashes(t *testing.T) {
	out := os.Getenv("IMGHASH_OUT")
	if out == "" {
		t.Skip()
	}
	dir, _ := corpus.Find()
	var lines []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		f, err := Open(p)
		if err != nil {
			lines = append(lines, fmt.Sprintf("%s ERR %v", p, err))
			return nil
		}
		defer f.Close()
		if f.Wrapper == "" {
			return nil
		}
		b := make([]byte, f.Size())
		f.ReadAt(b, 0)
		lines = append(lines, fmt.Sprintf("%s %x", p, sha256.Sum256(b)))
		return nil
	})
	sort.Strings(lines)
	s := ""
	for _, l := range lines {
		s += l + "\n"
	}
	os.WriteFile(out, []byte(s), 0o644)
}
