//go:build wasm

package iostore

// The browser runs one goroutine at a time (GOMAXPROCS is 1 there), so
// walkRange decodes every block itself, and the WebAssembly module leaves
// out the decoding ahead of ahead.go.

type ahead struct{}

// idleProcs is as in ahead.go (the tests set it).
var idleProcs = func(procs int) int { return 0 }

func (f *File) startAhead(first, last int, in, n uint64, into []byte) *ahead { return nil }
func (a *ahead) at(b int)                                                    {}
func (a *ahead) get(b int) ([]byte, bool, error, bool)                       { return nil, false, nil, false }
func (a *ahead) close()                                                      {}
