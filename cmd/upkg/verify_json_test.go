package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// encodingJSON is how verify printed a result before appendVerifyJSON.
func encodingJSON(t *testing.T, r *inspect.VerifyResult) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendVerifyJSONValues(t *testing.T) {
	yes, no := true, false
	one, zero := 1, 0
	var big int64 = -1 << 40
	odd := []string{
		"", "plain/path.uasset", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff",
		"\x00\x01\x1f\x7f", "<html> & more", "caf\u00e9 \u2028 \u2029 \U0001F600",
		"bad \xff\xfe utf-8 \xed\xa0\x80", "::inner/path.uasset",
	}
	var cases []inspect.VerifyResult
	for _, s := range odd {
		cases = append(cases, inspect.VerifyResult{Path: s, Format: s, Error: s, Engine: s, EngineSource: s})
	}
	cases = append(cases,
		inspect.VerifyResult{OK: true, Names: 3, Imports: -1, Exports: math.MaxInt, HeaderRoundtrip: &yes},
		inspect.VerifyResult{HeaderRoundtrip: &no, ExportsWithProperties: &one, PropertiesOK: &zero,
			PropertiesFailed: &one, BytesUnaccounted: &big, PackageVersion: &zero, LicenseeVersion: &one,
			Entries: &one, ChunksOK: &zero, ChunksFailed: &one},
	)
	for i := range cases {
		want := encodingJSON(t, &cases[i])
		if got := appendVerifyJSON(nil, &cases[i]); !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestAppendVerifyJSONCorpus checks every result of verifying the corpus.
func TestAppendVerifyJSONCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	// The corpus README's keys, so encrypted containers' packages are checked too.
	opts := &inspect.Options{AESKey: "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=,CUE4ParseFixtureAESKey0123456789"}
	n := 0
	err := inspect.VerifyPaths([]string{dir}, opts, 2, func(r inspect.VerifyResult) {
		n++
		want := encodingJSON(t, &r)
		if got := appendVerifyJSON(nil, &r); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", r.Path, got, want)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 2000 {
		t.Errorf("only %d results", n)
	}
}

// BenchmarkVerifyJSON prints the corpus' verify results as verify does,
// with appendVerifyJSON and, for comparison, with encoding/json.
func BenchmarkVerifyJSON(b *testing.B) {
	dir := corpus.Dir(b)
	var results []inspect.VerifyResult
	opts := &inspect.Options{AESKey: "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94=,CUE4ParseFixtureAESKey0123456789"}
	if err := inspect.VerifyPaths([]string{dir}, opts, 2, func(r inspect.VerifyResult) { results = append(results, r) }); err != nil {
		b.Fatal(err)
	}
	b.Run("append", func(b *testing.B) {
		var line []byte
		for b.Loop() {
			for i := range results {
				line = append(appendVerifyJSON(line[:0], &results[i]), '\n')
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			for i := range results {
				buf.Reset()
				enc.Encode(&results[i])
			}
		}
	})
}

// TestAppendVerifyJSONEveryField sets every field of a VerifyResult, so a
// field added to it later and not to appendVerifyJSON fails here.
func TestAppendVerifyJSONEveryField(t *testing.T) {
	var r inspect.VerifyResult
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("s" + v.Type().Field(i).Name)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			switch p.Elem().Kind() {
			case reflect.Bool:
				p.Elem().SetBool(true)
			case reflect.Int, reflect.Int64:
				p.Elem().SetInt(int64(-i))
			default:
				t.Fatalf("field %s: unhandled kind %s", v.Type().Field(i).Name, p.Elem().Kind())
			}
			f.Set(p)
		default:
			t.Fatalf("field %s: unhandled kind %s", v.Type().Field(i).Name, f.Kind())
		}
	}
	if got, want := appendVerifyJSON(nil, &r), encodingJSON(t, &r); !bytes.Equal(got, want) {
		t.Errorf("every field set:\n got %s\nwant %s", got, want)
	}
}

// TestPlainJSON checks the eight-bytes-at-a-time test of appendJSONString
// against the byte by byte one: every pair of byte values at every pair of
// positions of a word, and every byte value in the tail.
func TestPlainJSON(t *testing.T) {
	slow := func(s []byte) bool {
		for _, c := range s {
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return false
			}
		}
		return true
	}
	b := []byte("abcdefgh")
	for p1 := range 8 {
		for p2 := p1; p2 < 8; p2++ {
			for v1 := range 256 {
				for v2 := range 256 {
					copy(b, "abcdefgh")
					b[p1], b[p2] = byte(v1), byte(v2)
					if got, want := plainJSON(string(b)), slow(b); got != want {
						t.Fatalf("%q: %v, want %v", b, got, want)
					}
				}
			}
		}
	}
	for n := range 17 {
		for v := range 256 {
			s := []byte("0123456789abcdefg"[:n+1])
			s[n] = byte(v)
			if got, want := plainJSON(string(s)), slow(s); got != want {
				t.Fatalf("%q: %v, want %v", s, got, want)
			}
		}
	}
}
