package pak

import (
	"bytes"
	"path"
	"strings"
	"sync"

	"github.com/upkg/upkg/compression"
)

// A pak whose index is not encrypted can still have encrypted entries, and
// AES-ECB has no integrity check: a wrong key decrypts to garbage silently.
// keyCheck looks for evidence about the key in the encrypted entries before
// any of them is returned:
//
//   - a compressed entry whose first block decompresses (zlib and the other
//     registered codecs check their streams): the key is right; one that
//     fails: the key is wrong;
//   - a .uasset/.umap whose first bytes are (or are not) the package tag;
//   - AES padding: UnrealPak 4.21+ (pak version 7+) fills the padding of
//     stored data with the data's own first bytes, so a match proves the
//     key; when nothing else decides and no padding matches, the key is
//     wrong.
//
// Paks written by UnrealPak 4.20 and earlier with only uncompressed,
// non-package encrypted entries give no evidence either way.

// keyCheckLimit bounds how many entries keyCheck reads.
const keyCheckLimit = 64

// packageTag is PACKAGE_FILE_TAG, the first four bytes of a .uasset.
var packageTag = []byte{0xC1, 0x83, 0x2A, 0x9E}

type keyState struct {
	once sync.Once
	err  error
}

// checkKey returns a KeyError wrapping ErrWrongKey when the entries show the
// key is wrong.
func (p *Reader) checkKey() error {
	if p.Footer.EncryptedIndex {
		return nil // the index's SHA-1 already proved the key
	}
	p.key.once.Do(func() { p.key.err = p.runKeyCheck() })
	return p.key.err
}

func (p *Reader) runKeyCheck() error {
	good, bad, weak := 0, 0, 0
	var badName string
	checked := 0
	for _, e := range p.All() {
		if !e.Encrypted() || e.Deleted() || e.UncompressedSize == 0 {
			continue
		}
		if checked++; checked > keyCheckLimit || good > 0 {
			break
		}
		switch v := p.keyEvidence(e); v {
		case 1:
			good++
		case -1:
			bad++
			badName = e.displayName()
		case -2:
			weak++
			badName = e.displayName()
		}
	}
	if good > 0 {
		return nil
	}
	if bad > 0 || (weak > 0 && p.Footer.Version >= VersionEncryptionKeyGuid) {
		return &KeyError{KeyGuid: p.Footer.EncryptionKeyGuid, What: "the pak's encrypted entries", Err: ErrWrongKey,
			Detail: "entry " + badName + " does not decrypt to valid data"}
	}
	return nil
}

// keyEvidence returns 1 when e decrypts to verifiably valid data, -1 when it
// verifiably does not, -2 when its AES padding does not follow UnrealPak's
// pattern, and 0 when there is nothing to check.
func (p *Reader) keyEvidence(e *Entry) int {
	if e.Compressed() {
		if !compression.Supported(e.CompressionMethod) || len(e.Blocks) == 0 {
			return 0
		}
		b := e.Blocks[0]
		raw := make([]byte, align(b.End-b.Start))
		if readAtFull(p.r, raw, b.Start) != nil || p.decrypt(raw, e.IV(), 0) != nil {
			return 0
		}
		bs := int64(e.CompressionBlockSize)
		if len(e.Blocks) == 1 || bs == 0 {
			bs = e.UncompressedSize
		}
		dst := make([]byte, min(bs, e.UncompressedSize))
		if compression.Decompress(e.CompressionMethod, dst, raw[:b.End-b.Start]) != nil {
			return -1
		}
		return 1
	}
	n := min(e.StoredSize(), chunkSize)
	raw := make([]byte, n)
	if readAtFull(p.r, raw, e.DataOffset()) != nil || p.decrypt(raw, e.IV(), 0) != nil {
		return 0
	}
	ext := strings.ToLower(path.Ext(e.Name))
	if (ext == ".uasset" || ext == ".umap") && n >= 4 {
		if bytes.Equal(raw[:4], packageTag) {
			return 1
		}
		return -1
	}
	if p.Footer.EncryptionMethod == EncryptionAESCTR || e.StoredSize() > chunkSize {
		return 0
	}
	pad := raw[e.CompressedSize:]
	if len(pad) == 0 {
		return 0
	}
	for i := range pad {
		if pad[i] != raw[int64(i)%e.CompressedSize] {
			return -2
		}
	}
	return 1
}
