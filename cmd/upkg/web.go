package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/web"
)

func init() { register(newWebCmd) }

func newWebCmd(g *globalFlags) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "web --out DIR",
		Short: "Write the viewer page as static files, to host anywhere",
		Long: `web writes the upkg page (index.html, its scripts, its WebAssembly modules
upkg-*.wasm, loaded by format family as files need them, and wasm_exec.js)
into DIR, for any static web host. Files dropped on the page are
read in the visitor's browser and never uploaded. Only the page's own file
names are written; other files in DIR are left alone.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef(cmd.CommandPath(), "--out DIR is required")
			}
			return runWeb(cmd.Context(), cmd, out)
		},
	}
	c.Flags().StringVar(&out, "out", "", "directory to write the site into (created if missing)")
	return c
}

func runWeb(ctx context.Context, cmd *cobra.Command, out string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	a, err := web.Build(ctx, web.BuildOptions{Log: cmd.ErrOrStderr()})
	if err != nil {
		return err
	}
	files, err := web.WriteSite(out, a)
	if err != nil {
		return err
	}
	raw, gz := a.Size()
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files to %s (%d WebAssembly modules, %d bytes in all, %d gzipped)\n", len(files), out, len(a.Modules), raw, gz)
	return nil
}
