package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newExportsCmd) }

func newExportsCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "exports [--json] FILE",
		Short: "List the objects a package defines, with class, outer and data range",
		Long: `exports prints the export map: index, class path, object path, the outer,
where the object's serialized data lies (offset and size; "uexp" when it is
in the .uexp companion) and its flags. The asset (bIsAsset) is marked with *.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				warnOf(cmd.ErrOrStderr(), args[0], p)
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), p.Exports)
				}
				t := newTable(cmd.OutOrStdout())
				fmt.Fprintf(t, "INDEX\tCLASS\tPATH\tOUTER\tOFFSET\tSIZE\tFLAGS\n")
				for _, o := range p.Exports {
					mark := ""
					if o.IsAsset {
						mark = "*"
					}
					off := fmt.Sprintf("0x%x", o.SerialOffset)
					if o.File != "" {
						off += " " + o.File[1:]
					}
					outer := o.Outer
					if outer == "" {
						outer = "-"
					}
					fmt.Fprintf(t, "%d%s\t%s\t%s\t%s\t%s\t%d\t%s\n", o.Index, mark, o.Class, o.Path, outer, off, o.SerialSize, o.Flags)
				}
				return t.Flush()
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
