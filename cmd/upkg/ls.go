package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"

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

// lsOutput is the --json form of ls.
type lsOutput struct {
	Container string                   `json:"container"`
	Format    string                   `json:"format"`
	Summary   []inspect.Field          `json:"summary"`
	Entries   []inspect.ContainerEntry `json:"entries"`
}

func runLs(opts *inspect.Options, o lsOpts, name string, stdout io.Writer) error {
	c, err := openContainer(name, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	var entries []inspect.ContainerEntry
	for _, e := range c.Entries() {
		if o.glob.match(entryName(e)) {
			entries = append(entries, e)
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if !o.lines {
			enc.SetIndent("", "  ")
		}
		if entries == nil {
			entries = []inspect.ContainerEntry{}
		}
		return enc.Encode(lsOutput{Container: name, Format: c.Format(), Summary: c.Summary(), Entries: entries})
	}
	if !o.long {
		for _, e := range entries {
			fmt.Fprintln(stdout, field(entryName(e)))
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%10s\t%10s\tTYPE\tCOMPRESSION\tENC\tHASH\tPATH\n", "SIZE", "STORED")
	var total, stored int64
	for _, e := range entries {
		enc := "-"
		if e.Encrypted {
			enc = "enc"
		}
		fmt.Fprintf(tw, "%10d\t%10d\t%s\t%s\t%s\t%s\t%s\n", e.Size, e.CompressedSize, dash(e.ChunkType),
			dash(e.Compression), enc, dash(e.Hash), field(entryName(e)))
		total += e.Size
		stored += e.CompressedSize
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%d entries, %d bytes (%d stored)\n", len(entries), total, stored)
	return nil
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
