//go:build !wasm

package iostore

import "github.com/upkg/upkg/internal/blockcache"

// aheadBuilt: blocks are decoded ahead (ahead.go), of a ChunkReader's
// reads going in order too.
const aheadBuilt = true

// ahead starts decoding the chunk's blocks from container block from on,
// ahead of a ChunkReader going through them in order (nil: not worth it).
func (r *ChunkReader) ahead(from int64) blockcache.Sequence {
	k := int(from) - r.first
	if k <= 0 || k >= len(r.starts)-1 {
		return nil // the first block (the chunk starts inside it) is never asked for
	}
	n := uint64(r.starts[len(r.starts)-1] - r.starts[k])
	a := r.f.startAhead(int(from), r.first+len(r.starts)-2, 0, n, nil)
	if a == nil {
		return nil
	}
	return chunkSequence{a}
}

// chunkSequence is the blocks of a ChunkReader decoded ahead (a
// blockcache.Sequence; blocks are numbered in the container).
type chunkSequence struct{ a *blockAhead }

func (s chunkSequence) Block(b int64) ([]byte, bool, error) {
	s.a.at(int(b))
	plain, _, err, ok := s.a.get(int(b))
	return plain, ok, err
}

func (s chunkSequence) Close() { s.a.close() }
