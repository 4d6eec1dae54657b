package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newExportCmd) }

// exportFlags are the options of `upkg export`.
type exportFlags struct {
	out    string
	export string
	class  string
	force  bool
	quiet  bool
}

func newExportCmd(g *globalFlags) *cobra.Command {
	ef := &exportFlags{}
	c := &cobra.Command{
		Use:   "export FILE...",
		Short: "Write package content as files: textures as PNG, sounds as WAV, music modules, script source",
		Long: `export converts the content of packages into files other programs open:
textures become PNG, sounds their embedded WAV, music the embedded tracker
module (.it .s3m .xm .mod) or Ogg file, and script text .uc source.

Files go to DIR/PACKAGE/GROUP/NAME.ext. Nothing is ever written outside DIR,
and existing files are kept unless --force is given. An export chosen with
--export whose class has no converter is written as its raw bytes (.bin).
The converters read UE1, UE2 and UE3 packages; of a UE4 or UE5 package,
exports chosen with --export are written raw.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd, g.options(), ef, args)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&ef.out, "output", "o", ".", "output `DIR`")
	fl.StringVar(&ef.export, "export", "", "only the export with this `NAME`, full path or 1-based index (as upkg exports numbers them)")
	fl.StringVar(&ef.class, "class", "", "only exports of this `CLASS` (e.g. Texture, Sound)")
	fl.BoolVar(&ef.force, "force", false, "overwrite existing files")
	fl.BoolVarP(&ef.quiet, "quiet", "q", false, "do not list the files written")
	return c
}

// runExport exports every file named in args.
func runExport(cmd *cobra.Command, opts *inspect.Options, ef *exportFlags, args []string) error {
	if err := os.MkdirAll(ef.out, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(ef.out)
	if err != nil {
		return err
	}
	defer root.Close()
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var partials partialFiles
	defer partials.removeOnSignal()()
	failed, written := 0, 0
	var raw []string                                            // formats with no converter: only named exports, raw
	for _, name := range inspect.WithoutNamedCompanions(args) { // a .uexp named with its .uasset is read with it
		n, nf, format, err := exportOne(root, &partials, opts, ef, name, stdout, stderr)
		if format != "" && !slices.Contains(raw, format) {
			raw = append(raw, format)
		}
		written += n
		failed += nf
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "upkg: %v\n", err)
			failed++
		case n == 0 && nf == 0 && len(args) > 1:
			// Said of each file when several are named (one alone is
			// told below).
			fmt.Fprintf(stderr, "upkg: %s: %s\n", name, nothingWhy(ef, format))
		}
	}
	if written == 0 && failed == 0 {
		if len(args) == 1 {
			fmt.Fprintf(stderr, "upkg: %s: %s\n", args[0], nothingWhy(ef, strings.Join(raw, ", ")))
		}
		return &failedError{1}
	}
	if failed > 0 {
		return &failedError{failed}
	}
	return nil
}

// nothingWhy says why a package gave nothing to export; format is its
// format when upkg has no converter for it.
func nothingWhy(ef *exportFlags, format string) string {
	switch {
	case ef.export != "":
		// A named export is written even without a converter.
		return fmt.Sprintf("nothing to export: no export named %q (see upkg exports)", ef.export)
	case format != "":
		return fmt.Sprintf("nothing to export: upkg converts no content of %s packages yet; --export NAME writes an export's serialized bytes", format)
	case ef.class != "":
		return fmt.Sprintf("nothing to export: no export of class %q with content upkg converts (see upkg exports)", ef.class)
	}
	return "nothing to export: no export with content upkg converts (textures, sounds, music, script text)"
}

// exportOne exports the content of package name; rawFormat is the
// package's format when upkg has no converter for it (only exports named
// with --export are written, as their serialized bytes).
func exportOne(root *os.Root, partials *partialFiles, opts *inspect.Options, ef *exportFlags, name string, stdout, stderr io.Writer) (written, failed int, rawFormat string, err error) {
	defer faultsAsErrors(name, &err)()
	opts = mapped(opts)
	in, err := inspect.OpenInput(name, opts)
	if err != nil {
		return 0, 0, "", err
	}
	if in.Close != nil {
		defer func() {
			// A failed chunk hash is checked on closing (see
			// inspect.Options.LateChunkHash): what was written came
			// from a damaged chunk, and the command fails.
			if cerr := in.Close(); cerr != nil {
				err = errors.New(prefixPath(cerr.Error(), name))
			}
		}()
	}
	pkg := safeComponent(strings.TrimSuffix(filepath.Base(in.Name), filepath.Ext(in.Name)))
	filter := inspect.ExportFilter{Export: ef.export, Class: ef.class}
	emit := func(cf inspect.ContentFile, cerr error) error {
		if cerr != nil {
			fmt.Fprintf(stderr, "upkg: %s: %s (%s): %v\n", in.Name, cf.Object, cf.Class, cerr)
			failed++
			return nil
		}
		rel := path.Join(pkg, safeRel(cf.Name))
		if err := writeConfined(root, rel, cf.Data, ef.force, partials); err != nil {
			fmt.Fprintf(stderr, "upkg: %s: %s: %v\n", in.Name, cf.Object, err)
			failed++
			return nil
		}
		written++
		if !ef.quiet {
			note := ""
			if cf.Note != "" {
				note = " (" + cf.Note + ")"
			}
			fmt.Fprintf(stdout, "%s\t%s\t%d bytes%s\n", filepath.Join(root.Name(), filepath.FromSlash(rel)), cf.Kind, len(cf.Data), note)
		}
		return nil
	}
	err = inspect.ExportContent(in, opts, filter, emit)
	if errors.Is(err, inspect.ErrNoExporter) {
		rawFormat, err = exportRaw(in, opts, filter, emit)
	}
	return written, failed, rawFormat, err
}

// exportRaw writes the exports filter names by --export, of a package of a
// format without converters, as their serialized bytes; it returns the
// format.
func exportRaw(in *inspect.Input, opts *inspect.Options, filter inspect.ExportFilter, emit func(inspect.ContentFile, error) error) (string, error) {
	p, err := inspect.OpenPackage(in, opts)
	if err != nil {
		return "", err
	}
	if filter.Export == "" || p.ExportData == nil {
		return p.Format, nil
	}
	for i, e := range p.Exports {
		if !filter.Matches(i, e.Path, e.Name, e.Class) {
			continue
		}
		data, err := p.ExportData(i)
		// The object's path inside its package, as folders: "/Game/A/B.B:C"
		// is B/C, with the class before the extension.
		rel := e.Path[strings.LastIndexByte(e.Path, '/')+1:]
		if dot := strings.IndexByte(rel, '.'); dot >= 0 {
			rel = rel[dot+1:]
		}
		rel = strings.NewReplacer(".", "/", ":", "/").Replace(rel) + "." + shortClass(e.Class) + ".bin"
		if err := emit(inspect.ContentFile{Export: i, Object: e.Path, Class: e.Class, Name: rel, Kind: "raw", Data: data}, err); err != nil {
			return p.Format, err
		}
	}
	return p.Format, nil
}

// safeRel turns an exporter's relative name into a clean relative path:
// no absolute start, no "." or ".." components, no separators or control
// characters inside a component.
func safeRel(name string) string {
	parts := strings.Split(strings.ReplaceAll(name, "\\", "/"), "/")
	out := parts[:0]
	for _, p := range parts {
		if p == "" {
			continue
		}
		out = append(out, safeComponent(p))
	}
	if len(out) == 0 {
		return "_"
	}
	return strings.Join(out, "/")
}

func safeComponent(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "_" + s
	}
	return s
}

// writeConfined writes data to rel under root (never outside it, see
// os.Root), complete or not at all (see pendingFile); an existing file is
// kept unless force.
func writeConfined(root *os.Root, rel string, data []byte, force bool, partials *partialFiles) error {
	dir, base := path.Split(rel)
	d, closeDir, err := folderOf(root, dir)
	if err != nil {
		return err
	}
	defer closeDir()
	if _, err := d.Lstat(base); err == nil && !force {
		return fmt.Errorf("%s exists (use --force to overwrite)", rel)
	}
	_, err = writeNew(d, base, force, partials, writeBytes(data), nil)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists (use --force to overwrite)", rel)
	}
	return err
}
