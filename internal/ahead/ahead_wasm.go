//go:build wasm

package ahead

// The browser runs one goroutine at a time (GOMAXPROCS is 1 there): no
// block is decoded ahead, and the module leaves the decoding out.

// Job is as in ahead.go.
type Job[S any] interface {
	Blocks() int
	Ahead(k int) bool
	Size(k int) uint64
	Decode(k int, s *S)
}

// Decoder is as in ahead.go; Workers is 0 here, so none is started.
type Decoder[S any] struct{}

// IdleProcs is as in ahead.go (the tests set it).
var IdleProcs = func(procs int) int { return 0 }

func Workers(total, share uint64, slots int) int                                { return 0 }
func (d *Decoder[S]) Start(job Job[S], workers int, maxAhead uint64, slots int) {}
func (d *Decoder[S]) Get(k int) (*S, bool)                                      { return nil, false }
func (d *Decoder[S]) At(k int)                                                  {}
func (d *Decoder[S]) Close(each func(*S))                                       {}
