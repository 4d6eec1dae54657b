package iostore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/osfile"
	"github.com/upkg/upkg/internal/slots"
)

// File is an opened IoStore container: the parsed TOC and, lazily, its .ucas
// partitions.
type File struct {
	Name   string // path of the .utoc when opened with Open
	Header TocHeader

	ChunkIDs []ChunkID
	// PerfectHashSeeds are the TOC's chunk perfect-hash seeds (version 4+);
	// ChunksWithoutPerfectHash lists the TOC entries the seeds do not cover
	// (version 5+).
	PerfectHashSeeds         []int32
	ChunksWithoutPerfectHash []int32
	// EncryptionIVs hold one AES-CTR counter prefix per compression block,
	// then one for the directory index (version 10, AES_CTR only).
	EncryptionIVs [][encryptionIVSize]byte
	// CompressionMethods are the method names; index 0 is "None" as in the
	// engine, the TOC's names follow from index 1.
	CompressionMethods []string
	Signature          *Signature
	// DirectoryIndex is nil when the container has none (not Indexed, or
	// version Initial). When it could not be read (encrypted without key,
	// wrong key, corrupt), DirectoryIndexErr says why.
	DirectoryIndex    *DirectoryIndex
	DirectoryIndexErr error
	// offLens holds the raw FIoOffsetAndLength records (in place in the
	// TOC bytes); OffsetLength decodes one.
	offLens []byte
	// metas holds the raw FIoStoreTocEntryMeta records; Meta decodes one.
	// NewReader reads them on first use (loadMetas) from metasOff.
	metas     []byte
	metaSize  int
	metasOff  int64
	metasOnce sync.Once
	metasErr  error
	// OnDemandChunkHashes and OnDemandBlockHashes are the extra metas of an
	// OnDemand container of TOC version 6.
	OnDemandChunkHashes [][20]byte
	OnDemandBlockHashes [][20]byte
	// Trailing holds bytes after the last known TOC section (source hashes of
	// version 9+, or data this package does not know).
	Trailing []byte

	blocks     []byte // raw FIoStoreTocCompressedBlockEntry records, decoded on access
	blocksOnce sync.Once
	blocksErr  error
	blockR     io.ReaderAt
	blocksOff  int64
	key        []byte
	ecb        *aeskey.Cipher
	openCas    func(partition int) (io.ReaderAt, int64, error)
	closers    []io.Closer

	mu    sync.Mutex
	parts map[int]partition

	idOnce  sync.Once
	idIndex *slots.Index // see ChunkIndex
}

type partition struct {
	r    io.ReaderAt
	size int64
	err  error
}

// Option configures [NewReader] and [Open].
type Option func(*options) error

type options struct {
	key       []byte
	openCas   func(partition int) (io.ReaderAt, int64, error)
	openWhole osfile.WholeOpener
}

// WithPartitionOpener makes [Open] open the .ucas partitions with open,
// in place of osfile.Open (the CLI maps them into memory: a partition
// read as a [binread.Mem] is read in place, with no copy of its blocks).
// What open returns is closed by [File.Close].
func WithPartitionOpener(open osfile.WholeOpener) Option {
	return func(o *options) error {
		o.openWhole = open
		return nil
	}
}

// WithAESKey gives the AES-256 key of an encrypted container (32 bytes; see
// internal/aeskey.Parse for the text forms users type).
func WithAESKey(key []byte) Option {
	return func(o *options) error {
		if len(key) != aeskey.KeySize {
			return fmt.Errorf("iostore: AES key of %d bytes, want %d", len(key), aeskey.KeySize)
		}
		o.key = key
		return nil
	}
}

// WithPartitions tells [NewReader] how to reach the .ucas data: open returns
// partition i (0 for NAME.ucas, i for NAME_si.ucas). Without it, reading
// chunk data fails with [ErrNoCas].
func WithPartitions(open func(partition int) (io.ReaderAt, int64, error)) Option {
	return func(o *options) error {
		o.openCas = open
		return nil
	}
}

// Open opens the .utoc at name; its partitions are looked up beside it
// (NAME.ucas, NAME_s1.ucas, …) when chunk data is first read.
func Open(name string, opt ...Option) (*File, error) {
	f, size, err := osfile.Open(name)
	if err != nil {
		return nil, err
	}
	var o options
	for _, fn := range opt {
		if err := fn(&o); err != nil {
			f.Close()
			return nil, err
		}
	}
	partitions := &osfile.Set{Whole: o.openWhole != nil, OpenWhole: o.openWhole}
	open := func(i int) (io.ReaderAt, int64, error) {
		return partitions.Open(PartitionPath(name, i))
	}
	opts := append([]Option{WithPartitions(open)}, opt...)
	tf, err := NewReader(f, size, opts...)
	if err != nil {
		f.Close()
		var fe *FormatError
		if errors.As(err, &fe) && fe.File == "" {
			fe.File = name
		}
		var ue *UnsupportedError
		if errors.As(err, &ue) && ue.File == "" {
			ue.File = name
		}
		if fe == nil && ue == nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
		return nil, err
	}
	tf.Name = name
	tf.closers = append(tf.closers, f, partitions)
	return tf, nil
}

// Close releases the partitions Open opened.
func (f *File) Close() error {
	var first error
	for _, c := range f.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	f.closers = nil
	return first
}

// NewReader parses the TOC of size bytes in r. Everything but the
// compression block table and the chunk metas is read at once (bounded by
// size and a 1 GiB limit); those two, the bulk of a large TOC, are read from
// r on first use, so r must stay readable while the File is used.
func NewReader(r io.ReaderAt, size int64, opt ...Option) (*File, error) {
	var o options
	for _, fn := range opt {
		if err := fn(&o); err != nil {
			return nil, err
		}
	}
	if size < 0 || size > maxTocSize {
		return nil, &FormatError{Offset: -1, Msg: fmt.Sprintf("TOC size %d outside [0, %d]", size, maxTocSize)}
	}
	readAt := func(off, n int64, what string) ([]byte, error) {
		buf := make([]byte, n)
		if got, err := r.ReadAt(buf, off); int64(got) != n {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, &FormatError{Offset: off + int64(got), Msg: "reading the " + what, Err: err}
		}
		return buf, nil
	}
	hb, err := readAt(0, min(size, tocHeaderSize), "TOC header")
	if err != nil {
		return nil, err
	}
	h, err := parseHeader(hb)
	if err != nil {
		return nil, err
	}
	// The fixed-size arrays before the block table, then the block table;
	// everything after it is read as the tail.
	n := uint64(h.TocEntryCount)
	headLen := uint64(tocHeaderSize) + n*(chunkIDSize+offsetLengthSize) + 4*uint64(h.TocChunkPerfectHashSeedsCount) + 4*uint64(h.TocChunksWithoutPerfectHashCount)
	blocksLen := uint64(h.TocCompressedBlockEntryCount) * blockEntrySize
	if headLen > uint64(size) || blocksLen > uint64(size)-headLen {
		return nil, &FormatError{Offset: size, Msg: fmt.Sprintf("%d entries and %d compression blocks need %d bytes, the TOC has %d", n, h.TocCompressedBlockEntryCount, headLen+blocksLen, size), Err: io.ErrUnexpectedEOF}
	}
	head, err := readAt(0, int64(headLen), "TOC chunk table")
	if err != nil {
		return nil, err
	}
	tailOff := int64(headLen + blocksLen)
	tailLen := size - tailOff
	// The chunk metas (hashes), like the block table, are read on first
	// use: the TOC sections before them have sizes the header gives, so
	// where they lie is known without reading them. A signed container's
	// signature size is in its data, so its tail is read whole.
	cut := int64(-1)
	metasLen := n * uint64(metaSizeOf(h.Version))
	if h.ContainerFlags&FlagSigned == 0 && metasLen > 0 {
		pre := uint64(h.EncryptionIVCount)*encryptionIVSize + uint64(h.CompressionMethodNameCount)*uint64(h.CompressionMethodNameLength)
		if h.Version >= TocDirectoryIndex {
			pre += uint64(h.DirectoryIndexSize)
		}
		if pre+metasLen <= uint64(tailLen) {
			cut = int64(pre)
		}
	}
	var tail []byte
	if cut < 0 {
		if tail, err = readAt(tailOff, tailLen, "TOC tail"); err != nil {
			return nil, err
		}
	} else {
		// One buffer for the sections before and after the metas.
		tail = make([]byte, tailLen-int64(metasLen))
		if err := readInto(r, tail[:cut], tailOff, "TOC tail"); err != nil {
			return nil, err
		}
		if err := readInto(r, tail[cut:], tailOff+cut+int64(metasLen), "TOC tail"); err != nil {
			return nil, err
		}
	}
	f, err := parseToc(h, head, tail, tailOff, cut, &o)
	if err != nil {
		return nil, err
	}
	f.blockR, f.blocksOff = r, int64(headLen)
	return f, nil
}

// readInto fills buf from r at off.
func readInto(r io.ReaderAt, buf []byte, off int64, what string) error {
	if len(buf) == 0 {
		return nil
	}
	if got, err := r.ReadAt(buf, off); got != len(buf) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return &FormatError{Offset: off + int64(got), Msg: "reading the " + what, Err: err}
	}
	return nil
}

// metaSizeOf is the size of FIoStoreTocEntryMeta in TOC version v.
func metaSizeOf(v TocVersion) int {
	if v >= TocReplaceIoChunkHashWithIoHash {
		return metaSizeIoHash
	}
	return metaSizeChunkHash
}

// loadMetas reads the chunk metas on first use.
func (f *File) loadMetas() []byte {
	f.metasOnce.Do(func() {
		if f.metas != nil || len(f.ChunkIDs) == 0 {
			return
		}
		buf := make([]byte, len(f.ChunkIDs)*f.metaSize)
		if err := readInto(f.blockR, buf, f.metasOff, "chunk metas"); err != nil {
			err.(*FormatError).File = f.Name
			f.metasErr = err
			return
		}
		f.metas = buf
	})
	return f.metas
}

// loadBlocks reads the compression block table on first use.
func (f *File) loadBlocks() error {
	f.blocksOnce.Do(func() {
		if f.blocks != nil || f.Header.TocCompressedBlockEntryCount == 0 {
			return
		}
		n := int64(f.Header.TocCompressedBlockEntryCount) * blockEntrySize
		buf := make([]byte, n)
		if got, err := f.blockR.ReadAt(buf, f.blocksOff); int64(got) != n {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			f.blocksErr = &FormatError{File: f.Name, Offset: f.blocksOff + int64(got), Msg: "reading the compression blocks", Err: err}
			return
		}
		f.blocks = buf
	})
	return f.blocksErr
}

// section walks the TOC buffer, checking each section fits.
type section struct {
	b    []byte
	off  int
	base int64 // file offset of b[0]
}

func (s *section) take(n uint64, what string) ([]byte, error) {
	if n > uint64(len(s.b)-s.off) {
		return nil, &FormatError{Offset: s.base + int64(s.off), Msg: fmt.Sprintf("%s: %d bytes needed, %d left in the TOC", what, n, len(s.b)-s.off), Err: io.ErrUnexpectedEOF}
	}
	p := s.b[s.off : s.off+int(n)]
	s.off += int(n)
	return p, nil
}

// parseToc reads the TOC from head (header to the block table) and tail
// (after the block table). When metasAt >= 0, the chunk metas were left
// out of tail at that offset (they are read on first use).
func parseToc(h TocHeader, head, tail []byte, tailOff, metasAt int64, o *options) (*File, error) {
	f := &File{Header: h, key: o.key, openCas: o.openCas}
	if o.key != nil {
		c, err := aeskey.New(o.key)
		if err != nil {
			return nil, err
		}
		f.ecb = c
	}
	s := &section{b: head, off: tocHeaderSize}
	n := uint64(h.TocEntryCount)
	le := binary.LittleEndian

	// Chunk IDs.
	b, err := s.take(n*chunkIDSize, "chunk IDs")
	if err != nil {
		return nil, err
	}
	// ChunkID is a byte array (alignment 1): the IDs are used in place in
	// this File's private copy of the TOC, which nothing writes to.
	if n > 0 {
		f.ChunkIDs = unsafe.Slice((*ChunkID)(unsafe.Pointer(&b[0])), n)
	} else {
		f.ChunkIDs = []ChunkID{}
	}

	// Offsets and lengths (5-byte big-endian pairs).
	if b, err = s.take(n*offsetLengthSize, "chunk offsets and lengths"); err != nil {
		return nil, err
	}
	f.offLens = b

	// Perfect hash seeds (version 4+) and the overflow list (version 5+).
	if c := uint64(h.TocChunkPerfectHashSeedsCount); c > 0 {
		if b, err = s.take(c*4, "chunk perfect hash seeds"); err != nil {
			return nil, err
		}
		f.PerfectHashSeeds = make([]int32, c)
		for i := range f.PerfectHashSeeds {
			f.PerfectHashSeeds[i] = int32(le.Uint32(b[4*i:]))
		}
	}
	if c := uint64(h.TocChunksWithoutPerfectHashCount); c > 0 {
		if b, err = s.take(c*4, "chunks without perfect hash"); err != nil {
			return nil, err
		}
		f.ChunksWithoutPerfectHash = make([]int32, c)
		for i := range f.ChunksWithoutPerfectHash {
			v := int32(le.Uint32(b[4*i:]))
			if v < 0 || uint64(v) >= n {
				return nil, &FormatError{Offset: int64(s.off - len(b) + 4*i), Msg: fmt.Sprintf("chunk without perfect hash %d: index %d outside %d entries", i, v, n)}
			}
			f.ChunksWithoutPerfectHash[i] = v
		}
	}

	// The compression block table is read lazily (loadBlocks); the rest
	// comes from the tail.
	s = &section{b: tail, base: tailOff}

	// AES-CTR IVs (version 10).
	if h.EncryptionMethod == EncryptAESCTR || h.EncryptionIVCount > 0 {
		want := uint64(0)
		if h.EncryptionMethod == EncryptAESCTR {
			want = uint64(h.TocCompressedBlockEntryCount)
			if h.ContainerFlags&FlagIndexed != 0 {
				want++
			}
		}
		if uint64(h.EncryptionIVCount) != want {
			return nil, &FormatError{Offset: 104, Msg: fmt.Sprintf("EncryptionIVCount %d, but %s over %d blocks needs %d", h.EncryptionIVCount, h.EncryptionMethod, h.TocCompressedBlockEntryCount, want)}
		}
		if b, err = s.take(want*encryptionIVSize, "encryption IVs"); err != nil {
			return nil, err
		}
		f.EncryptionIVs = make([][encryptionIVSize]byte, want)
		for i := range f.EncryptionIVs {
			copy(f.EncryptionIVs[i][:], b[i*encryptionIVSize:])
		}
	}

	// Compression method names, fixed-length NUL-padded.
	if b, err = s.take(uint64(h.CompressionMethodNameCount)*uint64(h.CompressionMethodNameLength), "compression method names"); err != nil {
		return nil, err
	}
	f.CompressionMethods = make([]string, 1, 1+h.CompressionMethodNameCount)
	f.CompressionMethods[0] = "None"
	for i := 0; i < int(h.CompressionMethodNameCount); i++ {
		name := b[i*int(h.CompressionMethodNameLength) : (i+1)*int(h.CompressionMethodNameLength)]
		if z := indexByte(name, 0); z >= 0 {
			name = name[:z]
		}
		f.CompressionMethods = append(f.CompressionMethods, string(name))
	}

	// Signatures of a Signed container.
	if h.ContainerFlags&FlagSigned != 0 {
		if b, err = s.take(4, "signature hash size"); err != nil {
			return nil, err
		}
		hs := uint64(le.Uint32(b))
		sig := &Signature{}
		if sig.TocSignature, err = s.take(hs, "TOC signature"); err != nil {
			return nil, err
		}
		if sig.BlockSignature, err = s.take(hs, "block signature"); err != nil {
			return nil, err
		}
		if b, err = s.take(uint64(h.TocCompressedBlockEntryCount)*20, "chunk block signatures"); err != nil {
			return nil, err
		}
		sig.ChunkBlockSignature = make([][20]byte, h.TocCompressedBlockEntryCount)
		for i := range sig.ChunkBlockSignature {
			copy(sig.ChunkBlockSignature[i][:], b[20*i:])
		}
		f.Signature = sig
	}

	// Directory index (version 2+, Indexed containers).
	if h.Version >= TocDirectoryIndex && h.ContainerFlags&FlagIndexed != 0 && h.DirectoryIndexSize > 0 {
		start := s.base + int64(s.off)
		if b, err = s.take(uint64(h.DirectoryIndexSize), "directory index"); err != nil {
			return nil, err
		}
		f.DirectoryIndex, f.DirectoryIndexErr = f.readDirectoryIndex(b, start)
	} else if h.DirectoryIndexSize > 0 && h.Version >= TocDirectoryIndex {
		// Not flagged Indexed: the engine skips the bytes.
		if _, err = s.take(uint64(h.DirectoryIndexSize), "directory index"); err != nil {
			return nil, err
		}
	}

	// Chunk metas.
	metaSize := uint64(metaSizeOf(h.Version))
	f.metaSize = int(metaSize)
	if metasAt >= 0 {
		if int64(s.off) != metasAt {
			return nil, &FormatError{Offset: s.base + int64(s.off), Msg: fmt.Sprintf("chunk metas at TOC tail offset %d, the header's sizes put them at %d", s.off, metasAt)}
		}
		f.metasOff = s.base + int64(s.off)
		// The rest of tail follows the metas in the file.
		s.base += int64(n * metaSize)
	} else {
		if b, err = s.take(n*metaSize, "chunk metas"); err != nil {
			return nil, err
		}
		f.metas = b
	}
	// On-demand metas (version 6 only).
	if h.Version == TocOnDemandMetaData && h.ContainerFlags&FlagOnDemand != 0 {
		if b, err = s.take(n*onDemandHashSize, "on-demand chunk metas"); err != nil {
			return nil, err
		}
		f.OnDemandChunkHashes = make([][20]byte, n)
		for i := range f.OnDemandChunkHashes {
			copy(f.OnDemandChunkHashes[i][:], b[20*i:])
		}
		if b, err = s.take(uint64(h.TocCompressedBlockEntryCount)*onDemandHashSize, "on-demand block metas"); err != nil {
			return nil, err
		}
		f.OnDemandBlockHashes = make([][20]byte, h.TocCompressedBlockEntryCount)
		for i := range f.OnDemandBlockHashes {
			copy(f.OnDemandBlockHashes[i][:], b[20*i:])
		}
	}
	if s.off < len(tail) {
		f.Trailing = tail[s.off:]
	}
	if err := f.checkEntries(); err != nil {
		return nil, err
	}
	return f, nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// checkEntries validates chunk ranges against the compression blocks, so
// that reads never index outside them.
func (f *File) checkEntries() error {
	bs := uint64(f.Header.CompressionBlockSize)
	nb := uint64(f.NumBlocks())
	// The engine writes each chunk from a block of its own: the chunks'
	// blocks add up to the TOC's (a chunk may share its first and last
	// with others when not aligned), and to more only where chunks are
	// deduplicated (UE 5.8's bDeduplicateChunks: a copy's entry points at
	// the first's blocks). Chunks of a crafted TOC that all span all its
	// blocks would make checking them quadratic: past 16 times its blocks
	// and 2 a chunk, they are refused.
	spanned, limit := uint64(0), 16*nb+2*uint64(len(f.ChunkIDs))
	for i := range f.ChunkIDs {
		ol := f.OffsetLength(i)
		if ol.Length == 0 {
			continue
		}
		at := int64(tocHeaderSize + len(f.ChunkIDs)*chunkIDSize + i*offsetLengthSize)
		end := ol.Offset + ol.Length
		if end < ol.Offset || (end-1)/bs >= nb {
			return &FormatError{Offset: at, Msg: fmt.Sprintf("chunk %d (%s): range [0x%x, +0x%x) needs compression blocks beyond the %d the TOC has", i, f.ChunkIDs[i], ol.Offset, ol.Length, nb)}
		}
		if spanned += (end-1)/bs - ol.Offset/bs + 1; spanned > limit {
			return &FormatError{Offset: at, Msg: fmt.Sprintf("chunk %d (%s): the chunks up to it span %d compression blocks, more than 16 times the %d the TOC has and 2 for each chunk (chunks overlap)", i, f.ChunkIDs[i], spanned, nb)}
		}
	}
	return nil
}

// OffsetLength decodes the offset and length of chunk i (a TOC entry
// index) from the TOC's 5-byte big-endian pairs.
func (f *File) OffsetLength(i int) OffsetLength {
	p := f.offLens[i*offsetLengthSize : (i+1)*offsetLengthSize]
	// Two overlapping 8-byte loads: bytes 0–4 are the offset, 5–9 the length.
	return OffsetLength{Offset: binary.BigEndian.Uint64(p) >> 24, Length: binary.BigEndian.Uint64(p[2:]) & (1<<40 - 1)}
}

func (f *File) blockOffset(i int) int {
	return tocHeaderSize + len(f.ChunkIDs)*(chunkIDSize+offsetLengthSize) + 4*(len(f.PerfectHashSeeds)+len(f.ChunksWithoutPerfectHash)) + i*blockEntrySize
}

// MetasErr reports why the chunk metas could not be read (they are read
// on first use; Meta and Hash then return zero values).
func (f *File) MetasErr() error {
	f.loadMetas()
	return f.metasErr
}

// Meta decodes the meta (hash and flags) of chunk i.
func (f *File) Meta(i int) ChunkMeta {
	var m ChunkMeta
	metas := f.loadMetas()
	if metas == nil {
		return m
	}
	p := metas[i*f.metaSize : (i+1)*f.metaSize]
	copy(m.Hash[:], p[:20])
	if f.metaSize == metaSizeChunkHash {
		copy(m.Pad[:], p[20:32])
		m.Flags = MetaFlags(p[32])
	} else {
		m.Flags = MetaFlags(p[20])
	}
	return m
}

// Hash returns the stored hash of chunk i (see [File.HashKind]).
func (f *File) Hash(i int) [20]byte {
	var h [20]byte
	if metas := f.loadMetas(); metas != nil {
		copy(h[:], metas[i*f.metaSize:])
	}
	return h
}

// NumBlocks returns the number of compression blocks.
func (f *File) NumBlocks() int { return int(f.Header.TocCompressedBlockEntryCount) }

// Block decodes compression block i.
func (f *File) Block(i int) CompressionBlock {
	if f.loadBlocks() != nil {
		return CompressionBlock{}
	}
	p := f.blocks[i*blockEntrySize : (i+1)*blockEntrySize]
	return CompressionBlock{Offset: le40(p), CompressedSize: le24(p[5:]), UncompressedSize: le24(p[8:]), MethodIndex: p[11]}
}

// CompressionBlocks decodes all compression blocks.
func (f *File) CompressionBlocks() []CompressionBlock {
	out := make([]CompressionBlock, f.NumBlocks())
	for i := range out {
		out[i] = f.Block(i)
	}
	return out
}

// BlockRange returns the compression blocks [first, last] holding chunk i;
// ok is false for an empty chunk.
func (f *File) BlockRange(i int) (first, last int, ok bool) {
	ol := f.OffsetLength(i)
	if ol.Length == 0 {
		return 0, 0, false
	}
	bs := uint64(f.Header.CompressionBlockSize)
	return int(ol.Offset / bs), int((ol.Offset + ol.Length - 1) / bs), true
}

// ChunkInfo summarizes where chunk i is stored.
type ChunkInfo struct {
	CompressedSize int64  // sum of the stored sizes of its blocks
	Method         string // compression method of its blocks ("None", "Zlib", "Oodle", or "Mixed")
	Partition      int    // partition of its first block
	Blocks         int
}

// Info returns storage facts for chunk i from its compression blocks.
func (f *File) Info(i int) ChunkInfo {
	first, last, ok := f.BlockRange(i)
	if !ok {
		return ChunkInfo{Method: "None"}
	}
	var ci ChunkInfo
	ci.Blocks = last - first + 1
	if f.loadBlocks() != nil {
		return ChunkInfo{Method: "unknown", Blocks: ci.Blocks}
	}
	m := -1
	ci.Partition = int(f.Block(first).Offset / f.Header.PartitionSize)
	m = int(f.blocks[first*blockEntrySize+11])
	for b := first; b <= last; b++ {
		p := f.blocks[b*blockEntrySize : b*blockEntrySize+blockEntrySize]
		ci.CompressedSize += int64(uint32(p[5]) | uint32(p[6])<<8 | uint32(p[7])<<16)
		if int(p[11]) != m {
			m = -2
		}
	}
	switch {
	case m == -2:
		ci.Method = "Mixed"
	case m < len(f.CompressionMethods):
		ci.Method = f.CompressionMethods[m]
	default:
		ci.Method = fmt.Sprintf("method %d", m)
	}
	return ci
}

// ChunkIndex returns the TOC entry index of id: through the perfect hash
// when the TOC has one (no index to build, as the engine resolves chunks),
// else through a hash index built on first use.
func (f *File) ChunkIndex(id ChunkID) (int, bool) {
	if len(f.PerfectHashSeeds) > 0 {
		if i, ok := f.LookupPerfectHash(id); ok {
			return i, true
		}
		// A TOC whose seeds do not cover id (or lie) is searched directly.
		for i, c := range f.ChunkIDs {
			if c == id {
				return i, true
			}
		}
		return 0, false
	}
	f.idOnce.Do(func() {
		if len(f.ChunkIDs) >= math.MaxInt32 {
			return // (searched directly)
		}
		// Of IDs listed twice, the first is found.
		f.idIndex = slots.New(len(f.ChunkIDs))
		for i := range f.ChunkIDs {
			c := &f.ChunkIDs[i]
			f.idIndex.Put(chunkHash(c), int32(i), func(u int32) bool { return f.ChunkIDs[u] == *c }, false)
		}
	})
	if f.idIndex == nil {
		for i, c := range f.ChunkIDs {
			if c == id {
				return i, true
			}
		}
		return 0, false
	}
	i, ok := f.idIndex.Get(chunkHash(&id), func(u int32) bool { return f.ChunkIDs[u] == id })
	return int(i), ok
}

// chunkHash is the hash of a chunk ID in File.ChunkIndex.
func chunkHash(id *ChunkID) uint64 {
	return slots.Hash2(binary.LittleEndian.Uint64(id[:8]), uint64(binary.LittleEndian.Uint32(id[8:])))
}

// FindChunk returns the TOC entry index of the chunk with the given 64-bit
// ID, index and canonical (UE5-numbered) type.
func (f *File) FindChunk(id uint64, index uint16, canon ChunkType) (int, bool) {
	raw, ok := rawType(canon, f.Header.Version)
	if !ok {
		return 0, false
	}
	return f.ChunkIndex(NewChunkID(id, index, raw))
}

// hashWithSeed is FIoChunkId::HashWithSeed: FNV-1a-like over the 12 bytes
// (multiply, then xor), seeded with the seed or the FNV offset basis.
func hashWithSeed(id *ChunkID, seed int32) uint64 {
	h := uint64(0xcbf29ce484222325)
	if seed != 0 {
		h = uint64(int64(seed))
	}
	for _, c := range id {
		h = (h * 0x00000100000001B3) ^ uint64(c)
	}
	return h
}

// LookupPerfectHash resolves id through the TOC's perfect-hash seeds the way
// the engine does (FIoStoreReader::Resolve). ok is false when the container
// has no seeds or id is absent.
func (f *File) LookupPerfectHash(id ChunkID) (int, bool) {
	n := uint64(len(f.ChunkIDs))
	if len(f.PerfectHashSeeds) == 0 || n == 0 {
		return 0, false
	}
	seed := f.PerfectHashSeeds[hashWithSeed(&id, 0)%uint64(len(f.PerfectHashSeeds))]
	if seed == 0 {
		return 0, false
	}
	var slot uint64
	if seed < 0 {
		slot = uint64(-int64(seed) - 1)
		if slot >= n {
			for _, i := range f.ChunksWithoutPerfectHash {
				if f.ChunkIDs[i] == id {
					return int(i), true
				}
			}
			return 0, false
		}
	} else {
		slot = hashWithSeed(&id, seed) % n
	}
	if f.ChunkIDs[slot] == id {
		return int(slot), true
	}
	// Entries listed as without perfect hash are found by scan.
	for _, i := range f.ChunksWithoutPerfectHash {
		if f.ChunkIDs[i] == id {
			return int(i), true
		}
	}
	return 0, false
}

// partition opens (once) and returns partition p.
func (f *File) partition(p int) (io.ReaderAt, int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pt, ok := f.parts[p]; ok {
		return pt.r, pt.size, pt.err
	}
	var pt partition
	if f.openCas == nil {
		pt.err = ErrNoCas
	} else {
		pt.r, pt.size, pt.err = f.openCas(p)
		if pt.err != nil {
			if errors.Is(pt.err, fs.ErrNotExist) {
				pt.err = fmt.Errorf("%w (partition %d: %v)", ErrNoCas, p, pt.err)
			} else {
				pt.err = fmt.Errorf("iostore: opening partition %d: %w", p, pt.err)
			}
		}
	}
	if f.parts == nil {
		f.parts = map[int]partition{}
	}
	f.parts[p] = pt
	return pt.r, pt.size, pt.err
}

// HasData reports whether partition 0 (NAME.ucas) can be opened.
func (f *File) HasData() bool {
	_, _, err := f.partition(0)
	return err == nil
}

// PartitionPath is the path of partition i of the container whose TOC is
// utoc: X.ucas for the first, X_s1.ucas, X_s2.ucas, ... after it. The
// extension takes the TOC's case (X.UTOC's is X.UCAS) when such a file is
// there, else the other case's when that one is.
func PartitionPath(utoc string, i int) string {
	base, ext := utoc, ".ucas"
	if e := filepath.Ext(utoc); strings.EqualFold(e, ".utoc") {
		base = utoc[:len(utoc)-len(e)]
		if e == ".UTOC" {
			ext = ".UCAS"
		}
	}
	if i > 0 {
		base += "_s" + strconv.Itoa(i)
	}
	p := base + ext
	if _, err := os.Stat(p); err != nil {
		other := base + strings.ToUpper(ext)
		if ext == ".UCAS" {
			other = base + ".ucas"
		}
		if _, err := os.Stat(other); err == nil {
			return other
		}
	}
	return p
}
