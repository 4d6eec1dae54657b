//go:build !unix

package main

import "os"

// stopSignals end a run early: extract removes its temporary files on
// them.
var stopSignals = []os.Signal{os.Interrupt}
