//go:build !wasm

package blockcache

import "github.com/upkg/upkg/internal/ahead"

// aheadBuilt: blocks are decoded ahead ([Reader.Ahead]).
const aheadBuilt = true

// aheadState is a Reader's decoding ahead: whether its reads go through
// the stream in order, and the Sequence taking the blocks ahead of them.
type aheadState struct {
	// last is the block decoded last (valid when any was), run how many
	// blocks before it were decoded each right after the one before.
	last  int64
	any   bool
	run   int
	retry int64 // no Ahead call before this block
	// seq is the Sequence in use, stopped once: when the reads leave
	// the order, reach the last block, meet an error or are closed, or,
	// for a Reader dropped part way, when it is collected.
	seq     *ahead.Stop[Sequence]
	lastBlk int64 // the stream's last block (valid when lastSet)
	lastSet bool
}

// inOrderRun is how many blocks decoded one after the other make reads
// count as going through the stream in order (fewer would start decoding
// ahead for reads that only happen to touch neighbouring blocks).
// retryAfter is how many blocks later Ahead is asked again when it
// declined.
const (
	inOrderRun = 3
	retryAfter = 16
)

// decode decodes block k into buf's memory, taking it from the blocks
// decoded ahead when the reads go in order, and starting or stopping the
// decoding ahead as they begin or cease to. r.mu is held.
func (r *Reader) decode(k int64, buf []byte) ([]byte, error) {
	a := &r.ah
	inOrder := a.any && k == a.last+1
	a.last, a.any = k, true
	if a.seq != nil {
		if inOrder {
			return r.fromAhead(k, buf)
		}
		a.stop()
	}
	if inOrder {
		a.run++
	} else {
		a.run = 0
	}
	if r.Ahead != nil && a.run >= inOrderRun-1 && k >= a.retry && k < r.lastBlock() {
		if s := r.Ahead(k + 1); s != nil {
			a.seq = ahead.NewStop(r, s, Sequence.Close)
		} else {
			a.retry = k + retryAfter
		}
	}
	return r.Decode(k, buf)
}

// fromAhead returns block k from the sequence (or decodes it, for a
// block the sequence leaves to the reader). The sequence stops at the
// stream's last block, at an error and at a panic, which goes on up.
func (r *Reader) fromAhead(k int64, buf []byte) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.ah.stop()
			panic(p)
		}
	}()
	data, ok, err := r.ah.seq.A.Block(k)
	switch {
	case err != nil:
		r.ah.stop()
		return nil, err
	case ok:
		// The sequence reuses its memory: the cache keeps a copy.
		out = append(buf[:0], data...)
	default:
		out, err = r.Decode(k, buf)
	}
	if err != nil || k >= r.lastBlock() {
		r.ah.stop()
	}
	return out, err
}

// lastBlock returns the stream's last block. r.mu is held.
func (r *Reader) lastBlock() int64 {
	a := &r.ah
	if !a.lastSet {
		a.lastBlk, a.lastSet = -1, true
		if r.Size > 0 {
			a.lastBlk, _ = r.Locate(r.Size - 1)
		}
	}
	return a.lastBlk
}

// stop stops the decoding ahead, if any, and waits for it. The Reader's
// mu is held.
func (a *aheadState) stop() {
	if q := a.seq; q != nil {
		a.seq = nil
		q.Stop()
	}
}

// DecodingAhead reports whether blocks are being decoded ahead of the
// reads now.
func (r *Reader) DecodingAhead() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ah.seq != nil
}
