package inspect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// companionExts are files read together with a package or container, never
// checked on their own.
var companionExts = map[string]bool{
	".uexp": true, ".ubulk": true, ".uptnl": true, ".m.ubulk": true,
	".ucas": true, ".sig": true, ".usmap": true,
}

// packageExts are extensions that are always packages or containers: a walk
// reports them even when they fail to read. Files with other extensions are
// sniffed and reported only when they look like a package.
var packageExts = map[string]bool{
	".uasset": true, ".umap": true, ".uzenasset": true, ".utoc": true, ".pak": true,
	".u": true, ".utx": true, ".unr": true, ".umx": true, ".uax": true, ".usx": true,
	".ukx": true, ".upk": true, ".udk": true, ".ut2": true, ".ut3": true, ".pcc": true,
	".xxx": true, ".sac": true, ".uc3": true,
}

// packageTag is the magic of every tagged package, UE1 to UE5, either byte order.
const packageTag = 0x9E2A83C1

// VerifyFiles expands paths (files and folders, walked recursively in
// lexical order) into the list of files verify checks. Files named directly
// are always included; companions found in folders are skipped.
func VerifyFiles(paths []string) ([]string, error) {
	var out []string
	err := WalkVerifyFiles(paths, func(p string) bool {
		out = append(out, p)
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WalkVerifyFiles calls yield with each file [VerifyFiles] lists, in the
// same order, as the walk finds it; it stops early when yield returns
// false. The paths are all checked (stat) before the first yield.
func WalkVerifyFiles(paths []string, yield func(string) bool) error {
	dirs := make([]bool, len(paths))
	for i, p := range paths {
		if _, _, ok := SplitContainerPath(p); ok {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		dirs[i] = st.IsDir()
	}
	stop := errors.New("stop")
	for i, p := range paths {
		if !dirs[i] {
			if !yield(p) {
				return nil
			}
			continue
		}
		err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			if isCandidate(q) && !yield(q) {
				return stop
			}
			return nil
		})
		if err == stop {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// isCandidate decides whether a file found in a walk is checked.
func isCandidate(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".m.ubulk") {
		return false
	}
	ext := filepath.Ext(lower)
	if companionExts[ext] {
		return false
	}
	if packageExts[ext] {
		return true
	}
	return sniffTag(name)
}

// sniffTag reports whether the file starts with the package tag.
func sniffTag(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	le := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	be := uint32(b[3]) | uint32(b[2])<<8 | uint32(b[1])<<16 | uint32(b[0])<<24
	return le == packageTag || be == packageTag
}

// VerifyOne checks one file (or CONTAINER::path) and emits its result lines:
// one for a package, several for a container.
func VerifyOne(path string, opts *Options, emit func(VerifyResult)) {
	o := *opts
	o.Verify, o.resultOnly = true, true
	mu.RLock()
	vs := append([]Verifier(nil), verifiers...)
	mu.RUnlock()
	if _, _, inContainer := SplitContainerPath(path); !inContainer {
		for _, v := range vs {
			if v(path, &o, emit) {
				return
			}
		}
	}
	emit(VerifyPackage(path, &o))
}

// VerifyPackage opens one package with the expensive checks on and turns the
// outcome into a result line.
func VerifyPackage(path string, opts *Options) (res VerifyResult) {
	res.Path = path
	if opts.OpenWhole != nil {
		// Files may be mapped: reading a page that another process cut
		// off the file faults, and panics here instead of killing the
		// process (see below).
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	defer func() {
		// A reader bug must cost one result line, not the whole walk.
		if r := recover(); r != nil {
			res.OK = false
			res.Error = recoveredError(r, opts)
		}
	}()
	in, err := OpenInput(path, opts)
	if err != nil {
		res.Error = trimPath(err.Error(), path)
		return res
	}
	if in.Close != nil {
		defer in.Close()
	}
	p, err := OpenPackage(in, opts)
	if err != nil {
		res.Error = trimPath(err.Error(), path)
		var oe *OpenError
		if errors.As(err, &oe) {
			res.Format = oe.Format
		}
		return res
	}
	return ResultFor(p)
}

// recoveredError describes a panic recovered while checking a file: a
// memory fault when files are mapped (opts.OpenWhole) is a file cut short
// by another process; anything else is a reader bug.
func recoveredError(r any, opts *Options) string {
	if f, fault := r.(interface{ Addr() uintptr }); fault && opts.OpenWhole != nil {
		return fmt.Sprintf("file changed while being read (memory fault at 0x%x)", f.Addr())
	}
	return fmt.Sprintf("internal error (please report): %v", r)
}

// trimPath drops a leading "path: " from an error message: the result line
// names the file already.
func trimPath(msg, path string) string {
	return strings.TrimPrefix(msg, path+": ")
}

// ResultFor summarises an opened package as a verify line. A package whose
// header rewrite differs from the original, or with properties that failed
// to decode, is not ok.
func ResultFor(p *Package) VerifyResult {
	res := VerifyResult{
		Path: p.Path, Format: p.Format, OK: true,
		Engine: p.Engine, EngineSource: p.EngineSource,
		Names: len(p.Names), Imports: len(p.Imports), Exports: len(p.Exports),
		HeaderRoundtrip: p.HeaderRoundtrip,
		PackageVersion:  p.PackageVersion, LicenseeVersion: p.LicenseeVersion,
	}
	if c := p.counts; c != nil {
		res.Names, res.Imports, res.Exports = c.names, c.imports, c.exports
	}
	var problems []string
	for _, s := range p.Sections {
		if s.Error != "" {
			problems = append(problems, s.Name+": "+s.Error)
		}
	}
	if p.HeaderRoundtrip != nil && !*p.HeaderRoundtrip {
		problems = append(problems, "header rewrite differs from the original")
	}
	if st := p.Properties; st != nil {
		ewp, ok, failed, un := st.ExportsWithProperties, st.OK, st.Failed, st.BytesUnaccounted
		res.ExportsWithProperties, res.PropertiesOK, res.PropertiesFailed, res.BytesUnaccounted = &ewp, &ok, &failed, &un
		if failed > 0 {
			msg := fmt.Sprintf("%d exports failed property decoding", failed)
			if len(st.Failures) > 0 {
				msg += " (first: " + st.Failures[0] + ")"
			}
			problems = append(problems, msg)
		}
	}
	if len(problems) > 0 {
		res.OK = false
		res.Error = strings.Join(problems, "; ")
	}
	return res
}

// verifyWindow is how many files per worker Verify may run ahead of the
// first file whose results are not yet emitted.
const verifyWindow = 64

// Verify checks every file in order with up to workers files in flight, and
// emits results in the order of files (so output is stable). emit is never
// called concurrently.
func Verify(files []string, opts *Options, workers int, emit func(VerifyResult)) {
	VerifyEach(func(yield func(string) bool) error {
		for _, f := range files {
			if !yield(f) {
				break
			}
		}
		return nil
	}, opts, workers, emit)
}

// VerifyEach is [Verify] over the files walk yields (see
// [WalkVerifyFiles]): checking starts with the first file found, while the
// walk goes on. It returns walk's error, after the results of the files
// found before it.
func VerifyEach(walk func(yield func(string) bool) error, opts *Options, workers int, emit func(VerifyResult)) error {
	if workers < 1 {
		workers = 1
	}
	type slot struct {
		path string
		done chan struct{}
		res  []VerifyResult
	}
	// order holds the files in flight in walk order. Its bound keeps the
	// walk at most a window ahead of what has been emitted, so memory stays
	// flat however many files there are. The window is wide enough that
	// one slow file (a big container, a data table decoded under several
	// candidate engines) does not leave the other workers idle: only result
	// lines (a few hundred bytes each) wait.
	order := make(chan *slot, verifyWindow*workers)
	jobs := make(chan *slot)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				VerifyOne(s.path, opts, func(r VerifyResult) { s.res = append(s.res, r) })
				close(s.done)
			}
		}()
	}
	var walkErr error
	go func() {
		walkErr = walk(func(p string) bool {
			s := &slot{path: p, done: make(chan struct{})}
			order <- s
			jobs <- s
			return true
		})
		close(jobs)
		close(order)
	}()
	for s := range order {
		<-s.done
		for _, r := range s.res {
			emit(r)
		}
		s.res = nil
	}
	wg.Wait()
	return walkErr
}

// VerifySummary is the last line of `upkg verify --json`.
type VerifySummary struct {
	Files   int            `json:"files"`
	OK      int            `json:"ok"`
	Failed  int            `json:"failed"`
	Formats map[string]int `json:"formats,omitempty"`
}

// Add counts one result.
func (s *VerifySummary) Add(r VerifyResult) {
	s.Files++
	if r.OK {
		s.OK++
	} else {
		s.Failed++
	}
	if r.Format != "" {
		if s.Formats == nil {
			s.Formats = map[string]int{}
		}
		s.Formats[r.Format]++
	}
}

// FormatsList returns "uasset 10, legacy 3" for human output.
func (s *VerifySummary) FormatsList() string {
	var keys []string
	for k := range s.Formats {
		keys = append(keys, k)
	}
	sort.StringSlice(keys).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.Formats[k]))
	}
	return strings.Join(parts, ", ")
}
