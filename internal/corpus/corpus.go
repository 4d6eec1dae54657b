// Package corpus locates the shared real-file corpus for tests and
// benchmarks. The corpus lives beside the checkout, at ../shared/corpus
// relative to the module root (override with UPKG_CORPUS). It is never copied
// into the repository.
//
// When the corpus is absent, tests skip with a clear message; under CI=true a
// missing corpus is a failure, so a broken CI checkout cannot pass silently.
package corpus

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Find returns the corpus directory and whether it exists, without a testing.TB
// (for benchmarks scripts and tools).
func Find() (string, bool) {
	if d := os.Getenv("UPKG_CORPUS"); d != "" {
		st, err := os.Stat(d)
		return d, err == nil && st.IsDir()
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus")
			st, err := os.Stat(c)
			return c, err == nil && st.IsDir()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Dir returns the corpus directory, or skips the test (fails it under CI=true)
// when the corpus is not there.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, ok := Find()
	if !ok {
		msg := "real-file corpus not found at ../shared/corpus (set UPKG_CORPUS to its path)"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg + "; CI=true requires it")
		}
		tb.Skip(msg)
	}
	return d
}

// Path joins elements onto the corpus directory (see [Dir]).
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, elem...)...)
}

// Entry is one row of MANIFEST.tsv.
type Entry struct {
	RelPath           string // path under the corpus directory, with forward slashes
	SourceRepo        string
	Size              int64
	SHA256            string
	First4Hex         string
	LegacyFileVersion string // empty when not a package
	FileVersionUE4    string
	FileVersionUE5    string
	LicenseeVersion   string
	Notes             string
}

// Manifest parses MANIFEST.tsv.
func Manifest(tb testing.TB) []Entry {
	tb.Helper()
	f, err := os.Open(Path(tb, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		for len(c) < 12 {
			c = append(c, "")
		}
		size, _ := strconv.ParseInt(c[4], 10, 64)
		out = append(out, Entry{
			RelPath: c[0], SourceRepo: c[1], Size: size, SHA256: c[5], First4Hex: c[6],
			LegacyFileVersion: c[7], FileVersionUE4: c[8], FileVersionUE5: c[9],
			LicenseeVersion: c[10], Notes: c[11],
		})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// Files walks dir (relative to the corpus) and returns the paths of files
// whose extension (with the dot, lower case) is in exts; all files when exts
// is empty.
func Files(tb testing.TB, dir string, exts ...string) []string {
	tb.Helper()
	root := Path(tb, dir)
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if len(exts) == 0 {
			out = append(out, p)
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		for _, e := range exts {
			if ext == e {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
