// Package iostoretest writes small, valid IoStore containers for tests: any
// TOC version, uncompressed and unencrypted, with a directory tree built
// from the chunks' paths. It follows the layout the engine's FIoStoreWriter
// produces (header, chunk IDs, 5-byte offsets and lengths, compression
// blocks, directory index, chunk metas) closely enough for readers, and
// does not import the reader it is used to test.
package iostoretest

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"sort"
	"strings"

	"github.com/upkg/upkg/internal/blake3"
)

// Chunk is one chunk to store: its 12-byte FIoChunkId, its path in the
// directory index ("" for none) and its data.
type Chunk struct {
	ID   [12]byte
	Path string
	Data []byte
}

// ChunkID builds a chunk ID from a 64-bit ID, an index and a raw type byte.
func ChunkID(id uint64, index uint16, typ uint8) [12]byte {
	var c [12]byte
	binary.LittleEndian.PutUint64(c[:], id)
	c[8], c[9] = byte(index>>8), byte(index)
	c[11] = typ
	return c
}

const (
	headerSize = 144
	blockSize  = 0x100 // small, so chunks span several blocks
	none       = ^uint32(0)
)

// Build writes a container of TOC version version with the given chunks
// and container ID, mounted at mount, and returns the .utoc and .ucas bytes.
// Chunk hashes are SHA-1 up to version 3 and BLAKE3 (FIoHash) after.
func Build(version uint8, containerID uint64, mount string, chunks []Chunk) (toc, cas []byte) {
	return BuildCompressed(version, containerID, mount, chunks, blockSize, "", nil)
}

// BuildCompressed is Build with compression blocks of blockSize bytes,
// each compressed with compress and stored as method (one method name in
// the TOC); a nil compress stores them as they are.
func BuildCompressed(version uint8, containerID uint64, mount string, chunks []Chunk, blockSize int, method string, compress func([]byte) []byte) (toc, cas []byte) {
	le := binary.LittleEndian
	var ids, ols, blocks, metas, ucas bytes.Buffer
	var addr uint64
	nblocks := 0
	for _, c := range chunks {
		ids.Write(c.ID[:])
		var ol [10]byte
		for k := 0; k < 5; k++ {
			ol[4-k] = byte(addr >> (8 * k))
			ol[9-k] = byte(uint64(len(c.Data)) >> (8 * k))
		}
		ols.Write(ol[:])
		for off := 0; off < len(c.Data); off += blockSize {
			part := c.Data[off:min(off+blockSize, len(c.Data))]
			var be [12]byte
			pos := uint64(ucas.Len())
			for k := 0; k < 5; k++ {
				be[k] = byte(pos >> (8 * k))
			}
			stored := part
			if compress != nil {
				stored = compress(part)
				be[11] = 1 // the method
			}
			be[5], be[6], be[7] = byte(len(stored)), byte(len(stored)>>8), byte(len(stored)>>16)
			be[8], be[9], be[10] = byte(len(part)), byte(len(part)>>8), byte(len(part)>>16)
			blocks.Write(be[:])
			ucas.Write(stored)
			for ucas.Len()%16 != 0 {
				ucas.WriteByte(0)
			}
			nblocks++
		}
		addr += (uint64(len(c.Data)) + uint64(blockSize) - 1) / uint64(blockSize) * uint64(blockSize)
		var h [20]byte
		if version <= 3 {
			h = sha1.Sum(c.Data)
		} else {
			s := blake3.Sum256(c.Data)
			copy(h[:], s[:20])
		}
		metas.Write(h[:])
		if version >= 8 {
			metas.Write([]byte{0, 0, 0, 0})
		} else {
			metas.Write(make([]byte, 13))
		}
	}
	di := directoryIndex(mount, chunks)

	hdr := make([]byte, headerSize)
	copy(hdr, "-==--==--==--==-")
	hdr[16] = version
	le.PutUint32(hdr[20:], headerSize)
	le.PutUint32(hdr[24:], uint32(len(chunks)))
	le.PutUint32(hdr[28:], uint32(nblocks))
	le.PutUint32(hdr[32:], 12)
	if compress != nil {
		le.PutUint32(hdr[36:], 1) // CompressionMethodNameCount
	}
	le.PutUint32(hdr[40:], 32)
	le.PutUint32(hdr[44:], uint32(blockSize))
	if version >= 2 {
		le.PutUint32(hdr[48:], uint32(len(di)))
	}
	le.PutUint32(hdr[52:], 1)
	le.PutUint64(hdr[56:], containerID)
	hdr[80] = 1 << 3 // Indexed
	le.PutUint64(hdr[88:], ^uint64(0))
	var out bytes.Buffer
	out.Write(hdr)
	out.Write(ids.Bytes())
	out.Write(ols.Bytes())
	out.Write(blocks.Bytes())
	if compress != nil {
		var name [32]byte
		copy(name[:], method)
		out.Write(name[:])
	}
	if version >= 2 {
		out.Write(di)
	}
	out.Write(metas.Bytes())
	return out.Bytes(), ucas.Bytes()
}

// directoryIndex writes FIoDirectoryIndexResource for the chunks' paths.
func directoryIndex(mount string, chunks []Chunk) []byte {
	type dir struct {
		name                  uint32
		child, sibling, first uint32
	}
	type file struct{ name, next, data uint32 }
	var strs []string
	index := map[string]uint32{}
	str := func(s string) uint32 {
		if i, ok := index[s]; ok {
			return i
		}
		strs = append(strs, s)
		index[s] = uint32(len(strs) - 1)
		return index[s]
	}
	dirs := []dir{{none, none, none, none}}
	byPath := map[string]uint32{"": 0}
	var files []file
	order := make([]int, len(chunks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return chunks[order[a]].Path < chunks[order[b]].Path })
	for _, ci := range order {
		p := chunks[ci].Path
		if p == "" {
			continue
		}
		parts := strings.Split(p, "/")
		parent, acc := uint32(0), ""
		for _, d := range parts[:len(parts)-1] {
			acc += "/" + d
			di, ok := byPath[acc]
			if !ok {
				di = uint32(len(dirs))
				dirs = append(dirs, dir{str(d), none, dirs[parent].child, none})
				dirs[parent].child = di
				byPath[acc] = di
			}
			parent = di
		}
		files = append(files, file{str(parts[len(parts)-1]), dirs[parent].first, uint32(ci)})
		dirs[parent].first = uint32(len(files) - 1)
	}
	le := binary.LittleEndian
	var b bytes.Buffer
	fstr := func(s string) {
		binary.Write(&b, le, int32(len(s)+1))
		b.WriteString(s)
		b.WriteByte(0)
	}
	fstr(mount)
	binary.Write(&b, le, int32(len(dirs)))
	for _, d := range dirs {
		binary.Write(&b, le, [4]uint32{d.name, d.child, d.sibling, d.first})
	}
	binary.Write(&b, le, int32(len(files)))
	for _, f := range files {
		binary.Write(&b, le, [3]uint32{f.name, f.next, f.data})
	}
	binary.Write(&b, le, int32(len(strs)))
	for _, s := range strs {
		fstr(s)
	}
	return b.Bytes()
}

// StoreEntry is one package of [ContainerHeaderUE427].
type StoreEntry struct {
	PackageID         uint64
	ExportCount       int32
	ExportBundleCount int32
	ImportedPackages  []uint64
}

// ContainerHeaderUE427 writes FIoContainerHeader in the 4.27 (Initial)
// layout: no names, one FFilePackageStoreEntry per package, no culture map
// or redirects.
func ContainerHeaderUE427(containerID uint64, entries []StoreEntry) []byte {
	le := binary.LittleEndian
	var b bytes.Buffer
	binary.Write(&b, le, containerID)
	binary.Write(&b, le, uint32(len(entries)))
	binary.Write(&b, le, int32(0)) // names buffer
	binary.Write(&b, le, int32(0)) // name hashes buffer
	binary.Write(&b, le, int32(len(entries)))
	for _, e := range entries {
		binary.Write(&b, le, e.PackageID)
	}
	const entrySize, importsAt = 32, 24
	var store bytes.Buffer
	arrays := len(entries) * entrySize
	var tail bytes.Buffer
	for i, e := range entries {
		binary.Write(&store, le, uint64(0)) // ExportBundlesSize
		binary.Write(&store, le, e.ExportCount)
		binary.Write(&store, le, e.ExportBundleCount)
		binary.Write(&store, le, uint32(0)) // LoadOrder
		binary.Write(&store, le, uint32(0)) // Pad
		off := uint32(0)
		if len(e.ImportedPackages) > 0 {
			off = uint32(arrays + tail.Len() - (i*entrySize + importsAt))
			for _, id := range e.ImportedPackages {
				binary.Write(&tail, le, id)
			}
		}
		binary.Write(&store, le, uint32(len(e.ImportedPackages)))
		binary.Write(&store, le, off)
	}
	store.Write(tail.Bytes())
	binary.Write(&b, le, int32(store.Len()))
	b.Write(store.Bytes())
	binary.Write(&b, le, int32(0)) // culture package map
	binary.Write(&b, le, int32(0)) // package redirects
	return b.Bytes()
}
