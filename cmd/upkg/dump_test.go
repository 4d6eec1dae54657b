package main

import (
	"bytes"
	"testing"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/jsonenc"
)

// fakeDump is an inspect.EntriesDump: the list alone (as a pak's dump),
// or inside an object with fields around it (as an IoStore container's).
type fakeDump struct {
	entries []inspect.ContainerEntry
	nested  bool
}

func (d fakeDump) DumpWith(entries any) any {
	if !d.nested {
		return entries
	}
	return struct {
		Header  map[string]int `json:"header"`
		Entries any            `json:"entries"`
		After   []string       `json:"after,omitempty"`
	}{map[string]int{"Version": 3}, entries, []string{"x<y>"}}
}

func (d fakeDump) Len() int                           { return len(d.entries) }
func (d fakeDump) Entry(i int) inspect.ContainerEntry { return d.entries[i] }

// whole is the dump encoded whole, as before entries were streamed.
type whole struct{ fakeDump }

func (d whole) MarshalJSON() ([]byte, error) { return jsonenc.Marshal(d.DumpWith(d.entries)) }

// TestWriteDumpStreamed: a container's dump with its entries written one at
// a time is byte for byte the dump encoded whole.
func TestWriteDumpStreamed(t *testing.T) {
	all := []inspect.ContainerEntry{
		{Path: "Game/A & B <c>.uasset", ChunkType: "file", Size: 10, CompressedSize: 7, Compression: "Zlib", Hash: "ab"},
		{ChunkID: "pathhash:0000000000000001", ChunkType: "deleted", Offset: 99},
		{Path: "Game/Ünïcode\u2028.bin", ChunkType: "file"},
	}
	for _, nested := range []bool{false, true} {
		for _, entries := range [][]inspect.ContainerEntry{all, {}} {
			d := fakeDump{entries, nested}
			out := dumpOutput{Path: "c.pak", Format: "pak", Warnings: []string{"w"}}
			var want, have bytes.Buffer
			out.Package = whole{d}
			if err := writeJSON(&want, out); err != nil {
				t.Fatal(err)
			}
			out.Package = d
			if err := writeDump(&have, out); err != nil {
				t.Fatal(err)
			}
			if have.String() != want.String() {
				t.Errorf("nested=%v, %d entries:\nhave %s\nwant %s", nested, len(entries), have.String(), want.String())
			}
		}
	}
}
