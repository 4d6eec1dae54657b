package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newImportsCmd) }

func newImportsCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "imports [--json] FILE",
		Short: "List the objects a package imports, with class and outer resolved",
		Long: `imports prints the import map: index (negative, as the export map refers to
imports), the class and the full object path, each resolved through the
import map's outers (a UE4/UE5 zen package's through the global container and
the packages it imports). An optional import (UE 5.x) is marked.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				warnOf(cmd.ErrOrStderr(), args[0], p)
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), p.Imports)
				}
				t := newTable(cmd.OutOrStdout())
				fmt.Fprintf(t, "INDEX\tCLASS\tPATH\n")
				for _, o := range p.Imports {
					opt := ""
					if o.Optional {
						opt = " (optional)"
					}
					fmt.Fprintf(t, "%d\t%s\t%s%s\n", o.Index, o.Class, o.Path, opt)
				}
				return t.Flush()
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
