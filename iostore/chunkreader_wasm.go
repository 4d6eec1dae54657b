//go:build wasm

package iostore

import "github.com/upkg/upkg/internal/blockcache"

// aheadBuilt: no block is decoded ahead in the browser (package ahead),
// and the module leaves that out (startAhead, ChunkReader.ahead).
const aheadBuilt = false

func (r *ChunkReader) ahead(int64) blockcache.Sequence { return nil }
