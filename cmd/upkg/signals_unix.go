//go:build unix

package main

import (
	"os"
	"syscall"
)

// stopSignals end a run early: extract removes its temporary files on
// them (SIGPIPE is a closed output pipe, as in `upkg extract ... | head`;
// SIGQUIT is Ctrl-\, which otherwise dumps the goroutines and leaves them).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE, syscall.SIGQUIT}
