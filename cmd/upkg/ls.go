package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newLsCmd) }

type lsOpts struct {
	long bool
	json bool
	glob globFilter
	// lines: one JSON object per line (several containers listed).
	lines bool
}

func newLsCmd(g *globalFlags) *cobra.Command {
	var o lsOpts
	c := &cobra.Command{
		Use:   "ls [--long] [--json] CONTAINER|DIR...",
		Short: "List the files in .pak and .utoc containers",
		Long: `ls lists what a container stores, in container order: one path per line, or with
--long the uncompressed size, the stored size, the chunk type, the compression
method, "enc" for encrypted data, the stored hash and the path. Chunks without a
path (IoStore chunks outside the directory index, pak entries known only by
their path hash) show their chunk id.

A folder (a game's Paks/) lists every container in it, each under a
"== name ==" heading; with --json each container is one JSON object.

Encrypted containers need --aes-key (hex, 0x optional, or base64).`,
		Example: `  upkg ls Game-Windows.pak
  upkg ls --long --include '**/*.umap' Game-Windows.utoc
  upkg ls --json --aes-key 0x1234... Game-Windows.pak | jq '.entries[].path'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.glob.validate(); err != nil {
				return usagef(cmd.CommandPath(), "bad pattern: %v", err)
			}
			names, err := containerArgs(args)
			if err != nil {
				return err
			}
			failed := 0
			for _, name := range names {
				if len(names) > 1 && !o.json {
					fmt.Fprintf(cmd.OutOrStdout(), "== %s ==\n", name)
				}
				o.lines = len(names) > 1
				if err := runLs(g.options(), o, name, cmd.OutOrStdout()); err != nil {
					if len(names) == 1 {
						return err
					}
					fmt.Fprintf(cmd.ErrOrStderr(), "upkg: %s\n", field(err.Error()))
					failed++
				}
			}
			if failed > 0 {
				return &failedError{n: failed}
			}
			return nil
		},
	}
	f := c.Flags()
	f.BoolVarP(&o.long, "long", "l", false, "show sizes, chunk type, compression and hash")
	f.BoolVar(&o.json, "json", false, "print a JSON object with the container summary and its entries (with several containers, one object per line)")
	f.StringArrayVar(&o.glob.include, "include", nil, "list only paths matching `GLOB` (** matches any folders; repeatable)")
	f.StringArrayVar(&o.glob.exclude, "exclude", nil, "skip paths matching `GLOB` (repeatable)")
	return c
}

// lsHead is the --json form of ls before its entries: a container's
// object is {"container", "format", "summary", "entries"}.
type lsHead struct {
	Container string          `json:"container"`
	Format    string          `json:"format"`
	Summary   []inspect.Field `json:"summary"`
}

// runLs lists one container. Entries are written as they are read, none
// kept: a container of hundreds of thousands of files lists in the memory
// of its index.
func runLs(opts *inspect.Options, o lsOpts, name string, stdout io.Writer) error {
	c, err := openContainer(name, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	// each calls fn with every entry the patterns select, in order.
	each := func(fn func(e inspect.ContainerEntry)) {
		for i := range c.Len() {
			if e := c.Entry(i); o.glob.match(entryName(e)) {
				fn(e)
			}
		}
	}
	w := bufio.NewWriter(stdout)
	if o.json {
		writeLsJSON(w, lsHead{Container: name, Format: c.Format(), Summary: c.Summary()}, o.lines, each)
		return w.Flush()
	}
	if !o.long {
		for i := range c.Len() {
			if e := inspect.EntryBrief(c, i); o.glob.match(entryName(e)) {
				w.WriteString(field(entryName(e)))
				w.WriteByte('\n')
			}
		}
		return w.Flush()
	}
	// The columns are as wide as their widest cell, as a tab writer makes
	// them, found by a first pass so that the rows need not be held.
	rows := lsRow{"      SIZE", "    STORED", "TYPE", "COMPRESSION", "ENC", "HASH"}
	width := make([]int, len(rows))
	measure := func(r lsRow) {
		for k, cell := range r {
			width[k] = max(width[k], utf8.RuneCountInString(cell))
		}
	}
	measure(rows)
	// Hashes of one container are all as long: once one is seen, the
	// others are not read for this pass (a .pak's are stored before each
	// entry's data).
	hashSeen := false
	for i := range c.Len() {
		var e inspect.ContainerEntry
		if hashSeen {
			e = inspect.EntryBrief(c, i)
		} else {
			e = c.Entry(i)
		}
		if !o.glob.match(entryName(e)) {
			continue
		}
		r := longRow(e)
		if hashSeen {
			r[5] = "" // (not read)
		}
		measure(r)
		hashSeen = hashSeen || e.Hash != ""
	}
	write := func(r lsRow, path string) {
		for k, cell := range r {
			w.WriteString(cell)
			for range width[k] - utf8.RuneCountInString(cell) + 2 {
				w.WriteByte(' ')
			}
		}
		w.WriteString(path)
		w.WriteByte('\n')
	}
	write(rows, "PATH")
	n, total, stored := 0, int64(0), int64(0)
	each(func(e inspect.ContainerEntry) {
		write(longRow(e), field(entryName(e)))
		n++
		total += e.Size
		stored += e.CompressedSize
	})
	fmt.Fprintf(w, "%d entries, %d bytes (%d stored)\n", n, total, stored)
	return w.Flush()
}

// lsRow is the cells of a --long line before the path.
type lsRow [6]string

func longRow(e inspect.ContainerEntry) lsRow {
	enc := "-"
	if e.Encrypted {
		enc = "enc"
	}
	return lsRow{fmt.Sprintf("%10d", e.Size), fmt.Sprintf("%10d", e.CompressedSize), dash(e.ChunkType), dash(e.Compression), enc, dash(e.Hash)}
}

// writeLsJSON writes one container's object, its entries one at a time as
// each yields them: indented as json.Encoder's SetIndent("", "  ") indents
// the whole object, or on one line (lines).
func writeLsJSON(w *bufio.Writer, head lsHead, lines bool, each func(func(inspect.ContainerEntry))) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// The head's object without its closing brace, then the entries.
	open, sep, end, empty := `,"entries":[`, ",", "]}\n", `,"entries":[]}`+"\n"
	if !lines {
		enc.SetIndent("", "  ")
		open, sep, end, empty = ",\n  \"entries\": [\n    ", ",\n    ", "\n  ]\n}\n", ",\n  \"entries\": []\n}\n"
	}
	enc.Encode(head) // cannot fail: strings and numbers
	h := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	w.Write(bytes.TrimSuffix(bytes.TrimSuffix(h, []byte("}")), []byte("\n")))
	if !lines {
		enc.SetIndent("    ", "  ")
	}
	n := 0
	each(func(e inspect.ContainerEntry) {
		if n == 0 {
			w.WriteString(open)
		} else {
			w.WriteString(sep)
		}
		n++
		buf.Reset()
		enc.Encode(e)
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	})
	if n == 0 {
		w.WriteString(empty)
		return
	}
	w.WriteString(end)
}

// entryName is what ls prints for an entry: its path, or its chunk id.
func entryName(e inspect.ContainerEntry) string {
	if e.Path != "" {
		return e.Path
	}
	return e.ChunkID
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// containerArgs expands folders into the containers they hold (files whose
// extension a container format is registered for), sorted.
func containerArgs(args []string) ([]string, error) {
	var out []string
	// A .ucas or .sig named with its .utoc or .pak (a shell glob over a
	// game's Paks/) is read with it.
	for _, a := range inspect.WithoutNamedCompanions(args) {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		// A folder named through a symbolic link is walked as the folder
		// (filepath.WalkDir walks no link, but a path ending in a
		// separator is the folder it leads to); links inside are not
		// followed.
		root := a
		if lst, err := os.Lstat(a); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			root = a + string(filepath.Separator)
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				if _, ok := inspect.ContainerFormatFor(p); ok {
					found = append(found, p)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no .pak or .utoc files in this folder", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}
