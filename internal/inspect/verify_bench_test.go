package inspect

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/osfile"
)

// corpusKeys are the AES keys the corpus README lists for its encrypted
// containers (repak's base64 key and CUE4Parse's fixture key).
const corpusKeys = "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=,CUE4ParseFixtureAESKey0123456789"

// benchOpenWhole and benchDirect are how BenchmarkVerifyCorpus opens
// package files and walks: as the CLI does (mapped, calls made directly)
// where mapfile builds, else read (nil) with ordinary calls.
var (
	benchOpenWhole osfile.WholeOpener
	benchDirect    bool
)

// BenchmarkVerifyCorpus runs what `upkg verify --aes-key KEYS corpus/` does
// (VerifyPaths: the walk beside the checks, files mapped, system calls
// made directly, the collector tuned, one worker per core, results in
// order) over the whole shared corpus, and reports MB/s of corpus bytes
// and files/s. What it leaves out is the process: start, first touch of
// the heap, exit.
func BenchmarkVerifyCorpus(b *testing.B) {
	dir := corpus.Dir(b)
	bytes := corpusBytes(b, dir)
	defer TuneVerifyGC()() // the collector as upkg verify sets it up
	b.SetBytes(bytes)
	b.ResetTimer()
	results := 0
	for b.Loop() {
		results = 0
		err := VerifyPaths([]string{dir}, &Options{AESKey: corpusKeys, OpenWhole: benchOpenWhole, DirectCalls: benchDirect}, runtime.GOMAXPROCS(0), func(VerifyResult) { results++ })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(results)*float64(b.N)/b.Elapsed().Seconds(), "results/s")
}

// corpusBytes is the size of every file under dir (what cat would read).
func corpusBytes(tb testing.TB, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		st, err := d.Info()
		if err == nil {
			n += st.Size()
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}
