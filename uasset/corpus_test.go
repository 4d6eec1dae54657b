package uasset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// corpusPackages lists the .uasset/.umap files of dir (relative to the corpus).
func corpusPackages(tb testing.TB, dir string) []string {
	return corpus.Files(tb, dir, ".uasset", ".umap")
}

func hasTag(path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	var b [8]byte
	if _, err := io.ReadFull(fh, b[:]); err != nil {
		return false
	}
	if string(b[:4]) == "ACE7" {
		return true
	}
	tag := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	return tag == PackageFileTag || tag == PackageFileTagSwapped
}

func openCorpus(t testing.TB, path string, engine string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	sib := func(ext string) (io.ReaderAt, int64, error) {
		b, err := os.ReadFile(base + ext)
		if err != nil {
			return nil, 0, err
		}
		return bytes.NewReader(b), int64(len(b)), nil
	}
	opts := []Option{WithSibling(sib)}
	if engine != "" {
		opts = append(opts, WithEngine(engine))
	}
	return NewFile(bytes.NewReader(data), int64(len(data)), opts...)
}

// TestCorpusRoundTrip reads every tagged package of the corpus (with the
// engine the README gives for unversioned ones), checks that every section
// reads and that the header rewrite equals the original bytes.
func TestCorpusRoundTrip(t *testing.T) {
	root := corpus.Dir(t)
	for _, dir := range []string{"uncooked", "cooked", "uassetapi"} {
		var ok, failed, rtOK, rtFail, skipped, padded int
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				skipped++
				continue
			}
			rel, _ := filepath.Rel(root, p)
			f, err := openCorpus(t, p, corpus.Engine(rel))
			if err != nil {
				if errors.Is(err, ErrEncrypted) {
					skipped++
					continue
				}
				failed++
				t.Errorf("%s: %v", rel, err)
				continue
			}
			if err := f.SectionErrors(); err != nil {
				failed++
				t.Errorf("%s: %v", rel, err)
				continue
			}
			ok++
			hdr, err := f.WriteHeader()
			if err != nil {
				rtFail++
				t.Errorf("%s: rewrite: %v", rel, err)
				continue
			}
			orig, _ := f.originalBytes(0, int64(len(hdr)))
			if !bytes.Equal(hdr, orig) {
				rtFail++
				i := 0
				for i < len(hdr) && hdr[i] == orig[i] {
					i++
				}
				t.Errorf("%s: rewrite differs at 0x%x (of 0x%x)", rel, i, len(hdr))
				continue
			}
			for _, g := range f.HeaderGaps() {
				if !g.Zero {
					t.Errorf("%s: %d header bytes at 0x%x belong to no section", rel, g.Size, g.Offset)
				} else if g.Offset+g.Size != int64(f.Summary.TotalHeaderSize) {
					t.Errorf("%s: %d zero bytes at 0x%x inside the header", rel, g.Size, g.Offset)
				} else {
					padded++
				}
			}
			rtOK++
		}
		t.Logf("%s: read ok %d, failed %d, skipped %d; round-trip ok %d, differ %d; %d with zero padding before the header end", dir, ok, failed, skipped, rtOK, rtFail, padded)
	}
}

// TestCorpusInference infers the engine of every unversioned corpus package
// whose engine the README gives, and counts how often the inferred release
// is right, or the right one is among the candidates reported as ambiguous.
func TestCorpusInference(t *testing.T) {
	// fewCandidates is the most candidates an ambiguous answer may name
	// and still count as "the right one among few" (issue 2).
	const fewCandidates = 4
	root := corpus.Dir(t)
	var total, exact, among, amongFew, wrong, failed int
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			want := corpus.Engine(rel)
			if want == "" {
				continue
			}
			f, err := openCorpus(t, p, "")
			if errors.Is(err, ErrEncrypted) {
				continue
			}
			if err == nil && !f.Summary.Unversioned() {
				continue
			}
			if err == nil {
				for i := range f.Exports {
					if f.Exports[i].f != f {
						t.Errorf("%s: export %d points back to another candidate's File (candidates share the remembered export map)", rel, i+1)
						break
					}
				}
			}
			total++
			switch {
			case err != nil:
				failed++
				t.Logf("%s (want %s): %v", rel, want, err)
			case f.Engine.Version == want:
				exact++
			case contains(f.Engine.Candidates, want):
				among++
				if len(f.Engine.Candidates) <= fewCandidates {
					amongFew++
				}
				if testing.Verbose() {
					t.Logf("%s: want %s, chose %s among %v", rel, want, f.Engine.Version, f.Engine.Candidates)
				}
			default:
				wrong++
				t.Logf("%s: want %s, chose %s among %v", rel, want, f.Engine.Version, f.Engine.Candidates)
			}
		}
	}
	t.Logf("inference: %d unversioned packages: %d exact, %d among candidates (%d among at most %d, %d among more), %d wrong, %d failed",
		total, exact, among, amongFew, fewCandidates, among-amongFew, wrong, failed)
	t.Logf("inference: right or among at most %d candidates for %d of %d (%.1f%%)", fewCandidates, exact+amongFew, total, 100*float64(exact+amongFew)/float64(max(total, 1)))
	if wrong > 0 {
		t.Errorf("inference chose a release that is not among the candidates for %d packages", wrong)
	}
	// Issue 2's bar: right, or among a few candidates reported as
	// ambiguous, for at least 95% (a long list of candidates does not
	// count as an answer).
	if total > 0 && float64(exact+amongFew) < 0.95*float64(total) {
		t.Errorf("inference right or among at most %d candidates for %d of %d (%.1f%%), want >= 95%%", fewCandidates, exact+amongFew, total, 100*float64(exact+amongFew)/float64(total))
	}
}

// TestEngineCustomVersions compares the custom versions of versioned corpus
// packages with the table of what each release writes: a package saved by
// release X.Y stores, for every custom version it uses, X.Y's value.
func TestEngineCustomVersions(t *testing.T) {
	var checked, mismatched int
	for _, p := range corpusPackages(t, "uncooked") {
		f, err := openCorpus(t, p, "")
		if err != nil {
			t.Fatal(err)
		}
		sv := f.Summary.SavedByEngineVersion
		if sv.Major < 4 || sv.Changelist&0x80000000 != 0 {
			continue // licensee build
		}
		e, ok := LookupEngine(fmt.Sprintf("%d.%d", sv.Major, sv.Minor))
		if !ok {
			continue
		}
		want := e.Versions()
		for _, c := range f.Summary.CustomVersions {
			v, ok := want.CustomVersion(c.Key)
			if !ok {
				continue
			}
			checked++
			if v != c.Version {
				mismatched++
				t.Logf("%s (%s): %s = %d, table says %d", filepath.Base(p), e.Name, c.Name(), c.Version, v)
			}
		}
	}
	t.Logf("custom versions checked %d, mismatched %d", checked, mismatched)
}
