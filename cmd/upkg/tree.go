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
		Long: `tree prints the package's exports under their outers, with their classes:
the asset, its subobjects, and theirs. With --imports the imported objects
follow, under their packages. An export whose outer lies outside the package
is shown under it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				warnOf(cmd.ErrOrStderr(), args[0], p)
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
	printObjects(w, p.Exports, "outside the package")
	if withImports {
		fmt.Fprintf(w, "\nimports\n")
		printObjects(w, p.Imports, "not imported itself")
	}
}

// printObjects prints objs under their outers. Objects whose outer is none
// of objs (an export whose outer is an import: a World Partition actor's
// level; an import whose package is not imported itself, as zen packages
// list them) come after, under that outer, marked with what it is.
func printObjects(w io.Writer, objs []inspect.Object, outsideNote string) {
	children, seen := byOuter(objs), map[int]bool{}
	printChildren(w, objs, children, "", 1, seen)
	listed := map[string]bool{}
	for _, o := range objs {
		listed[o.Path] = true
	}
	var outside []string
	for i, o := range objs {
		if !seen[i] && o.Outer != "" && !listed[o.Outer] && !slices.Contains(outside, o.Outer) {
			outside = append(outside, o.Outer)
		}
	}
	for _, o := range outside {
		fmt.Fprintf(w, "  %s (%s)\n", o, outsideNote)
		printChildren(w, objs, children, o, 2, seen)
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
