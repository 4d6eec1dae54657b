//go:build unix

package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// mkfifo NAME makes a named pipe in the script's folder.
	scriptCmds["mkfifo"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: mkfifo name")
		}
		ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
	}
}
