package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/upkg/upkg/internal/corpus"
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
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}
