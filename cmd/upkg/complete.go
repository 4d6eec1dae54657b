package main

// Shell completion beyond file names (upkg completion bash|zsh|fish|
// powershell loads it): the values --engine knows, .usmap files for
// --mappings, folders for output folders, and the files inside a
// container for CONTAINER::PATH and cat's PATH.

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/uasset"
)

// setCompletions registers the completions of root's flags and arguments.
func setCompletions(root *cobra.Command, g *globalFlags) {
	root.RegisterFlagCompletionFunc("engine", func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, n := range uasset.EngineNames() {
			if strings.HasPrefix(n, prefix) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	root.MarkPersistentFlagFilename("mappings", "usmap")
	noFiles := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	root.RegisterFlagCompletionFunc("aes-key", noFiles)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "export", "extract":
			c.MarkFlagDirname("output")
		case "web":
			c.MarkFlagDirname("out")
		case "thumbnail":
			c.MarkFlagFilename("output", "png", "jpg", "jpeg")
		}
		for _, f := range []string{"jobs", "export", "name", "index"} {
			if c.Flags().Lookup(f) != nil {
				c.RegisterFlagCompletionFunc(f, noFiles)
			}
		}
		if c.ValidArgsFunction != nil || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		// One FILE for most: no second; cat takes CONTAINER then a PATH
		// inside it.
		most := 1
		switch c.Name() {
		case "cat":
			most = 2
		case "info", "verify", "export", "extract", "ls":
			most = -1
		case "serve", "web":
			most = 0
		}
		c.ValidArgsFunction = func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			switch {
			case most >= 0 && len(args) >= most:
				return nil, cobra.ShellCompDirectiveNoFileComp
			case cmd.Name() == "cat" && len(args) == 1:
				return innerPaths(g, args[0], prefix, "")
			}
			if container, inner, ok := inspect.SplitContainerPath(prefix); ok {
				return innerPaths(g, container, inner, container+inspect.ContainerSep)
			}
			return nil, cobra.ShellCompDirectiveDefault
		}
	}
}

// maxInnerCompletions bounds the paths offered at once (a game's container
// holds hundreds of thousands).
const maxInnerCompletions = 2000

// innerPaths completes the paths inside container that start with prefix
// (any case), each written after lead.
func innerPaths(g *globalFlags, container, prefix, lead string) ([]cobra.Completion, cobra.ShellCompDirective) {
	c, err := inspect.OpenContainer(container, g.options())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer c.Close()
	low := strings.ToLower(strings.TrimPrefix(prefix, "/"))
	var out []cobra.Completion
	for _, e := range c.Entries() {
		n := entryName(e)
		if strings.HasPrefix(strings.ToLower(n), low) {
			out = append(out, lead+n)
			if len(out) == maxInnerCompletions {
				break
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
