package zen

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// writeNameBatch writes the UE5 name batch for ASCII names.
func writeNameBatch(w *bytes.Buffer, names []string) {
	le := binary.LittleEndian
	binary.Write(w, le, uint32(len(names)))
	if len(names) == 0 {
		return
	}
	n := 0
	for _, s := range names {
		n += len(s)
	}
	binary.Write(w, le, uint32(n))
	binary.Write(w, le, uint64(HashAlgorithmID))
	for _, s := range names {
		binary.Write(w, le, NameHash(s))
	}
	for _, s := range names {
		binary.Write(w, binary.BigEndian, uint16(len(s)))
	}
	for _, s := range names {
		w.WriteString(s)
	}
}

// buildZen50 writes a package in the UE 5.0–5.2 layout (graph data with
// export bundle headers and arcs), with a bulk data map when bulk is set
// (5.2), and returns it with its two exports' data. The data holds export 1
// then export 0: one bundle serializes them in that order, or, with split,
// two bundles (export 0, then export 1) whose SerialOffsets place them.
func buildZen50(bulk, split bool) ([]byte, [][]byte) {
	le := binary.LittleEndian
	names := []string{"/Game/Synth", "Synth", "Sub", "/Script/Engine"}
	exportData := [][]byte{bytes.Repeat([]byte{0xAA}, 40), bytes.Repeat([]byte{0xBB}, 24)}
	var tail bytes.Buffer // everything after the 44-byte summary
	writeNameBatch(&tail, names)
	const summarySize = 44
	pos := func() int32 { return int32(summarySize + tail.Len()) }
	if bulk {
		binary.Write(&tail, le, int64(32))
		binary.Write(&tail, le, [4]int64{0, -1, 100, 0})
	}
	hashesAt := pos()
	binary.Write(&tail, le, PublicExportHash("Other"))
	importsAt := pos()
	binary.Write(&tail, le, uint64(KindScriptImport)<<62|ScriptObjectHash("/Script/Engine.StaticMesh"))
	binary.Write(&tail, le, uint64(KindPackageImport)<<62|0<<32|0)
	exportsAt := pos()
	for i, e := range []struct {
		name  uint32
		outer uint64
	}{{1, uint64(NullIndex)}, {2, 0}} {
		binary.Write(&tail, le, uint64(0))
		binary.Write(&tail, le, uint64(len(exportData[i])))
		binary.Write(&tail, le, [2]uint32{e.name, 0})
		binary.Write(&tail, le, e.outer)
		binary.Write(&tail, le, uint64(KindScriptImport)<<62|ScriptObjectHash("/Script/Engine.StaticMesh"))
		binary.Write(&tail, le, uint64(NullIndex))
		binary.Write(&tail, le, uint64(NullIndex))
		binary.Write(&tail, le, PublicExportHash(names[e.name]))
		binary.Write(&tail, le, uint32(1))
		tail.Write([]byte{0, 0, 0, 0})
	}
	bundlesAt := pos()
	entries := [][2]uint32{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	if split {
		entries = [][2]uint32{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	}
	for _, be := range entries {
		binary.Write(&tail, le, be)
	}
	graphAt := pos()
	if split {
		binary.Write(&tail, le, uint64(len(exportData[1]))) // bundle 0 SerialOffset
		binary.Write(&tail, le, [2]uint32{0, 2})            // FirstEntryIndex, EntryCount
		binary.Write(&tail, le, uint64(0))                  // bundle 1 SerialOffset
		binary.Write(&tail, le, [2]uint32{2, 2})
	} else {
		binary.Write(&tail, le, uint64(0))       // bundle SerialOffset
		binary.Write(&tail, le, [2]uint32{0, 4}) // FirstEntryIndex, EntryCount
	}
	binary.Write(&tail, le, int32(0)) // internal arcs
	binary.Write(&tail, le, int32(1)) // external arcs of imported package 0
	binary.Write(&tail, le, int32(1)) // FromImportIndex
	tail.WriteByte(1)                 // FromCommandType
	binary.Write(&tail, le, int32(0)) // ToExportBundleIndex
	headerSize := pos()

	var out bytes.Buffer
	binary.Write(&out, le, uint32(0)) // bHasVersioningInfo
	binary.Write(&out, le, uint32(headerSize))
	binary.Write(&out, le, [2]uint32{0, 0}) // Name
	binary.Write(&out, le, uint32(0x80000000))
	binary.Write(&out, le, uint32(headerSize))
	binary.Write(&out, le, [5]int32{hashesAt, importsAt, exportsAt, bundlesAt, graphAt})
	out.Write(tail.Bytes())
	out.Write(exportData[1])
	out.Write(exportData[0])
	return out.Bytes(), exportData
}

// TestSynth50 reads the 5.0–5.2 layout, which the corpus has no sample of.
func TestSynth50(t *testing.T) {
	for _, c := range []struct{ bulk, split bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		bulk := c.bulk
		data, exports := buildZen50(bulk, c.split)
		for _, opts := range []Options{{HeaderVersion: HeaderLocalizedPackages}, {HeaderVersion: HeaderOptionalSegmentPackages}, {Auto: true}} {
			p, err := Parse(data, opts)
			if err != nil {
				t.Fatalf("bulk=%v %+v: %v", bulk, opts, err)
			}
			if p.Name != "/Game/Synth" || len(p.Exports) != 2 || len(p.ImportMap) != 2 || len(p.BundleHeaders) != map[bool]int{false: 1, true: 2}[c.split] || len(p.PackageArcs) != 1 || p.HasBulkDataMap != bulk {
				t.Fatalf("bulk=%v: %+v", bulk, p)
			}
			// Export 1's data comes first: by the order of the bundle's
			// Serialize commands, or by the bundles' SerialOffsets.
			for i, want := range exports {
				got, err := p.ExportData(i)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("bulk=%v split=%v export %d: %v", bulk, c.split, i, err)
				}
			}
			if r := p.DataRanges(); len(r) != 2 || r[0].Export != 1 || r[0].Offset != int64(p.Summary.HeaderSize) || r[1].Offset != r[0].Offset+r[0].Size || p.ExportDataEnd() != int64(len(data)) {
				t.Errorf("split=%v: data ranges %+v, end %d of %d", c.split, r, p.ExportDataEnd(), len(data))
			}
			if ok, bad := p.NameHashes(); bad != 0 || ok != 4 {
				t.Errorf("name hashes %d ok, %d bad", ok, bad)
			}
		}
	}
}
