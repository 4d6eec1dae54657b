package legacy

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// TestLyingSizes gives compressed packages whose headers claim images the
// file cannot hold. Each fails with an error naming the field, and
// allocates far less than the claim: sizes are checked against the block
// lists (which must lie in the file, each block's bytes able to expand to
// what it claims) before any image is made.
func TestLyingSizes(t *testing.T) {
	le := binary.LittleEndian
	u32s := func(vs ...uint32) []byte {
		var b []byte
		for _, v := range vs {
			b = le.AppendUint32(b, v)
		}
		return b
	}
	// A chunk header (tag, block size, compressed and uncompressed sums)
	// and its block list; blocks of up to 8 MiB.
	chunk := func(blocks ...uint32) []byte {
		var comp, uncomp uint32
		for i := 0; i < len(blocks); i += 2 {
			comp += blocks[i]
			uncomp += blocks[i+1]
		}
		return append(u32s(PackageTag, 8<<20, comp, uncomp), u32s(blocks...)...)
	}
	// A fuzzer's 24 bytes: a fully compressed package of 13.7 MB whose
	// one block cannot fit it. Before block lists were checked first, each
	// case here allocated the image it claims.
	fuzzed := []byte("\xc1\x83*\x9e\x00\x00\x00\x01000000\xd1\x0000000000")
	whole := func(file []byte) func() error {
		return func() error {
			_, err := NewFile(binread.Mem(file), int64(len(file)))
			return err
		}
	}
	// A package body in one compressed chunk after a 64-byte head.
	inChunk := func(c []byte) func() error {
		file := append(make([]byte, 64), c...)
		s := &Summary{CompressionFlags: CompressZlib, CompressedChunks: []CompressedChunk{{UncompressedOffset: 64, UncompressedSize: int32(le.Uint32(c[12:])), CompressedOffset: 64, CompressedSize: int32(len(c))}}}
		return func() error {
			_, _, _, err := decompressChunks(binread.Mem(file), int64(len(file)), le, s, gameStock)
			return err
		}
	}
	// A chunk placed 16 MiB into an image of 8 bytes of chunks (a
	// fuzzer's find, through verify: it allocated the image of zeros).
	// Refused, expanded whole or chunk by chunk (two chunks, so that the
	// image is not left to decompressChunks).
	pastEnd := func(whole bool) func() error {
		c := append(chunk(4, 8), 1, 2, 3, 4)
		file := append(make([]byte, 64), c...)
		far := CompressedChunk{UncompressedOffset: 16 << 20, UncompressedSize: 8, CompressedOffset: 64, CompressedSize: int32(len(c))}
		s := &Summary{CompressionFlags: CompressZlib, CompressedChunks: []CompressedChunk{far}}
		return func() error {
			if whole {
				_, _, _, err := decompressChunks(binread.Mem(file), int64(len(file)), le, s, gameStock)
				return err
			}
			near := far
			near.UncompressedOffset = 64
			s.CompressedChunks = append(s.CompressedChunks, near)
			_, _, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), le, s, gameStock)
			return err
		}
	}
	for _, tc := range []struct {
		name  string
		open  func() error
		field string
	}{
		{"a chunk past the file's end, whole", pastEnd(true), "CompressedChunk.UncompressedOffset"},
		{"a chunk past the file's end, by chunk", pastEnd(false), "CompressedChunk.UncompressedOffset"},
		{"fully compressed, block list does not fit", whole(fuzzed), "CompressedBlock"},
		// 6 MiB from no compressed bytes: the list fits the file.
		{"fully compressed, empty block", whole(chunk(0, 6<<20)), "CompressedBlock"},
		// 6 MiB from 4 bytes: more than any codec expands a block.
		{"fully compressed, block of 4 bytes", whole(append(chunk(4, 6<<20), 1, 2, 3, 4)), "CompressedBlock"},
		{"chunk, empty block", inChunk(chunk(0, 6<<20)), "CompressedBlock"},
		{"chunk, block list does not fit", inChunk(append(chunk(0, 6<<20), 0, 1)[:20]), "CompressedChunk.Blocks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			grew := allocated(func() { err = tc.open() })
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("error %v, want one naming %s", err, tc.field)
			}
			if grew > 1<<20 {
				t.Errorf("%d bytes allocated", grew)
			}
		})
	}
}

// TestChunkTableOrder reads a package whose chunk table lists its chunks
// out of image order, chunk by chunk: the same image as in order. A table
// whose chunks overlap in the image is refused, read either way (with
// overlapping chunks, a small file could claim a big image by expanding
// the same compressed bytes again and again).
func TestChunkTableOrder(t *testing.T) {
	chunkedAlways(t)
	file, sum := bigChunks(4, 1<<20)
	want, size, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, sum, gameStock)
	if err != nil {
		t.Fatal(err)
	}
	rev := *sum
	rev.CompressedChunks = append([]CompressedChunk(nil), sum.CompressedChunks...)
	for i, j := 0, len(rev.CompressedChunks)-1; i < j; i, j = i+1, j-1 {
		rev.CompressedChunks[i], rev.CompressedChunks[j] = rev.CompressedChunks[j], rev.CompressedChunks[i]
	}
	ci, end, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), binary.LittleEndian, &rev, gameStock)
	if err != nil || ci == nil || end != size {
		t.Fatalf("chunks in reverse order: image %v of %d bytes, %v", ci, end, err)
	}
	got := make([]byte, size)
	if n, err := ci.ReadAt(got, 0); int64(n) != size || err != nil || !bytes.Equal(got, want) {
		t.Fatalf("chunks in reverse order read %d bytes (%v), or other bytes", n, err)
	}

	over := rev
	over.CompressedChunks = append([]CompressedChunk(nil), sum.CompressedChunks...)
	over.CompressedChunks[2].UncompressedOffset -= 100
	for name, open := range map[string]func() error{
		"whole": func() error {
			_, _, _, err := decompressChunks(binread.Mem(file), int64(len(file)), binary.LittleEndian, &over, gameStock)
			return err
		},
		"chunk by chunk": func() error {
			_, _, _, err := newChunkedImage(binread.Mem(file), int64(len(file)), binary.LittleEndian, &over, gameStock)
			return err
		},
	} {
		if err := open(); err == nil || !strings.Contains(err.Error(), "chunks 1 and 2 overlap") {
			t.Errorf("%s: overlapping chunks: %v", name, err)
		}
	}
}

// TestChunkExtentOverlap checks chunk tables in any order: chunks that
// share image bytes are refused, naming them; chunks of no bytes overlap
// none.
func TestChunkExtentOverlap(t *testing.T) {
	ch := func(off int64, n int32) CompressedChunk {
		return CompressedChunk{UncompressedOffset: off, UncompressedSize: n, CompressedOffset: 10, CompressedSize: 10}
	}
	for _, tc := range []struct {
		name   string
		chunks []CompressedChunk
		want   string // "" for no error
	}{
		{"in order", []CompressedChunk{ch(100, 50), ch(150, 50), ch(200, 10)}, ""},
		{"reversed", []CompressedChunk{ch(200, 10), ch(150, 50), ch(100, 50)}, ""},
		{"empty chunk at a chunk's start", []CompressedChunk{ch(150, 0), ch(150, 50), ch(100, 50)}, ""},
		{"empty chunk inside a chunk", []CompressedChunk{ch(100, 50), ch(120, 0)}, ""},
		{"adjacent overlap", []CompressedChunk{ch(100, 50), ch(149, 50)}, "chunks 0 and 1 overlap"},
		{"overlap out of order", []CompressedChunk{ch(200, 10), ch(100, 50), ch(140, 20)}, "chunks 1 and 2 overlap"},
		{"overlap past an empty chunk", []CompressedChunk{ch(100, 50), ch(120, 0), ch(130, 5)}, "chunks 0 and 2 overlap"},
	} {
		_, _, err := chunkExtent(tc.chunks, 1<<20)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestXboxMipTooShort gives a 16-byte Xbox 360 mip claiming 32768×32768
// DXT5 pixels: it fails before the 1 GiB linear mip is made.
func TestXboxMipTooShort(t *testing.T) {
	var err error
	grew := allocated(func() { _, err = untile360(make([]byte, 16), 1<<15, 1<<15, TexDXT5) })
	if err == nil || !strings.Contains(err.Error(), "too short") {
		t.Fatalf("error %v, want a mip too short", err)
	}
	if grew > 1<<20 {
		t.Errorf("%d bytes allocated", grew)
	}
}
