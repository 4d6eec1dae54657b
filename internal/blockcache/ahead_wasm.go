//go:build wasm

package blockcache

// aheadBuilt: the browser runs one goroutine at a time, so no block is
// decoded ahead there (Reader.Ahead is never called) and the module
// leaves that out.
const aheadBuilt = false

type aheadState struct{}

func (r *Reader) decode(k int64, buf []byte) ([]byte, error) { return r.Decode(k, buf) }

func (*aheadState) stop() {}

// DecodingAhead is false: nothing is decoded ahead here.
func (r *Reader) DecodingAhead() bool { return false }
