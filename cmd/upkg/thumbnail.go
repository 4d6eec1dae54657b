package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	force bool
}

func newThumbnailCmd(g *globalFlags) *cobra.Command {
	o := thumbnailOpts{index: -1}
	c := &cobra.Command{
		Use:   "thumbnail FILE -o OUT",
		Short: "Extract a package's editor thumbnail (the PNG or JPEG bytes as stored)",
		Long: `thumbnail writes the compressed image bytes of a thumbnail exactly as the
editor stored them (PNG, or JPEG for some asset types). When the package has
several, pick one with --index or --name (a substring of "Class Path"); the
default is the first non-empty one. --list shows them. An existing OUT is
kept unless --force is given, and the package's own files never are one.`,
		Example: `  upkg thumbnail Content/M_Rock.uasset -o rock.png
  upkg thumbnail --list Content/Maps/Level1.umap`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.out == "" && !o.list {
				return usagef(cmd.CommandPath(), "no output file: give -o OUT (or --list)")
			}
			if o.index < -1 {
				return usagef(cmd.CommandPath(), "--index %d: thumbnails are numbered from 0 (see --list)", o.index)
			}
			return forEachPackage(args, g.options(), cmd.ErrOrStderr(), func(p *inspect.Package) error {
				if err := packageOnly(args[0], p); err != nil {
					return err
				}
				return runThumbnail(cmd, p, o)
			})
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "output", "o", "", "file to write the image to (- for stdout)")
	f.IntVar(&o.index, "index", -1, "thumbnail index (see --list)")
	f.StringVar(&o.name, "name", "", "pick the thumbnail whose \"Class Path\" contains this")
	f.BoolVar(&o.list, "list", false, "list the thumbnails instead of extracting one")
	f.BoolVar(&o.force, "force", false, "overwrite an existing OUT")
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
		if isTerminal(w) {
			return fmt.Errorf("%s: an image, not written to the terminal: redirect it to a file (> FILE) or give -o FILE", p.Path)
		}
		_, err = w.Write(b)
		return err
	}
	if err := writeOutput(o.out, b, o.force, p); err != nil {
		return err
	}
	t := p.Thumbnails[idx]
	note := ""
	if ext := strings.ToLower(filepath.Ext(o.out)); ext != "" && !strings.Contains(extsOf[t.Format], ext) {
		note = fmt.Sprintf("; the image is %s, the name says %s", strings.ToUpper(t.Format), ext)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %s %dx%d, %d bytes (%s)%s\n", o.out, t.Format, t.Width, t.Height, len(b), t.Object, note)
	return nil
}

// extsOf are the file name extensions of each image format.
var extsOf = map[string]string{"png": ".png", "jpeg": ".jpg .jpeg .jpe"}

// writeOutput writes data to the file name a user gave, complete or not at
// all (see pendingFile). An existing file is kept unless force, and never
// is the output one of the files the package p was read from.
func writeOutput(name string, data []byte, force bool, p *inspect.Package) error {
	if st, err := os.Stat(name); err == nil {
		for _, in := range inputFiles(p) {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return fmt.Errorf("%s is the file the package is read from: give another output", name)
			}
		}
		if !force {
			return fmt.Errorf("%s exists (use --force to overwrite)", name)
		}
	}
	d, err := os.OpenRoot(filepath.Dir(name))
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer d.Close()
	var partials partialFiles
	_, err = writeNew(d, filepath.Base(name), force, &partials, writeBytes(data), nil)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists (use --force to overwrite)", name)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// inputFiles are the files package p is read from: its own, its companions
// (.uexp, ...), or the container holding it.
func inputFiles(p *inspect.Package) []string {
	if c, _, ok := inspect.SplitContainerPath(p.Path); ok {
		base := strings.TrimSuffix(c, filepath.Ext(c))
		return []string{c, base + ".ucas", base + ".sig"}
	}
	files := []string{p.Path}
	base := strings.TrimSuffix(p.Path, filepath.Ext(p.Path))
	for _, ext := range p.Companions {
		files = append(files, base+ext)
	}
	return files
}
