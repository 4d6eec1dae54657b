package legacy

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/binread"
)

// rocketScheme names Rocket League's header encryption in errors.
const rocketScheme = "Rocket League AES-256-ECB"

// rocketLeagueEncrypted reports whether the name table of a Rocket League
// package is unreadable plain text: the game encrypts everything from
// NameOffset to the end of the header.
func rocketLeagueEncrypted(f *File) bool {
	s := &f.Summary
	if s.NameCount <= 0 || s.NameOffset <= 0 || int64(s.NameOffset)+8 > f.size {
		return false
	}
	var b [8]byte
	if _, err := f.img.ReadAt(b[:], int64(s.NameOffset)); err != nil {
		return false
	}
	n := int32(f.order.Uint32(b[:]))
	if n <= 0 || n > 1024 {
		return true
	}
	for _, c := range b[4:min(8, 4+int(n)-1)] {
		if c < 0x20 || c >= 0x7F {
			return true
		}
	}
	return false
}

// decryptRocketLeague decrypts the header of a Rocket League package with
// key, reads the chunk table stored inside it and builds the package image:
// summary, decrypted tables, then the zlib chunks of the body.
func decryptRocketLeague(f *File, key []byte) (io.ReaderAt, error) {
	s := &f.Summary
	if len(key) == 0 {
		return nil, &EncryptedError{Scheme: rocketScheme, Reason: "the name, import and export tables are encrypted; give the game's key with --aes-key"}
	}
	c, err := aeskey.New(key)
	if err != nil {
		return nil, &EncryptedError{Scheme: rocketScheme, Reason: err.Error()}
	}
	rl := s.RocketLeague
	if rl == nil {
		return nil, &EncryptedError{Scheme: rocketScheme, Reason: "summary has no encryption metadata"}
	}
	encSize := int64(s.HeadersSize) - int64(rl.GarbageSize) - int64(s.NameOffset)
	encSize = (encSize + 15) &^ 15
	if encSize <= 0 || int64(s.NameOffset)+encSize > f.size {
		return nil, &FormatError{Field: "Summary.TotalHeaderSize", Msg: fmt.Sprintf("encrypted header of %d bytes does not fit the file", encSize)}
	}
	hdr := make([]byte, int64(s.NameOffset)+encSize)
	if _, err := f.img.ReadAt(hdr, 0); err != nil && err != io.EOF {
		return nil, err
	}
	if err := c.DecryptECB(hdr[s.NameOffset:]); err != nil {
		return nil, &EncryptedError{Scheme: rocketScheme, Reason: err.Error()}
	}
	// The chunk table sits at CompressedChunkInfoOffset inside the
	// decrypted block; its first chunk starts where the depends table does,
	// which is how a wrong key is recognised.
	cr := binread.FromBytes(hdr[s.NameOffset:])
	cr.SetOrder(binary.LittleEndian)
	cr.SeekTo(int64(rl.CompressedChunkInfoOffset), "RocketLeague.ChunkInfo")
	n := cr.Count("RocketLeague.ChunkCount", 24)
	chunks := make([]CompressedChunk, 0, binread.SliceCap(n))
	for range n {
		chunks = append(chunks, CompressedChunk{
			UncompressedOffset: cr.I64("CompressedChunk.UncompressedOffset"),
			UncompressedSize:   cr.I32("CompressedChunk.UncompressedSize"),
			CompressedOffset:   cr.I64("CompressedChunk.CompressedOffset"),
			CompressedSize:     cr.I32("CompressedChunk.CompressedSize"),
		})
	}
	if cr.Err() != nil || n < 1 || chunks[0].UncompressedOffset != int64(s.DependsOffset) {
		return nil, &EncryptedError{Scheme: rocketScheme, Reason: "the key does not decrypt this package (chunk table check failed)", WrongKey: true}
	}
	sum := *s
	sum.CompressedChunks = chunks
	sum.CompressionFlags = CompressZlib
	img, size, _, err := decompressChunks(f.img, f.size, f.order, &sum, f.game)
	if err != nil {
		return nil, err
	}
	// The image is ours: the decrypted header replaces its copy of the
	// encrypted one.
	copy(img, hdr[:min(int64(len(hdr)), int64(s.DependsOffset), size)])
	f.size = size
	return img, nil
}
