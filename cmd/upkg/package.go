package main

// Helpers shared by the commands that show one package (info, names,
// imports, exports, tree, thumbnail, dump). They work for every opener
// (uasset, legacy, zen) through the inspect.Package model alone.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/upkg/upkg/internal/inspect"
)

// openPackage opens a package named on the command line (a file, or
// CONTAINER::/inner/path) and reads it. The caller closes nothing: the
// returned release function does it, and returns what closing found (a
// big package chunk's hash is checked then: see
// inspect.Options.LateChunkHash).
func openPackage(name string, opts *inspect.Options) (*inspect.Package, func() error, error) {
	in, err := inspect.OpenInput(name, opts)
	if err != nil {
		return nil, func() error { return nil }, err
	}
	release := func() error {
		if in.Close != nil {
			return in.Close()
		}
		return nil
	}
	p, err := inspect.OpenPackage(in, opts)
	if err != nil {
		if cerr := release(); cerr != nil {
			err = cerr // the chunk failed its hash: that is why it does not read
		}
		return nil, func() error { return nil }, err
	}
	return p, release, nil
}

// forEachPackage runs fn on every named package, reporting failures on
// stderr as one line each; it returns a failedError when any failed.
func forEachPackage(names []string, opts *inspect.Options, stderr io.Writer, fn func(p *inspect.Package) error) error {
	failed := 0
	for _, name := range names {
		p, release, err := openPackage(name, opts)
		if err == nil {
			err = fn(p)
			if cerr := release(); cerr != nil {
				err = cerr
			}
		}
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "upkg: %s\n", oneLine(prefixPath(err.Error(), name)))
		}
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}

// prefixPath makes sure an error message names the file. For a package
// inside a container, a message that already starts with the container's
// path names it well enough (the opener spells the inner path its own way).
func prefixPath(msg, name string) string {
	if strings.HasPrefix(msg, name) {
		return msg
	}
	if c, _, ok := inspect.SplitContainerPath(name); ok && strings.HasPrefix(msg, c) {
		return msg
	}
	return name + ": " + msg
}

// oneLine folds a multi-line message into one line.
func oneLine(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			out = append(out, ';', ' ')
		case '\r', '\t':
			out = append(out, ' ')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
}

var stderr io.Writer = os.Stderr
