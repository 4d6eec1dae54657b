package oodle_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/upkg/upkg/compression"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/oodle"
	"github.com/upkg/upkg/legacy"
	"github.com/upkg/upkg/usmap"
)

// fixtureKey is the AES key of the CUE4Parse fixture containers.
const fixtureKey = "CUE4ParseFixtureAESKey0123456789"

// block is one Oodle block met while reading the corpus.
type block struct{ src, dst []byte }

var (
	capMu    sync.Mutex
	captured []block
	capOnce  sync.Once
)

// capture makes the registry's Oodle decoder record every block it decodes
// (first 4000 only), so the corpus test doubles as a source of real blocks.
func capture() {
	capOnce.Do(func() {
		compression.Register("Oodle", func(dst, src []byte) error {
			err := oodle.Decompress(dst, src)
			if err == nil {
				capMu.Lock()
				if len(captured) < 4000 {
					captured = append(captured, block{bytes.Clone(src), bytes.Clone(dst)})
				}
				capMu.Unlock()
			}
			return err
		})
	})
}

// fixtureSets lists the CUE4Parse fixture folders holding one container
// variant each (Oodle, OodleEncrypted, OodlePartitioned, Zlib,
// Uncompressed) of the same content, keyed by their parent folder.
func fixtureSets(t testing.TB) map[string][]string {
	root := corpus.Dir(t)
	sets := map[string][]string{}
	for _, base := range []string{"iostore/FabianFG+CUE4Parse", "pak/FabianFG+CUE4Parse"} {
		filepath.WalkDir(filepath.Join(root, base), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if ext := filepath.Ext(p); ext != ".utoc" && ext != ".pak" {
				return nil
			}
			dir := filepath.Dir(p)
			switch filepath.Base(dir) {
			case "Oodle", "OodleEncrypted", "OodlePartitioned", "Zlib", "Uncompressed":
				sets[filepath.Dir(dir)] = append(sets[filepath.Dir(dir)], p)
			}
			return nil
		})
	}
	return sets
}

// readAll reads every file of a container.
func readAll(t testing.TB, path string) map[string][]byte {
	f, ok := inspect.ContainerFormatFor(path)
	if !ok {
		t.Fatalf("%s: no container format", path)
	}
	c, err := f.Open(path, &inspect.Options{AESKey: fixtureKey})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer c.Close()
	files := map[string][]byte{}
	err = fs.WalkDir(c, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(c, p)
		if err != nil {
			return err
		}
		files[p] = b
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i, e := range c.Entries() {
		if err := c.VerifyEntry(i); err != nil {
			t.Errorf("%s: entry %d (%s): %v", path, i, e.Path, err)
		}
	}
	return files
}

// TestCorpusOodleMatchesUncompressed reads every Oodle fixture container of
// the corpus and checks that each of its files is byte-identical to the same
// file in the Uncompressed (or Zlib) variant of the same content, and that
// every stored chunk hash verifies.
func TestCorpusOodleMatchesUncompressed(t *testing.T) {
	capture()
	sets := fixtureSets(t)
	if len(sets) == 0 {
		t.Skip("no CUE4Parse fixtures in the corpus")
	}
	keys := make([]string, 0, len(sets))
	for k := range sets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	containers, compared := 0, 0
	for _, k := range keys {
		var ref map[string][]byte
		var refName string
		for _, want := range []string{"Uncompressed", "Zlib"} {
			for _, p := range sets[k] {
				if ref == nil && filepath.Base(filepath.Dir(p)) == want {
					ref, refName = readAll(t, p), p
				}
			}
		}
		if ref == nil {
			continue
		}
		for _, p := range sets[k] {
			if !strings.HasPrefix(filepath.Base(filepath.Dir(p)), "Oodle") {
				continue
			}
			got := readAll(t, p)
			containers++
			if len(got) != len(ref) {
				t.Errorf("%s: %d files, %s has %d", p, len(got), refName, len(ref))
			}
			for name, want := range ref {
				if b, ok := got[name]; !ok {
					t.Errorf("%s: missing %s", p, name)
				} else if !bytes.Equal(b, want) {
					t.Errorf("%s: %s differs from %s", p, name, refName)
				} else {
					compared++
				}
			}
		}
	}
	if containers == 0 {
		t.Skip("no Oodle fixture container with a reference variant")
	}
	t.Logf("%d Oodle containers, %d files identical to their reference, %d Oodle blocks", containers, compared, len(captured))
}

// leviathanFiles are the corpus files compressed with Oodle Leviathan: Mass
// Effect Legendary Edition packages and a CUE4Parse mappings fixture.
var leviathanFiles = []string{
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/LegendaryExplorer/LegendaryExplorer/Resources/exec/LE2EmptySeekFree.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE1/BioGame/CookedPCConsole/Core.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE1/BioGame/CookedPCConsole/PlotManagerMap.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE2/BioGame/CookedPCConsole/Core.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE2/BioGame/CookedPCConsole/WwiseAudio.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE3/BioGame/CookedPCConsole/Core.pcc",
	"legacy_ue123/ME3Tweaks+LegendaryExplorer/Testing/testdata/packages/PC/LE3/BioGame/CookedPCConsole/GFxUI.pcc",
}

// TestCorpusLeviathan reads the Leviathan-compressed corpus files: the Mass
// Effect LE packages must open with every name, import and export read, and
// the Oodle mappings fixture must hold exactly the names of the
// uncompressed one.
func TestCorpusLeviathan(t *testing.T) {
	capture()
	root := corpus.Dir(t)
	n := 0
	for _, rel := range leviathanFiles {
		p := filepath.Join(root, rel)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		f, err := legacy.Open(p)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(f.Names) == 0 || len(f.Exports) == 0 {
			t.Errorf("%s: %d names, %d exports", rel, len(f.Names), len(f.Exports))
		}
		f.Close()
		n++
	}
	dir := filepath.Join(root, "usmap/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Mappings")
	if o, err := usmap.Open(filepath.Join(dir, "CUE4ParseFixtures-Oodle.usmap")); err == nil {
		u, err := usmap.Open(filepath.Join(dir, "CUE4ParseFixtures-Uncompressed.usmap"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(o.Names, "\x00") != strings.Join(u.Names, "\x00") || len(o.Structs) != len(u.Structs) {
			t.Errorf("Oodle mappings differ from the uncompressed ones")
		}
		n++
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Oodle mappings: %v", err)
	}
	if n == 0 {
		t.Skip("no Leviathan files in the corpus")
	}
	t.Logf("%d Leviathan-compressed files read", n)
}

// corpusBlocks returns real Oodle blocks from the corpus (nil without it).
func corpusBlocks(tb testing.TB) []block {
	capture()
	capMu.Lock()
	n := len(captured)
	capMu.Unlock()
	if n == 0 {
		if _, ok := corpus.Find(); !ok {
			return nil
		}
		for _, paths := range fixtureSets(tb) {
			for _, p := range paths {
				if filepath.Base(filepath.Dir(p)) == "Oodle" {
					readAll(tb, p)
				}
			}
		}
		root, _ := corpus.Find()
		for _, rel := range leviathanFiles {
			if f, err := legacy.Open(filepath.Join(root, rel)); err == nil {
				f.Close()
			}
		}
	}
	capMu.Lock()
	defer capMu.Unlock()
	return captured
}

// TestCorpusTruncated checks that every prefix of a few real blocks, and
// every single-byte corruption of one, fails cleanly (or, for a corruption,
// may still decode) without a panic.
func TestCorpusTruncated(t *testing.T) {
	blocks := corpusBlocks(t)
	if len(blocks) == 0 {
		t.Skip("corpus not available")
	}
	sort.Slice(blocks, func(i, j int) bool { return len(blocks[i].src) < len(blocks[j].src) })
	picks := []block{blocks[0], blocks[len(blocks)/2], blocks[len(blocks)-1]}
	for _, b := range picks {
		step := 1
		if len(b.src) > 600 {
			step = len(b.src) / 600
		}
		dst := make([]byte, len(b.dst))
		for n := 0; n < len(b.src); n += step {
			if err := oodle.Decompress(dst, b.src[:n]); err == nil {
				t.Fatalf("%d-byte prefix of a %d-byte block decoded without error", n, len(b.src))
			} else if !errors.Is(err, oodle.ErrCorrupt) {
				t.Fatalf("prefix %d: error %v does not wrap ErrCorrupt", n, err)
			}
		}
		if err := oodle.Decompress(dst, b.src); err != nil || !bytes.Equal(dst, b.dst) {
			t.Fatalf("full block: %v", err)
		}
	}
	b := picks[1]
	src := bytes.Clone(b.src)
	dst := make([]byte, len(b.dst))
	step := 1
	if len(src) > 1000 {
		step = len(src) / 1000
	}
	for i := 0; i < len(src); i += step {
		old := src[i]
		src[i] ^= 0x5A
		oodle.Decompress(dst, src)
		src[i] = old
	}
}

// BenchmarkCorpus decodes the corpus's Oodle blocks; MB/s is decompressed
// bytes per second.
func BenchmarkCorpus(b *testing.B) {
	blocks := corpusBlocks(b)
	if len(blocks) == 0 {
		b.Skip("corpus not available")
	}
	total := 0
	for _, bl := range blocks {
		total += len(bl.dst)
	}
	dst := make([]byte, 0, 1<<20)
	b.SetBytes(int64(total))
	b.ResetTimer()
	cpu := cpuNanos()
	for i := 0; i < b.N; i++ {
		for _, bl := range blocks {
			d := dst[:0]
			if cap(d) < len(bl.dst) {
				d = make([]byte, len(bl.dst))
			}
			d = d[:len(bl.dst)]
			if err := oodle.Decompress(d, bl.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cpu > 0 {
		// CPU time, not wall-clock time, is what compares on a shared
		// machine.
		ns := float64(cpuNanos()-cpu) / float64(b.N)
		b.ReportMetric(ns, "cpu-ns/op")
		b.ReportMetric(float64(total)/ns*1e3, "cpu-MB/s")
	}
}

// FuzzDecompress feeds arbitrary blocks to the decoder: it must never panic
// and, when it succeeds, fill exactly the requested size.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte{0x8C, 0x06, 0x07, 0xFF, 0xFF, 0x41}, 100)
	f.Add([]byte{0x4C, 0x06, 1, 2, 3, 4}, 4)
	f.Add([]byte{0x8C, 0x0C, 0, 0, 0}, 10)
	if os.Getenv("OODLE_FUZZ_CORPUS") != "" || !testing.Short() {
		blocks := corpusBlocks(f)
		for i := 0; i < len(blocks); i += 1 + len(blocks)/40 {
			f.Add(blocks[i].src, len(blocks[i].dst))
		}
	}
	// The ooz samples (see TestOozTestdata) add Mermaid streams: their first
	// quantum, with some of what follows.
	if dir := os.Getenv("OODLE_OOZ_TESTDATA"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.*"))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && len(b) > 8 {
				if binary.LittleEndian.Uint64(b) >= 1<<40 {
					b = b[4:] // 4-byte size header
				} else {
					b = b[8:]
				}
				if len(b) > 300000 {
					b = b[:300000]
				}
				f.Add(b, 0x40000)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, size int) {
		if size < 0 || size > 1<<20 {
			return
		}
		dst := make([]byte, size)
		oodle.Decompress(dst, src)
	})
}
