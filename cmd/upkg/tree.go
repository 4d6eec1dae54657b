package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newTreeCmd) }

func newTreeCmd(g *globalFlags) *cobra.Command {
	var imports bool
	c := &cobra.Command{
		Use:   "tree [--imports] FILE",
		Short: "Show the outer hierarchy of a package's exports (and imports)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				printTree(cmd.OutOrStdout(), p, imports)
				return nil
			})
		},
	}
	c.Flags().BoolVar(&imports, "imports", false, "also show the import hierarchy")
	return c
}

// printTree prints the exports under their outers, the package at the root.
func printTree(w io.Writer, p *inspect.Package, withImports bool) {
	root := p.Path
	if len(p.Exports) > 0 {
		// The package path is the object path of a top-level export minus its name.
		for _, e := range p.Exports {
			if e.OuterIndex == 0 && len(e.Path) > len(e.Name)+1 {
				root = e.Path[:len(e.Path)-len(e.Name)-1]
				break
			}
		}
	}
	fmt.Fprintf(w, "%s (Package)\n", root)
	printChildren(w, p.Exports, 0, 1, map[int32]bool{})
	if withImports {
		fmt.Fprintf(w, "\nimports\n")
		printChildren(w, p.Imports, 0, 1, map[int32]bool{})
	}
}

func printChildren(w io.Writer, objs []inspect.Object, outer int32, depth int, seen map[int32]bool) {
	if depth > 64 {
		return
	}
	for _, o := range objs {
		if o.OuterIndex != outer || seen[o.Index] {
			continue
		}
		seen[o.Index] = true
		mark := ""
		if o.IsAsset {
			mark = " *"
		}
		fmt.Fprintf(w, "%*s%s (%s)%s\n", 2*depth, "", o.Name, shortClass(o.Class), mark)
		printChildren(w, objs, o.Index, depth+1, seen)
	}
}

// shortClass turns "/Script/Engine.Actor" into "Actor".
func shortClass(c string) string {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] == '.' || c[i] == ':' || c[i] == '/' {
			return c[i+1:]
		}
	}
	return c
}
