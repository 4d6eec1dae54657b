// Package blake3 is a small portable implementation of the BLAKE3 hash
// (https://github.com/BLAKE3-team/BLAKE3-specs), enough for Unreal's FIoHash:
// the default hash mode, any input length, 32 bytes of output. FIoHash keeps
// the first 20 bytes.
//
// It is written for clarity over speed (no SIMD, one chunk at a time); IoStore
// verification hashes each chunk once.
package blake3

import (
	"encoding/binary"
	"math/bits"
)

const (
	blockLen = 64
	chunkLen = 1024

	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagParent     = 1 << 2
	flagRoot       = 1 << 3
)

// iv is the BLAKE3 IV (the SHA-256 initial hash words).
var iv = [8]uint32{
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
}

// perm is the message word permutation applied between rounds.
var perm = [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}

func g(s *[16]uint32, a, b, c, d int, mx, my uint32) {
	s[a] += s[b] + mx
	s[d] = bits.RotateLeft32(s[d]^s[a], -16)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], -12)
	s[a] += s[b] + my
	s[d] = bits.RotateLeft32(s[d]^s[a], -8)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], -7)
}

// compress runs the compression function and returns the full 16-word state.
func compress(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) [16]uint32 {
	s := [16]uint32{
		cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
		iv[0], iv[1], iv[2], iv[3],
		uint32(counter), uint32(counter >> 32), n, flags,
	}
	msg := *m
	for round := 0; round < 7; round++ {
		g(&s, 0, 4, 8, 12, msg[0], msg[1])
		g(&s, 1, 5, 9, 13, msg[2], msg[3])
		g(&s, 2, 6, 10, 14, msg[4], msg[5])
		g(&s, 3, 7, 11, 15, msg[6], msg[7])
		g(&s, 0, 5, 10, 15, msg[8], msg[9])
		g(&s, 1, 6, 11, 12, msg[10], msg[11])
		g(&s, 2, 7, 8, 13, msg[12], msg[13])
		g(&s, 3, 4, 9, 14, msg[14], msg[15])
		if round < 6 {
			var next [16]uint32
			for i, p := range perm {
				next[i] = msg[p]
			}
			msg = next
		}
	}
	for i := 0; i < 8; i++ {
		s[i] ^= s[i+8]
		s[i+8] ^= cv[i]
	}
	return s
}

func words(b []byte) (m [16]uint32) {
	var buf [blockLen]byte
	copy(buf[:], b)
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	return m
}

// output is what is needed to produce either a chaining value or root bytes.
type output struct {
	cv      [8]uint32
	block   [16]uint32
	counter uint64
	n       uint32
	flags   uint32
}

func (o *output) chainingValue() (cv [8]uint32) {
	s := compress(&o.cv, &o.block, o.counter, o.n, o.flags)
	copy(cv[:], s[:8])
	return cv
}

func (o *output) root() (out [32]byte) {
	s := compress(&o.cv, &o.block, 0, o.n, o.flags|flagRoot)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(out[4*i:], s[i])
	}
	return out
}

// chunkState hashes one 1024-byte chunk, 64-byte block by block.
type chunkState struct {
	cv       [8]uint32
	counter  uint64
	buf      [blockLen]byte
	bufLen   int
	blocks   int // blocks compressed so far in this chunk
	inputLen int
}

func newChunkState(counter uint64) chunkState {
	return chunkState{cv: iv, counter: counter}
}

func (c *chunkState) startFlag() uint32 {
	if c.blocks == 0 {
		return flagChunkStart
	}
	return 0
}

func (c *chunkState) update(p []byte) {
	for len(p) > 0 {
		if c.bufLen == blockLen {
			m := words(c.buf[:])
			s := compress(&c.cv, &m, c.counter, blockLen, c.startFlag())
			copy(c.cv[:], s[:8])
			c.blocks++
			c.bufLen = 0
		}
		n := copy(c.buf[c.bufLen:], p)
		c.bufLen += n
		c.inputLen += n
		p = p[n:]
	}
}

func (c *chunkState) output() output {
	return output{cv: c.cv, block: words(c.buf[:c.bufLen]), counter: c.counter, n: uint32(c.bufLen), flags: c.startFlag() | flagChunkEnd}
}

func parentOutput(left, right [8]uint32) output {
	var m [16]uint32
	copy(m[:8], left[:])
	copy(m[8:], right[:])
	return output{cv: iv, block: m, n: blockLen, flags: flagParent}
}

// Hasher computes a BLAKE3 hash incrementally. The zero value is not ready;
// use [New].
type Hasher struct {
	chunk chunkState
	stack [54][8]uint32 // enough for 2^64 bytes
	depth int
}

// New returns a Hasher in the default hash mode.
func New() *Hasher { return &Hasher{chunk: newChunkState(0)} }

func (h *Hasher) pushChunk(cv [8]uint32, total uint64) {
	// Merge completed subtrees: one merge per trailing zero bit of the
	// number of chunks hashed so far.
	for total&1 == 0 {
		h.depth--
		o := parentOutput(h.stack[h.depth], cv)
		cv = o.chainingValue()
		total >>= 1
	}
	h.stack[h.depth] = cv
	h.depth++
}

// Write adds p to the hash. It never fails.
func (h *Hasher) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if h.chunk.inputLen == chunkLen {
			o := h.chunk.output()
			total := h.chunk.counter + 1
			h.pushChunk(o.chainingValue(), total)
			h.chunk = newChunkState(total)
		}
		take := min(chunkLen-h.chunk.inputLen, len(p))
		h.chunk.update(p[:take])
		p = p[take:]
	}
	return n, nil
}

// Sum256 returns the 32-byte hash of everything written so far.
func (h *Hasher) Sum256() [32]byte {
	o := h.chunk.output()
	for i := h.depth - 1; i >= 0; i-- {
		o = parentOutput(h.stack[i], o.chainingValue())
	}
	return o.root()
}

// Sum256 returns the BLAKE3 hash of data.
func Sum256(data []byte) [32]byte {
	h := New()
	h.Write(data)
	return h.Sum256()
}
