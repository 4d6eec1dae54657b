// Package inspect is the layer between the format packages and the two front
// ends (cmd/upkg and the WebAssembly page). It sniffs which format a file is
// (a list of openers tried in turn, like cmd/internal/objfile), and turns each
// format's model into the JSON-tagged structs both front ends print, so the
// CLI's --json and the page show the same numbers for the same file.
//
// Each format family adds itself from its own file (uasset.go, legacy.go,
// zen.go, containers) with RegisterOpener / RegisterContainer in an init
// function; nothing here knows the formats.
//
// Build tags select the families a binary links, for the page's WebAssembly
// modules (each must stay small): with upkg_only, a family's files build
// only with its own tag — upkg_uasset (UE4/UE5 packages with properties),
// upkg_legacy (UE1–UE3), upkg_pak, upkg_iostore (.utoc/.ucas and zen
// packages). Without upkg_only (the CLI, the tests) every family is linked.
package inspect

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/upkg/upkg/internal/osfile"
)

// Options are the knobs a user can set for reading a package.
type Options struct {
	Engine   string // --engine, e.g. "4.27", "5.3"; empty means from the file or inferred
	Mappings string // --mappings, path of a .usmap file
	AESKey   string // --aes-key, hex (with or without 0x) or base64; several keys comma-separated
	// Verify asks for the expensive checks (header rewrite comparison,
	// property decoding of every export, chunk hashes).
	Verify bool
	// Properties asks for property decoding of every export.
	Properties bool
	// ReadFile opens auxiliary files named by options (the mappings file).
	// Nil means the OS file system (the CLI); the page sets its own.
	ReadFile func(name string) ([]byte, error)
	// OpenWhole opens package files on disk and their companions, which
	// are read nearly whole; nil means osfile.OpenWhole (read into memory).
	// The CLI maps them instead. When set, [VerifyPackage] turns a memory
	// fault while reading (a mapped file cut short by another process)
	// into an error for that file.
	OpenWhole osfile.WholeOpener
	// DirectCalls makes the system calls of verify's walk (opening and
	// listing folders, reading the heads of files) directly on Linux: the
	// calling thread keeps its processor through them (see package
	// internal/fscall). The CLI sets it, with an OpenWhole that does the
	// same, when it runs no more workers than processors.
	DirectCalls bool
	// LateChunkHash: a package read from an IoStore container whose chunk
	// is too big to read whole (over 16 MiB: a map's export bundle can be
	// hundreds of MB) is hashed as it is read and checked when its Input
	// closes, Close returning the mismatch, instead of being checked
	// first and then decoded a second time to read it. The CLI, whose
	// commands read a package through and close it, sets it; the page,
	// which keeps packages open, does not.
	LateChunkHash bool
	// ContainerLines, when set, is told by verify how many package lines
	// a container it checks gives beside its own, once it knows (after
	// reading the index, before the first of them): a progress display
	// can grow its total. It may be called from any goroutine.
	ContainerLines func(n int)

	// resultOnly is set by [VerifyOne]: nothing of the package but its
	// [VerifyResult] is used, so renderings no check needs (a zen
	// package's dependency lists) are skipped.
	resultOnly bool
	// dir is set by [VerifyOne] for a file found in a walk: the listing
	// of its folder, which tells which companions do not exist.
	dir *dirList
	// helpers is set by a verify run with more than one worker: the
	// workers the walk has no file for, which a container's checks may
	// share (see shareWork).
	helpers *helpers
}

// Input is one package to read: its main file and a way to reach the files
// that travel with it (.uexp, .ubulk, .uptnl), wherever they live (disk, a
// container, files dropped together in the browser).
type Input struct {
	Name string // display path, e.g. "Content/BP_Hero.uasset" or "Game.utoc::/Game/BP_Hero"
	R    io.ReaderAt
	Size int64
	// Sibling opens the companion with the same base name and extension ext
	// (".uexp"). It returns an error wrapping fs.ErrNotExist when there is none.
	Sibling func(ext string) (io.ReaderAt, int64, error)
	// Close releases what opening the input took; may be nil.
	Close func() error
}

// Opener knows one package format.
type Opener struct {
	Format string // "uasset", "legacy", "zen"
	// Match reports whether the file looks like this format. head holds the
	// first bytes of the file (up to 64 bytes), name its display path.
	Match func(head []byte, name string) bool
	// Open reads the package.
	Open func(in *Input, opts *Options) (*Package, error)
	// Priority orders openers whose Match both accept (higher first).
	Priority int
}

var (
	mu         sync.RWMutex
	openers    []Opener
	containers = map[string]ContainerOpener{}
	verifiers  []Verifier
)

// RegisterOpener adds a package format.
func RegisterOpener(o Opener) {
	mu.Lock()
	defer mu.Unlock()
	openers = append(openers, o)
	sort.SliceStable(openers, func(i, j int) bool { return openers[i].Priority > openers[j].Priority })
}

// HasOpener reports whether the package format (an [Opener]'s Format) is
// registered: a build for the page may leave format families out (build
// tags upkg_only plus one tag per family, see the doc of package web).
func HasOpener(format string) bool {
	mu.RLock()
	defer mu.RUnlock()
	for _, o := range openers {
		if o.Format == format {
			return true
		}
	}
	return false
}

// MatchFormat returns the Format of the opener [OpenPackage] would use for
// a file with these first bytes (64 are enough) and name, "" when none
// matches. The page's router mirrors it in JavaScript and is tested
// against it.
func MatchFormat(head []byte, name string) string {
	mu.RLock()
	defer mu.RUnlock()
	for _, o := range openers {
		if o.Match(head, name) {
			return o.Format
		}
	}
	return ""
}

// ErrUnknownFormat reports a file no opener recognises.
var ErrUnknownFormat = errors.New("not a package upkg recognises")

// OpenPackage sniffs in and opens it with the first opener that matches.
func OpenPackage(in *Input, opts *Options) (*Package, error) {
	if opts == nil {
		opts = &Options{}
	}
	head := make([]byte, min(64, in.Size))
	if _, err := in.R.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	mu.RLock()
	list := append([]Opener(nil), openers...)
	mu.RUnlock()
	for _, o := range list {
		if o.Match(head, in.Name) {
			p, err := o.Open(in, opts)
			if err != nil {
				return nil, &OpenError{Format: o.Format, Err: err}
			}
			if p.Path == "" {
				p.Path = in.Name
			}
			if p.Format == "" {
				p.Format = o.Format
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s: %w (first bytes % x)", in.Name, ErrUnknownFormat, head[:min(8, len(head))])
}

// OpenError is a failure of the opener that recognised the file; Format
// says which format it was taken for.
type OpenError struct {
	Format string
	Err    error
}

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// ContainerOpener resolves "CONTAINER::/inner/path" to an Input for the
// package stored inside the container.
type ContainerOpener func(container, inner string, opts *Options) (*Input, error)

// RegisterContainer adds a container format by file extension (".utoc", ".pak").
func RegisterContainer(ext string, fn ContainerOpener) {
	mu.Lock()
	containers[strings.ToLower(ext)] = fn
	mu.Unlock()
}

// ContainerSep separates a container path from the path of a package inside
// it: "Game-Windows.utoc::/Game/Maps/Level1".
const ContainerSep = "::"

// SplitContainerPath splits "CONTAINER::INNER"; ok is false for plain paths.
func SplitContainerPath(p string) (container, inner string, ok bool) {
	i := strings.Index(p, ContainerSep)
	if i < 0 {
		return "", "", false
	}
	return p[:i], p[i+len(ContainerSep):], true
}

func containerOpener(container string) ContainerOpener {
	mu.RLock()
	defer mu.RUnlock()
	for ext, fn := range containers {
		if strings.HasSuffix(strings.ToLower(container), ext) {
			return fn
		}
	}
	return nil
}

// Verifier checks the files at path it is responsible for (a container
// checks its chunks and every package inside) and emits one result per item.
// It returns false when path is not its kind of file.
type Verifier func(path string, opts *Options, emit func(VerifyResult)) bool

// RegisterVerifier adds a verifier tried before the default package check.
func RegisterVerifier(v Verifier) {
	mu.Lock()
	verifiers = append(verifiers, v)
	mu.Unlock()
}
