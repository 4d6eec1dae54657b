package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/upkg/upkg/internal/fscall"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/mapfile"
)

func init() { register(newVerifyCmd) }

// maxDefaultVerifyJobs bounds verify's default workers: each holds its
// buffers and mapped files, and past 16 the peak RSS passes 100 MB (the
// corpus given 6 times: 94 MB with 16 workers, 109 MB with 24, 118 MB with
// 32). More can be asked for with --jobs.
const maxDefaultVerifyJobs = 16

type verifyOpts struct {
	json     bool
	jobs     int
	failOnly bool
}

func newVerifyCmd(g *globalFlags) *cobra.Command {
	var o verifyOpts
	c := &cobra.Command{
		Use:   "verify [--engine V] [--json] PATH...",
		Short: "Check every package in files and folders",
		Long: `verify walks the files and folders given, reads every package and container it
finds with all checks on (every section, the header of a UE4/UE5 package
rewritten and compared byte for byte, properties decoded, compressed chunks
expanded, container hashes), and prints a line per package. A container's
packages get a line each as they are checked (in an IoStore container, the
packages a package imports before it), and the container a line after them
with its hash checks (like unzip -t's verdict). Companion files (.uexp,
.ubulk, .ucas, .sig) are read with their package or container: found in a
folder, or named together with it (a shell glob such as Content/Maps/*),
they are not checked alone. A folder named through a symbolic link is
walked; links inside folders are not followed. Files are checked in
parallel (--jobs); a worker with no file left helps check a container
another is on, so one big .utoc or .pak uses every core.

A package whose .uexp or bulk data file (.ubulk, .uptnl) is not beside it is
checked as far as it can be and noted ("note: export data not checked"); one
whose companion is there but damaged or cut short fails (in a .pak, a bulk
data file's damaged bytes fail the container's line, which checks every
entry). A path that does not exist, or a folder that cannot be read, is a
failed line; the rest is still checked.

With --json it prints one JSON object per package, then a last line
{"summary":{"files":N,"ok":N,"failed":N}}.

Exit status: 0 when every package is ok, 1 when any failed or none was found,
2 on usage errors.`,
		Example: `  upkg verify Content/
  upkg verify --engine 4.27 --json Paks/ | jq 'select(.ok == false)'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef(cmd.CommandPath(), "no files or folders given")
			}
			return runVerify(g.options(), o, args, cmd.OutOrStdout(), os.Stderr)
		},
	}
	f := c.Flags()
	f.BoolVar(&o.json, "json", false, "print one JSON object per package, then a summary line")
	f.IntVarP(&o.jobs, "jobs", "j", min(runtime.GOMAXPROCS(0), maxDefaultVerifyJobs), "workers: files checked in parallel, and the entries of a container when files run out; by default one per processor, at most 16")
	f.BoolVar(&o.failOnly, "failed", false, "print only the packages that failed (and the summary)")
	return c
}

func runVerify(opts *inspect.Options, o verifyOpts, args []string, out io.Writer, stderr *os.File) error {
	inspect.TuneVerifyGCFor(o.jobs) // for the rest of the process
	// A path named twice (a shell glob and a name) is checked and counted
	// once.
	seen := map[string]bool{}
	uniq := args[:0:0]
	for _, a := range args {
		if k := filepath.Clean(a); !seen[k] {
			seen[k] = true
			uniq = append(uniq, a)
		}
	}
	args = uniq
	// Package files are mapped rather than read: verify keeps nothing of a
	// package but its result line, and a file cut short while mapped costs
	// an error line for that file (see inspect.VerifyPackage).
	mapped := *opts
	mapped.OpenWhole = mapfile.OpenWhole
	// With no more workers than processors (the default), the walk's and
	// the file reads' system calls keep their processor (see package
	// fscall: less thread hand-off, which costs most on a busy host).
	if fscall.ForWorkers(o.jobs) == fscall.Direct {
		mapped.OpenWhole, mapped.DirectCalls = mapfile.OpenWholeDirect, true
	}
	opts = &mapped
	// Lines are buffered (one write per line costs a system call each);
	// on a terminal each line is flushed as it comes.
	stdout := bufio.NewWriterSize(out, 64<<10)
	defer stdout.Flush()
	flushLine := func() {}
	termOut := isTerminal(out)
	if termOut {
		flushLine = func() { stdout.Flush() }
	}
	// Files are checked as the walk finds them. On a terminal a bar counts
	// the lines: one per file, and a container's package lines, added to
	// its total as each container's index is read (one big .utoc or .pak
	// is long work on its own). The file count comes from a second walk
	// beside the checks that only counts (a walk of the folders, a few
	// percent of the checks' work), and the bar shows once that is known
	// and the total is above 20. Counting before checking held every
	// check back for a whole walk: 5 ms of a 135 ms whole-corpus verify,
	// seconds on a big project with no output.
	var (
		barMu        sync.Mutex
		bar          *progressbar.ProgressBar
		walked       = -1 // files the counting walk found (-1: not yet known)
		extra        int  // package lines of the containers opened
		lines, shown int  // lines emitted, lines the bar shows
	)
	var stopCount atomic.Bool
	// showBar makes the bar once its total is known and big enough, or
	// grows its total (barMu held).
	showBar := func() {
		switch total := walked + extra; {
		case walked < 0 || stopCount.Load():
		case bar != nil:
			bar.ChangeMax(total)
		case total > 20:
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("verify"),
				progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionThrottle(100_000_000))
		}
	}
	counted := make(chan struct{})
	if term.IsTerminal(int(stderr.Fd())) {
		opts.ContainerLines = func(n int) {
			barMu.Lock()
			defer barMu.Unlock()
			extra += n
			showBar()
		}
		go func() {
			defer close(counted)
			n := 0
			err := inspect.WalkVerifyFiles(args, func(string) bool {
				n++
				return !stopCount.Load()
			})
			if err == nil {
				barMu.Lock()
				walked = n
				showBar()
				barMu.Unlock()
			}
		}()
	} else {
		close(counted)
	}
	// The bar is moved on at most every 50 ms (an Add per line cost a
	// third of a 100,000-package container's verify time).
	var lastAdd time.Time
	lineDone := func() {
		lines++
		if now := time.Now(); now.Sub(lastAdd) >= 50*time.Millisecond {
			lastAdd = now
			barMu.Lock()
			if bar != nil {
				bar.Add(lines - shown)
				shown = lines
			}
			barMu.Unlock()
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	var sum inspect.VerifySummary
	var line []byte
	err := inspect.VerifyPathsDone(args, opts, o.jobs, func(r inspect.VerifyResult) {
		if rest, ok := strings.CutSuffix(r.Error, " (first bytes )"); ok {
			r.Error = rest + " (an empty file)" // the library's message, worded here
		} else if !r.OK && r.Format == "" && strings.HasPrefix(r.Error, "not a package upkg recognises") {
			// A companion named on its own (a walk reads them with their
			// package): which file to name, as info says.
			if hinted := companionHint(r.Path, inspect.ErrUnknownFormat, false).Error(); hinted != inspect.ErrUnknownFormat.Error() {
				r.Error += strings.TrimPrefix(hinted, inspect.ErrUnknownFormat.Error())
			}
		}
		sum.Add(r)
		defer lineDone()
		if o.failOnly && r.OK {
			return
		}
		if termOut {
			// The line goes to the screen the bar is on: the bar is
			// cleared first (and drawn again below the line). With the
			// lines going elsewhere, the bar is left alone (a write to
			// the terminal per line).
			barMu.Lock()
			if bar != nil {
				bar.Clear()
			}
			barMu.Unlock()
		}
		if o.json {
			line = append(appendVerifyJSON(line[:0], &r), '\n')
		} else {
			line = append(appendVerifyLine(line[:0], &r), '\n')
		}
		stdout.Write(line)
		flushLine()
	}, nil)
	stopCount.Store(true)
	<-counted
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	if o.json {
		enc.Encode(struct {
			Summary inspect.VerifySummary `json:"summary"`
		}{sum})
	} else {
		noun := "packages"
		if sum.Files == 1 {
			noun = "package"
		}
		fmt.Fprintf(stdout, "%d %s: %d ok, %d failed", sum.Files, noun, sum.OK, sum.Failed)
		if f := sum.FormatsList(); f != "" {
			fmt.Fprintf(stdout, " (%s)", f)
		}
		fmt.Fprintln(stdout)
	}
	if sum.Failed > 0 {
		return &failedError{n: sum.Failed}
	}
	if sum.Files == 0 {
		// Nothing checked is no success: most likely a mistyped folder
		// (or one of companions alone, .uexp or .ucas without theirs).
		return fmt.Errorf("no package or container found in %s", strings.Join(args, ", "))
	}
	return nil
}

// appendVerifyLine appends the human form of one result to b. The line is
// built in place (no string per piece): verify prints thousands of them
// while the checks run, and the pieces' allocations were ~1.7% of a whole
// corpus pass's processor time.
func appendVerifyLine(b []byte, r *inspect.VerifyResult) []byte {
	if !r.OK {
		b = append(b, "FAIL "...)
		b = appendField(b, r.Path)
		b = append(b, ": "...)
		b = appendField(b, r.Error)
		if r.Note != "" {
			// What was not checked can be why the rest failed (script
			// imports unnamed without the global container).
			b = append(b, "  note: "...)
			b = appendField(b, r.Note)
		}
		return b
	}
	b = append(b, "ok   "...)
	b = appendField(b, r.Path)
	b = append(b, "  ["...)
	b = append(b, r.Format...)
	if r.Engine != "" {
		b = append(b, ' ')
		b = append(b, r.Engine...)
		if r.EngineSource != "" {
			b = append(b, " ("...)
			b = append(b, r.EngineSource...)
			b = append(b, ')')
		}
	}
	if r.Entries != nil {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(*r.Entries), 10)
		b = append(b, " entries"...)
		if r.ChunksOK != nil {
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(*r.ChunksOK), 10)
			b = append(b, " hashes ok"...)
		}
	} else {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(r.Names), 10)
		b = append(b, " names, "...)
		b = strconv.AppendInt(b, int64(r.Imports), 10)
		b = append(b, " imports, "...)
		b = strconv.AppendInt(b, int64(r.Exports), 10)
		b = append(b, " exports"...)
	}
	if r.HeaderRoundtrip != nil && *r.HeaderRoundtrip {
		b = append(b, ", header round-trip"...)
	}
	if r.PropertiesOK != nil {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(*r.PropertiesOK), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(*r.ExportsWithProperties), 10)
		b = append(b, " exports' properties"...)
	}
	b = append(b, ']')
	if r.Note != "" {
		b = append(b, "  note: "...)
		b = appendField(b, r.Note)
	}
	return b
}
