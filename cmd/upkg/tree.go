package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

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
// The hierarchy is rebuilt from the objects' outer paths, which every format
// fills (indices are format-specific).
func printTree(w io.Writer, p *inspect.Package, withImports bool) {
	root := p.Path
	for _, e := range p.Exports {
		if e.Outer == "" && strings.HasSuffix(e.Path, "."+e.Name) {
			root = strings.TrimSuffix(e.Path, "."+e.Name)
			break
		}
	}
	fmt.Fprintf(w, "%s (Package)\n", root)
	children, seen := byOuter(p.Exports), map[int]bool{}
	printChildren(w, p.Exports, children, "", 1, seen)
	// Exports whose outer is no export of the package (an import: the
	// level of a World Partition actor saved in its own package), under
	// that outer, marked as such.
	inPackage := map[string]bool{}
	for _, e := range p.Exports {
		inPackage[e.Path] = true
	}
	var outside []string
	for i, e := range p.Exports {
		if !seen[i] && e.Outer != "" && !inPackage[e.Outer] && !slices.Contains(outside, e.Outer) {
			outside = append(outside, e.Outer)
		}
	}
	for _, o := range outside {
		fmt.Fprintf(w, "  %s (outside the package)\n", o)
		printChildren(w, p.Exports, children, o, 2, seen)
	}
	if withImports {
		fmt.Fprintf(w, "\nimports\n")
		printChildren(w, p.Imports, byOuter(p.Imports), "", 1, map[int]bool{})
	}
}

// byOuter indexes objects by the path of their outer.
func byOuter(objs []inspect.Object) map[string][]int {
	m := make(map[string][]int)
	for i, o := range objs {
		m[o.Outer] = append(m[o.Outer], i)
	}
	return m
}

// maxTreeDepth bounds the printed hierarchy (outer cycles in a corrupt file).
const maxTreeDepth = 64

func printChildren(w io.Writer, objs []inspect.Object, children map[string][]int, outer string, depth int, seen map[int]bool) {
	if depth > maxTreeDepth {
		return
	}
	for _, i := range children[outer] {
		o := objs[i]
		if seen[i] {
			continue
		}
		seen[i] = true
		mark := ""
		if o.IsAsset {
			mark = " *"
		}
		fmt.Fprintf(w, "%*s%s (%s)%s\n", 2*depth, "", o.Name, shortClass(o.Class), mark)
		if o.Path != "" {
			printChildren(w, objs, children, o.Path, depth+1, seen)
		}
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
