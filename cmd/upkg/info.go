package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newInfoCmd) }

func newInfoCmd(g *globalFlags) *cobra.Command {
	var asJSON, verify bool
	c := &cobra.Command{
		Use:   "info [--json] FILE...",
		Short: "Show a package's header: versions, summary, sections",
		Long: `info reads each package and prints what its header holds: the engine version
(and how it was known), every summary field in file order, the custom
versions with their names, and every section with its offset, size and count.
Unversioned (cooked) packages are read with --engine, or with the version
inferred from the file.`,
		Example: `  upkg info Content/BP_Hero.uasset
  upkg info --engine 4.27 --json Cooked/Map.umap`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := g.options()
			opts.Verify = verify
			return forEachPackage(args, opts, cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if asJSON && len(args) > 1 {
					// One object per line, as verify --json prints:
					// a stream jq and line tools read.
					return writeJSONLine(cmd.OutOrStdout(), p)
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), p)
				}
				printInfo(cmd.OutOrStdout(), p, verify)
				return nil
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the package model as JSON (with several files, one object per line)")
	c.Flags().BoolVar(&verify, "verify", false, "also rewrite the header and compare it with the file")
	return c
}

func printInfo(w io.Writer, p *inspect.Package, verify bool) {
	fmt.Fprintf(w, "%s\n", p.Path)
	fmt.Fprintf(w, "  format:   %s\n", p.Format)
	eng := p.Engine
	if p.EngineSource != "" {
		eng += " (" + p.EngineSource + ")"
	}
	if eng != "" {
		fmt.Fprintf(w, "  engine:   %s\n", eng)
	}
	if len(p.EngineCandidates) > 1 {
		fmt.Fprintf(w, "  candidates: %s\n", strings.Join(p.EngineCandidates, ", "))
	}
	if p.EngineNote != "" {
		fmt.Fprintf(w, "  note:     %s\n", p.EngineNote)
	}
	if p.BigEndian {
		fmt.Fprintf(w, "  byte order: big-endian (swapped package tag)\n")
	}
	if len(p.Companions) > 0 {
		fmt.Fprintf(w, "  companions: %s\n", strings.Join(p.Companions, " "))
	}
	if !isContainer(p.Path, p) {
		// A container's entries are in its summary below.
		fmt.Fprintf(w, "  names %d, imports %d, exports %d", len(p.Names), len(p.Imports), len(p.Exports))
		if len(p.Thumbnails) > 0 {
			fmt.Fprintf(w, ", thumbnails %d", len(p.Thumbnails))
		}
		fmt.Fprintln(w)
	}
	if p.HeaderRoundtrip != nil {
		fmt.Fprintf(w, "  header rewrite identical: %v\n", *p.HeaderRoundtrip)
	} else if verify {
		fmt.Fprintf(w, "  header rewrite: not done (upkg rewrites UE4 and UE5 package headers only)\n")
	}
	if st := p.Properties; verify && st != nil {
		fmt.Fprintf(w, "  properties: %d of %d exports decode", st.OK, st.ExportsWithProperties)
		if st.BytesUnaccounted > 0 {
			fmt.Fprintf(w, ", %d bytes after them not decoded", st.BytesUnaccounted)
		}
		fmt.Fprintln(w)
		for _, f := range st.Failures {
			fmt.Fprintf(w, "    failed: %s\n", f)
		}
	}

	fmt.Fprintf(w, "\nSummary\n")
	t := newTable(w)
	for _, f := range p.Summary {
		v := f.Value
		if list, ok := v.([]string); ok {
			v = strings.Join(list, "; ") // items that have commas inside
		}
		fmt.Fprintf(t, "  %s\t%v\n", f.Key, v)
	}
	t.Flush()
	if len(p.CustomVersions) > 0 {
		fmt.Fprintf(w, "\nCustom versions (%d)\n", len(p.CustomVersions))
		t = newTable(w)
		for _, c := range p.CustomVersions {
			name := c.Name
			if name == "" {
				name = "?"
			}
			fmt.Fprintf(t, "  %s\t%s\t%d\n", c.Guid, name, c.Version)
		}
		t.Flush()
	}
	if len(p.Sections) > 0 {
		fmt.Fprintf(w, "\nSections\n")
		t = newTable(w)
		fmt.Fprintf(t, "  NAME\tOFFSET\tSIZE\tCOUNT\tFILE\tERROR\n")
		for _, s := range p.Sections {
			fmt.Fprintf(t, "  %s\t0x%x\t%d\t%d\t%s\t%s\n", s.Name, s.Offset, s.Size, s.Count, s.File, s.Error)
		}
		t.Flush()
	}
	if len(p.Thumbnails) > 0 {
		fmt.Fprintf(w, "\nThumbnails\n")
		t = newTable(w)
		for i, th := range p.Thumbnails {
			fmt.Fprintf(t, "  %d\t%s\t%s\t%dx%d\t%d bytes\n", i, th.Object, th.Format, th.Width, th.Height, th.Size)
		}
		t.Flush()
	}
	if len(p.AssetRegistry) > 0 {
		fmt.Fprintf(w, "\nAsset registry\n")
		for _, o := range p.AssetRegistry {
			fmt.Fprintf(w, "  %s (%s), %d tags\n", o.ObjectPath, o.Class, len(o.Tags))
		}
	}
	for _, warn := range p.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}
