//go:build !js

package pak

// Slice returns the n bytes at off of a plain stored entry (neither
// compressed nor encrypted) as a slice of the pak's own memory, when the
// pak was opened from a reader with a Slice method (the CLI maps a big
// .pak that way): a package's export in it is then decoded without a
// buffer of its size (see uasset's ObjectExport.Data). ok is false
// otherwise. The slice stays valid until the pak's reader is closed.
// (Left out of the WebAssembly build, which maps nothing.)
func (r *BlockReader) Slice(off, n int64) ([]byte, bool) {
	if r.unit != 0 || r.closed.Load() || off < 0 || n < 0 || off > r.Size() || n > r.Size()-off {
		return nil, false
	}
	s, ok := r.e.p.r.(interface {
		Slice(off, n int64) ([]byte, bool)
	})
	if !ok {
		return nil, false
	}
	return s.Slice(r.e.DataOffset()+off, n)
}
