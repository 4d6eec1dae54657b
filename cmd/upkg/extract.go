package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newExtractCmd) }

type extractOpts struct {
	out   string
	force bool
	quiet bool
	glob  globFilter
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
		Use:   "extract [-o DIR] [--include GLOB] [--force] CONTAINER",
		Short: "Extract the files of a .pak or .utoc container",
		Long: `extract writes the files of a container under DIR (default: a folder named after
the container, in the current directory), keeping their container paths.

It never writes outside DIR: absolute paths, ".." elements, backslashes and
paths through symbolic links that leave DIR are refused and reported. Each
file's stored hash is checked while it is written; a file that fails is
removed and reported. Existing files are never overwritten unless --force is
given. Chunks without a path are skipped.

Exit status: 0 when every selected file was written, 1 otherwise.`,
		Example: `  upkg extract Game-Windows.pak -o out/
  upkg extract --include '**/*.uasset' --include '**/*.uexp' Game-Windows.utoc`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.glob.validate(); err != nil {
				return usagef(cmd.CommandPath(), "bad pattern: %v", err)
			}
			return runExtract(g.options(), o, args[0], cmd.OutOrStdout(), os.Stderr)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output `DIR` (created if missing)")
	f.BoolVar(&o.force, "force", false, "overwrite existing files")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only problems and the summary")
	f.StringArrayVar(&o.glob.include, "include", nil, "extract only paths matching `GLOB` (** matches any folders; repeatable)")
	f.StringArrayVar(&o.glob.exclude, "exclude", nil, "skip paths matching `GLOB` (repeatable)")
	return c
}

// extractStats counts the outcome of an extraction.
type extractStats struct {
	written, exists, refused, failed, noPath int
	bytes                                    int64
}

func runExtract(opts *inspect.Options, o extractOpts, container string, stdout io.Writer, stderr *os.File) error {
	c, err := inspect.OpenContainer(container, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	dir := o.out
	if dir == "" {
		base := filepath.Base(container)
		dir = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()

	var st extractStats
	var todo []int
	var total int64
	entries := c.Entries()
	for i, e := range entries {
		if e.ChunkType == "deleted" || !o.glob.match(entryName(e)) {
			continue
		}
		if e.Path == "" {
			st.noPath++
			continue
		}
		todo = append(todo, i)
		total += e.Size
	}
	var bar *progressbar.ProgressBar
	if term.IsTerminal(int(stderr.Fd())) && (total >= progressMinBytes || len(todo) >= progressMinEntries) {
		bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("extract"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100_000_000))
	}
	report := func(format string, args ...any) {
		if bar != nil {
			bar.Clear()
		}
		fmt.Fprintf(stderr, "upkg: "+format+"\n", args...)
	}
	for _, i := range todo {
		e := entries[i]
		name := e.Path
		if !safeRelPath(name) {
			st.refused++
			report("refusing %q: it would land outside %s", name, dir)
			continue
		}
		n, err := extractOne(c, root, i, e, o.force)
		switch {
		case errors.Is(err, fs.ErrExist):
			st.exists++
			report("%s: exists in %s (use --force to overwrite)", name, dir)
		case err != nil:
			st.failed++
			if strings.Contains(err.Error(), name) {
				report("%v", err) // the error names the file already
			} else {
				report("%s: %v", name, err)
			}
		default:
			st.written++
			st.bytes += n
			if !o.quiet && bar == nil {
				fmt.Fprintln(stdout, name)
			}
		}
		if bar != nil {
			bar.Add64(e.Size)
		}
	}
	if bar != nil {
		bar.Finish()
	}
	fmt.Fprintf(stdout, "extracted %d files (%d bytes) to %s", st.written, st.bytes, dir)
	var notes []string
	if st.exists > 0 {
		notes = append(notes, fmt.Sprintf("%d existing not overwritten", st.exists))
	}
	if st.refused > 0 {
		notes = append(notes, fmt.Sprintf("%d unsafe paths refused", st.refused))
	}
	if st.failed > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", st.failed))
	}
	if st.noPath > 0 {
		notes = append(notes, fmt.Sprintf("%d chunks without a path skipped", st.noPath))
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

// extractOne writes entry i to name under root. os.Root refuses any path
// that leaves root, including through symbolic links. Without force the
// file is created exclusively; with force it is written to a temporary file
// and renamed over the old one. A file whose hash check fails is removed.
func extractOne(c inspect.Container, root *os.Root, i int, e inspect.ContainerEntry, force bool) (int64, error) {
	name := e.Path
	if d := path.Dir(name); d != "." {
		if err := root.MkdirAll(d, 0o755); err != nil {
			return 0, err
		}
	}
	target := name
	if force {
		if fi, err := root.Lstat(name); err == nil && fi.IsDir() {
			return 0, fmt.Errorf("is a directory in the output folder")
		}
		target = name + ".upkg-partial"
		root.Remove(target)
	}
	f, err := root.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := writeEntry(c, i, e, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(target)
		return 0, err
	}
	if force {
		if err := root.Rename(target, name); err != nil {
			root.Remove(target)
			return 0, err
		}
	}
	return n, nil
}

// writeEntry copies entry i's data to w and checks its hash.
func writeEntry(c inspect.Container, i int, e inspect.ContainerEntry, w io.Writer) (int64, error) {
	rc, verify, err := openEntry(c, i, e)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n, err := io.Copy(w, rc)
	if err != nil {
		return n, err
	}
	if verify != nil {
		if err := verify(); err != nil {
			return n, err
		}
	}
	return n, nil
}
