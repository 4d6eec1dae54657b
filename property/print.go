package property

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// maxPrintedElems bounds how many elements of one array, set or map the
// text tree shows; the JSON form has them all.
const maxPrintedElems = 256

// WriteTree prints the object as an indented, human-readable tree.
func (o *Object) WriteTree(w io.Writer, indent string) error {
	bw := bufio.NewWriter(w)
	p := &printer{w: bw}
	if o.ImportDataJSON != "" {
		p.line(indent, "(import data) "+strconv.Quote(o.ImportDataJSON))
	}
	if o.Leading != nil {
		p.line(indent, fmt.Sprintf("(leading %d bytes: %s)", o.Leading.Size, o.Leading.Reason))
	}
	p.props(indent, o.Properties)
	if o.HasGuid && o.Guid != nil {
		p.line(indent, "(object guid) "+o.Guid.String())
	}
	if o.SparseClassData != nil {
		p.line(indent, "(sparse class data) "+o.SparseClassData.Type)
		p.props(indent+"  ", o.SparseClassData.Properties)
	}
	if o.ClassData != nil {
		p.value(indent, "(class data)", o.ClassData)
	}
	if o.Tail != nil {
		p.line(indent, fmt.Sprintf("(tail %d bytes: %s)", o.Tail.Size, o.Tail.Reason))
	}
	for _, n := range o.Notes {
		p.line(indent, "note: "+n)
	}
	for _, is := range o.Issues {
		p.line(indent, "issue: "+is.String())
	}
	if len(o.NativeStructs) > 0 {
		var names []string
		for k, v := range o.NativeStructs {
			if k == "" {
				k = "(unnamed)"
			}
			names = append(names, fmt.Sprintf("%s×%d", k, v))
		}
		sort.StringSlice(names).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
		p.line(indent, "native structs kept raw: "+strings.Join(names, ", "))
	}
	return bw.Flush()
}

type printer struct{ w *bufio.Writer }

func (p *printer) line(indent, s string) {
	p.w.WriteString(indent)
	p.w.WriteString(s)
	p.w.WriteByte('\n')
}

func (p *printer) props(indent string, props []*Property) {
	for _, pr := range props {
		label := pr.Name
		if pr.ArrayIndex > 0 {
			label += fmt.Sprintf("[%d]", pr.ArrayIndex)
		}
		label += " (" + pr.Type + ")"
		if pr.Error != "" {
			p.line(indent, label+" !! "+pr.Error)
			if raw, ok := pr.Value.(*Raw); ok {
				p.line(indent+"  ", fmt.Sprintf("(%d bytes kept raw)", raw.Size))
			}
			continue
		}
		p.value(indent, label, pr.Value)
	}
}

// value prints label = v, expanding containers onto further lines.
func (p *printer) value(indent, label string, v any) {
	if s, ok := scalar(v); ok {
		p.line(indent, label+" = "+s)
		return
	}
	in := indent + "  "
	switch x := v.(type) {
	case *Struct:
		switch {
		case x.Properties != nil:
			p.line(indent, label+" "+x.Type+" {")
			p.props(in, x.Properties)
			p.line(indent, "}")
		case x.Fields != nil:
			p.value(indent, label, x.Fields)
		default:
			p.value(indent, label, x.Value)
		}
	case Fields:
		if s, ok := inlineFields(x); ok {
			p.line(indent, label+" = "+s)
			return
		}
		p.line(indent, label+" {")
		for _, f := range x {
			p.value(in, f.Name, f.Value)
		}
		p.line(indent, "}")
	case []any:
		p.line(indent, fmt.Sprintf("%s [%d]", label, len(x)))
		for i, e := range x {
			if i == maxPrintedElems {
				p.line(in, fmt.Sprintf("... %d more", len(x)-i))
				break
			}
			p.value(in, fmt.Sprintf("[%d]", i), e)
		}
	case *Set:
		p.line(indent, fmt.Sprintf("%s set [%d]", label, len(x.Elements)))
		for i, e := range x.Elements {
			if i == maxPrintedElems {
				p.line(in, fmt.Sprintf("... %d more", len(x.Elements)-i))
				break
			}
			p.value(in, fmt.Sprintf("[%d]", i), e)
		}
	case *Map:
		p.line(indent, fmt.Sprintf("%s map [%d]", label, len(x.Entries)))
		p.entries(in, x.Entries)
	case []MapEntry:
		p.line(indent, fmt.Sprintf("%s [%d]", label, len(x)))
		p.entries(in, x)
	case []Row:
		p.line(indent, fmt.Sprintf("%s [%d]", label, len(x)))
		for _, r := range x {
			p.value(in, r.Name, r.Value)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.StringSlice(keys).Sort() // not sort.Strings, whose slices.Sort[string] grows the WebAssembly
		p.line(indent, label+" {")
		for _, k := range keys {
			p.value(in, k, x[k])
		}
		p.line(indent, "}")
	case []Delegate:
		p.line(indent, fmt.Sprintf("%s [%d]", label, len(x)))
		for i, d := range x {
			p.line(in, fmt.Sprintf("[%d] = %s.%s", i, d.Object, d.Function))
		}
	case *StructHeader:
		p.line(indent, fmt.Sprintf("%s struct super=%s children=%d properties=%d bytecode=%d bytes", label, x.SuperStruct, len(x.Children), len(x.Properties), x.ScriptSize))
		for _, f := range x.Properties {
			p.line(in, fmt.Sprintf("%s %s", f.Name, f.Type))
		}
		if x.Function != nil {
			p.line(in, fmt.Sprintf("(function) flags=0x%08x event graph %s+%d", x.Function.Flags, x.Function.EventGraphFunction, x.Function.EventGraphCallOffset))
		}
		if x.Class != nil {
			p.line(in, fmt.Sprintf("(class) flags=0x%08x within=%s config=%s cdo=%s functions=%d interfaces=%d", x.Class.ClassFlags, x.Class.ClassWithin, x.Class.ClassConfigName, x.Class.ClassDefaultObject, len(x.Class.FuncMap), len(x.Class.Interfaces)))
		}
		if x.StructFlags != nil {
			p.line(in, fmt.Sprintf("(struct flags) 0x%08x", *x.StructFlags))
		}
		if x.DefaultInstance != nil {
			p.value(in, "(default instance)", x.DefaultInstance)
		}
	default:
		p.line(indent, fmt.Sprintf("%s = %v", label, v))
	}
}

func (p *printer) entries(indent string, es []MapEntry) {
	for i, e := range es {
		if i == maxPrintedElems {
			p.line(indent, fmt.Sprintf("... %d more", len(es)-i))
			break
		}
		if k, ok := scalar(e.Key); ok {
			p.value(indent, "["+k+"]", e.Value)
			continue
		}
		p.value(indent, fmt.Sprintf("key[%d]", i), e.Key)
		p.value(indent, fmt.Sprintf("value[%d]", i), e.Value)
	}
}

// scalar formats one-line values.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case string:
		return strconv.Quote(x), true
	case ObjectRef:
		return x.String(), true
	case Enum:
		return x.Value, true
	case SoftObjectPath:
		if x.AssetPath == "" && x.SubPath == "" {
			return "None", true
		}
		return x.String(), true
	case Delegate:
		return x.Object.String() + "." + x.Function, true
	case FieldPath:
		return strings.Join(x.Path, ".") + " (" + x.Owner.String() + ")", true
	case *Raw:
		name := x.Struct
		if name != "" {
			name += ": "
		}
		return fmt.Sprintf("(%s%d bytes raw: %s)", name, x.Size, x.Reason), true
	case *Struct:
		if x != nil && x.Properties == nil && x.Fields == nil {
			if x.Value == nil {
				return x.Type + " {}", true
			}
			if s, ok := scalar(x.Value); ok {
				return s, true
			}
		}
		if x != nil && x.Fields != nil {
			return inlineFields(x.Fields)
		}
	case Fields:
		return inlineFields(x)
	}
	return "", false
}

// inlineFields prints small native structs on one line: {X: 1, Y: 2}.
func inlineFields(fs Fields) (string, bool) {
	if len(fs) > 8 {
		return "", false
	}
	parts := make([]string, 0, len(fs))
	for _, f := range fs {
		s, ok := scalar(f.Value)
		if !ok {
			return "", false
		}
		parts = append(parts, f.Name+": "+s)
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}
