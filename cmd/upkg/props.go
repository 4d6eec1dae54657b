package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/legacy"
	"github.com/upkg/upkg/property"
)

func init() { register(newPropsCmd) }

// propsExport is one export of `upkg props --json`.
type propsExport struct {
	Export int    `json:"export"` // 1-based, as exports numbers it (its package index)
	Name   string `json:"name"`
	Class  string `json:"class"`
	Path   string `json:"path"`
	Object any    `json:"object,omitempty"`
	Error  string `json:"error,omitempty"`
	// Note says why an export has no properties to show when that is
	// how its format stores it (a UE3 class keeps its defaults in its
	// Default__ object): not an error.
	Note string `json:"note,omitempty"`
}

func newPropsCmd(g *globalFlags) *cobra.Command {
	var asJSON bool
	var export string
	c := &cobra.Command{
		Use:   "props [--export NAME] [--json] FILE",
		Short: "Show the property values of a package's exports",
		Long: `props decodes the serialized properties of each export (or of the one named
with --export: its object name, full path, or 1-based index) and prints them
as an indented tree: a Blueprint's defaults, a DataTable's rows, a material's
parameters, a texture's settings. Data after the properties that is not
decoded is listed with its size.

Cooked packages with unversioned properties need the game's mappings:
--mappings FILE.usmap.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProps(cmd.OutOrStdout(), cmd.ErrOrStderr(), g.options(), args[0], export, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().StringVar(&export, "export", "", "only this export (object name, path or 1-based index)")
	return c
}

// selectExports returns the 0-based indices of the exports sel names (all
// when sel is empty).
func selectExports(p *inspect.Package, sel string) ([]int, error) {
	out := []int{}
	for i, e := range p.Exports {
		if sel == "" || e.Name == sel || e.Path == sel || strconv.Itoa(i+1) == sel || strings.EqualFold(e.Name, sel) {
			out = append(out, i)
		}
	}
	if len(out) == 0 && sel != "" {
		return nil, fmt.Errorf("no export named %q (see upkg exports)", sel)
	}
	return out, nil
}

func runProps(w, stderr io.Writer, opts *inspect.Options, name, sel string, asJSON bool) (err error) {
	defer faultsAsErrors(name, &err)()
	p, release, err := openPackage(name, mapped(opts))
	if err != nil {
		return err
	}
	defer func() {
		// A failed chunk hash (checked on closing) is why anything
		// failed, and fails the command even when all printed.
		if cerr := release(); cerr != nil {
			err = errors.New(prefixPath(cerr.Error(), name))
		}
	}()
	if err := packageOnly(name, p); err != nil {
		return err
	}
	if p.Props == nil {
		return fmt.Errorf("%s: property decoding is not available for %s packages", name, p.Format)
	}
	warnOf(stderr, name, p)
	idx, err := selectExports(p, sel)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out := []propsExport{}
	failed := 0
	for _, i := range idx {
		e := p.Exports[i]
		pe := propsExport{Export: i + 1, Name: e.Name, Class: e.Class, Path: e.Path}
		v, err := p.Props(i)
		switch {
		case errors.Is(err, legacy.ErrNoProperties):
			pe.Note = err.Error()
			if k := strings.Index(pe.Note, "legacy: "); k >= 0 {
				pe.Note = pe.Note[k+len("legacy: "):] // the export is named above
			}
		case err != nil:
			pe.Error = err.Error()
			failed++
		default:
			pe.Object = v
			if o, ok := v.(*property.Object); ok && !o.Complete {
				failed++
			}
		}
		out = append(out, pe)
	}
	if failed == len(idx) && len(out) > 0 && out[0].Error != "" {
		// Nothing decodes (missing mappings, say): one clear error.
		return fmt.Errorf("%s: %s", name, out[0].Error)
	}
	// After the output, which shows what did decode: the command fails
	// when an export did not decode completely (wrong mappings, say).
	incomplete := func() error {
		if failed == 0 {
			return nil
		}
		return fmt.Errorf("%s: %d of %d exports did not decode completely (see their issues)", name, failed, len(idx))
	}
	if asJSON {
		if err := writeJSON(w, out); err != nil {
			return err
		}
		return incomplete()
	}
	for _, pe := range out {
		fmt.Fprintf(w, "%d %s (%s)\n", pe.Export, pe.Path, pe.Class)
		if pe.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", pe.Error)
			continue
		}
		if pe.Note != "" {
			fmt.Fprintf(w, "  (%s)\n", pe.Note)
			continue
		}
		// Any format's object that prints itself as a tree (UE4/UE5
		// property.Object, legacy.Object).
		if o, ok := pe.Object.(interface {
			WriteTree(io.Writer, string) error
		}); ok {
			if err := o.WriteTree(w, "  "); err != nil {
				return err
			}
		}
	}
	return incomplete()
}
