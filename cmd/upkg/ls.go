package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newLsCmd) }

type lsOpts struct {
	long bool
	json bool
	glob globFilter
}

func newLsCmd(g *globalFlags) *cobra.Command {
	var o lsOpts
	c := &cobra.Command{
		Use:   "ls [--long] [--json] CONTAINER",
		Short: "List the files in a .pak or .utoc container",
		Long: `ls lists what a container stores, in container order: one path per line, or with
--long the uncompressed size, the stored size, the chunk type, the compression
method, "enc" for encrypted data, the stored hash and the path. Chunks without a
path (IoStore chunks outside the directory index, pak entries known only by
their path hash) show their chunk id.

Encrypted containers need --aes-key (hex, 0x optional, or base64).`,
		Example: `  upkg ls Game-Windows.pak
  upkg ls --long --include '**/*.umap' Game-Windows.utoc
  upkg ls --json --aes-key 0x1234... Game-Windows.pak | jq '.entries[].path'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.glob.validate(); err != nil {
				return usagef(cmd.CommandPath(), "bad pattern: %v", err)
			}
			return runLs(g.options(), o, args[0], cmd.OutOrStdout())
		},
	}
	f := c.Flags()
	f.BoolVarP(&o.long, "long", "l", false, "show sizes, chunk type, compression and hash")
	f.BoolVar(&o.json, "json", false, "print a JSON object with the container summary and its entries")
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
	c, err := inspect.OpenContainer(name, opts)
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
		enc.SetIndent("", "  ")
		if entries == nil {
			entries = []inspect.ContainerEntry{}
		}
		return enc.Encode(lsOutput{Container: name, Format: c.Format(), Summary: c.Summary(), Entries: entries})
	}
	if !o.long {
		for _, e := range entries {
			fmt.Fprintln(stdout, entryName(e))
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
			dash(e.Compression), enc, dash(e.Hash), entryName(e))
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
