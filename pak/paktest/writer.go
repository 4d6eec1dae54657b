// Package paktest writes small .pak files for tests: fixtures with chosen
// versions, compression, encryption and (hostile) paths, and large
// synthetic paks for benchmarks. It is not a general pak writer: it writes
// one compression method (Zlib) and AES-256-ECB only, and path hashes in
// the version 11 form.
package paktest

import (
	"bytes"
	"compress/zlib"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/rand"
	"path"
	"sort"
	"strings"
	"unicode/utf16"
)

// File is one file to store.
type File struct {
	Path     string // index path, relative to the mount point
	Data     []byte
	Compress bool // Zlib, in blocks of BlockSize
	Encrypt  bool
	// Delete makes a delete record (a patch pak removing the file): no
	// data, the Deleted flag; from version 10 it is a non-encoded entry.
	Delete    bool
	BlockSize int // default 64 KiB
	// SharedData points the file's entry at the bytes of the last file
	// before it with the same data and settings, written once (an index
	// no engine writes: entries sharing data).
	SharedData bool
	// StoredSize, when not 0, is the stored size written for the entry,
	// whatever its data takes (an index no engine writes).
	StoredSize int64
}

// Options choose the pak layout.
type Options struct {
	Version      int  // 1 … 11 (compression and encryption from 3)
	Is8A         bool // with Version 8: the UE4.22 layout
	Mount        string
	Key          []byte // AES-256 key, needed for Encrypt / EncryptIndex
	EncryptIndex bool
	// NoFullDirectoryIndex leaves out the v10+ full directory index (as
	// shipped games often do); files are then known by path hash only.
	NoFullDirectoryIndex bool
}

const magic = 0x5A6F12E1

type entry struct {
	path                string
	offset, size, usize int64
	method              uint32
	hash                [20]byte
	blocks              [][2]int64 // as written in the header (relative for v5+)
	blockSizes          []int64    // compressed size of each block
	flags               uint8
	blockSize           uint32
	encrypted           bool
}

type writer struct {
	bytes.Buffer
	o   Options
	blk cipher.Block
}

func (w *writer) u8(v uint8)   { w.WriteByte(v) }
func (w *writer) u32(v uint32) { binary.Write(w, binary.LittleEndian, v) }
func (w *writer) i32(v int32)  { binary.Write(w, binary.LittleEndian, v) }
func (w *writer) u64(v uint64) { binary.Write(w, binary.LittleEndian, v) }
func (w *writer) i64(v int64)  { binary.Write(w, binary.LittleEndian, v) }

func (w *writer) fstring(s string) {
	ascii := true
	for _, r := range s {
		if r >= 0x80 {
			ascii = false
		}
	}
	if s == "" {
		w.i32(0)
		return
	}
	if ascii {
		w.i32(int32(len(s) + 1))
		w.WriteString(s)
		w.u8(0)
		return
	}
	u := utf16.Encode([]rune(s))
	w.i32(-int32(len(u) + 1))
	for _, c := range u {
		binary.Write(w, binary.LittleEndian, c)
	}
	binary.Write(w, binary.LittleEndian, uint16(0))
}

// entrySize mirrors the reader's FPakEntry size.
func (w *writer) entrySize(compressed bool, blocks int) int64 {
	n := int64(24)
	if w.o.Version == 8 && w.o.Is8A {
		n++
	} else {
		n += 4
	}
	if w.o.Version < 2 {
		n += 8
	}
	n += 20
	if w.o.Version >= 3 {
		if compressed {
			n += 4 + 16*int64(blocks)
		}
		n += 5
	}
	return n
}

func (w *writer) entry(e *entry, offset int64) {
	w.i64(offset)
	w.i64(e.size)
	w.i64(e.usize)
	if w.o.Version == 8 && w.o.Is8A {
		w.u8(uint8(e.method))
	} else {
		w.u32(e.method)
	}
	if w.o.Version < 2 {
		w.u64(0)
	}
	w.Write(e.hash[:])
	if w.o.Version >= 3 {
		if e.method != 0 {
			w.u32(uint32(len(e.blocks)))
			for _, b := range e.blocks {
				w.i64(b[0])
				w.i64(b[1])
			}
		}
		w.u8(e.flags)
		w.u32(e.blockSize)
	}
}

// pad extends b to a multiple of 16 by repeating its own bytes, as
// UnrealPak 4.21+ does.
func pad(b []byte) []byte {
	n := len(b)
	for len(b)%16 != 0 {
		b = append(b, b[(len(b)-n)%max(n, 1)])
	}
	return b
}

func (w *writer) encrypt(b []byte) {
	for i := 0; i < len(b); i += 16 {
		w.blk.Encrypt(b[i:i+16], b[i:i+16])
	}
}

// Build writes a pak holding files.
func Build(o Options, files []File) ([]byte, error) {
	if o.Version < 1 || o.Version > 11 {
		return nil, fmt.Errorf("paktest: version %d not supported (1…11)", o.Version)
	}
	w := &writer{o: o}
	if o.Key != nil {
		b, err := aes.NewCipher(o.Key)
		if err != nil {
			return nil, err
		}
		w.blk = b
	}
	var entries []*entry
	written := map[string]*entry{} // by settings and data, for SharedData
	for _, f := range files {
		key := fmt.Sprint(f.Compress, f.Encrypt, f.Delete, f.BlockSize) + string(f.Data)
		if prev, ok := written[key]; ok && f.SharedData {
			e := *prev
			e.path = f.Path
			entries = append(entries, &e)
			continue
		}
		if (f.Encrypt || o.EncryptIndex) && w.blk == nil {
			return nil, fmt.Errorf("paktest: encryption needs a key")
		}
		if o.Version < 3 && (f.Compress || f.Encrypt) {
			return nil, fmt.Errorf("paktest: version %d has no compression or encryption", o.Version)
		}
		e := &entry{path: f.Path, usize: int64(len(f.Data)), encrypted: f.Encrypt}
		if f.Encrypt {
			e.flags = 1
		}
		if f.Delete {
			if o.Version < 6 {
				return nil, fmt.Errorf("paktest: delete records need version 6+")
			}
			e.flags |= 2
			f.Data = nil
			e.usize = 0
		}
		var stored []byte
		if f.Compress && len(f.Data) > 0 {
			bs := f.BlockSize
			if bs == 0 {
				bs = 64 << 10
			}
			e.method = 1 // slot 1 (Zlib) or COMPRESS_ZLIB
			e.blockSize = uint32(bs)
			for i := 0; i < len(f.Data); i += bs {
				var zb bytes.Buffer
				zw := zlib.NewWriter(&zb)
				zw.Write(f.Data[i:min(i+bs, len(f.Data))])
				zw.Close()
				c := zb.Bytes()
				e.blockSizes = append(e.blockSizes, int64(len(c)))
				e.size += int64(len(c))
				if f.Encrypt {
					c = pad(c)
					w.encrypt(c)
				}
				stored = append(stored, c...)
			}
			if len(e.blockSizes) == 1 {
				e.blockSize = uint32(len(f.Data))
			}
		} else {
			e.size = e.usize
			stored = append([]byte(nil), f.Data...)
			if f.Encrypt {
				stored = pad(stored)
				w.encrypt(stored)
			}
		}
		if e.method != 0 {
			e.hash = sha1.Sum(stored)
		} else {
			e.hash = sha1.Sum(stored[:e.size])
		}
		e.offset = int64(w.Len())
		hs := w.entrySize(e.method != 0, len(e.blockSizes))
		start := hs
		if o.Version < 5 {
			start += e.offset
		}
		for _, s := range e.blockSizes {
			e.blocks = append(e.blocks, [2]int64{start, start + s})
			if f.Encrypt {
				s = (s + 15) &^ 15
			}
			start += s
		}
		if f.StoredSize != 0 {
			e.size = f.StoredSize
		}
		w.entry(e, 0)
		w.Write(stored)
		entries = append(entries, e)
		written[key] = e
	}

	indexOffset := int64(w.Len())
	idx := writer{o: o, blk: w.blk}
	idx.fstring(o.Mount)
	idx.i32(int32(len(entries)))
	var extra []byte // path hash index and directory index, after the primary index
	if o.Version < 10 {
		for _, e := range entries {
			idx.fstring(e.path)
			idx.entry(e, e.offset)
		}
	} else {
		idx.u64(0) // PathHashSeed
		var enc writer
		plain := writer{o: o}
		nPlain := 0
		locs := make([]int32, len(entries))
		for i, e := range entries {
			if e.flags&2 != 0 {
				// Delete records are not encodable (FPakFile::EncodePakEntry).
				nPlain++
				locs[i] = -int32(nPlain)
				plain.entry(e, e.offset)
				continue
			}
			locs[i] = int32(enc.Len())
			enc.encoded(e)
		}
		var phi writer
		phi.i32(int32(len(entries)))
		for i, e := range entries {
			phi.u64(pathHash(e.path, 0))
			phi.i32(locs[i])
		}
		phi.i32(0) // pruned directory index
		fdi := writer{o: o}
		dirs := map[string][]int{}
		for i, e := range entries {
			d, _ := path.Split(e.path)
			dirs["/"+d] = append(dirs["/"+d], i)
		}
		names := make([]string, 0, len(dirs))
		for d := range dirs {
			names = append(names, d)
		}
		sort.Strings(names)
		fdi.i32(int32(len(names)))
		for _, d := range names {
			fdi.fstring(d)
			fdi.i32(int32(len(dirs[d])))
			for _, i := range dirs[d] {
				fdi.fstring(path.Base(entries[i].path))
				fdi.i32(locs[i])
			}
		}
		// The primary index is written first; the other two follow it.
		blobs := [][]byte{w.seal(phi.Bytes()), nil}
		if !o.NoFullDirectoryIndex {
			blobs[1] = w.seal(fdi.Bytes())
		}
		primarySize := int64(idx.Len()) + 4 + int64(enc.Len()) + 4 + int64(plain.Len())
		for _, b := range blobs {
			primarySize += 4
			if b != nil {
				primarySize += 8 + 8 + 20
			}
		}
		if o.EncryptIndex {
			primarySize = (primarySize + 15) &^ 15
		}
		off := indexOffset + primarySize
		for _, b := range blobs {
			if b == nil {
				idx.u32(0)
				continue
			}
			idx.u32(1)
			idx.i64(off)
			idx.i64(int64(len(b)))
			idx.Write(w.plainHash(b))
			off += int64(len(b))
			extra = append(extra, b...)
		}
		idx.i32(int32(enc.Len()))
		idx.Write(enc.Bytes())
		idx.i32(int32(nPlain)) // non-encoded entries
		idx.Write(plain.Bytes())
	}
	primary := w.seal(idx.Bytes())
	hash := w.plainHash(primary)
	w.Write(primary)
	w.Write(extra)

	// Footer.
	if o.Version >= 7 {
		w.Write(make([]byte, 16))
	}
	if o.Version >= 4 {
		if o.EncryptIndex {
			w.u8(1)
		} else {
			w.u8(0)
		}
	}
	w.u32(magic)
	w.u32(uint32(o.Version))
	w.i64(indexOffset)
	w.i64(int64(len(primary)))
	w.Write(hash)
	if o.Version == 9 {
		w.u8(0)
	}
	if o.Version >= 8 {
		slots := 5
		if o.Version == 8 && o.Is8A {
			slots = 4
		}
		for i := range slots {
			var name [32]byte
			if i == 0 {
				copy(name[:], "Zlib")
			}
			w.Write(name[:])
		}
	}
	return w.Bytes(), nil
}

// seal pads (with zeros) and encrypts an index blob when the index is
// encrypted; it returns the blob as written.
func (w *writer) seal(b []byte) []byte {
	b = append([]byte(nil), b...)
	if !w.o.EncryptIndex {
		return b
	}
	for len(b)%16 != 0 {
		b = append(b, 0)
	}
	w.encrypt(b)
	return b
}

// plainHash is the SHA-1 of a blob before encryption (what the engine checks).
func (w *writer) plainHash(sealed []byte) []byte {
	b := sealed
	if w.o.EncryptIndex {
		b = append([]byte(nil), sealed...)
		for i := 0; i < len(b); i += 16 {
			w.blk.Decrypt(b[i:i+16], b[i:i+16])
		}
	}
	h := sha1.Sum(b)
	return h[:]
}

// pathHash is the v11 path hash (FNV-1a 64 of the lowercased UTF-16LE
// path, offset basis plus seed).
func pathHash(p string, seed uint64) uint64 {
	h := uint64(0xcbf29ce484222325) + seed
	for _, u := range utf16.Encode([]rune(strings.ToLower(p))) {
		for _, b := range []byte{byte(u), byte(u >> 8)} {
			h ^= uint64(b)
			h *= 0x100000001b3
		}
	}
	return h
}

// encoded writes the v10+ bit-packed form of e.
func (w *writer) encoded(e *entry) {
	bs := (e.blockSize >> 11) & 0x3f
	if bs<<11 != e.blockSize {
		bs = 0x3f
	}
	bits := bs | uint32(len(e.blockSizes))<<6 | e.method<<23
	if e.encrypted {
		bits |= 1 << 22
	}
	if e.size <= 0xffffffff {
		bits |= 1 << 29
	}
	if e.usize <= 0xffffffff {
		bits |= 1 << 30
	}
	if e.offset <= 0xffffffff {
		bits |= 1 << 31
	}
	w.u32(bits)
	if bs == 0x3f {
		w.u32(e.blockSize)
	}
	if e.offset <= 0xffffffff {
		w.u32(uint32(e.offset))
	} else {
		w.i64(e.offset)
	}
	if e.usize <= 0xffffffff {
		w.u32(uint32(e.usize))
	} else {
		w.i64(e.usize)
	}
	if e.method != 0 {
		if e.size <= 0xffffffff {
			w.u32(uint32(e.size))
		} else {
			w.i64(e.size)
		}
		if len(e.blockSizes) > 1 || e.encrypted {
			for _, s := range e.blockSizes {
				w.u32(uint32(s))
			}
		}
	}
}

// TextLike returns n bytes of text-like data that zlib compresses about
// 3:1, like typical package data: engine words and, one time in four,
// eight random bytes. The same seed gives the same bytes.
func TextLike(n int, seed int64) []byte {
	rng := rand.New(rand.NewSource(seed))
	words := []string{"Actor", "Component", "/Script/Engine", "StaticMesh", "None", "Transform", "\x00\x00\x00\x00", "\x01\x00\x00\x00", "Material", "Texture2D"}
	var b bytes.Buffer
	for b.Len() < n {
		if rng.Intn(4) == 0 {
			var x [8]byte
			rng.Read(x[:])
			b.Write(x[:])
		} else {
			b.WriteString(words[rng.Intn(len(words))])
		}
	}
	return b.Bytes()[:n]
}
