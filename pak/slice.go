//go:build !js

package pak

import "github.com/upkg/upkg/internal/binread"

// Slice makes a BlockReader a binread.Slicer: it returns the n bytes at
// off of a plain stored entry (neither compressed nor encrypted) as a
// slice of the pak's own memory, when the pak was opened from a Slicer
// (the CLI maps a big .pak that way), so that a package's export in it is
// decoded without a buffer of its size (see uasset's ObjectExport.Data);
// ok is false otherwise. The slice stays valid until the pak's reader is
// closed. (Left out of the WebAssembly build, which maps nothing.)
func (r *BlockReader) Slice(off, n int64) ([]byte, bool) {
	if r.unit != 0 || r.closed.Load() || off < 0 || n < 0 || off > r.Size() || n > r.Size()-off {
		return nil, false
	}
	return binread.SliceOf(r.e.p.r, r.e.DataOffset()+off, n)
}
