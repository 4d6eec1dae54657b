package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/jsonenc"
)

func init() { register(newDumpCmd) }

// dumpOutput is what `upkg dump --json` prints: the format's complete model,
// and, when the format decodes properties, each export's properties.
type dumpOutput struct {
	Path       string           `json:"path"`
	Format     string           `json:"format"`
	Package    any              `json:"package"`
	Warnings   []string         `json:"warnings,omitempty"`
	Properties []exportProps    `json:"properties,omitempty"`
	Info       *inspect.Package `json:"info,omitempty"`
}

type exportProps struct {
	Export int    `json:"export"` // 1-based, as exports numbers it (its package index)
	Path   string `json:"path"`
	Props  any    `json:"props,omitempty"`
	Error  string `json:"error,omitempty"`
}

func newDumpCmd(g *globalFlags) *cobra.Command {
	var asJSON, noProps bool
	c := &cobra.Command{
		Use:   "dump --json FILE",
		Short: "Print everything read from a package as JSON",
		Long: `dump prints the reader's complete model of the package as JSON with stable
field names: the summary with every field, all tables and sections, and, when
the format decodes them, each export's properties.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_ = asJSON // JSON is the only output form
			opts := g.options()
			opts.Properties = !noProps
			return forEachPackage(args, opts, cmd.ErrOrStderr(), func(p *inspect.Package) error {
				return writeDump(cmd.OutOrStdout(), buildDump(p, !noProps))
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", true, "print JSON (the only output form)")
	c.Flags().BoolVar(&noProps, "no-props", false, "leave out decoded properties")
	return c
}

func buildDump(p *inspect.Package, props bool) dumpOutput {
	d := dumpOutput{Path: p.Path, Format: p.Format, Package: p.Dump, Warnings: p.Warnings}
	if d.Package == nil {
		// A format without a model of its own: print the shared one.
		d.Info = p
	}
	if props && p.Props != nil {
		for i := range p.Exports {
			ep := exportProps{Export: i + 1, Path: p.Exports[i].Path}
			v, err := p.Props(i)
			if err != nil {
				ep.Error = fmt.Sprint(err)
			} else {
				ep.Props = v
			}
			d.Properties = append(d.Properties, ep)
		}
	}
	return d
}

// writeDump writes d as writeJSON does. The list of entries of a container
// is written one entry at a time, to the same bytes: d is encoded with a
// placeholder in the list's place, and the entries are written where the
// placeholder is, each encoded and indented as the whole list would be.
func writeDump(w io.Writer, d dumpOutput) error {
	ed, ok := d.Package.(inspect.EntriesDump)
	if !ok {
		return writeJSON(w, d)
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	mark := fmt.Sprintf("upkg entries %x", nonce)
	// Encoded as the whole dump's MarshalJSON encodes it (jsonenc escapes
	// HTML characters; writeJSON's encoder does not).
	pkg, err := jsonenc.Marshal(ed.DumpWith(mark))
	if err != nil {
		return err
	}
	d.Package = jsonenc.RawMessage(pkg)
	var head bytes.Buffer
	if err := writeJSON(&head, d); err != nil {
		return err
	}
	quoted := `"` + mark + `"`
	at := bytes.Index(head.Bytes(), []byte(quoted))
	if at < 0 {
		return errors.New("dump: entries placeholder not found") // cannot happen
	}
	before, after := head.Bytes()[:at], head.Bytes()[at+len(quoted):]
	// The list's elements are indented one step past the line the
	// placeholder is on, its closing bracket as that line.
	line := before[bytes.LastIndexByte(before, '\n')+1:]
	indent := string(line[:len(line)-len(bytes.TrimLeft(line, " "))])
	bw := bufio.NewWriter(w)
	bw.Write(before)
	n := ed.Len()
	if n == 0 {
		bw.WriteString("[]")
	} else {
		bw.WriteString("[\n" + indent + "  ")
		var elem bytes.Buffer
		for i := range n {
			b, err := jsonenc.Marshal(ed.Entry(i))
			if err != nil {
				return err
			}
			elem.Reset()
			if err := json.Indent(&elem, b, indent+"  ", "  "); err != nil {
				return err
			}
			if i > 0 {
				bw.WriteString(",\n" + indent + "  ")
			}
			bw.Write(elem.Bytes())
		}
		bw.WriteString("\n" + indent + "]")
	}
	bw.Write(after)
	return bw.Flush()
}
