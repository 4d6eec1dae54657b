package uasset

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// TestEngineStatic checks the per-release table inference works from
// against the functions it caches.
func TestEngineStatic(t *testing.T) {
	for i, e := range engines {
		es := engineStaticOf(e.Name)
		if es == nil || es.index != i {
			t.Fatalf("%s: engineStaticOf = %+v, want index %d", e.Name, es, i)
		}
		if !reflect.DeepEqual(es.versions, e.versions()) {
			t.Errorf("%s: versions %+v, want %+v", e.Name, es.versions, e.versions())
		}
		want := layoutKey{e.UE4, e.UE5, e.cookedImportPackageName(), e.customVersion(fortniteMainBranchObjectVersion) >= fnmWorldCompositionTile3DOffset}
		if es.key != want {
			t.Errorf("%s: key %+v, want %+v", e.Name, es.key, want)
		}
	}
	if engineStaticOf("9.9") != nil || engineIndex("9.9") != -1 {
		t.Error("unknown release found")
	}
}

// TestSummaryMemo reads the summary of every unversioned corpus package as
// each release (oldest first, then newest first), through summaryMemo and
// afresh, and compares the results.
func TestSummaryMemo(t *testing.T) {
	n := 0
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) < 4 || binary.LittleEndian.Uint32(data) != PackageFileTag {
				continue
			}
			for _, reverse := range []bool{false, true} {
				o := &options{sums: &summaryMemo{}}
				for j := range engines {
					i := j
					if reverse {
						i = len(engines) - 1 - j
					}
					e := engines[i]
					shared := newFile(binread.Mem(data), int64(len(data)), binary.LittleEndian, o)
					shared.strict, shared.sumEngine, shared.Versions = true, i, e.versions()
					errShared := shared.readSummaryShared()
					fresh := newFile(binread.Mem(data), int64(len(data)), binary.LittleEndian, &options{})
					fresh.strict, fresh.Versions = true, e.versions()
					_, errFresh := fresh.readSummary()
					if fmt.Sprint(errShared) != fmt.Sprint(errFresh) || shared.progress != fresh.progress ||
						!reflect.DeepEqual(shared.Summary, fresh.Summary) || !reflect.DeepEqual(shared.Sections, fresh.Sections) ||
						len(shared.sers) != len(fresh.sers) || len(shared.hdr) != len(fresh.hdr) {
						t.Errorf("%s as %s: shared summary differs: %v / %v", filepath.Base(p), e.Name, errShared, errFresh)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d summary reads compared", n)
}

// TestPrintableName compares printableName with the rune loop it replaces.
func TestPrintableName(t *testing.T) {
	slow := func(s string) bool {
		for _, c := range s {
			if c < 0x20 || c == 0xFFFD {
				return false
			}
		}
		return true
	}
	cases := []string{"", "None", "a\x1fb", "\x7f", "Ünïcödé", "abc\xff", "ab\xc3", "日本\x01", "x\uFFFDy", "ok\u00a0", "\t",
		"SixteenBytesLong", "Seventeen_Bytes_1", "EightByt\x00", "\x1fightByte_and_more", "abcdefg\x1fhij", "abcdefgh\x20\x1f", "abcdefgé", "abcdefghijklmnoé\x01"}
	// Every byte value at every position of a 20-byte name, among ASCII
	// letters, so that the eight-byte steps meet each.
	for pos := 0; pos < 20; pos++ {
		for c := 0; c < 256; c++ {
			b := []byte("ABCDEFGHIJKLMNOPQRST")
			b[pos] = byte(c)
			cases = append(cases, string(b))
		}
	}
	// Names of every length up to 40 with a control character, a
	// multi-byte character or an invalid byte at every position, so that
	// the words (and the last one's overlap) meet each.
	for n := 1; n <= 40; n++ {
		base := []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"[:n])
		cases = append(cases, string(base))
		for pos := 0; pos < n; pos++ {
			for _, ins := range []string{"\x01", "\x1f", " ", "\x7f", "é", "日", "\uFFFD", "\xff", "\xc3", "\U0001F600"} {
				cases = append(cases, string(base[:pos])+ins+string(base[pos:]))
				cases = append(cases, string(base[:pos])+ins+string(base[min(pos+len(ins), n):]))
			}
		}
	}
	for _, s := range cases {
		if got, want := printableName(s), slow(s); got != want {
			t.Errorf("printableName(%q) = %v, want %v", s, got, want)
		}
	}
}
