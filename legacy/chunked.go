package legacy

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
)

// chunkedImage is the image of a UE3 package whose body is stored in
// compressed chunks: the bytes before the first chunk as the file has
// them, each chunk expanded when a read first reaches it. Opening such
// a package expands only the chunks its tables lie in, and reading it
// through holds a few chunks at a time, where expanding the whole image
// held all of it: UE3 writes chunks of about 1 MiB, and a cooked map can
// expand to hundreds of MiB.
//
// A chunk of blockSplitMin bytes or more (a package stored in one chunk,
// a fully compressed console package, whose one chunk starts the file) is
// expanded a few blocks at a time (UE3's blocks are 128 KiB): its units
// are runs of its blocks of up to unitBlocksBytes, whose blocks expand on
// several goroutines at once, as a chunk's do. Measured
// (TestBlocksMemory): reading a 24 MiB image of one chunk through
// allocates 3.1 MiB, against 24.1 MiB expanded whole.
//
// Smaller images are still expanded whole (decompressChunks), and so are
// smaller packages of one chunk (most; their tables are in it): then the
// tables read straight from memory, which reading them through chunks does
// not (measured on the corpus's multi-chunk packages of 1.2 and 3.9 MB:
// 215 KB more garbage and up to 15% more time per verify).
type chunkedImage struct {
	r      io.ReaderAt
	size   int64 // of r
	order  binary.ByteOrder
	method string
	head   []byte      // the image up to the first chunk, as stored (shorter: zeros follow)
	units  []imageUnit // by UncompressedOffset, none overlapping
	end    int64       // the image size

	mu sync.Mutex
	// recent are the chunks expanded last, most recent first (nil: none).
	recent [chunkCacheLen]*expandedChunk
	// spare is the buffer of a chunk that fell out of recent unpinned,
	// for the next expansion.
	spare []byte
	// checked[i] is set once chunk i expanded without error.
	checked []bool
	// expanded counts the bytes chunks expanded to so far. Reads that go
	// back and forth over more chunks than the cache holds would expand
	// the same chunks again and again: past maxReexpansion times the image
	// size, the image is expanded whole (whole) and read from there.
	expanded int64
	whole    []byte
	// wholeFailed: a chunk did not expand when building whole (its reads
	// report it); whole is not tried again.
	wholeFailed bool
}

// imageUnit is a part of a chunkedImage expanded at once: a compressed
// chunk, or a run of blocks of a chunk split into blocks.
type imageUnit struct {
	UncompressedOffset, UncompressedSize int64
	chunk                                int   // the chunk's index in the table (for errors)
	off                                  int64 // where the chunk's header is (block < 0)
	// block is the index in its chunk of the unit's first block, -1 for a
	// whole chunk; blks are the blocks and method their codec.
	block  int
	blks   []chunkBlock
	method string
	// err is why the block list of a whole chunk of blockSplitMin bytes or
	// more does not read: expanding the unit reports it without making
	// the chunk's buffer first.
	err error
}

// blockSplitMin is the size of the smallest chunk expanded block by block
// rather than at once (a variable for the tests). UE3 writes chunks of
// about 1 MiB, which stay whole.
var blockSplitMin int64 = 2 << 20

// unitBlocksBytes is the most a unit of a chunk split into blocks expands
// to, but for a unit of one block (a variable for the tests): eight of
// UE3's blocks, as many as a chunk it writes.
var unitBlocksBytes int64 = 1 << 20

// chunkedMinImage is the smallest image read chunk by chunk (a variable
// for the tests, which read the corpus's smaller ones so).
var chunkedMinImage int64 = 8 << 20

// maxReexpansion bounds the work of a chunkedImage read out of order, in
// image sizes expanded before it expands the image whole (reading in order
// expands each chunk once).
const maxReexpansion = 2

// chunkCacheLen is how many expanded chunks a chunkedImage keeps: reading
// exports in order needs one, an export across a chunk boundary two.
const chunkCacheLen = 2

// expandedChunk is unit i of a chunkedImage, expanded. pins counts the
// views (File.view) handed out of buf and not yet given back: a chunk
// that falls out of the cache while pinned leaves buf to the collector
// instead of to the next expansion.
type expandedChunk struct {
	i    int
	buf  []byte
	pins int
}

// newChunkedImage checks the chunk table of s as decompressChunks does and
// returns the image, its size and its description. It returns a nil image
// (and no error) when the chunks expand to less than chunkedMinImage or
// are one chunk of less than blockSplitMin bytes: decompressChunks expands
// those whole.
func newChunkedImage(r io.ReaderAt, size int64, order binary.ByteOrder, s *Summary, g game) (*chunkedImage, int64, string, error) {
	chunks := s.CompressedChunks
	if len(chunks) == 0 || len(chunks) == 1 && int64(chunks[0].UncompressedSize) < blockSplitMin {
		return nil, 0, "", nil
	}
	first, end, err := chunkExtent(chunks, size)
	if err != nil {
		return nil, 0, "", err
	}
	if end < chunkedMinImage {
		return nil, 0, "", nil
	}
	// Before the first chunk, the image holds the file's bytes (zeros past
	// its end).
	head := make([]byte, min(first, size))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, 0, "", err
	}
	method := methodFor(s.CompressionFlags, g)
	c := &chunkedImage{r: r, size: size, order: order, method: method, head: head, end: end}
	c.units = c.split(chunks)
	// The units go in image order whatever the table's (chunkExtent
	// checked that no two chunks overlap).
	slices.SortStableFunc(c.units, func(a, b imageUnit) int { return cmp.Compare(a.UncompressedOffset, b.UncompressedOffset) })
	c.checked = make([]bool, len(c.units))
	return c, end, "compressed chunks (" + method + ")", nil
}

// newFullyCompressed returns the image of a fully compressed package (one
// chunk, from the start of the file, holding all of it) read block by
// block, or nil when it expands to less than chunkedMinImage:
// decompressWhole expands those.
func newFullyCompressed(r io.ReaderAt, size int64, order binary.ByteOrder) (*chunkedImage, int64, string, error) {
	n, err := fullySize(r, size, order)
	if err != nil {
		return nil, 0, "", err
	}
	if n < chunkedMinImage || n < blockSplitMin {
		return nil, 0, "", nil
	}
	c := &chunkedImage{r: r, size: size, order: order, end: n} // method "": sniffed
	c.units = c.split([]CompressedChunk{{UncompressedSize: int32(n)}})
	if c.units[0].block < 0 {
		return nil, 0, "", nil // the block list does not read: decompressWhole says why
	}
	c.checked = make([]bool, len(c.units))
	return c, n, "fully compressed (" + c.units[0].method + ")", nil
}

// split returns the units of chunks: each chunk whole, or its blocks when
// it is of blockSplitMin bytes or more and its block list reads (else it
// stays whole, and expanding it reports what is wrong, as before).
func (c *chunkedImage) split(chunks []CompressedChunk) []imageUnit {
	units := make([]imageUnit, 0, len(chunks))
	var buf []byte
	for i, ch := range chunks {
		whole := imageUnit{UncompressedOffset: ch.UncompressedOffset, UncompressedSize: int64(ch.UncompressedSize), chunk: i, off: ch.CompressedOffset, block: -1}
		if int64(ch.UncompressedSize) < blockSplitMin {
			units = append(units, whole)
			continue
		}
		blocks, err := readChunkBlocks(c.r, c.size, c.order, ch.CompressedOffset, int64(ch.UncompressedSize))
		if err != nil || len(blocks) < 2 {
			whole.err = err
			units = append(units, whole)
			continue
		}
		method := c.method
		if method == "" {
			// A fully compressed package names no method: the first
			// block's bytes tell it, for the chunk (as readChunk sniffs).
			src, err := blockBytes(c.r, c.size, chunkBlock{off: blocks[0].off, comp: min(blocks[0].comp, 8)}, &buf)
			if err != nil {
				units = append(units, whole)
				continue
			}
			method = sniffMethod(src)
		}
		for k := 0; k < len(blocks); {
			// A run of blocks, as long as unitBlocksBytes allows.
			n, size := 1, blocks[k].uncomp
			for k+n < len(blocks) && size+blocks[k+n].uncomp <= unitBlocksBytes {
				size += blocks[k+n].uncomp
				n++
			}
			units = append(units, imageUnit{UncompressedOffset: ch.UncompressedOffset + blocks[k].pos, UncompressedSize: size, chunk: i, block: k, blks: blocks[k : k+n : k+n], method: method})
			k += n
		}
	}
	return units
}

// ReadAt reads the image at off, expanding the chunks the range reaches.
// Bytes between chunks read as zeros.
func (c *chunkedImage) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("legacy: negative offset %d", off)
	}
	if off >= c.end {
		return 0, io.EOF
	}
	want := len(p)
	if int64(len(p)) > c.end-off {
		p = p[:c.end-off]
	}
	c.mu.Lock()
	whole := c.whole
	c.mu.Unlock()
	if whole != nil {
		return copy(p, whole[off:]), eofIf(len(p) < want)
	}
	n := 0
	for n < len(p) {
		pos := off + int64(n)
		if pos < int64(len(c.head)) {
			n += copy(p[n:], c.head[pos:])
			continue
		}
		i, in := c.find(pos)
		if !in {
			next := c.end
			if i < len(c.units) {
				next = c.units[i].UncompressedOffset
			}
			k := int(min(int64(len(p)-n), next-pos))
			clear(p[n : n+k])
			n += k
			continue
		}
		c.mu.Lock()
		e, err := c.expand(i)
		if err == nil {
			n += copy(p[n:], e.buf[pos-c.units[i].UncompressedOffset:])
		}
		c.mu.Unlock()
		if err != nil {
			return n, err
		}
	}
	return n, eofIf(n < want)
}

func eofIf(short bool) error {
	if short {
		return io.EOF
	}
	return nil
}

// find returns the unit holding image offset pos (pos past the head) and
// true, or the index of the next unit (len(units) for none) and false
// when pos lies before or between chunks.
func (c *chunkedImage) find(pos int64) (int, bool) {
	j := sort.Search(len(c.units), func(k int) bool { return c.units[k].UncompressedOffset > pos })
	if j > 0 && pos < c.units[j-1].UncompressedOffset+c.units[j-1].UncompressedSize {
		return j - 1, true
	}
	return j, false
}

// expand returns unit i expanded, from the cache or decompressed into it.
// c.mu is held.
func (c *chunkedImage) expand(i int) (*expandedChunk, error) {
	for k, e := range c.recent {
		if e != nil && e.i == i {
			copy(c.recent[1:k+1], c.recent[:k])
			c.recent[0] = e
			return e, nil
		}
	}
	if u := &c.units[i]; u.err != nil {
		return nil, chunkError(u.chunk, u.err)
	}
	n := int(c.units[i].UncompressedSize)
	buf := c.spare
	c.spare = nil
	switch {
	case cap(buf) >= n:
		buf = buf[:n] // expanding writes every byte of it
	case buf != nil:
		b := buf[:0]
		imagePool.Put(&b)
		fallthrough
	default:
		buf = newImage(int64(n))
	}
	if err := c.expandInto(i, buf); err != nil {
		c.spare = buf
		return nil, err
	}
	c.checked[i] = true
	c.expanded += int64(n)
	if c.expanded > maxReexpansion*c.end && c.whole == nil && !c.wholeFailed {
		c.expandWhole(buf, i)
	}
	if last := c.recent[len(c.recent)-1]; last != nil && last.pins == 0 {
		c.spare = last.buf
	}
	copy(c.recent[1:], c.recent[:len(c.recent)-1])
	e := &expandedChunk{i: i, buf: buf}
	c.recent[0] = e
	return e, nil
}

// expandInto expands unit i into dst (its size). c.mu is held.
func (c *chunkedImage) expandInto(i int, dst []byte) error {
	u := &c.units[i]
	err := u.err
	switch {
	case err != nil:
	case u.block < 0:
		_, err = readChunk(c.r, c.size, c.order, u.off, dst, c.method)
	default:
		jobs := make([]blockJob, len(u.blks))
		base := u.blks[0].pos
		for k, b := range u.blks {
			jobs[k] = blockJob{b: b, dst: dst[b.pos-base : b.pos-base+b.uncomp], block: u.block + k}
		}
		_, err = expandAll(c.r, c.size, u.method, jobs)
	}
	if err != nil {
		return chunkError(u.chunk, err)
	}
	return nil
}

// expandWhole builds the whole image from the head, the cached units, buf
// (unit i) and the other units expanded anew, and reads from it from then
// on. If a unit fails, the image stays as it was (its reads report it).
// c.mu is held.
func (c *chunkedImage) expandWhole(buf []byte, i int) {
	img := make([]byte, c.end)
	copy(img, c.head)
	for k, u := range c.units {
		dst := img[u.UncompressedOffset : u.UncompressedOffset+u.UncompressedSize]
		if k == i {
			copy(dst, buf)
			continue
		}
		if e := c.cached(k); e != nil {
			copy(dst, e.buf)
			continue
		}
		if err := c.expandInto(k, dst); err != nil {
			c.wholeFailed = true
			return
		}
		c.checked[k] = true
	}
	c.whole = img
}

// cached returns unit i when the cache holds it. c.mu is held.
func (c *chunkedImage) cached(i int) *expandedChunk {
	for _, e := range c.recent {
		if e != nil && e.i == i {
			return e
		}
	}
	return nil
}

// chunkError is how a chunk that does not expand is reported (as
// decompressChunks reports it).
func chunkError(i int, err error) error {
	return fmt.Errorf("legacy: compressed chunk %d: %w", i, err)
}

// view returns the image bytes [off, off+n) without copying when they lie
// in one unit, pinned until unpin(e); ok is false when they do not (the
// caller copies them with ReadAt).
func (c *chunkedImage) view(off, n int64) (b []byte, e *expandedChunk, ok bool, err error) {
	if off < int64(len(c.head)) || n <= 0 {
		return nil, nil, false, nil
	}
	i, in := c.find(off)
	if !in {
		return nil, nil, false, nil
	}
	start := off - c.units[i].UncompressedOffset
	if n > c.units[i].UncompressedSize-start {
		return nil, nil, false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.whole != nil {
		// Never reused (release leaves it to the collector): no pin.
		return c.whole[off : off+n : off+n], nil, true, nil
	}
	e, err = c.expand(i)
	if err != nil {
		return nil, nil, false, err
	}
	e.pins++
	return e.buf[start : start+n : start+n], e, true, nil
}

// unpin gives back a view of e.
func (c *chunkedImage) unpin(e *expandedChunk) {
	if e == nil {
		return
	}
	c.mu.Lock()
	e.pins--
	c.mu.Unlock()
}

// check expands every unit no read has expanded yet and returns the first
// error: reading all the exports of a package need not reach every chunk.
func (c *chunkedImage) check() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, ok := range c.checked {
		if ok || c.whole != nil {
			continue
		}
		if _, err := c.expand(i); err != nil {
			return err
		}
	}
	return nil
}

// release hands the buffers of the chunks still cached and unpinned to
// imagePool; nothing may read c afterwards.
func (c *chunkedImage) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.whole = nil
	for k, e := range c.recent {
		if e != nil && e.pins == 0 {
			b := e.buf[:0]
			imagePool.Put(&b)
		}
		c.recent[k] = nil
	}
	if c.spare != nil {
		b := c.spare[:0]
		imagePool.Put(&b)
		c.spare = nil
	}
}
