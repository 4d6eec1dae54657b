package legacy

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/binread"
)

// Lineage II wraps its packages in a 28-byte header, "Lineage2Ver" and a
// three-digit scheme number in UTF-16LE, and appends a 20-byte trailer.
const (
	l2HeaderSize  = 28
	l2TrailerSize = 20
	l2Magic       = "Lineage2Ver"
)

// IsLineage2 reports whether head starts with the Lineage II wrapper header.
func IsLineage2(head []byte) bool {
	return len(head) >= l2HeaderSize && decodeUTF16LE(head[:22]) == l2Magic
}

func decodeUTF16LE(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}

// Lineage2Scheme returns the scheme number of a Lineage II header ("121").
func Lineage2Scheme(head []byte) string {
	if !IsLineage2(head) {
		return ""
	}
	return decodeUTF16LE(head[22:28])
}

// l2SchemeName names the schemes this package recognises but cannot remove.
func l2SchemeName(scheme string) string {
	switch scheme {
	case "120":
		return "Lineage2Ver120 (position-keyed XOR)"
	case "211", "212":
		return "Lineage2Ver" + scheme + " (Blowfish)"
	case "411", "412", "413", "414":
		return "Lineage2Ver" + scheme + " (RSA + zlib)"
	}
	return "Lineage2Ver" + scheme
}

// unwrapLineage2 removes a single-byte XOR wrapper (schemes 111 and 121).
// Scheme 111 uses the fixed key 0xAC; scheme 121 derives the key from the
// lower-cased file name (the sum of its characters, low byte). The key is
// taken from the data instead: the first plain byte is the package tag's
// 0xC1, which also works for renamed files.
func unwrapLineage2(r io.ReaderAt, size int64, head []byte) (io.ReaderAt, int64, string, error) {
	scheme := Lineage2Scheme(head)
	switch scheme {
	case "111", "121":
	default:
		return nil, 0, "", &EncryptedError{Scheme: l2SchemeName(scheme), Reason: "no decoder for this scheme"}
	}
	if size < l2HeaderSize+4 {
		return nil, 0, "", &FormatError{Off: l2HeaderSize, Field: "Lineage2.Payload", Msg: "wrapper without a payload"}
	}
	var first [1]byte
	if _, err := r.ReadAt(first[:], l2HeaderSize); err != nil {
		return nil, 0, "", err
	}
	key := first[0] ^ 0xC1
	if scheme == "111" && key != 0xAC {
		return nil, 0, "", &EncryptedError{Scheme: "Lineage2Ver111 (XOR 0xAC)", Reason: fmt.Sprintf("payload does not decode to a package (key would be 0x%02X)", key)}
	}
	n := size - l2HeaderSize
	if n >= l2TrailerSize+4 {
		n -= l2TrailerSize
	}
	return &xorReaderAt{r: r, base: l2HeaderSize, size: n, key: key}, n, fmt.Sprintf("Lineage2Ver%s (XOR 0x%02X)", scheme, key), nil
}

// Lineage2Key121 returns the scheme-121 XOR key for a file name.
func Lineage2Key121(fileName string) byte {
	var sum int
	for _, c := range strings.ToLower(fileName) {
		sum += int(c)
	}
	return byte(sum)
}

// xorReaderAt reads [base, base+size) of r, XORed with key.
type xorReaderAt struct {
	r          io.ReaderAt
	base, size int64
	key        byte
}

func (x *xorReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("legacy: negative offset %d", off)
	}
	if off >= x.size {
		return 0, io.EOF
	}
	var eof error
	if int64(len(p)) > x.size-off {
		p = p[:x.size-off]
		eof = io.EOF
	}
	n, err := x.r.ReadAt(p, x.base+off)
	for i := range p[:n] {
		p[i] ^= x.key
	}
	if err == nil {
		err = eof
	}
	return n, err
}

// isFullyCompressed recognises a console package that is one compressed
// chunk from byte 0: the tag is followed by the block size where a summary
// has its version (whose low 16 bits would then be 0).
func isFullyCompressed(head []byte, order binary.ByteOrder) bool {
	if len(head) < 24 {
		return false
	}
	bs := order.Uint32(head[4:])
	return bs&0xFFFF == 0 && bs >= 0x10000 && bs <= 0x1000000 && bs&(bs-1) == 0
}

// Decompression limits.
const (
	// maxImageSize bounds the decompressed package; UE3 packages are
	// int32-addressed.
	maxImageSize = 1<<31 - 1
	// maxRatio bounds decompressed/compressed size, so a lying header
	// cannot make a small file allocate gigabytes.
	maxRatio = 1024
	// maxBlockRatio bounds what one compressed block expands to, per
	// compressed byte: far above real data (the corpus's blocks expand at
	// most 51 times), it still admits blocks of one repeated byte, which
	// Oodle packs tightest (4 bytes per 256 KiB). A block of no bytes
	// expands to none.
	maxBlockRatio = 1 << 17
)

// defaultBlockSize is UE3's LOADING_COMPRESSION_CHUNK_SIZE.
const defaultBlockSize = 0x20000

// methodFor names the registry method for UE3 compression flags.
func methodFor(flags uint32, g game) string {
	switch {
	case flags&CompressZlib != 0:
		return "Zlib"
	case flags&CompressLZO != 0:
		return "LZO"
	case flags&CompressLZX != 0:
		return "LZX"
	case flags&compressLZMA != 0:
		return "LZMA"
	case g == gameMELE && flags&compressOodleLE != 0:
		return "Oodle"
	}
	return fmt.Sprintf("flags 0x%x", flags)
}

// sniffMethod guesses the method of a fully compressed package's first
// block, which its header does not name.
func sniffMethod(b []byte) string {
	switch {
	case len(b) >= 2 && b[0]&0x0F == 8 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0:
		return "Zlib"
	case len(b) >= 5 && b[0] == 0x5D && b[1] == 0:
		return "LZMA"
	case len(b) >= 1 && (b[0] == 0xFF || b[0] == 0x0F):
		return "LZX"
	}
	return "LZO"
}

// chunkBlock is one block of a compressed chunk: its compressed bytes at
// off in the file, and the part of the chunk they expand to.
type chunkBlock struct {
	off, comp   int64
	pos, uncomp int64 // in the chunk
}

// readChunkBlocks reads the FCompressedChunkInfo header and block list of
// the chunk at off (absolute in r) that expands to n bytes, and checks them:
// the blocks' data lies in the file, one after another, and their
// uncompressed sizes add up to n.
func readChunkBlocks(r io.ReaderAt, size int64, order binary.ByteOrder, off, n int64) ([]chunkBlock, error) {
	br := binread.New(r, size)
	br.SetOrder(order)
	br.SeekTo(off, "CompressedChunk")
	tag := br.U32("CompressedChunk.Tag")
	blockSize := int64(br.U32("CompressedChunk.BlockSize"))
	sumComp := br.I32("CompressedChunk.CompressedSize")
	sumUncomp := br.I32("CompressedChunk.UncompressedSize")
	if err := br.Err(); err != nil {
		return nil, err
	}
	if blockSize == PackageTag {
		// Mass Effect's Xbox 360 packages repeat the tag where the block
		// size goes; their blocks are the engine default.
		blockSize = defaultBlockSize
	}
	if tag != PackageTag {
		return nil, &FormatError{Off: off, Field: "CompressedChunk.Tag", Msg: fmt.Sprintf("0x%08X is not the package tag", tag)}
	}
	if int64(sumUncomp) != n || sumComp < 0 || blockSize <= 0 {
		return nil, &FormatError{Off: off + 8, Field: "CompressedChunk.UncompressedSize", Msg: fmt.Sprintf("chunk holds %d bytes, table says %d", sumUncomp, n)}
	}
	nBlocks := (n + blockSize - 1) / blockSize
	if nBlocks > br.Remaining()/8 {
		return nil, &FormatError{Off: off + 16, Field: "CompressedChunk.Blocks", Msg: fmt.Sprintf("%d blocks do not fit", nBlocks)}
	}
	blocks := make([]chunkBlock, nBlocks)
	for i := range blocks {
		blocks[i].comp, blocks[i].uncomp = int64(br.I32("CompressedBlock.CompressedSize")), int64(br.I32("CompressedBlock.UncompressedSize"))
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	at, pos := br.Abs(), int64(0)
	for i := range blocks {
		b := &blocks[i]
		if b.comp < 0 || b.uncomp < 0 || b.uncomp > n-pos {
			return nil, &FormatError{Off: at, Field: "CompressedBlock", Msg: fmt.Sprintf("block %d sizes %d/%d do not fit the chunk", i, b.comp, b.uncomp)}
		}
		if b.uncomp > b.comp*maxBlockRatio {
			return nil, &FormatError{Off: at, Field: "CompressedBlock", Msg: fmt.Sprintf("block %d: %d compressed bytes cannot expand to %d", i, b.comp, b.uncomp)}
		}
		if b.comp > size-at {
			return nil, &binread.Error{Offset: at, Field: "CompressedBlock.Data", Err: fmt.Errorf("%w: %d bytes wanted, %d left", io.ErrUnexpectedEOF, b.comp, size-at)}
		}
		b.off, b.pos = at, pos
		at += b.comp
		pos += b.uncomp
	}
	if pos != n {
		return nil, &FormatError{Off: off, Field: "CompressedChunk", Msg: fmt.Sprintf("blocks hold %d bytes, chunk %d", pos, n)}
	}
	return blocks, nil
}

// readChunk decompresses one FCompressedChunkInfo block list starting at
// off (absolute in r) into dst. method "" means sniff it.
func readChunk(r io.ReaderAt, size int64, order binary.ByteOrder, off int64, dst []byte, method string) (string, error) {
	blocks, err := readChunkBlocks(r, size, order, off, int64(len(dst)))
	if err != nil {
		return method, err
	}
	return expandBlocks(r, size, blocks, dst, method)
}

// expandBlocks decompresses the blocks readChunkBlocks checked into dst
// (the chunk's size), in parallel when they are many (expandAll). method
// "" means sniff it from the first block.
func expandBlocks(r io.ReaderAt, size int64, blocks []chunkBlock, dst []byte, method string) (string, error) {
	if method == "" && len(blocks) > 0 {
		var buf []byte
		src, err := blockBytes(r, size, blocks[0], &buf)
		if err != nil {
			return method, err
		}
		method = sniffMethod(src)
	}
	_, err := expandAll(r, size, method, chunkJobs(nil, blocks, dst))
	return method, err
}

// chunkJobs appends the jobs that expand a chunk's blocks into dst.
func chunkJobs(jobs []blockJob, blocks []chunkBlock, dst []byte) []blockJob {
	for i, b := range blocks {
		jobs = append(jobs, blockJob{b: b, dst: dst[b.pos : b.pos+b.uncomp], block: i})
	}
	return jobs
}

// blockBytes returns block b's compressed bytes: a slice of r when it is a
// binread.Mem holding the file, else read into *buf (grown as needed).
func blockBytes(r io.ReaderAt, size int64, b chunkBlock, buf *[]byte) ([]byte, error) {
	if m, ok := r.(binread.Mem); ok && size <= int64(len(m)) {
		return m[b.off : b.off+b.comp : b.off+b.comp], nil // readChunkBlocks checked the range
	}
	if int64(cap(*buf)) < b.comp {
		*buf = make([]byte, b.comp)
	}
	src := (*buf)[:b.comp]
	if n, err := r.ReadAt(src, b.off); int64(n) != b.comp {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, &binread.Error{Offset: b.off, Field: "CompressedBlock.Data", Err: err}
	}
	return src, nil
}

// decompressBlock expands block i of a chunk (src, stored at off) into dst.
func decompressBlock(method string, dst, src []byte, off int64, i int) error {
	if err := compression.Decompress(method, dst, src); err != nil {
		if ue, ok := err.(*compression.UnsupportedError); ok {
			// ue.Method names the codec when the method has several
			// ("Oodle LZNA").
			return &UnsupportedError{Feature: fmt.Sprintf("%s-compressed package: no pure-Go %s decoder available", ue.Method, ue.Method)}
		}
		return &FormatError{Off: off, Field: "CompressedBlock.Data", Msg: fmt.Sprintf("block %d (%s): %v", i, method, err)}
	}
	return nil
}

func checkImageSize(n, compressed int64, field string) error {
	if n < 0 || n > maxImageSize || n > max(compressed, 1<<16)*maxRatio {
		return &FormatError{Field: field, Msg: fmt.Sprintf("decompressed size %d is not plausible for %d compressed bytes", n, compressed)}
	}
	return nil
}

// fullyCompressedImage is the image of a fully compressed package: read
// block by block when it is big (newFullyCompressed), else expanded whole.
func fullyCompressedImage(r io.ReaderAt, size int64, order binary.ByteOrder) (io.ReaderAt, int64, string, error) {
	ci, n, desc, err := newFullyCompressed(r, size, order)
	if err != nil || ci == nil {
		if err == nil {
			return decompressWhole(r, size, order)
		}
		return nil, 0, "", err
	}
	var tag [4]byte
	if _, err := ci.ReadAt(tag[:], 0); err != nil {
		return nil, 0, "", fmt.Errorf("legacy: fully compressed package: %w", err)
	}
	if _, ok := orderFromTag(tag[:]); !ok {
		return nil, 0, "", &FormatError{Field: "FullyCompressed", Msg: "decompressed data does not start with the package tag"}
	}
	return ci, n, desc, nil
}

// fullySize returns the size of a fully compressed package expanded: its
// one chunk's UncompressedSize, checked against the file's size.
func fullySize(r io.ReaderAt, size int64, order binary.ByteOrder) (int64, error) {
	br := binread.New(r, size)
	br.SetOrder(order)
	br.Skip(12, "CompressedChunk")
	n := int64(br.I32("CompressedChunk.UncompressedSize"))
	if err := br.Err(); err != nil {
		return 0, err
	}
	return n, checkImageSize(n, size, "CompressedChunk.UncompressedSize")
}

// decompressWhole expands a fully compressed package.
func decompressWhole(r io.ReaderAt, size int64, order binary.ByteOrder) (io.ReaderAt, int64, string, error) {
	n, err := fullySize(r, size, order)
	if err != nil {
		return nil, 0, "", err
	}
	// The block list is checked against the file before the image is
	// made: a size the blocks cannot hold allocates nothing.
	blocks, err := readChunkBlocks(r, size, order, 0, n)
	if err != nil {
		return nil, 0, "", fmt.Errorf("legacy: fully compressed package: %w", err)
	}
	img := make([]byte, n)
	method, err := expandBlocks(r, size, blocks, img, "")
	if err != nil {
		return nil, 0, "", fmt.Errorf("legacy: fully compressed package: %w", err)
	}
	if _, ok := orderFromTag(img); !ok {
		return nil, 0, "", &FormatError{Field: "FullyCompressed", Msg: "decompressed data does not start with the package tag"}
	}
	return binread.Mem(img), n, "fully compressed (" + method + ")", nil
}

// decompressChunks builds the package image of a UE3 package whose body is
// stored in compressed chunks: the header bytes up to the first chunk as
// they are, each chunk expanded at its uncompressed offset.
func decompressChunks(r io.ReaderAt, size int64, order binary.ByteOrder, s *Summary, g game) (binread.Mem, int64, string, error) {
	method := methodFor(s.CompressionFlags, g)
	first, end, err := chunkExtent(s.CompressedChunks, size)
	if err != nil {
		return nil, 0, "", err
	}
	// Every chunk's block list is checked against the file before the
	// image is made.
	blocks := make([][]chunkBlock, len(s.CompressedChunks))
	for i, c := range s.CompressedChunks {
		if blocks[i], err = readChunkBlocks(r, size, order, c.CompressedOffset, int64(c.UncompressedSize)); err != nil {
			return nil, 0, "", fmt.Errorf("legacy: compressed chunk %d: %w", i, err)
		}
	}
	img := newImage(end)
	hdr := min(first, size)
	if _, err := r.ReadAt(img[:hdr], 0); err != nil && err != io.EOF {
		return nil, 0, "", err
	}
	// The blocks of every chunk, in chunk order: the first that fails is
	// the one reported, as when they expand one after the other.
	var jobs []blockJob
	chunkOf := make([]int, 0, len(s.CompressedChunks))
	for i, c := range s.CompressedChunks {
		dst := img[c.UncompressedOffset : c.UncompressedOffset+int64(c.UncompressedSize)]
		jobs = chunkJobs(jobs, blocks[i], dst)
		for len(chunkOf) < len(jobs) {
			chunkOf = append(chunkOf, i)
		}
	}
	if k, err := expandAll(r, size, method, jobs); err != nil {
		return nil, 0, "", fmt.Errorf("legacy: compressed chunk %d: %w", chunkOf[k], err)
	}
	return binread.Mem(img), end, "compressed chunks (" + method + ")", nil
}

// chunkExtent checks a chunk table against a file of size bytes and
// returns where the image's first chunk starts and where the image ends.
func chunkExtent(chunks []CompressedChunk, size int64) (first, end int64, err error) {
	first = -1
	for i, c := range chunks {
		if c.UncompressedOffset < 0 || c.UncompressedSize < 0 || c.CompressedOffset < 0 || c.CompressedSize < 0 || c.CompressedOffset > size {
			return 0, 0, &FormatError{Field: "CompressedChunk", Msg: fmt.Sprintf("chunk %d has a negative or out-of-file offset or size", i)}
		}
		end = max(end, c.UncompressedOffset+int64(c.UncompressedSize))
		if first < 0 || c.UncompressedOffset < first {
			first = c.UncompressedOffset
		}
	}
	if err := checkImageSize(end, size, "CompressedChunk.UncompressedSize"); err != nil {
		return 0, 0, err
	}
	// UE3 writes the chunks one after another into the image. Chunks that
	// overlap there make no image (and would let a small file claim a big
	// one, expanding the same compressed bytes again and again).
	byOffset := func(a, b int) int { return cmp.Compare(chunks[a].UncompressedOffset, chunks[b].UncompressedOffset) }
	var idx []int
	for i := 1; i < len(chunks) && idx == nil; i++ {
		if byOffset(i-1, i) > 0 {
			idx = make([]int, len(chunks))
			for k := range idx {
				idx[k] = k
			}
			slices.SortStableFunc(idx, byOffset)
		}
	}
	// The image is the file's head and the chunks, one after another.
	// Stretches that neither fills would read as zeros the file never
	// held: a few bytes could claim megabytes of them, and tables that
	// parse from zeros (empty names, null objects) fill that much memory.
	// Real packages leave none; as many as the file's size are let by.
	filled := min(max(first, 0), size)
	last, lastEnd := -1, int64(0) // the chunk ending last so far (chunks of no bytes overlap none)
	for k := range chunks {
		i := k
		if idx != nil {
			i = idx[k]
		}
		c := &chunks[i]
		if c.UncompressedSize == 0 {
			continue
		}
		filled += int64(c.UncompressedSize)
		if last >= 0 && c.UncompressedOffset < lastEnd {
			return 0, 0, &FormatError{Field: "CompressedChunk", Msg: fmt.Sprintf("chunks %d and %d overlap in the image", last, i)}
		}
		last, lastEnd = i, c.UncompressedOffset+int64(c.UncompressedSize)
	}
	if end-filled > size {
		return 0, 0, &FormatError{Field: "CompressedChunk.UncompressedOffset", Msg: fmt.Sprintf("the chunks leave %d of the image's %d bytes unfilled", end-filled, end)}
	}
	return first, end, nil
}

// imagePool keeps the package images of decompressChunks that
// [File.Release] gave back, so that verifying many compressed packages
// reuses one buffer instead of faulting in fresh memory for each.
var imagePool sync.Pool // of *[]byte

// newImage returns n zeroed bytes, reusing a released image when one is
// large enough.
func newImage(n int64) []byte {
	if p, _ := imagePool.Get().(*[]byte); p != nil && int64(cap(*p)) >= n {
		b := (*p)[:n]
		clear(b)
		return b
	}
	return make([]byte, n)
}
