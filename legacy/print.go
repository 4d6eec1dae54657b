package legacy

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/upkg/upkg/internal/jsonenc"
)

// WriteTree prints the object as an indented tree, one property per line
// ("Name[i] (Type) = value"), tagged structs expanded beneath their
// property, followed by the object's native data size; the shape matches
// the UE4/UE5 property printer's so `upkg props` reads alike for every
// generation.
func (o *Object) WriteTree(w io.Writer, indent string) error {
	bw := bufio.NewWriter(w)
	line := func(ind, s string) {
		bw.WriteString(ind)
		bw.WriteString(s)
		bw.WriteByte('\n')
	}
	if o.ClassDefaults {
		line(indent, "(class default properties)")
	}
	if sf := o.StateFrame; sf != nil {
		line(indent, fmt.Sprintf("(state frame) node %s, state %s, probe mask 0x%x", sf.Node, sf.StateNode, sf.ProbeMask))
	}
	if o.TemplateOwnerClass != "" {
		line(indent, fmt.Sprintf("(component template) owner %s, name %q", o.TemplateOwnerClass, o.TemplateName))
	}
	if o.NetIndex != nil && *o.NetIndex != -1 {
		line(indent, fmt.Sprintf("(net index) %d", *o.NetIndex))
	}
	writeProps(line, indent, o.Properties)
	if o.NativeSize > 0 {
		line(indent, fmt.Sprintf("(native data %d bytes)", o.NativeSize))
	}
	if len(o.Actors) > 0 {
		line(indent, fmt.Sprintf("(actors %d)", len(o.Actors)))
		for i, a := range o.Actors {
			line(indent+"  ", fmt.Sprintf("[%d] %s", i, a))
		}
	}
	return bw.Flush()
}

func writeProps(line func(ind, s string), indent string, props []Property) {
	for _, p := range props {
		label := p.Name
		if p.ArrayIndex > 0 {
			label += fmt.Sprintf("[%d]", p.ArrayIndex)
		}
		typ := p.Type
		if p.StructName != "" {
			typ += " " + p.StructName
		}
		if p.EnumName != "" && p.EnumName != "None" {
			typ += " " + p.EnumName
		}
		label += " (" + typ + ")"
		switch v := p.Value.(type) {
		case []Property:
			line(indent, label)
			writeProps(line, indent+"  ", v)
		default:
			line(indent, label+" = "+scalarString(v))
		}
	}
}

// scalarString renders a decoded value on one line.
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return strconv.Quote(x)
	case bool, int32, uint8, uint64, float32:
		return fmt.Sprint(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.StringSlice(keys).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
		s := "{"
		for i, k := range keys {
			if i > 0 {
				s += ", "
			}
			s += k + ": " + scalarString(x[k])
		}
		return s + "}"
	}
	b, err := jsonenc.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
