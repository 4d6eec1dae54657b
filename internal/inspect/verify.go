package inspect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// companionExts are files read together with a package or container, never
// checked on their own.
var companionExts = map[string]bool{
	".uexp": true, ".ubulk": true, ".uptnl": true, ".m.ubulk": true,
	".ucas": true, ".sig": true, ".usmap": true,
}

// companionOwners are the companion extensions of files that belong to
// one package or container, with the extensions of the files that read
// them (".m.ubulk" before ".ubulk", whose suffix it shares).
var companionOwners = []struct {
	ext    string
	owners []string
}{
	{".m.ubulk", []string{".uasset", ".umap", ".uzenasset"}},
	{".uexp", []string{".uasset", ".umap"}},
	{".ubulk", []string{".uasset", ".umap", ".uzenasset"}},
	{".uptnl", []string{".uasset", ".umap", ".uzenasset"}},
	{".ucas", []string{".utoc"}},
	{".sig", []string{".utoc", ".pak"}},
}

// namedSet returns the files among paths (those dirs does not mark; dirs
// nil: all), lower-cased, for namedCompanion; nil when none of them has a
// companion extension.
func namedSet(paths []string, dirs []bool) map[string]bool {
	isFile := func(i int) bool { return dirs == nil || !dirs[i] }
	i := 0
	for ; i < len(paths) && !(isFile(i) && hasCompanion(paths[i])); i++ {
	}
	if i == len(paths) {
		return nil
	}
	set := make(map[string]bool, len(paths))
	for i, p := range paths {
		if isFile(i) {
			set[strings.ToLower(filepath.Clean(p))] = true // ./X.uexp names X.uexp
		}
	}
	return set
}

// CompanionOf returns, when name is a companion file of one package or
// container, its extension (lower case) and the extensions of the files
// that read it; "" and nil otherwise.
func CompanionOf(name string) (ext string, owners []string) {
	lower := strings.ToLower(name)
	for _, c := range companionOwners {
		if strings.HasSuffix(lower, c.ext) {
			return c.ext, c.owners
		}
	}
	return "", nil
}

// hasCompanion reports whether name is a companion file (CompanionOf).
func hasCompanion(name string) bool {
	ext, _ := CompanionOf(name)
	return ext != ""
}

// WithoutNamedCompanions returns files less the companions named together
// with the package or container that reads them (a shell glob over a
// cooked folder names X.uasset and X.uexp): the rule [VerifyFiles]
// follows, for the commands that take many files.
func WithoutNamedCompanions(files []string) []string {
	named := namedSet(files, nil)
	if named == nil {
		return files
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !namedCompanion(f, named) {
			out = append(out, f)
		}
	}
	return out
}

// namedCompanion reports whether name, a file named directly, is a
// companion whose package or container is named too: named holds the
// files named, lower-cased.
func namedCompanion(name string, named map[string]bool) bool {
	ext, owners := CompanionOf(name)
	name = filepath.Clean(name)
	base := strings.ToLower(name[:len(name)-len(ext)])
	for _, o := range owners {
		if named[base+o] {
			return true
		}
	}
	return false
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
// are included, but for a companion named together with the package or
// container that reads it (a shell glob over a folder names both);
// companions found in folders are skipped.
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
	return walkVerify(paths, false, func(p string, _ *dirList) bool { return yield(p) }, nil)
}

// walkVerify is [WalkVerifyFiles] that also hands yield the listing of the
// folder a file is in, when it read one (nil: not known). direct is
// [Options.DirectCalls]. With failed set, a path named that does not exist
// and a folder that cannot be listed go to failed, and the walk goes on
// (failed returning false stops it); else the first such error ends it.
func walkVerify(paths []string, direct bool, yield func(string, *dirList) bool, failed func(string, error) bool) error {
	dirs := make([]bool, len(paths))
	var missing []error
	for i, p := range paths {
		if _, _, ok := SplitContainerPath(p); ok {
			continue
		}
		st, err := os.Stat(p)
		if err != nil && failed == nil {
			return err
		}
		if err != nil {
			if missing == nil {
				missing = make([]error, len(paths))
			}
			missing[i] = err
			continue
		}
		dirs[i] = st.IsDir()
	}
	// A companion named with the file that reads it is read with that
	// file, not alone (see namedCompanion).
	namedFiles := namedSet(paths, dirs)
	// Files named directly get the listing of their folder when the next
	// path is in the same folder too (a shell glob): one read of the
	// folder then answers the companion lookups of all of them.
	namedDir, named := "", (*dirList)(nil)
	for i, p := range paths {
		if missing != nil && missing[i] != nil {
			if !failed(p, missing[i]) {
				return nil
			}
			continue
		}
		if !dirs[i] {
			if namedFiles != nil && namedCompanion(p, namedFiles) {
				continue
			}
			var list *dirList
			if _, _, ok := SplitContainerPath(p); !ok {
				parent := filepath.Dir(p)
				if parent != namedDir && i+1 < len(paths) && !dirs[i+1] && filepath.Dir(paths[i+1]) == parent {
					namedDir, named = parent, nil
					r := dirReader{direct: direct}
					if fd, entries, err := r.read(-1, parent, parent, 0); err == nil {
						r.closeDir(fd)
						named = newDirList(parent, entries)
					}
				}
				if parent == namedDir {
					list = named
				}
			}
			if !yield(p, list) {
				return nil
			}
			continue
		}
		// A folder named through a symbolic link is walked, as grep -r
		// and find -H walk one (links inside are not followed): a game's
		// Content linked from elsewhere is verified, not passed over as
		// "0 packages". (dirs[i] comes from os.Stat, which follows it.)
		if more, err := walkVerifyDir(p, direct, yield, failed); err != nil || !more {
			return err
		}
	}
	return nil
}

// walkVerifyDir walks the folder dir as filepath.WalkDir does (entries in
// lexical order, subfolders as they come, symbolic links not followed).
// It returns false when yield (or failed, see walkVerify) asked to stop.
func walkVerifyDir(dir string, direct bool, yield func(string, *dirList) bool, failed func(string, error) bool) (bool, error) {
	r := dirReader{direct: direct}
	return r.walk(-1, dir, dir, 0, yield, failed)
}

// walk is walkVerifyDir of the folder dir, which is name in the folder
// open as parent (-1: not open).
func (r *dirReader) walk(parent int, name, dir string, depth int, yield func(string, *dirList) bool, failed func(string, error) bool) (bool, error) {
	fd, entries, err := r.read(parent, name, dir, depth)
	if err != nil && failed != nil {
		return failed(dir, err), nil // the folder's line; its siblings go on
	}
	if err != nil {
		return false, err
	}
	defer r.closeDir(fd)
	var list *dirList
	listed := false
	// Whether a path in dir is dir + separator + name (see joinName),
	// decided once for the folder; entries that are neither folders nor
	// candidates (companions, mostly) get no path at all.
	concat := joinsByConcat(dir)
	join := func(name string) string {
		if concat {
			return dir + string(filepath.Separator) + name
		}
		return filepath.Join(dir, name)
	}
	for _, d := range entries {
		if d.typ.IsDir() {
			if more, err := r.walk(fd, d.name, join(d.name), depth+1, yield, failed); err != nil || !more {
				return more, err
			}
			continue
		}
		if !d.typ.IsRegular() {
			continue
		}
		// The name's extension is the path's.
		sniff, ok := candidateByExt(d.name)
		if !sniff && !ok {
			continue
		}
		q := join(d.name)
		if sniff {
			var b [4]byte
			if !r.readHead(fd, d.name, q, b[:]) || !isPackageTag(b) {
				continue
			}
		}
		if !listed {
			// Only folders with packages need a listing.
			list, listed = newDirList(dir, entries), true
		}
		if !yield(q, list) {
			return false, nil
		}
	}
	return true, nil
}

// maxHeldDirs is how deep the walk keeps folder descriptors open to open
// subfolders relative to them; deeper folders are opened by path.
const maxHeldDirs = 64

// dirEntry is a folder entry as the walk reads it.
type dirEntry struct {
	name string
	typ  fs.FileMode // type bits only
}

// dirEntries sorts entries by name (sort.Sort, not a generic sort, which
// would grow the WebAssembly).
type dirEntries []dirEntry

func (d dirEntries) Len() int           { return len(d) }
func (d dirEntries) Less(i, j int) bool { return d[i].name < d[j].name }
func (d dirEntries) Swap(i, j int)      { d[i], d[j] = d[j], d[i] }

// joinName is filepath.Join(dir, name) for a name read from the folder dir
// (one element, never "." or ".."): when dir is clean and not a root or
// ".", the join is a concatenation.
func joinName(dir, name string) string {
	if !joinsByConcat(dir) {
		return filepath.Join(dir, name)
	}
	return dir + string(filepath.Separator) + name
}

// joinsByConcat reports whether [joinName] of dir is a concatenation.
func joinsByConcat(dir string) bool {
	return dir != "" && dir != "." && !os.IsPathSeparator(dir[len(dir)-1]) && filepath.Clean(dir) == dir
}

// dirList is the listing of a folder as the walk read it, so that looking
// for a package's companions (.uexp, .ubulk, ...) need not try to open the
// many that do not exist.
type dirList struct {
	dir   string
	names []string // the entries' names, sorted ignoring ASCII case
	// err, when set, is why the path handed with this list could not be
	// walked: its result is that error (see VerifyPathsDone).
	err error
}

// newDirList returns the listing of dir, or nil when a name in it is not
// plain ASCII (a case-insensitive file system may fold it in ways a
// lookup here would not).
func newDirList(dir string, entries []dirEntry) *dirList {
	l := &dirList{dir: filepath.Clean(dir), names: make([]string, len(entries))}
	for i, d := range entries {
		l.names[i] = d.name
		if !binread.IsASCIIString(l.names[i]) {
			return nil
		}
	}
	sort.Sort(foldNames(l.names))
	return l
}

// foldNames sorts names by compareFold (sort.Sort, not a generic sort,
// which would grow the WebAssembly).
type foldNames []string

func (n foldNames) Len() int           { return len(n) }
func (n foldNames) Less(i, j int) bool { return compareFold(n[i], n[j]) < 0 }
func (n foldNames) Swap(i, j int)      { n[i], n[j] = n[j], n[i] }

// absent reports whether name is surely not in the listed folder: opening
// it would fail with "no such file". A name the listing has in any case
// is not absent (it is opened, and the file system decides).
func (l *dirList) absent(name string) bool {
	if l == nil || filepath.Dir(name) != l.dir {
		return false
	}
	base := filepath.Base(name)
	if !binread.IsASCIIString(base) {
		return false
	}
	i := sort.Search(len(l.names), func(i int) bool { return compareFold(l.names[i], base) >= 0 })
	return i == len(l.names) || compareFold(l.names[i], base) != 0
}

// compareFold compares ASCII strings as if they were in lower case.
func compareFold(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if 'A' <= ca && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if 'A' <= cb && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
	}
	return len(a) - len(b)
}

// isCandidate decides whether a file found in a walk is checked.
func isCandidate(name string) bool {
	sniff, ok := candidateByExt(name)
	if sniff {
		return sniffTag(name)
	}
	return ok
}

// candidateByExt is isCandidate by the name's extension: ok when it is
// one, sniff when the file's first bytes decide.
func candidateByExt(name string) (sniff, ok bool) {
	ext, ok := lowerExt(name)
	if !ok {
		lower := strings.ToLower(name)
		if strings.HasSuffix(lower, ".m.ubulk") {
			return false, false
		}
		ext = filepath.Ext(lower)
	}
	// (A ".m.ubulk" has the extension ".ubulk", a companion's.)
	if companionExts[ext] {
		return false, false
	}
	if packageExts[ext] {
		return false, true
	}
	return true, false
}

// lowerExt returns filepath.Ext(strings.ToLower(name)) without lowering
// the whole path, when the extension is short plain ASCII (ok false: use
// strings.ToLower).
func lowerExt(name string) (string, bool) {
	ext := filepath.Ext(name)
	if len(ext) > 8 {
		return "", false
	}
	upper := false
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if c >= 0x80 {
			return "", false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	// A non-ASCII letter before the extension may lower to ASCII (the
	// Kelvin sign lowers to "k") or change length, but never to a "." or
	// a separator: the extension of the lowered path is the lowered
	// extension, once the extension itself is ASCII.
	if !upper {
		return ext, true
	}
	return strings.ToLower(ext), true
}

// sniffTag reports whether the file starts with the package tag.
func sniffTag(name string) bool {
	var b [4]byte
	return readHead(name, b[:]) && isPackageTag(b)
}

// readHead reads the first len(b) bytes of the file name.
func readHead(name string, b []byte) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = io.ReadFull(f, b)
	return err == nil
}

// isPackageTag reports whether b is the package tag in either byte order.
func isPackageTag(b [4]byte) bool {
	le := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	be := uint32(b[3]) | uint32(b[2])<<8 | uint32(b[1])<<16 | uint32(b[0])<<24
	return le == packageTag || be == packageTag
}

// VerifyOne checks one file (or CONTAINER::path) and emits its result lines:
// one for a package, several for a container.
func VerifyOne(path string, opts *Options, emit func(VerifyResult)) {
	verifyOne(path, nil, opts, emit)
}

// verifyOne is [VerifyOne] of a file found in the folder listed by dir
// (nil: not known).
func verifyOne(path string, dir *dirList, opts *Options, emit func(VerifyResult)) {
	if dir != nil && dir.err != nil {
		emit(VerifyResult{Path: path, Error: walkErrorText(dir.err)})
		return
	}
	o := *opts
	o.Verify, o.resultOnly, o.dir = true, true, dir
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

// walkErrorText words an error of the walk: the cause alone, the path
// being the line's own.
func walkErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file or folder"
	}
	return "cannot read this folder: " + err.Error()
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
		defer func() {
			// A chunk hashed as it was read (Options.LateChunkHash) is
			// checked here: one that fails gets the line it would have
			// got failing before the checks.
			if err := in.Close(); err != nil {
				res = VerifyResult{Path: path, Error: trimPath(err.Error(), path)}
			}
		}()
		// The line must not share memory with the files: closing them may
		// hand their buffers to the next file (see mapfile.OpenWhole).
		defer res.detach()
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

// detach gives the line's strings their own memory.
func (r *VerifyResult) detach() {
	r.Format, r.Error = strings.Clone(r.Format), strings.Clone(r.Error)
	r.Engine, r.EngineSource = strings.Clone(r.Engine), strings.Clone(r.EngineSource)
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

// containerFault is deferred by the verify of a container whose files may
// be mapped (see VerifyPackage): a memory fault while reading them
// (another process cut a file short) becomes the container's error line,
// emitted, and sets *handled; any other panic goes on.
func containerFault(res *VerifyResult, opts *Options, emit func(VerifyResult), handled *bool) {
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); !fault {
		panic(r)
	}
	res.OK = false
	res.Error = recoveredError(r, opts)
	emit(*res)
	*handled = true
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
		// One allocation for the four counts the line points to.
		c := &struct {
			ewp, ok, failed int
			un              int64
		}{st.ExportsWithProperties, st.OK, st.Failed, st.BytesUnaccounted}
		res.ExportsWithProperties, res.PropertiesOK, res.PropertiesFailed, res.BytesUnaccounted = &c.ewp, &c.ok, &c.failed, &c.un
		if c.failed > 0 {
			msg := fmt.Sprintf("%d exports failed property decoding", c.failed)
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
	res.Note = p.verifyNote
	return res
}

// VerifyGCPercent and VerifyMemoryLimit are how `upkg verify` tunes the
// collector (debug.SetGCPercent, debug.SetMemoryLimit). Verify allocates
// much short-lived garbage (decoded chunks and blocks, property values)
// over a small live heap (5-14 MB), so collecting less often saves a good
// share of its time, and the soft limit keeps the peak heap (and so RSS)
// well under 100 MB whatever is verified.
//
// 800 measured best on the whole corpus: against 400, one collection
// instead of two and wall 0.109-0.114 -> 0.103-0.105 s (Xeon VM,
// alternated); 1600 costs more in page faults of fresh heap than it
// saves. Re-measured on a 2-core AMD EPYC VM (40 alternated pairs each),
// 400 and 1600 were 4% and 6% slower than 800.
//
// Collecting more often touches less fresh heap but costs more than it
// saves. Per corpus pass on that VM (15 alternated rounds), GOGC 400, 200
// and 100 took 1.03, 1.06 and 1.19 times the wall time of 800; GOMEMLIMIT
// 48, 40 and 32 MiB took 0.99, 1.01 and 1.09 times (at 32 MiB the
// scavenger also hands pages back, 80 madvise calls, to be faulted in
// again). GOGC 200 runs four collections and keeps the heap under 20 MB
// (32 MB at 800), yet heap page faults drop only from 8.1k to 7.1k. Each
// extra cycle costs more than the 1-1.5 ms of CPU gctrace reports for it.
// While a cycle marks, write barriers read the old pointers of memory
// before overwriting it; on fresh heap that read maps the zero page, and
// the write then faults again and flushes the other processor's TLB (an
// interrupt, slow in a VM). runtime.wbMove alone did this on 93 pages per
// pass at GOGC 200, and on none at 800. Keeping sync.Pool contents across
// collections (a patched toolchain) changed none of these figures.
//
// Only the first cycle's timing matters much: a pass allocates ~48 MB and
// collects once, so the heap peaks at about max(g, 48 - g + live) MB for a
// first cycle at g MB (live ~6-11 MB), lowest near g = 29. Measured with
// GOGC 400, 500 and 600 for the first cycle and 800 after it (one cycle
// each, at 16, 20 and 24 MB), 21 alternated rounds: 1.043, 1.031 and 1.002
// times the wall time of 800 throughout; no collection at all (GOGC=off,
// 15 rounds), 1.09. Between, the curve is flat: GOGC 640, 680, 720 and
// 760 (first cycle at 26-30 MB), 31 alternated rounds: 0.996-1.008.
//
// Transparent huge pages for the heap do not pay on the project's VMs. On
// a kernel in THP "madvise" mode the Go heap gets 4 KiB pages only; asking
// for huge ones over 32 MiB of fresh heap (one block allocated, hinted
// with MADV_HUGEPAGE, then freed) cut a pass's page faults from ~10.5k to
// 3-4k and took 0.93-0.97 times the wall time with runs back to back, but
// 1.30 times with 2 s between runs (system time 64 -> 101-115 ms, 10
// alternated rounds): idle guest memory goes back to the host
// (virtio-balloon), and each huge page's first touch then costs the host
// 2 MiB of faults. Without the hint, runs are slower with gaps too (120
// ms of wall time against ~105 back to back), less so.
//
// The limit leaves room for the mapped files verify holds (up to 16 MiB
// of closed ones in mapfile's ranges, plus those open): peak RSS is 55 MB
// for the corpus, 81 MB for it given 20 times. Each worker holds buffers
// of its own: with 56 MiB throughout, the corpus given 20 times peaked at
// 104 MB with 8 workers and 100 MB with 16 (GOMAXPROCS=16); at 48 MiB, 96
// and 92 MB. A lower limit costs time, though (48 MiB: 1.03 times the
// wall time of 56 on the corpus with 2 workers, 21 alternated rounds), so
// it goes down with the workers only: VerifyMemoryLimitFor.
// GOGC or GOMEMLIMIT in the environment win.
const (
	VerifyGCPercent   = 800
	VerifyMemoryLimit = 56 << 20
)

// VerifyMemoryLimitFor is the soft memory limit of a verify run with the
// given number of workers: VerifyMemoryLimit up to 4, 2 MiB less for each
// worker beyond (48 MiB with 8), down to 36 MiB.
func VerifyMemoryLimitFor(workers int) int64 {
	return max(VerifyMemoryLimit-int64(max(workers-4, 0))<<21, 36<<20)
}

// TuneVerifyGC sets the collector up as verify runs with one worker per
// processor (see TuneVerifyGCFor).
func TuneVerifyGC() (restore func()) { return TuneVerifyGCFor(runtime.GOMAXPROCS(0)) }

// TuneVerifyGCFor sets the collector up as verify runs with workers
// (VerifyGCPercent, VerifyMemoryLimitFor), leaving a setting GOGC or
// GOMEMLIMIT gives alone, and returns a function that puts back what it
// changed.
func TuneVerifyGCFor(workers int) (restore func()) {
	percent, limit := -2, int64(-1)
	if os.Getenv("GOGC") == "" {
		percent = debug.SetGCPercent(VerifyGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(VerifyMemoryLimitFor(workers))
		tunedLimit.Lock()
		tunedLimit.base, tunedLimit.extra = VerifyMemoryLimitFor(workers), 0
		tunedLimit.Unlock()
	}
	return func() {
		if percent != -2 {
			debug.SetGCPercent(percent)
		}
		if limit >= 0 {
			tunedLimit.Lock()
			tunedLimit.base = 0
			tunedLimit.Unlock()
			debug.SetMemoryLimit(limit)
		}
	}
}

// tunedLimit is the soft memory limit TuneVerifyGCFor set (base, 0 when
// it set none, GOMEMLIMIT being given) and what roomForIndex adds to it
// for the container indexes being checked (extra).
var tunedLimit struct {
	sync.Mutex
	base, extra int64
}

// verifyWindow is how many files per worker Verify may run ahead of the
// first file whose results are not yet emitted.
const verifyWindow = 64

// Verify checks every file in order with up to workers files in flight, and
// emits results in the order of files (so output is stable). emit is never
// called concurrently. A worker the files run out for helps check the
// packages and chunks of a container another worker is on; a container's
// lines are the same and in the same order whoever checked them.
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
	return verifyEach(func(yield func(string, *dirList) bool) error {
		return walk(func(p string) bool { return yield(p, nil) })
	}, opts, workers, emit, nil)
}

// VerifyPaths is [VerifyEach] over the files [WalkVerifyFiles] finds in
// paths. The walk's folder listings answer the lookups of companions that
// do not exist (most packages have no .ubulk, .uptnl, ...) without trying
// to open them.
func VerifyPaths(paths []string, opts *Options, workers int, emit func(VerifyResult)) error {
	return VerifyPathsDone(paths, opts, workers, emit, nil)
}

// VerifyPathsDone is [VerifyPaths] that also calls fileDone after the
// results of each file the walk found (a container has many), from the
// goroutine that calls emit: a progress bar counts files with it.
func VerifyPathsDone(paths []string, opts *Options, workers int, emit func(VerifyResult), fileDone func()) error {
	return verifyEach(func(yield func(string, *dirList) bool) error {
		// What cannot be walked (a path named that does not exist, a
		// folder that cannot be listed) is a failed line in its place,
		// and the rest is still checked.
		return walkVerify(paths, opts.DirectCalls, yield, func(p string, err error) bool {
			return yield(p, &dirList{err: err})
		})
	}, opts, workers, emit, fileDone)
}

func verifyEach(walk func(yield func(string, *dirList) bool) error, opts *Options, workers int, emit func(VerifyResult), fileDone func()) error {
	if workers < 1 {
		workers = 1
	}
	type slot struct {
		path string
		dir  *dirList
		done chan struct{}
		// mu guards the rest. Once the emitting goroutine reaches the
		// file, its checker hands it the lines as they come (through
		// live): a container of hundreds of thousands of packages holds
		// none of them. Before, they wait here: most files have one
		// (first); a container's go on in more, in chunks that are not
		// copied as they fill up.
		mu    sync.Mutex
		live  chan VerifyResult
		first VerifyResult
		n     int
		more  [][]VerifyResult
	}
	// order holds the files in flight in walk order. Its bound keeps the
	// walk at most a window ahead of what has been emitted, so memory stays
	// flat however many files there are. The window is wide enough that
	// one slow file (a big container, a data table decoded under several
	// candidate engines) does not leave the other workers idle: only result
	// lines (a few hundred bytes each) wait.
	order := make(chan *slot, verifyWindow*workers)
	// jobs is as wide, so that the walk runs ahead whenever it gets a
	// processor: unbuffered, every worker waited for the walk to find its
	// next file (16% of each worker's time on the corpus; 3% now).
	jobs := make(chan *slot, verifyWindow*workers)
	// Workers the walk has no file for help with the files in flight:
	// each container shares its chunks and packages (see shareWork).
	h := newHelpers(workers)
	if h != nil {
		o := *opts
		o.helpers = h
		opts = &o
	}
	// quit ends the workers once every file is done (before, an idle one
	// may still be needed as a helper).
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jobs := jobs
			var wake chan struct{}
			if h != nil {
				wake = h.wake
			}
			for {
				// A file when the walk has one; else help; else wait for
				// either.
				var s *slot
				select {
				case s = <-jobs:
				default:
				}
				if s == nil {
					if h != nil && h.help() {
						continue
					}
					if jobs == nil && h == nil {
						return
					}
					var ok bool
					select {
					case s, ok = <-jobs:
						if !ok {
							jobs = nil
							continue
						}
					case <-wake:
						continue
					case <-quit:
						return
					}
				}
				func() {
					defer close(s.done)
					verifyOne(s.path, s.dir, opts, func(r VerifyResult) {
						s.mu.Lock()
						if live := s.live; live != nil {
							s.mu.Unlock()
							live <- r
							return
						}
						defer s.mu.Unlock()
						switch last := len(s.more) - 1; {
						case s.n == 0:
							s.first = r
						case last >= 0 && len(s.more[last]) < cap(s.more[last]):
							s.more[last] = append(s.more[last], r)
						default:
							// Chunks of 8, 16, ... 256 lines (the shift
							// capped first: 8<<60 overflowed to a negative
							// size, a panic past 14,330 lines of a container).
							s.more = append(s.more, append(make([]VerifyResult, 0, 8<<min(len(s.more), 5)), r))
						}
						s.n++
					})
				}()
			}
		}()
	}
	var walkErr error
	go func() {
		walkErr = walk(func(p string, dir *dirList) bool {
			s := &slot{path: p, dir: dir, done: make(chan struct{})}
			order <- s
			jobs <- s
			return true
		})
		close(jobs)
		close(order)
	}()
	// emit is called here only, on the caller's goroutine: a file's lines
	// that waited, then those its checker hands over through live (one
	// channel, for one file at a time) until it is done.
	live := make(chan VerifyResult, 16)
	for s := range order {
		s.mu.Lock()
		if s.n > 0 {
			emit(s.first)
		}
		for _, c := range s.more {
			for _, r := range c {
				emit(r)
			}
		}
		s.first, s.more, s.live = VerifyResult{}, nil, live
		s.mu.Unlock()
		for done := false; !done; {
			select {
			case r := <-live:
				emit(r)
			case <-s.done:
				done = true
			}
		}
		// What was sent before done closed (nothing is sent after).
		for len(live) > 0 {
			emit(<-live)
		}
		if fileDone != nil {
			fileDone()
		}
	}
	close(quit)
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
