// Package zentest writes small zen packages for tests: the UE 5.3
// (NoExportInfo) layout, with a name map, exports and nothing else (no
// imports, no export data), enough for the readers to walk their export
// maps. It does not import the reader it is used to test.
package zentest

import (
	"encoding/binary"
	"strings"

	"github.com/go-faster/city"
)

// Package53 writes a package named /Game/P with n exports, all named by
// name 1 (nameLen bytes of 'A') with the number number(i); outer(i) is
// export i's outer export, or -1 for none.
func Package53(nameLen, n int, outer func(i int) int, number func(i int) uint32) []byte {
	le := binary.LittleEndian
	const summarySize = 52
	names := []string{"/Game/P", strings.Repeat("A", nameLen)}
	// FNameBatch: counts, hash version, hashes, big-endian lengths, bytes.
	var b []byte
	b = le.AppendUint32(b, uint32(len(names)))
	b = le.AppendUint32(b, uint32(len(names[0])+len(names[1])))
	b = le.AppendUint64(b, 0xC1640000) // hash algorithm
	for _, s := range names {
		b = le.AppendUint64(b, city.Hash64([]byte(strings.ToLower(s)))) // (ASCII names)
	}
	for _, s := range names {
		b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	}
	for _, s := range names {
		b = append(b, s...)
	}
	pos := func() uint32 { return uint32(summarySize + len(b)) }
	hashesAt, importsAt, exportsAt := pos(), pos(), pos()
	const null = ^uint64(0)
	for i := range n {
		b = le.AppendUint64(b, 0)         // CookedSerialOffset
		b = le.AppendUint64(b, 0)         // CookedSerialSize
		b = le.AppendUint32(b, 1)         // ObjectName
		b = le.AppendUint32(b, number(i)) // (number)
		o := null
		if k := outer(i); k >= 0 {
			o = uint64(k)
		}
		b = le.AppendUint64(b, o)         // OuterIndex
		b = le.AppendUint64(b, null)      // ClassIndex
		b = le.AppendUint64(b, null)      // SuperIndex
		b = le.AppendUint64(b, null)      // TemplateIndex
		b = le.AppendUint64(b, uint64(i)) // PublicExportHash
		b = le.AppendUint32(b, 1)         // ObjectFlags
		b = append(b, 0, 0, 0, 0)         // FilterFlags, padding
	}
	bundlesAt := pos()
	for cmd := range 2 { // create, then serialize, each export
		for i := range n {
			b = le.AppendUint32(b, uint32(i))
			b = le.AppendUint32(b, uint32(cmd))
		}
	}
	depHeadersAt := pos()
	for range n {
		b = le.AppendUint32(b, 0) // FirstEntryIndex
		b = append(b, make([]byte, 16)...)
	}
	depEntriesAt, importedNamesAt := pos(), pos()
	b = le.AppendUint32(b, 0) // no imported package names
	headerSize := pos()
	var out []byte
	out = le.AppendUint32(out, 0)          // HasVersioningInfo
	out = le.AppendUint32(out, headerSize) // HeaderSize
	out = le.AppendUint32(out, 0)          // Name
	out = le.AppendUint32(out, 0)
	out = le.AppendUint32(out, 0x80000000) // PackageFlags: FilterEditorOnly
	out = le.AppendUint32(out, headerSize) // CookedHeaderSize
	for _, off := range []uint32{hashesAt, importsAt, exportsAt, bundlesAt, depHeadersAt, depEntriesAt, importedNamesAt} {
		out = le.AppendUint32(out, off)
	}
	return append(out, b...)
}
