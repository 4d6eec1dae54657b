package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/zen"
)

// TestZenHeaderPrefix checks what parsePackage relies on: a corpus package
// that parses from the first compression block of its chunk parses the
// same from the whole chunk.
func TestZenHeaderPrefix(t *testing.T) {
	dir := corpus.Dir(t) + "/iostore"
	total, pre, auto := 0, 0, 0
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !strings.HasSuffix(p, ".utoc") {
			return nil
		}
		c, err := openUtoc(p, &Options{AESKey: corpusKeys})
		if err != nil {
			return nil
		}
		x := c.context()
		if c.f.DirectoryIndex == nil {
			return nil
		}
		seen := map[uint64]bool{}
		for k := range c.f.DirectoryIndex.NumFiles() {
			id := c.f.ChunkIDs[c.f.DirectoryIndex.FileChunk(k)].ID()
			ch, ok := x.chunkOf(id)
			if !ok || seen[id] {
				continue
			}
			seen[id] = true
			total++
			opts := x.zenOptions(id)
			if opts.Auto {
				auto++
				continue
			}
			d, err := c.f.ReadChunk(ch)
			if err != nil {
				continue
			}
			full, ferr := zen.Parse(d, opts)
			n := headerPrefix(c.f)
			if n >= uint64(len(d)) {
				continue
			}
			pd, _ := c.f.ReadChunkPrefix(ch, n)
			pp, perr := zen.Parse(pd, opts)
			if perr != nil {
				continue
			}
			pre++
			if ferr != nil {
				t.Errorf("%s %x: prefix parses, full fails %v", p, id, ferr)
				continue
			}
			a, _ := json.Marshal(full)
			b, _ := json.Marshal(pp)
			if string(a) != string(b) {
				t.Errorf("%s %x: the prefix gives another package", p, id)
			}
		}
		return nil
	})
	t.Logf("%d packages, %d parsed from a prefix, %d of unknown layout", total, pre, auto)
}
