package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newNamesCmd) }

func newNamesCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "names [--json] FILE",
		Short: "List a package's name map",
		Long: `names prints the name map: index, name and, where stored, its hash (UE4,
UE5) or its object flags (UE1-UE3).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), p.Names)
				}
				// The columns the format stores: hashes (UE4/UE5), flags
				// (UE1-UE3); none left empty at the end of each line.
				hashes, flags := false, false
				for _, n := range p.Names {
					hashes, flags = hashes || n.Hash != "", flags || n.Flags != 0
				}
				t := newTable(cmd.OutOrStdout())
				for i, n := range p.Names {
					fmt.Fprintf(t, "%d\t%s", i, n.Name)
					if hashes {
						fmt.Fprintf(t, "\t%s", n.Hash)
					}
					if flags {
						fmt.Fprintf(t, "\t0x%08x", n.Flags)
					}
					fmt.Fprintln(t)
				}
				return t.Flush()
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
