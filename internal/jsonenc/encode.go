// Package jsonenc is the JSON encoder of upkg's library code.
//
// [Marshal] is encoding/json's Marshal in native programs. In the page's
// WebAssembly it is a compact reflection-based encoder that produces the
// same bytes for the values upkg marshals (structs with json tags, embedded
// structs, maps, slices, Marshaler and TextMarshaler implementations):
// encoding/json's Marshal costs about 470 KB of WebAssembly, this one a
// small fraction. The tests check both agree, on synthetic values and on
// the corpus' packages, dumps and properties.
package jsonenc

import (
	"encoding"
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Marshaler is implemented by types that write their own JSON (the same
// method set as encoding/json's Marshaler).
type Marshaler interface {
	MarshalJSON() ([]byte, error)
}

// RawMessage is encoded JSON, written as is (compacted), like
// encoding/json's RawMessage.
type RawMessage []byte

// MarshalJSON returns m, or null when m is nil.
func (m RawMessage) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	return m, nil
}

var (
	marshalerType     = reflect.TypeFor[Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// encode is the compact encoder: Marshal in WebAssembly builds.
func encode(v any) ([]byte, error) {
	e := &encoder{}
	if err := e.value(reflect.ValueOf(v), 0); err != nil {
		return nil, err
	}
	return e.b, nil
}

type encoder struct {
	b []byte
}

// Error reports a value JSON cannot represent.
type Error struct{ Msg string }

func (e *Error) Error() string { return "json: " + e.Msg }

const maxDepth = 1000

func (e *encoder) value(v reflect.Value, depth int) error {
	if !v.IsValid() {
		e.b = append(e.b, "null"...)
		return nil
	}
	if depth > maxDepth {
		return &Error{"value nested too deeply (a cycle?)"}
	}
	t := v.Type()
	// Marshalers, as encoding/json picks them: the value's own method set,
	// else the pointer's when the value is addressable.
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
		return e.marshaler(v.Addr())
	}
	if t.Implements(marshalerType) {
		return e.marshaler(v)
	}
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(textMarshalerType) {
		return e.textMarshaler(v.Addr())
	}
	if t.Implements(textMarshalerType) {
		return e.textMarshaler(v)
	}
	switch t.Kind() {
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.Float32:
		return e.float(v.Float(), 32)
	case reflect.Float64:
		return e.float(v.Float(), 64)
	case reflect.String:
		e.b = appendString(e.b, v.String())
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.value(v.Elem(), depth+1)
	case reflect.Struct:
		return e.structValue(v, depth)
	case reflect.Map:
		return e.mapValue(v, depth)
	case reflect.Slice:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		if et := t.Elem(); et.Kind() == reflect.Uint8 {
			pt := reflect.PointerTo(et)
			if !pt.Implements(marshalerType) && !pt.Implements(textMarshalerType) {
				e.b = append(e.b, '"')
				e.b = base64.StdEncoding.AppendEncode(e.b, v.Bytes())
				e.b = append(e.b, '"')
				return nil
			}
		}
		return e.array(v, depth)
	case reflect.Array:
		return e.array(v, depth)
	default:
		return &Error{"unsupported type: " + t.String()}
	}
	return nil
}

func (e *encoder) marshaler(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.b = append(e.b, "null"...)
		return nil
	}
	m, ok := v.Interface().(Marshaler)
	if !ok {
		e.b = append(e.b, "null"...)
		return nil
	}
	out, err := m.MarshalJSON()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalJSON for type %s: %w", v.Type(), err)
	}
	b, err := compact(e.b, out)
	if err != nil {
		return fmt.Errorf("json: error calling MarshalJSON for type %s: %w", v.Type(), err)
	}
	e.b = b
	return nil
}

func (e *encoder) textMarshaler(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.b = append(e.b, "null"...)
		return nil
	}
	m, ok := v.Interface().(encoding.TextMarshaler)
	if !ok {
		e.b = append(e.b, "null"...)
		return nil
	}
	out, err := m.MarshalText()
	if err != nil {
		return fmt.Errorf("json: error calling MarshalText for type %s: %w", v.Type(), err)
	}
	e.b = appendString(e.b, string(out))
	return nil
}

// float writes f as encoding/json does: the shortest representation, in
// exponent form below 1e-6 and from 1e21 on.
func (e *encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &Error{"unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' {
		// e-09 becomes e-9.
		if n := len(e.b); n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
	return nil
}

func (e *encoder) array(v reflect.Value, depth int) error {
	e.b = append(e.b, '[')
	for i := range v.Len() {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.value(v.Index(i), depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

func (e *encoder) mapValue(v reflect.Value, depth int) error {
	if v.IsNil() {
		e.b = append(e.b, "null"...)
		return nil
	}
	type kv struct {
		k string
		v reflect.Value
	}
	kt := v.Type().Key()
	var kvs []kv
	it := v.MapRange()
	for it.Next() {
		k := it.Key()
		var ks string
		switch {
		case kt.Kind() == reflect.String:
			ks = k.String()
		case kt.Implements(textMarshalerType):
			if k.Kind() == reflect.Pointer && k.IsNil() {
				break
			}
			b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return fmt.Errorf("json: error calling MarshalText for type %s: %w", kt, err)
			}
			ks = string(b)
		case k.CanInt():
			ks = strconv.FormatInt(k.Int(), 10)
		case k.CanUint():
			ks = strconv.FormatUint(k.Uint(), 10)
		default:
			return &Error{"unsupported type: " + v.Type().String()}
		}
		kvs = append(kvs, kv{ks, it.Value()})
	}
	// sort.Slice rather than slices.SortFunc: each generic instantiation
	// adds about 25 KB of WebAssembly.
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
	e.b = append(e.b, '{')
	for i, p := range kvs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = appendString(e.b, p.k)
		e.b = append(e.b, ':')
		if err := e.value(p.v, depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *encoder) structValue(v reflect.Value, depth int) error {
	e.b = append(e.b, '{')
	first := true
fields:
	for _, f := range typeFields(v.Type()) {
		fv := v
		for _, i := range f.index[:len(f.index)-1] {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fields
				}
				fv = fv.Elem()
			}
			fv = fv.Field(i)
		}
		if fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		}
		fv = fv.Field(f.index[len(f.index)-1])
		if f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv) {
			continue
		}
		if !first {
			e.b = append(e.b, ',')
		}
		first = false
		e.b = append(e.b, f.key...)
		if err := e.value(fv, depth+1); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

func isZero(v reflect.Value) bool {
	t := v.Type()
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return v.IsNil() || v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() || v.Interface().(isZeroer).IsZero()
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return v.IsNil() || v.Interface().(isZeroer).IsZero()
	case t.Implements(isZeroerType):
		return v.Interface().(isZeroer).IsZero()
	case reflect.PointerTo(t).Implements(isZeroerType):
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(isZeroer).IsZero()
	}
	return v.IsZero()
}

type field struct {
	name      string
	key       []byte // "name":
	index     []int
	tagged    bool
	omitEmpty bool
	omitZero  bool
}

var fieldCache sync.Map // reflect.Type -> []field

// typeFields lists the fields encoding/json writes for struct type t, with
// its rules for embedded structs: a name at a shallower depth wins, then a
// tagged one; other duplicates are dropped.
func typeFields(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	type entry struct {
		t     reflect.Type
		index []int
	}
	var all []field
	current, next := []entry{}, []entry{{t: t}}
	visited := map[reflect.Type]bool{}
	for depth := 0; len(next) > 0; depth++ {
		current, next = next, nil
		count := map[string]int{}
		var level []field
		for _, c := range current {
			if visited[c.t] {
				continue
			}
			visited[c.t] = true
			for i := range c.t.NumField() {
				sf := c.t.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validName(name) {
					name = ""
				}
				index := append(append([]int{}, c.index...), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, entry{ft, index})
					continue
				}
				f := field{name: name, index: index, tagged: name != ""}
				if f.name == "" {
					f.name = sf.Name
				}
				for o := range strings.SplitSeq(opts, ",") {
					switch o {
					case "omitempty":
						f.omitEmpty = true
					case "omitzero":
						f.omitZero = true
					}
				}
				f.key = append(appendString(nil, f.name), ':')
				count[f.name]++
				level = append(level, f)
			}
		}
		// Resolve this depth against shallower ones and among itself.
		for _, f := range level {
			if slices.ContainsFunc(all, func(g field) bool { return g.name == f.name && len(g.index) < len(f.index) }) {
				continue
			}
			if count[f.name] > 1 {
				tagged := 0
				for _, g := range level {
					if g.name == f.name && g.tagged {
						tagged++
					}
				}
				if tagged != 1 || !f.tagged {
					// Conflict: the name is dropped at this depth, and
					// deeper fields of that name stay hidden.
					all = append(all, field{name: f.name, index: f.index, key: nil})
					continue
				}
			}
			all = append(all, f)
		}
	}
	out := make([]field, 0, len(all))
	for _, f := range all {
		if f.key != nil {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return slices.Compare(out[i].index, out[j].index) < 0 })
	fieldCache.Store(t, out)
	return out
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}

func isLetterOrDigit(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string with encoding/json's escaping:
// HTML-safe (<, >, & as \u003c...), U+2028/U+2029 escaped, invalid UTF-8
// as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// compact appends src without insignificant white space, escaping <, >, &
// and U+2028/U+2029 in strings, as encoding/json does with a Marshaler's
// output. It checks the nesting of brackets and strings, not the full
// grammar.
func compact(dst, src []byte) ([]byte, error) {
	start := len(dst)
	inStr, esc := false, false
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
				continue
			case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
				i += 2
				continue
			case c < 0x20:
				return dst[:start], &Error{"invalid character in string"}
			}
			dst = append(dst, c)
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return dst[:start], &Error{"unbalanced brackets"}
			}
		}
		dst = append(dst, c)
	}
	if inStr || depth != 0 || len(dst) == start {
		return dst[:start], &Error{"unexpected end of JSON input"}
	}
	return dst, nil
}
