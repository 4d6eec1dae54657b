// Command upkg reads Unreal Engine package files of every generation and the
// containers games ship them in.
//
// Ground rules for this package: one file per subcommand; each file's
// newXCmd only builds the cobra command and a runX function does the work
// through the library (internal/inspect and the format packages). Errors are
// mapped to exit codes in one place, below: 0 success, 1 a file failed, 2 a
// usage error.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

func main() { os.Exit(run(os.Args[1:])) }

// run executes the CLI and returns the exit status (split from main for testscript).
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	out := &outWriter{w: os.Stdout}
	root.SetOut(out)
	err := root.Execute()
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	if err == nil {
		return 0
	}
	var ue *usageError
	var fe *failedError
	if strings.HasPrefix(err.Error(), "unknown command ") && !errors.As(err, &ue) {
		// cobra's own error for a word that names no subcommand (it
		// has no type to test for; its text carries the suggestions).
		ue = &usageError{cmd: root.CommandPath(), err: err}
		err = ue
	}
	stderr := controlEscaper{os.Stderr} // errors quote names from files
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "upkg: %v\n", err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", ue.cmd)
		return 2
	case errors.As(err, &fe):
		// The command already reported each failure.
		return 1
	default:
		fmt.Fprintf(stderr, "upkg: %s\n", oneLine(err.Error())) // joined errors too
		return 1
	}
}

// outWriter is standard output, remembering its first failed write: a
// command whose output was cut short (a full disk) fails, though some
// writes (a table's flush, verify's buffered lines) go unchecked where
// they are made.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// fileOf returns the file under w, a command's output (unwrapping the
// control escaper and outWriter), or nil when it is no file (a test's
// buffer).
func fileOf(w io.Writer) *os.File {
	for {
		switch x := w.(type) {
		case *os.File:
			return x
		case *outWriter:
			w = x.w
		case controlEscaper:
			w = x.w
		default:
			return nil
		}
	}
}

// isTerminal reports whether w, a command's output, is a terminal.
func isTerminal(w io.Writer) bool {
	f := fileOf(w)
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// usageError is a mistake in the command line (exit status 2).
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef reports a usage mistake of the command whose path (e.g. "upkg info")
// is cmd.
func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, err: fmt.Errorf(format, args...)}
}

// failedError says some inputs failed and were already reported (exit status 1).
type failedError struct{ n int }

func (e *failedError) Error() string { return fmt.Sprintf("%d failed", e.n) }
