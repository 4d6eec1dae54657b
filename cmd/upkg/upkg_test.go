package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"upkg": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs cmd/upkg/testdata/*.txt. Scripts see the real-file corpus
// as $CORPUS; a script that needs it starts with `[!corpus] skip`.
func TestScripts(t *testing.T) {
	dir, ok := corpus.Find()
	if !ok && os.Getenv("CI") == "true" {
		t.Fatal("real-file corpus not found at ../shared/corpus; CI=true requires it")
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			env.Setenv("CORPUS", dir)
			return nil
		},
		Cmds: scriptCmds,
		Condition: func(cond string) (bool, error) {
			if cond == "corpus" {
				return ok, nil
			}
			return false, nil
		},
	})
}

// scriptCmds are the scripts' own commands (upkg_unix_test.go adds
// mkfifo).
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"jsonlines": jsonLines,
}

// jsonLines (jsonlines FILE) checks that FILE holds JSON values only, as
// one document or one per line, and that it is not empty.
func jsonLines(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: jsonlines FILE")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	n := 0
	var err error
	for {
		var v any
		if err = dec.Decode(&v); err != nil {
			break
		}
		n++
	}
	ok := err == io.EOF && n > 0
	switch {
	case neg && ok:
		ts.Fatalf("%s holds %d JSON values", args[0], n)
	case !neg && !ok:
		ts.Fatalf("%s is not JSON after %d values: %v", args[0], n, err)
	}
}

// TestExitStatus checks the exit status of mistakes in the command line (2,
// before any file is read), of a file that fails (1) and of success (0).
func TestExitStatus(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--help"}, 0},
		{[]string{"--no-such-flag"}, 2},
		{[]string{"no-such-command"}, 2},
		{[]string{"info"}, 2},
		{[]string{"names", "a.uasset", "b.uasset"}, 2},
		{[]string{"extract", missing + ".pak", missing + "2.pak"}, 2},
		{[]string{"ls", "--aes-key", "zzzz", missing + ".pak"}, 2},
		{[]string{"info", "--aes-key", "0x00," + strings.Repeat("ab", 32), missing + ".uasset"}, 2},
		{[]string{"--engine", "banana", "info", missing + ".u"}, 2},
		{[]string{"verify", "--jobs", "0", missing}, 2},
		{[]string{"extract", "-j", "-1", missing + ".pak"}, 2},
		{[]string{"--engine", "UE4_27", "info", missing + ".uasset"}, 1},
		{[]string{"dump", "--mappings", missing + ".usmap", missing + ".uasset"}, 2},
		{[]string{"info", missing + ".uasset"}, 1},
		{[]string{"ls", "--aes-key", strings.Repeat("ab", 32) + ",", missing + ".pak"}, 1},
	} {
		if got := run(tc.args); got != tc.want {
			t.Errorf("upkg %s: exit status %d, want %d", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}

// TestControlEscaper: control characters from files are escaped on a text
// command's output; layout and other text pass unchanged.
func TestControlEscaper(t *testing.T) {
	for in, want := range map[string]string{
		"plain\tname\n":          "plain\tname\n",
		"evil\x1b[2Jname\r\n":    "evil\\x1b[2Jname\\x0d\n",
		"c1 \u009b31m é ☃\x7f\n": "c1 \\u009b31m é ☃\\u007f\n",
		"\x00":                   "\\x00",
	} {
		var b strings.Builder
		n, err := controlEscaper{&b}.Write([]byte(in))
		if err != nil || n != len(in) || b.String() != want {
			t.Errorf("%q: wrote %q (%d, %v), want %q", in, b.String(), n, err, want)
		}
	}
}

// TestIsBinary: a NUL byte in the first 8 KiB makes data binary (cat does
// not write it to a terminal).
func TestIsBinary(t *testing.T) {
	for in, want := range map[string]bool{
		"[Section]\nKey=Value\n":            false,
		"\xc1\x83\x2a\x9e\x00\x00":          true,
		strings.Repeat("a", 9<<10) + "\x00": false,
		"":                                  false,
	} {
		if got := isBinary([]byte(in)); got != want {
			t.Errorf("isBinary(%.20q) = %v, want %v", in, got, want)
		}
	}
	var b strings.Builder
	if fileOf(controlEscaper{&outWriter{w: &b}}) != nil || fileOf(controlEscaper{&outWriter{w: os.Stdout}}) != os.Stdout {
		t.Error("fileOf does not see through the output's wrappers")
	}
}

// TestOneLinePerResult: names holding line breaks cannot forge lines of
// text output (a "FAIL" line under an ok one).
func TestOneLinePerResult(t *testing.T) {
	r := inspect.VerifyResult{Path: "x.uasset\nFAIL forged.uasset: bad", OK: true, Format: "uasset", Note: "a\rb"}
	line := string(appendVerifyLine(nil, &r))
	if strings.ContainsAny(line, "\n\r") || !strings.HasPrefix(line, `ok   x.uasset\nFAIL forged.uasset: bad  [`) || !strings.HasSuffix(line, `note: a\rb`) {
		t.Errorf("line %q", line)
	}
	if got := field("a\tb"); got != `a\tb` {
		t.Errorf("field: %q", got)
	}
	var out strings.Builder
	dir := t.TempDir()
	pakPath := writePak(t, dir, 8, "../../../", "fake\nFAIL other.txt")
	if err := runLs(&inspect.Options{}, lsOpts{}, pakPath, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "fake\\nFAIL other.txt\n" {
		t.Errorf("ls: %q", out.String())
	}
}
