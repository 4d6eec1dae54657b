//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"

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

// TestFullOutput: output cut short by a full disk fails the command (exit
// 1), for commands whose own writes go unchecked (verify's buffered lines,
// info's tables) as for the rest.
func TestFullOutput(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	dir := t.TempDir()
	pkg := writePak(t, dir, 11, "../../../", "Game/a.txt")
	saved := os.Stdout
	os.Stdout = full
	defer func() { os.Stdout = saved }()
	for _, args := range [][]string{{"verify", dir}, {"verify", "--json", dir}, {"info", pkg}, {"ls", pkg}} {
		if got := run(args); got != 1 {
			t.Errorf("upkg %s > /dev/full: exit status %d, want 1", strings.Join(args, " "), got)
		}
	}
}
