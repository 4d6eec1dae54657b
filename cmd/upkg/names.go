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
		Long:  `names prints the name map: index, name and, where stored, its hash.`,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), p.Names)
				}
				t := newTable(cmd.OutOrStdout())
				for i, n := range p.Names {
					fmt.Fprintf(t, "%d\t%s\t%s\n", i, n.Name, n.Hash)
				}
				return t.Flush()
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
