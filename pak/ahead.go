package pak

import (
	"fmt"
	"sync"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/ahead"
)

// A compressed entry's blocks are independent streams, so a big entry
// decodes on the idle cores: while Data or an entry reader takes the
// blocks in order (hashing them as stored, when the entry's hash is still
// to be checked), goroutines read, decrypt and decompress the blocks after
// them, at most aheadBytes ahead (package ahead). Data decompresses each
// block straight into its place in the result. What a read gives, and the
// error it stops at, are those of decoding the blocks one after the other.

// parallelMinShare is the least output a decoding goroutine is given (four
// 64 KiB blocks): an entry expanding to less than twice that is decoded by
// its reader alone. aheadBytes bounds what the blocks taken ahead expand
// to. Variables for the tests.
var (
	parallelMinShare int64 = 256 << 10
	aheadBytes       int64 = 2 << 20
)

// maxAheadBlocks bounds the blocks decoded ahead whatever their size.
const maxAheadBlocks = 256

// entrySlot is a block decoded ahead.
type entrySlot struct {
	plain   []byte // its bytes: dec, or its place in the result
	inPlace bool
	err     error
	// stored is the block as stored when the reader hashes it (raw,
	// or a copy made before raw was decrypted).
	stored []byte
	// raw, dec and copied are the slot's own buffers, kept from block to
	// block: the stored bytes (decrypted in place), the decompressed ones,
	// and the copy of the stored bytes of an encrypted block.
	raw, dec, copied []byte
}

// entryAhead decodes the compression blocks of one entry ahead of its
// reader (an ahead.Job; block k is e.Blocks[k]).
type entryAhead struct {
	e *Entry
	// into is the result's buffer when it has room for the whole entry:
	// block k goes at k times the block size.
	into []byte
	hash bool // the reader hashes the stored bytes
	from int  // the first block decoded ahead (the reader has those before)
	d    ahead.Decoder[entrySlot]
}

// blockSize is the uncompressed size of every compression block but the
// last (all of the entry for one block).
func (e *Entry) blockSize() int64 {
	if bs := int64(e.CompressionBlockSize); len(e.Blocks) > 1 && bs > 0 {
		return bs
	}
	return e.UncompressedSize
}

// blockOut returns what block k expands to.
func (e *Entry) blockOut(k int) int64 {
	bs := e.blockSize()
	return max(min(bs, e.UncompressedSize-int64(k)*bs), 0)
}

func (a *entryAhead) Blocks() int       { return len(a.e.Blocks) }
func (a *entryAhead) Ahead(k int) bool  { return k >= a.from }
func (a *entryAhead) Size(k int) uint64 { return uint64(a.e.blockOut(k)) }

// copier keeps a copy of what is written to it.
type copier struct{ b []byte }

func (c *copier) Write(p []byte) (int, error) {
	c.b = append(c.b[:0], p...)
	return len(p), nil
}

// Decode reads, decrypts and decompresses block k into s, or into its
// place in the result, with the errors the reader would have met.
func (a *entryAhead) Decode(k int, s *entrySlot) {
	e := a.e
	s.plain, s.inPlace, s.err, s.stored = nil, false, nil, nil
	var src []byte
	var c *copier
	if a.hash && e.Encrypted() {
		c = &copier{b: s.copied}
		s.raw, src, s.err = e.readStoredBlock(k, s.raw, c)
		s.copied = c.b
	} else {
		s.raw, src, s.err = e.readStoredBlock(k, s.raw, nil)
	}
	if s.err != nil {
		return
	}
	switch {
	case !a.hash:
	case c != nil:
		s.stored = s.copied
	default:
		s.stored = s.raw
	}
	out := e.blockOut(k)
	if a.into != nil {
		at := int64(k) * e.blockSize()
		s.plain, s.inPlace = a.into[at:at+out:at+out], true
	} else {
		s.dec = grow(s.dec, out)
		s.plain = s.dec
	}
	if err := compression.Decompress(e.CompressionMethod, s.plain, src); err != nil {
		s.err = e.errorf(e.Blocks[k].Start, fmt.Errorf("block %d of %d (%s): %w", k, len(e.Blocks), e.CompressionMethod, err))
	}
}

// startAhead starts decoding the entry's blocks from block from on ahead
// of a reader that hashes them as stored (hash) or not, or returns nil
// when it is not worth it (ahead.Workers). into is the result's buffer
// (nil for a stream): blocks are decompressed into place when it has room
// for the entry.
func (e *Entry) startAhead(into []byte, hash bool, from int) *entryAhead {
	if !e.Compressed() || len(e.Blocks) < 2 || int64(len(e.Blocks)-1)*e.blockSize() >= e.UncompressedSize {
		return nil // one block, or blocks that do not hold the entry as the index checks make them
	}
	if from < 0 || from >= len(e.Blocks) {
		return nil
	}
	// The slots (each keeps the buffers of the blocks it held) hold at
	// most aheadBytes of the biggest block, as stored or expanded, two per
	// goroutine: an index claiming huge blocks gets no more memory decoded
	// ahead than one read one block after the other.
	biggest := e.blockSize()
	for _, b := range e.Blocks {
		biggest = max(biggest, align(b.End-b.Start))
	}
	slots := aheadBytes / max(biggest, 1)
	if biggest <= maxPooledBlock {
		slots = max(slots, 4) // however little ahead: blocks of a shipped game's size
	}
	slots = min(slots, maxAheadBlocks)
	workers := ahead.Workers(uint64(e.UncompressedSize-int64(from)*e.blockSize()), uint64(parallelMinShare), int(slots))
	if workers < 2 {
		return nil
	}
	a, _ := aheadPool.Get().(*entryAhead)
	if a == nil {
		a = &entryAhead{}
	}
	a.e, a.hash, a.from, a.into = e, hash, from, nil
	if int64(cap(into)) >= e.UncompressedSize {
		a.into = into[:cap(into)]
	}
	a.d.Start(a, workers, uint64(aheadBytes), int(slots))
	return a
}

// block waits for block k and returns it; the reader is done with the
// blocks before k.
func (a *entryAhead) block(k int) *entrySlot {
	a.d.At(k)
	s, _ := a.d.Get(k)
	return s
}

// blockSequence is the blocks of a BlockReader decoded ahead (a
// blockcache.Sequence).
type blockSequence struct{ a *entryAhead }

func (s blockSequence) Block(k int64) ([]byte, bool, error) {
	if k >= int64(len(s.a.e.Blocks)) {
		return nil, false, nil // the reader reports it
	}
	b := s.a.block(int(k))
	return b.plain, true, b.err
}

func (s blockSequence) Close() { s.a.close() }

// close stops the decoding goroutines and waits for them (none writes into
// the result afterwards), and gives the decoder back for reuse.
func (a *entryAhead) close() {
	a.d.Close(func(s *entrySlot) {
		if cap(s.raw) > maxPooledBlock {
			s.raw = nil
		}
		if cap(s.dec) > maxPooledBlock {
			s.dec = nil
		}
		if cap(s.copied) > maxPooledBlock {
			s.copied = nil
		}
		s.plain, s.stored, s.err = nil, nil, nil
	})
	a.e, a.into = nil, nil
	aheadPool.Put(a)
}

// aheadPool keeps the decoders, with their slots' buffers, between entries.
var aheadPool sync.Pool // *entryAhead

// maxPooledBlock bounds the block buffers kept between entries (blocks are
// 64 KiB in shipped games).
const maxPooledBlock = 1 << 20
