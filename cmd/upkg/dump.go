package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newDumpCmd) }

// dumpOutput is what `upkg dump --json` prints: the format's complete model,
// and, when the format decodes properties, each export's properties.
type dumpOutput struct {
	Path       string           `json:"path"`
	Format     string           `json:"format"`
	Package    any              `json:"package"`
	Warnings   []string         `json:"warnings,omitempty"`
	Properties []exportProps    `json:"properties,omitempty"`
	Info       *inspect.Package `json:"info,omitempty"`
}

type exportProps struct {
	Export int    `json:"export"` // 1-based, as exports numbers it (its package index)
	Path   string `json:"path"`
	Props  any    `json:"props,omitempty"`
	Error  string `json:"error,omitempty"`
}

func newDumpCmd(g *globalFlags) *cobra.Command {
	var asJSON, noProps bool
	c := &cobra.Command{
		Use:   "dump --json FILE",
		Short: "Print everything read from a package as JSON",
		Long: `dump prints the reader's complete model of the package as JSON with stable
field names: the summary with every field, all tables and sections, and, when
the format decodes them, each export's properties.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_ = asJSON // JSON is the only output form
			opts := g.options()
			opts.Properties = !noProps
			return forEachPackage(args, opts, cmd.ErrOrStderr(), func(p *inspect.Package) error {
				return writeJSON(cmd.OutOrStdout(), buildDump(p, !noProps))
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", true, "print JSON (the only output form)")
	c.Flags().BoolVar(&noProps, "no-props", false, "leave out decoded properties")
	return c
}

func buildDump(p *inspect.Package, props bool) dumpOutput {
	d := dumpOutput{Path: p.Path, Format: p.Format, Package: p.Dump, Warnings: p.Warnings}
	if d.Package == nil {
		// A format without a model of its own: print the shared one.
		d.Info = p
	}
	if props && p.Props != nil {
		for i := range p.Exports {
			ep := exportProps{Export: i + 1, Path: p.Exports[i].Path}
			v, err := p.Props(i)
			if err != nil {
				ep.Error = fmt.Sprint(err)
			} else {
				ep.Props = v
			}
			d.Properties = append(d.Properties, ep)
		}
	}
	return d
}
