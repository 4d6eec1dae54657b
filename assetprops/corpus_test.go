package assetprops

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/property"
	"github.com/upkg/upkg/uasset"
	"github.com/upkg/upkg/usmap"
)

// group classifies a package for the acceptance numbers.
func group(rel string, f *uasset.File) string {
	rel = filepath.ToSlash(rel)
	switch {
	case strings.HasPrefix(rel, "uncooked/"), strings.HasPrefix(rel, "uassetapi/TestEditorUE5_7/"):
		return "versioned-editor"
	case f.Summary.PackageFlags&uasset.PKG_UnversionedProperties != 0:
		return "unversioned"
	default:
		return "cooked-tagged"
	}
}

var (
	mapMu    sync.Mutex
	mapCache = map[string]*usmap.File{}
)

// mappingsFor finds the .usmap in the package's folder or its parents
// (within uassetapi).
func mappingsFor(path string) *usmap.File {
	dir := filepath.Dir(path)
	for range 3 {
		ms, _ := filepath.Glob(filepath.Join(dir, "*.usmap"))
		if len(ms) > 0 {
			mapMu.Lock()
			defer mapMu.Unlock()
			if m, ok := mapCache[ms[0]]; ok {
				return m
			}
			m, err := usmap.Open(ms[0])
			if err != nil {
				m = nil
			}
			mapCache[ms[0]] = m
			return m
		}
		dir = filepath.Dir(dir)
	}
	return nil
}

func isPackage(path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	var b [4]byte
	if _, err := io.ReadFull(fh, b[:]); err != nil {
		return false
	}
	return string(b[:]) == "\xc1\x83\x2a\x9e" || string(b[:]) == "\x9e\x2a\x83\xc1"
}

type result struct {
	rel   string
	group string
	st    Stats
	err   error
}

func openCorpus(path, rel string) (*uasset.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, _ := fh.Stat()
	base := strings.TrimSuffix(path, filepath.Ext(path))
	sib := func(ext string) (io.ReaderAt, int64, error) {
		b, err := os.ReadFile(base + ext)
		if err != nil {
			return nil, 0, err
		}
		return strings.NewReader(string(b)), int64(len(b)), nil
	}
	b := make([]byte, st.Size())
	io.ReadFull(fh, b)
	fh.Close()
	return uasset.NewFile(strings.NewReader(string(b)), int64(len(b)), uasset.WithSibling(sib), uasset.WithEngine(corpus.Engine(rel)))
}

func corpusResults(t testing.TB) []result {
	dir := corpus.Dir(t)
	var files []string
	for _, d := range []string{"uncooked", "cooked", "uassetapi"} {
		files = append(files, corpus.Files(t, d, ".uasset", ".umap")...)
	}
	var out []result
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		if !isPackage(p) {
			continue
		}
		f, err := openCorpus(p, rel)
		if err != nil {
			out = append(out, result{rel: rel, group: "open-failed", err: err})
			continue
		}
		var m *usmap.File
		if f.Summary.PackageFlags&uasset.PKG_UnversionedProperties != 0 {
			m = mappingsFor(p)
		}
		ctx := ContextWith(f, m, FileLoader(p, f.PackagePath, nil, uasset.WithEngine(corpus.Engine(rel))))
		_, st, err := DecodeAll(f, ctx)
		g := group(rel, f)
		if g == "unversioned" && m == nil {
			g = "unversioned-no-usmap"
		}
		out = append(out, result{rel: rel, group: g, st: st, err: err})
	}
	return out
}

// acceptance is the share of exports (in percent) that must decode
// completely in each group (issue 3).
var acceptance = map[string]float64{"versioned-editor": 99.5, "cooked-tagged": 99, "unversioned": 95}

// TestCorpusNumbers reports the acceptance numbers per group; run with -v.
func TestCorpusNumbers(t *testing.T) {
	res := corpusResults(t)
	type agg struct {
		files, exports, complete, failed, skipped, nodata int
		bytes, tail, unaccounted                          int64
	}
	groups := map[string]*agg{}
	natives := map[string]int{}
	var failures []string
	for _, r := range res {
		g := groups[r.group]
		if g == nil {
			g = &agg{}
			groups[r.group] = g
		}
		g.files++
		if r.err != nil {
			g.skipped++
			failures = append(failures, fmt.Sprintf("%s [%s]: %v", r.rel, r.group, r.err))
			continue
		}
		g.exports += r.st.Exports - r.st.NoData
		g.nodata += r.st.NoData
		g.bytes += r.st.Bytes
		g.tail += r.st.TailBytes
		g.unaccounted += r.st.BytesUnaccounted
		g.complete += r.st.Complete
		g.failed += r.st.Failed
		if r.group == "unversioned-no-usmap" {
			continue
		}
		for _, f := range r.st.Failures {
			failures = append(failures, fmt.Sprintf("%s [%s]: %s", r.rel, r.group, f))
		}
		for k, v := range r.st.NativeRaw {
			natives[k] += v
		}
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		pct := 0.0
		if g.exports > 0 {
			pct = 100 * float64(g.complete) / float64(g.exports)
		}
		if min, ok := acceptance[k]; ok && pct < min {
			t.Errorf("%s: %.2f%% of exports decode completely, acceptance is %.1f%%", k, pct, min)
		}
		t.Logf("%-20s files=%d (not decodable %d) exports=%d complete=%d failed=%d (+%d without data)  %.2f%%; bytes %d, labelled tail %d, unaccounted %d", k, g.files, g.skipped, g.exports, g.complete, g.failed, g.nodata, pct, g.bytes, g.tail, g.unaccounted)
	}
	if os.Getenv("UPKG_PROPS_VERBOSE") != "" {
		for _, f := range failures {
			t.Log(f)
		}
		t.Logf("native structs kept raw: %v", natives)
	}
}

// BenchmarkDecodeCorpus measures property decoding throughput (MB/s of
// export data) over the versioned and cooked-tagged corpus packages and the
// unversioned ones with mappings. Packages are opened and their export data
// read before the timer starts.
func BenchmarkDecodeCorpus(b *testing.B) {
	benchDecodeCorpus(b, property.ReadExport)
}

// BenchmarkDecodeCorpusLite is BenchmarkDecodeCorpus with the lite decode
// that verify and the inference check use.
func BenchmarkDecodeCorpusLite(b *testing.B) {
	benchDecodeCorpus(b, property.ReadExportLite)
}

func benchDecodeCorpus(b *testing.B, read func(*property.Context, []byte, property.Export) *property.Object) {
	dir := corpus.Dir(b)
	var files []string
	for _, d := range []string{"uncooked", "cooked", "uassetapi"} {
		files = append(files, corpus.Files(b, d, ".uasset", ".umap")...)
	}
	type job struct {
		f    *uasset.File
		m    *usmap.File
		data [][]byte
	}
	var jobs []job
	var total int64
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		if !isPackage(p) {
			continue
		}
		f, err := openCorpus(p, rel)
		if err != nil {
			continue
		}
		var m *usmap.File
		if f.Summary.PackageFlags&uasset.PKG_UnversionedProperties != 0 {
			if m = mappingsFor(p); m == nil {
				continue
			}
		}
		j := job{f: f, m: m}
		for i := range f.Exports {
			d, err := f.Exports[i].Data()
			if err != nil {
				d = nil
			}
			j.data = append(j.data, d)
			total += int64(len(d))
		}
		jobs = append(jobs, j)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, j := range jobs {
			ctx := Context(j.f, j.m)
			for i, d := range j.data {
				if d != nil {
					read(ctx, d, ExportInfo(j.f, i))
				}
			}
		}
	}
}
