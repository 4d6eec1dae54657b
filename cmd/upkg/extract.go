package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/iostore"
)

func init() { register(newExtractCmd) }

type extractOpts struct {
	out   string
	force bool
	quiet bool
	glob  globFilter
	jobs  int
}

// Progress is shown on a terminal only when extraction is long enough to
// need it.
const (
	progressMinBytes   = 64 << 20
	progressMinEntries = 1000
)

func newExtractCmd(g *globalFlags) *cobra.Command {
	var o extractOpts
	c := &cobra.Command{
		Use:   "extract [-o DIR] [--include GLOB] [--force] CONTAINER|DIR...",
		Short: "Extract the files of .pak and .utoc containers",
		Long: `extract writes the files of a container under DIR (default: a folder named after
the container, in the current directory), keeping their container paths.

It never writes outside DIR: absolute paths, ".." elements, backslashes and
paths through symbolic links that leave DIR are refused and reported. Each
file's stored hash is checked while it is written; a file that fails is
removed and reported. Existing files are never overwritten unless --force is
given. Chunks without a path are skipped. Files are written in parallel
(--jobs), with the same outcome as one after the other: an entry whose path
collides with an earlier one's waits for it.

Several containers (or a game's Paks/ folder) extract into one DIR, which
must then be given with -o. They are processed in the engine's mount order:
patch containers (_P, _1_P, ...) come last, replace the files earlier ones
wrote in the same run, and their delete records remove them.

Exit status: 0 when every selected file was written, 1 otherwise.`,
		Example: `  upkg extract Game-Windows.pak -o out/
  upkg extract --include '**/*.uasset' --include '**/*.uexp' Game-Windows.utoc
  upkg extract --aes-key 0x... -o out/ Game/Content/Paks/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.glob.validate(); err != nil {
				return usagef(cmd.CommandPath(), "bad pattern: %v", err)
			}
			return runExtract(g.options(), o, args, cmd.OutOrStdout(), os.Stderr)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output `DIR` (created if missing)")
	f.BoolVar(&o.force, "force", false, "overwrite existing files")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only problems and the summary")
	f.IntVarP(&o.jobs, "jobs", "j", runtime.GOMAXPROCS(0), "files written in parallel")
	f.StringArrayVar(&o.glob.include, "include", nil, "extract only paths matching `GLOB` (** matches any folders; repeatable)")
	f.StringArrayVar(&o.glob.exclude, "exclude", nil, "skip paths matching `GLOB` (repeatable)")
	return c
}

// extractStats counts the outcome of an extraction.
type extractStats struct {
	written, replaced, again, deleted, exists, refused, failed, noPath int
	// matched counts the entries --include and --exclude selected.
	matched int
	bytes   int64
}

func runExtract(opts *inspect.Options, o extractOpts, args []string, stdout io.Writer, stderr *os.File) error {
	containers, err := containerArgs(args)
	if err != nil {
		return err
	}
	sortMountOrder(containers)
	dir := o.out
	if dir == "" {
		if len(args) != 1 || len(containers) != 1 {
			return usagef("upkg extract", "several containers: give the output folder with -o DIR")
		}
		base := filepath.Base(containers[0])
		dir = strings.TrimSuffix(base, filepath.Ext(base))
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extraction{o: o, dir: dir, root: root, stdout: stdout, stderr: stderr, written: map[string]string{}, inputs: readFiles(containers)}
	stop := x.partials.removeOnSignal()
	for _, name := range containers {
		if err := x.container(opts, name); err != nil {
			x.st.failed++
			x.report("%v", err)
		}
	}
	stop()
	st := x.st
	if st.written+st.replaced+st.again == 0 && errors.Is(statErr, fs.ErrNotExist) {
		os.Remove(dir) // made by this run, for nothing: left only if not empty
	}
	if st.matched == 0 && st.failed == 0 && len(o.glob.include)+len(o.glob.exclude) > 0 {
		// A pattern that selects nothing is most likely a mistake (tar
		// says "Not found in archive").
		if len(o.glob.include) == 0 {
			return fmt.Errorf("--exclude %s leaves no file to extract", strings.Join(o.glob.exclude, ", "))
		}
		return fmt.Errorf("no file matches --include %s (patterns match the paths `upkg ls` prints; ** matches any folders)", strings.Join(o.glob.include, ", "))
	}
	fmt.Fprintf(stdout, "extracted %d files (%d bytes) to %s", st.written, st.bytes, dir)
	if len(containers) > 1 {
		fmt.Fprintf(stdout, " from %d containers", len(containers))
	}
	var notes []string
	for _, n := range []struct {
		n    int
		what string
	}{
		{st.replaced, "replaced by later (patch) containers"},
		{st.again, "replaced by a later entry of the same path"},
		{st.deleted, "removed by delete records"},
		{st.exists, "existing not overwritten"},
		{st.refused, "unsafe paths refused"},
		{st.failed, "failed"},
		{st.noPath, "chunks without a path skipped"},
	} {
		if n.n > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", n.n, n.what))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(stdout, "; %s", strings.Join(notes, ", "))
	}
	fmt.Fprintln(stdout)
	if bad := st.exists + st.refused + st.failed; bad > 0 {
		return &failedError{n: bad}
	}
	return nil
}

// errReadsIt is the failure of an entry whose path in the output folder
// is a file the run reads (a container, its .ucas): --force or not, it is
// kept.
var errReadsIt = errors.New("is a file this run reads (a container or its companion): not overwritten")

// readFiles returns what the run reads of the containers: each file and
// its companions (.ucas and partitions, .sig), as found on disk.
func readFiles(containers []string) []os.FileInfo {
	var out []os.FileInfo
	for _, c := range containers {
		stem := strings.TrimSuffix(c, filepath.Ext(c))
		for _, n := range []string{c, stem + ".sig", stem + ".utoc", stem + ".pak"} {
			if fi, err := os.Stat(n); err == nil {
				out = append(out, fi)
			}
		}
		// The partitions, in the case the TOC's name takes.
		for i := 0; i < maxPartitions; i++ {
			fi, err := os.Stat(iostore.PartitionPath(stem+filepath.Ext(c), i))
			if err != nil {
				break
			}
			out = append(out, fi)
		}
	}
	return out
}

// maxPartitions bounds the .ucas partitions readFiles looks for.
const maxPartitions = 64

// reads reports whether fi is one of the files the run reads.
func (x *extraction) reads(fi os.FileInfo) bool {
	for _, in := range x.inputs {
		if os.SameFile(fi, in) {
			return true
		}
	}
	return false
}

// extraction is one run of extract over one or more containers.
type extraction struct {
	// inputs are the files the run reads (readFiles).
	inputs []os.FileInfo
	o      extractOpts
	dir    string
	root   *os.Root
	stdout io.Writer
	stderr *os.File
	bar    *progressbar.ProgressBar
	st     extractStats
	// written maps the folded form of each path this run wrote (later
	// entries of that path, in any case, replace it) to the path as
	// written.
	written  map[string]string
	partials partialFiles
}

func (x *extraction) report(format string, args ...any) {
	if x.bar != nil {
		x.bar.Clear()
	}
	// One line, escaped, whatever the names hold.
	fmt.Fprintf(controlEscaper{x.stderr}, "upkg: %s\n", field(fmt.Sprintf(format, args...)))
}

// container extracts one container's selected files.
func (x *extraction) container(opts *inspect.Options, name string) error {
	c, err := openContainer(name, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	if de, ok := c.(inspect.DataErrer); ok {
		if err := de.DataErr(); err != nil {
			return fmt.Errorf("%s: %w", name, err) // one line, not one per file
		}
	}
	var todo []todoEntry
	var total int64
	for i := range c.Len() {
		e := inspect.EntryBrief(c, i) // (its hash is checked as it is read)
		if !x.o.glob.match(entryName(e)) {
			continue
		}
		x.st.matched++
		if e.ChunkType == "deleted" {
			// A patch container's delete record removes what an earlier
			// container of this run wrote.
			if w, ok := x.written[foldPath(e.Path)]; ok {
				if err := x.root.Remove(w); err == nil {
					delete(x.written, foldPath(e.Path))
					x.st.deleted++
				}
			}
			continue
		}
		if e.Path == "" {
			x.st.noPath++
			continue
		}
		todo = append(todo, todoEntry{i: i, path: e.Path, size: e.Size})
		total += e.Size
	}
	x.bar = nil
	if term.IsTerminal(int(x.stderr.Fd())) && (total >= progressMinBytes || len(todo) >= progressMinEntries) {
		x.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(x.stderr),
			progressbar.OptionSetDescription(filepath.Base(name)),
			progressbar.OptionShowBytes(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100_000_000))
	}
	results := x.extractAll(c, todo)
	for k, e := range todo {
		path := e.path
		r := results.wait(k)
		if !r.safe || errors.Is(r.err, errEscapes) {
			x.st.refused++
			x.report("refusing %q: %s", path, unsafeWhy(path, x.dir))
			continue
		}
		switch err := r.err; {
		case errors.Is(err, fs.ErrExist):
			x.st.exists++
			x.report("%s: exists in %s (use --force to overwrite)", path, x.dir)
		case err != nil:
			x.st.failed++
			if strings.Contains(err.Error(), path) {
				x.report("%v", err) // the error names the file already
			} else {
				x.report("%s: %v", path, err)
			}
		default:
			switch {
			case r.again:
				x.st.again++
			case r.prev != "":
				x.st.replaced++
			default:
				x.st.written++
			}
			x.written[foldPath(path)] = path
			x.st.bytes += r.n
			if !x.o.quiet && x.bar == nil {
				fmt.Fprintln(x.stdout, field(path))
			}
		}
		if x.bar != nil {
			x.bar.Add64(e.size)
		}
	}
	if x.bar != nil {
		x.bar.Finish()
		x.bar = nil
	}
	return nil
}

// patchSuffix matches the names of patch containers ("Game-Windows_0_P.pak",
// "Game-Windows_P.utoc"), which mount after (and override) the others.
var patchSuffix = regexp.MustCompile(`(?i)(?:_(\d+))?_p\.(?:pak|utoc)$`)

// sortMountOrder orders containers as the engine mounts them for
// precedence: regular containers by name, then patch containers by patch
// number.
func sortMountOrder(names []string) {
	rank := func(n string) (int, int) {
		m := patchSuffix.FindStringSubmatch(filepath.Base(n))
		if m == nil {
			return 0, 0
		}
		k, _ := strconv.Atoi(m[1])
		return 1, k
	}
	sort.SliceStable(names, func(i, j int) bool {
		pi, ki := rank(names[i])
		pj, kj := rank(names[j])
		if pi != pj {
			return pi < pj
		}
		if ki != kj {
			return ki < kj
		}
		return names[i] < names[j]
	})
}

// safeRelPath reports whether a container path may be joined to the output
// folder: relative, slash-separated, no "." or ".." or empty elements, no
// backslashes, colons (drive letters, NTFS streams) or NUL bytes.
func safeRelPath(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\:\x00") {
		return false
	}
	for elem := range strings.SplitSeq(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}

// unsafeWhy says why safeRelPath refused name.
func unsafeWhy(name, dir string) string {
	for elem := range strings.SplitSeq(name, "/") {
		if elem == ".." {
			return "it would land outside " + dir
		}
	}
	if strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\:") {
		return "it would land outside " + dir + " (an absolute path, a drive or a backslash)"
	}
	return "it is no plain relative path (an empty or \".\" folder name, or a NUL byte)"
}

// foldPath is the form of a container path that entries replacing each
// other share: the engine's paths ignore case.
func foldPath(p string) string { return strings.ToLower(p) }

// extractOne writes entry i to its path under root; prev is the path (in
// any case) of a file this run wrote that the entry replaces, or "".
//
// os.Root refuses any path that leaves root, including through symbolic
// links. The file is written as pendingFile writes (complete or not at
// all). Without force an existing file is never replaced, unless this run
// wrote it (prev). A file replacing prev under another case removes prev,
// so that the output holds one of the two as the engine would, and a file
// a user had under the new name is kept; so is a file the run reads
// (reads), --force or not. The entry's folder is taken from folders, the
// worker's cache of the last one.
func extractOne(c inspect.Container, root *os.Root, folders *folderCache, partials *partialFiles, i int, name string, force bool, prev string, reads func(os.FileInfo) bool) (int64, error) {
	overwrite := force || prev == name
	dir, base := path.Split(name)
	if fi, err := folders.lstat(root, dir, base); err == nil {
		if reads(fi) {
			return 0, errReadsIt
		}
		if !overwrite {
			return 0, fs.ErrExist
		}
	}
	rc, verify, err := openEntry(c, i, inspect.ContainerEntry{Path: name})
	if err != nil {
		return 0, err // before any folder is made for it
	}
	defer rc.Close()
	d, err := folders.get(root, dir)
	if err != nil {
		return 0, err
	}
	return writeNew(d, base, overwrite, partials, func(w io.Writer) (int64, error) {
		// Through a pooled buffer: the file's ReadFrom would copy
		// through a new 32 KiB one per file (3 GB of garbage for
		// 100,000 files).
		bp := copyBufs.Get().(*[]byte)
		defer copyBufs.Put(bp)
		n, err := io.CopyBuffer(writerOnly{w}, rc, *bp)
		if err == nil && verify != nil {
			err = verify()
		}
		return n, err
	}, func() {
		if prev != "" && prev != name {
			root.Remove(prev)
		}
	})
}

// folderCache is a worker's last output folder, kept open: a container's
// files come folder by folder, and making and opening a folder through
// os.Root takes system calls for each folder of its path. The run never
// removes a folder, so one kept open is the one its path names.
type folderCache struct {
	dir string
	d   *os.Root
}

// get returns folder dir under root (made if missing; "" is root).
func (fc *folderCache) get(root *os.Root, dir string) (*os.Root, error) {
	if dir == "" {
		return root, nil
	}
	if fc.d != nil && fc.dir == dir {
		return fc.d, nil
	}
	fc.close()
	d, _, err := folderOf(root, dir)
	if err != nil {
		return nil, err
	}
	fc.dir, fc.d = dir, d
	return d, nil
}

// lstat is root.Lstat of dir+base, made in the folder kept when it is dir
// (one system call on one name). It makes no folder.
func (fc *folderCache) lstat(root *os.Root, dir, base string) (os.FileInfo, error) {
	if fc.d != nil && fc.dir == dir {
		return fc.d.Lstat(base)
	}
	return root.Lstat(dir + base)
}

func (fc *folderCache) close() {
	if fc.d != nil {
		fc.d.Close()
		fc.d = nil
	}
}

// copyBufs are extractOne's copy buffers.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// writerOnly hides all but Write of a writer from io.CopyBuffer, so that
// it copies through the buffer given.
type writerOnly struct{ io.Writer }

// todoEntry is an entry a container's extraction writes: its index, path
// and size.
type todoEntry struct {
	i    int
	path string
	size int64
}

// extracted is how the extraction of one entry ended.
type extracted struct {
	safe  bool   // the path may be written under the output folder
	prev  string // the path of the file this run wrote that it replaced
	again bool   // prev was written from this container (the path is stored twice)
	n     int64
	err   error
	// last is the path of the file this run wrote last at this path
	// once this entry is done (its own when it was written, else prev),
	// lastAgain whether from this container: the next entry of the path
	// takes them as its prev.
	last      string
	lastAgain bool
}

// extractResults are the outcomes of a container's entries, filled in by
// extractAll's workers.
type extractResults struct {
	r []extracted
	// done[k] is set once r[k] is; waiters are woken on each (a byte
	// per entry, where a channel per entry took a hundred).
	mu   sync.Mutex
	cond sync.Cond
	done []bool
}

// wait returns the outcome of entry k of the list once it is known.
func (rs *extractResults) wait(k int) extracted {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for !rs.done[k] {
		rs.cond.Wait()
	}
	return rs.r[k]
}

// finish marks entry k's outcome (set before) known.
func (rs *extractResults) finish(k int) {
	rs.mu.Lock()
	rs.done[k] = true
	rs.mu.Unlock()
	rs.cond.Broadcast()
}

// extractAll starts writing the entries todo with x.o.jobs workers, and
// returns where their outcomes arrive. Entries are written in parallel but
// end as they would one after the other: one whose path (ignoring case)
// equals or lies inside or above an earlier entry's waits for that entry,
// and replaces its file when it was written.
func (x *extraction) extractAll(c inspect.Container, todo []todoEntry) *extractResults {
	rs := &extractResults{r: make([]extracted, len(todo)), done: make([]bool, len(todo))}
	rs.cond.L = &rs.mu
	deps, same := conflicts(todo)
	// Written by an earlier container of this run: the workers read this
	// copy (for the first entry of each path), the caller updates
	// x.written as outcomes arrive.
	before := make([]string, len(todo))
	for k, e := range todo {
		if same[k] < 0 {
			before[k] = x.written[foldPath(e.path)]
		}
	}
	one := func(k int, folders *folderCache) {
		defer rs.finish(k)
		e := todo[k]
		for _, d := range deps[k] {
			rs.wait(d)
		}
		// The file this run wrote last at this path: from the entry of
		// the same path before, else an earlier container's.
		r := extracted{}
		if s := same[k]; s >= 0 {
			r.prev, r.again = rs.r[s].last, rs.r[s].lastAgain
		} else {
			r.prev = before[k]
		}
		r.last, r.lastAgain = r.prev, r.again
		if !safeRelPath(e.path) {
			rs.r[k] = extracted{last: r.last, lastAgain: r.lastAgain}
			return
		}
		r.safe = true
		r.n, r.err = extractOne(c, x.root, folders, &x.partials, e.i, e.path, x.o.force, r.prev, x.reads)
		if r.err == nil {
			r.last, r.lastAgain = e.path, true
		}
		rs.r[k] = r
	}
	workers := min(max(x.o.jobs, 1), len(todo))
	var next atomic.Int64
	for range workers {
		go func() {
			var folders folderCache
			defer folders.close()
			// Entries are taken in order, so an entry's earlier
			// conflicts are all taken already: waiting for them ends.
			for k := int(next.Add(1) - 1); k < len(todo); k = int(next.Add(1) - 1) {
				one(k, &folders)
			}
		}()
	}
	return rs
}

// conflicts lists, for each entry of todo, the earlier entries its outcome
// depends on: the latest with the same path (ignoring case), the latest
// whose path is each folder of its path, and the first one inside its path
// (which made that a folder; the later ones inside cannot change what this
// entry finds). An entry waits for the latest of a path only: that one
// waited for the one before, so all are done (waiting for every one made
// a pak of 40,000 copies of a path quadratic: 13 GB). Paths are compared
// by a hash of their folded form: two that collide only make one entry
// wait for the other. same is, for each entry, the latest earlier one of
// the same folded path (compared as strings), or -1.
func conflicts(todo []todoEntry) (deps [][]int, same []int) {
	deps = make([][]int, len(todo))
	same = make([]int, len(todo))
	last := map[uint64]int{}     // path -> the latest entry with that path
	lastFold := map[string]int{} // folded path -> the latest entry with it
	firstIn := map[uint64]int{}  // folder -> the first entry inside it
	var folders []uint64
	for k, e := range todo {
		var p uint64
		p, folders = foldHashes(e.path, folders[:0])
		if j, ok := last[p]; ok {
			deps[k] = append(deps[k], j)
		}
		if j, ok := firstIn[p]; ok {
			deps[k] = append(deps[k], j)
		}
		for _, d := range folders {
			if j, ok := last[d]; ok {
				deps[k] = append(deps[k], j)
			}
			if _, ok := firstIn[d]; !ok {
				firstIn[d] = k
			}
		}
		last[p] = k
		f := foldPath(e.path)
		same[k] = -1
		if j, ok := lastFold[f]; ok {
			same[k] = j
		}
		lastFold[f] = k
	}
	return deps, same
}

// foldHashes returns the FNV-1a hash of name with its letters folded to
// lower case, and appends to folders the hash of each of its folders (the
// prefixes before a '/').
func foldHashes(name string, folders []uint64) (uint64, []uint64) {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, r := range name {
		if r == '/' && h != offset {
			folders = append(folders, h)
		}
		r = unicode.ToLower(r)
		for ; r > 0; r >>= 8 {
			h = (h ^ uint64(r&0xFF)) * prime
		}
	}
	return h, folders
}
