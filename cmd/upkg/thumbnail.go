package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newThumbnailCmd) }

type thumbnailOpts struct {
	out   string
	index int
	name  string
	list  bool
}

func newThumbnailCmd(g *globalFlags) *cobra.Command {
	o := thumbnailOpts{index: -1}
	c := &cobra.Command{
		Use:   "thumbnail FILE -o OUT",
		Short: "Extract a package's editor thumbnail (the PNG or JPEG bytes as stored)",
		Long: `thumbnail writes the compressed image bytes of a thumbnail exactly as the
editor stored them (PNG, or JPEG for some asset types). When the package has
several, pick one with --index or --name (a substring of "Class Path"); the
default is the first non-empty one. --list shows them.`,
		Example: `  upkg thumbnail Content/M_Rock.uasset -o rock.png
  upkg thumbnail --list Content/Maps/Level1.umap`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.out == "" && !o.list {
				return usagef(cmd.CommandPath(), "no output file: give -o OUT (or --list)")
			}
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				return runThumbnail(cmd, p, o)
			})
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "output", "o", "", "file to write the image to (- for stdout)")
	f.IntVar(&o.index, "index", -1, "thumbnail index (see --list)")
	f.StringVar(&o.name, "name", "", "pick the thumbnail whose \"Class Path\" contains this")
	f.BoolVar(&o.list, "list", false, "list the thumbnails instead of extracting one")
	return c
}

func runThumbnail(cmd *cobra.Command, p *inspect.Package, o thumbnailOpts) error {
	w := cmd.OutOrStdout()
	if o.list {
		for i, t := range p.Thumbnails {
			fmt.Fprintf(w, "%d\t%s\t%s\t%dx%d\t%d bytes\n", i, t.Object, t.Format, t.Width, t.Height, t.Size)
		}
		return nil
	}
	if len(p.Thumbnails) == 0 || p.ThumbnailData == nil {
		return fmt.Errorf("%s: no thumbnails", p.Path)
	}
	idx := o.index
	switch {
	case idx >= 0:
		if idx >= len(p.Thumbnails) {
			return fmt.Errorf("%s: thumbnail %d out of range (package has %d)", p.Path, idx, len(p.Thumbnails))
		}
	case o.name != "":
		for i, t := range p.Thumbnails {
			if strings.Contains(t.Object, o.name) {
				idx = i
				break
			}
		}
		if idx < 0 {
			return fmt.Errorf("%s: no thumbnail matches %q", p.Path, o.name)
		}
	default:
		for i, t := range p.Thumbnails {
			if t.Size > 0 {
				idx = i
				break
			}
		}
		if idx < 0 {
			return fmt.Errorf("%s: every thumbnail is empty", p.Path)
		}
	}
	b, err := p.ThumbnailData(idx)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return fmt.Errorf("%s: thumbnail %d is empty", p.Path, idx)
	}
	if o.out == "-" {
		_, err = w.Write(b)
		return err
	}
	if err := os.WriteFile(o.out, b, 0o644); err != nil {
		return err
	}
	t := p.Thumbnails[idx]
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %s %dx%d, %d bytes (%s)\n", o.out, t.Format, t.Width, t.Height, len(b), t.Object)
	return nil
}
