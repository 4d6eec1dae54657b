package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/upkg/upkg/internal/inspect"
)

// TestWriteLsJSON checks that ls's streamed JSON is byte for byte what
// json.Encoder makes of the whole object, indented and on one line, with
// entries and with none (an empty list, not null).
func TestWriteLsJSON(t *testing.T) {
	head := lsHead{Container: "a<b>.pak", Format: "pak", Summary: []inspect.Field{{Key: "Version", Value: "11"}, {Key: "Entries", Value: 2}}}
	all := []inspect.ContainerEntry{
		{Path: "Game/A & B.uasset", ChunkType: "file", Size: 10, CompressedSize: 7, Compression: "Zlib", Hash: "ab"},
		{ChunkID: "pathhash:0000000000000001", ChunkType: "deleted", Offset: 99},
	}
	for _, lines := range []bool{false, true} {
		for _, entries := range [][]inspect.ContainerEntry{all, {}} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if !lines {
				enc.SetIndent("", "  ")
			}
			enc.Encode(struct {
				lsHead
				Entries []inspect.ContainerEntry `json:"entries"`
			}{head, entries})
			var have bytes.Buffer
			w := bufio.NewWriter(&have)
			writeLsJSON(w, head, lines, func(fn func(inspect.ContainerEntry)) {
				for _, e := range entries {
					fn(e)
				}
			})
			w.Flush()
			if have.String() != want.String() {
				t.Errorf("lines=%v, %d entries:\nhave %s\nwant %s", lines, len(entries), have.String(), want.String())
			}
		}
	}
}
