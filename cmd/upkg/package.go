package main

// Helpers shared by the commands that show one package (info, names,
// imports, exports, tree, thumbnail, dump). They work for every opener
// (uasset, legacy, zen) through the inspect.Package model alone.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/mapfile"
)

// openPackage opens a package named on the command line (a file, or
// CONTAINER::/inner/path) and reads it. The caller closes nothing: the
// returned release function does it, and returns what closing found (a
// big package chunk's hash is checked then: see
// inspect.Options.LateChunkHash).
func openPackage(name string, opts *inspect.Options) (*inspect.Package, func() error, error) {
	in, err := inspect.OpenInput(name, opts)
	if err != nil {
		return nil, func() error { return nil }, containerPathHint(name, err)
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
		} else {
			err = engineHint(name, err, opts)
		}
		if in.Size == 0 && errors.Is(err, inspect.ErrUnknownFormat) {
			return nil, func() error { return nil }, fmt.Errorf("%s: an empty file (0 bytes): %w", name, inspect.ErrUnknownFormat)
		}
		return nil, func() error { return nil }, companionHint(name, err, false)
	}
	return p, release, nil
}

// engineHint adds to err, the failure to read name with the engine version
// --engine gave, what upkg infers the package to be without it: read as
// the wrong version, a package fails on some field far from the cause.
func engineHint(name string, err error, opts *inspect.Options) error {
	if opts.Engine == "" {
		return err
	}
	o := *opts
	o.Engine = ""
	p, release, perr := openPackage(name, &o)
	if perr != nil {
		return err
	}
	defer release()
	if p.Engine == "" || p.EngineSource != "detected" {
		return err
	}
	read := p.Engine
	if len(p.EngineCandidates) > 1 {
		read = strings.Join(p.EngineCandidates, ", ")
	}
	return fmt.Errorf("%w; it does not read as %s: without --engine it reads as %s", err, opts.Engine, read)
}

// containerPathHint adds to err, the failure to open CONTAINER::inner,
// which file to name when CONTAINER is a container's companion
// (GAME.ucas::/Game/X for GAME.utoc::/Game/X).
func containerPathHint(name string, err error) error {
	c, inner, ok := inspect.SplitContainerPath(name)
	if !ok {
		return err
	}
	ext, owners := inspect.CompanionOf(c)
	if ext == "" {
		return err
	}
	owner := c[:len(c)-len(ext)] + owners[0]
	if _, known := inspect.ContainerFormatFor(owner); !known {
		return err
	}
	return fmt.Errorf("%w; a %s file holds the %s of the %s file of the same name: name %s%s%s", err, ext, companionHolds[ext], owners[0], owner, inspect.ContainerSep, inner)
}

// companionHolds says what each companion file (see inspect.CompanionOf)
// holds of the file that reads it.
var companionHolds = map[string]string{
	".m.ubulk": "bulk data", ".uexp": "export data", ".ubulk": "bulk data", ".uptnl": "bulk data",
	".ucas": "chunks", ".sig": "signatures",
}

// companionHint adds to err, the failure to recognise the file name as a
// package (inspect.ErrUnknownFormat) or, with container, as a container
// of a format upkg knows, what name is when it is a companion file of one
// (a .uexp named instead of its .uasset is a common slip) and which file
// beside it to open instead.
func companionHint(name string, err error, container bool) error {
	if !container && !errors.Is(err, inspect.ErrUnknownFormat) {
		return err
	}
	if _, _, ok := inspect.SplitContainerPath(name); ok {
		return err
	}
	ext, owners := inspect.CompanionOf(name)
	if ext == "" {
		return err
	}
	base := name[:len(name)-len(ext)]
	if _, ok := inspect.ContainerFormatFor(base + owners[0]); container && !ok {
		return err // a package's companion: no container reads it
	}
	for _, owner := range owners {
		// The owner's extension in the companion's case.
		if name[len(name)-1] >= 'A' && name[len(name)-1] <= 'Z' {
			owner = strings.ToUpper(owner)
		}
		if st, serr := os.Stat(base + owner); serr == nil && st.Mode().IsRegular() {
			return fmt.Errorf("%w; it holds the %s of %s beside it, which reads it: open that", err, companionHolds[ext], filepath.Base(base+owner))
		}
	}
	return fmt.Errorf("%w; a %s file holds the %s of the %s file of the same name, which reads it (none is beside it)", err, ext, companionHolds[ext], strings.Join(owners, " or "))
}

// openContainer opens a container named on the command line. A name of no
// container kind is checked first for existence (a missing file is told
// as such), then for being a companion of one (see companionHint).
func openContainer(name string, opts *inspect.Options) (inspect.Container, error) {
	c, err := inspect.OpenContainer(name, opts)
	if err == nil {
		return c, nil
	}
	if _, known := inspect.ContainerFormatFor(name); !known {
		st, serr := os.Stat(name)
		if serr != nil {
			var pe *fs.PathError
			if errors.As(serr, &pe) {
				serr = pe.Err // the path is said first
			}
			return nil, fmt.Errorf("%s: %w", name, serr)
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%s: a folder, not a container: name a .pak or .utoc file", name)
		}
		err = companionHint(name, err, true)
	}
	return nil, err
}

// forEachPackage runs fn on every named package, reporting failures on
// stderr as one line each; it returns a failedError when any failed.
func forEachPackage(names []string, opts *inspect.Options, stderr io.Writer, fn func(p *inspect.Package) error) error {
	failed := 0
	opts = mapped(opts)
	one := func(name string) (err error) {
		defer faultsAsErrors(name, &err)()
		p, release, err := openPackage(name, opts)
		if err == nil {
			err = fn(p)
			if cerr := release(); cerr != nil {
				err = cerr
			}
		}
		return err
	}
	// A .uexp named with its .uasset (a shell glob) is read with it.
	for _, name := range inspect.WithoutNamedCompanions(names) {
		if err := one(name); err != nil {
			failed++
			fmt.Fprintf(stderr, "upkg: %s\n", oneLine(prefixPath(err.Error(), name)))
		}
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}

// mapped returns opts with package files (and the containers packages are
// named in) mapped rather than read, unless opts has an opener already: an
// export of a file too big to read whole is then a slice of its mapping
// instead of a copy in memory (see mapfile; props of a 600 MiB export
// took 1.2 GB, and one past 1 GiB did not load). What reads the files must
// run with faultsAsErrors deferred.
func mapped(opts *inspect.Options) *inspect.Options {
	if opts.OpenWhole != nil {
		return opts
	}
	o := *opts
	o.OpenWhole = mapfile.OpenWhole
	return &o
}

// faultsAsErrors readies the calling goroutine to read mapped files: a
// memory fault (another process cut a file short while it was mapped)
// raises a panic instead of killing the process. The function it returns,
// deferred, puts the fault mode back and turns such a panic into *err for
// name; any other panic goes on.
func faultsAsErrors(name string, err *error) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		r := recover()
		if r == nil {
			return
		}
		f, fault := r.(interface{ Addr() uintptr })
		if !fault {
			panic(r)
		}
		*err = fmt.Errorf("%s: file changed while being read (memory fault at 0x%x)", name, f.Addr())
	}
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

// isContainer reports whether p is a container read whole (a .pak or
// .utoc named alone), not a package.
func isContainer(name string, p *inspect.Package) bool {
	if _, _, inner := inspect.SplitContainerPath(name); inner {
		return false
	}
	_, ok := inspect.ContainerFormatFor(name)
	return ok && p.Format != "uasset" && p.Format != "zen" && p.Format != "legacy"
}

// packageOnly is the error of a command that shows a package's tables
// given a container: it names what to give instead (empty tables and exit
// 0 looked like an empty package).
func packageOnly(name string, p *inspect.Package) error {
	if !isContainer(name, p) {
		return nil
	}
	return fmt.Errorf("%s: a %s container, not a package: name a package inside it as CONTAINER%s/Game/Path/Asset (`upkg ls` lists its files)", name, p.Format, inspect.ContainerSep)
}

// warnOf prints on stderr, one line each, the warnings of reading p (a
// package path guessed from the file name, script imports named without
// the global container, a .uexp not found, ...): for the commands whose
// output they qualify and that, unlike info and dump, do not show them.
func warnOf(stderr io.Writer, name string, p *inspect.Package) {
	for _, w := range p.Warnings {
		fmt.Fprintf(stderr, "upkg: warning: %s\n", oneLine(prefixPath(w, name)))
	}
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

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
}

var stderr io.Writer = os.Stderr
