package assetprops

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/uasset"
)

// TestSharedExportData gives a real package 2,000 more exports, copies of
// its biggest (so all decode the same 15 KB): once what the exports span
// passes twice the package's bytes (and the slack, lowered here), the rest
// fail without being decoded; those before it decode.
func TestSharedExportData(t *testing.T) {
	b, err := os.ReadFile(corpus.Path(t, "uncooked/lukesorvik+BlasterGameUE5.6/Content/Assets/LearningKit2ndMigrate/LearningKit_Games/Assets/Characters/Character/Mesh/SK_EpicCharacter_Skeleton.uasset"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := uasset.NewFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var exports uasset.Section
	for _, s := range f.Sections {
		if s.Name == "exports" {
			exports = s
		}
	}
	n := len(f.Exports)
	big := 0
	for i := range f.Exports {
		if f.Exports[i].SerialSize > f.Exports[big].SerialSize {
			big = i
		}
	}
	size := exports.Size / int64(n)
	entry := b[exports.Offset+int64(big)*size : exports.Offset+int64(big+1)*size]
	// The summary's ExportCount and ExportOffset, side by side.
	le := binary.LittleEndian
	at := bytes.Index(b[:exports.Offset], le.AppendUint32(le.AppendUint32(nil, uint32(n)), uint32(exports.Offset)))
	if at < 0 {
		t.Fatal("no ExportCount, ExportOffset in the summary")
	}
	out := append([]byte(nil), b...)
	table := len(out)
	out = append(out, b[exports.Offset:exports.Offset+exports.Size]...)
	const more = 2000
	for range more {
		out = append(out, entry...)
	}
	le.PutUint32(out[at:], uint32(n+more))
	le.PutUint32(out[at+4:], uint32(table))
	g, err := uasset.NewFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	old := sharedDataSlack
	sharedDataSlack = 0
	defer func() { sharedDataSlack = old }()
	st, err := DecodeStats(g, Context(g, nil))
	if err != nil {
		t.Fatal(err)
	}
	span := g.Exports[n].SerialSize
	limit := 2 * int64(len(out))
	decodable := 0 // exports before the one that passes the limit
	for sum := int64(0); decodable < len(g.Exports) && sum+g.Exports[decodable].SerialSize <= limit; decodable++ {
		sum += g.Exports[decodable].SerialSize
	}
	if st.Failed != len(g.Exports)-decodable || len(st.Failures) == 0 || !strings.Contains(st.Failures[0], "exports share data") {
		t.Errorf("%d exports of %d bytes each (limit %d): %d failed, %d decodable; failures %q", len(g.Exports), span, limit, st.Failed, decodable, st.Failures)
	}
}
