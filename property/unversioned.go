package property

import (
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/usmap"
)

// Unversioned header layout (FUnversionedHeader, UnversionedPropertySerialization.cpp):
// a list of uint16 fragments, each
//
//	bits 0-6   SkipNum       schema indices to skip before the values
//	bit  7     bHasAnyZeroes some values of this fragment are zero (see the mask)
//	bit  8     bIsLast
//	bits 9-15  ValueNum      consecutive schema indices with a value
//
// then, when any fragment has zeroes, a bit mask with one bit per value of
// those fragments (1 = zero, not serialized): one byte for up to 8 bits, two
// for up to 16, else uint32 words.
const (
	fragSkipMask   = 0x007F
	fragHasZeroes  = 0x0080
	fragIsLast     = 0x0100
	fragValueShift = 9
)

// maxFragments bounds the header: a schema has at most 65535 indices and a
// fragment covers at least one, so more fragments mean corrupt data.
const maxFragments = 1 << 16

// maxSuperChain bounds super-struct chains (a cycle would loop forever).
const maxSuperChain = 64

// schema returns the schema for a struct or class name: the package's own
// first, then the mappings.
//
// The answers are remembered for the rest of the decode (a name is looked
// up once per export, not once per struct value): during one decode they
// do not change.
func (d *decoder) schema(name string) *usmap.Struct {
	if s, ok := d.schemas[name]; ok {
		return s
	}
	s := d.lookupSchema(name)
	if d.schemas == nil {
		d.schemas = make(map[string]*usmap.Struct)
	}
	d.schemas[name] = s
	return s
}

func (d *decoder) lookupSchema(name string) *usmap.Struct {
	if d.ctx.LocalSchema != nil {
		if s := d.ctx.LocalSchema(name); s != nil {
			return s
		}
	}
	return d.ctx.Mappings.Struct(name)
}

// flatSchema holds what the properties of one struct's unversioned
// streams resolve to, by schema index, as found during one decode (see
// flatProperty).
type flatSchema struct {
	props []flatProp
}

// flatProp is a resolved schema index: the property's name, its decoding
// type and that type's printed form, and the static array index.
type flatProp struct {
	name   string
	t      *Type
	tname  string
	arrIdx int32
	ok     bool
}

// maxFlatIndex bounds the schema indices a flatSchema keeps; larger ones
// (never seen in real schemas) are resolved each time.
const maxFlatIndex = 1 << 12

// flatOf returns the resolved indices of s for this decode.
func (d *decoder) flatOf(s *usmap.Struct) *flatSchema {
	fs := d.flats[s]
	if fs == nil {
		if d.flats == nil {
			d.flats = make(map[*usmap.Struct]*flatSchema)
		}
		if n := len(d.freeFlats); n > 0 {
			// One of a previous decode, emptied (see putDecoder).
			fs = d.freeFlats[n-1]
			d.freeFlats = d.freeFlats[:n-1]
		} else {
			fs = &flatSchema{}
		}
		d.flats[s] = fs
	}
	return fs
}

// flatProperty resolves schema index idx of s (whose flatSchema is fs) as
// propertyAt does, with the property's type converted, once per struct and
// decode. The entry may move when fs grows: copy what is needed.
func (d *decoder) flatProperty(r *binread.Reader, s *usmap.Struct, fs *flatSchema, idx int) (*flatProp, bool) {
	if idx < len(fs.props) && fs.props[idx].ok {
		return &fs.props[idx], true
	}
	up, arrIdx, ok := d.propertyAt(s, idx)
	if !ok {
		return nil, false
	}
	t := d.typeOf(up.Type)
	tname, ok := d.typeName(r, t)
	if !ok {
		return nil, false
	}
	e := flatProp{name: up.Name, t: t, tname: tname, arrIdx: int32(arrIdx), ok: true}
	if idx >= maxFlatIndex {
		d.flatScratch = e
		return &d.flatScratch, true
	}
	if idx >= len(fs.props) {
		if idx < cap(fs.props) {
			fs.props = fs.props[:idx+1] // emptied when given back
		} else {
			fs.props = append(fs.props, make([]flatProp, idx+1-len(fs.props))...)
		}
	}
	fs.props[idx] = e
	return &fs.props[idx], true
}

// propertyAt resolves a flat schema index: own properties first, then the
// super struct's (TFieldIterator order).
// hasProperty reports whether schema index idx of s is a property.
func (d *decoder) hasProperty(s *usmap.Struct, idx int) bool {
	_, _, ok := d.propertyAt(s, idx)
	return ok
}

func (d *decoder) propertyAt(s *usmap.Struct, idx int) (*usmap.Property, int, bool) {
	for depth := 0; s != nil && depth < maxSuperChain; depth++ {
		if idx < int(s.PropertyCount) {
			return s.At(idx)
		}
		idx -= int(s.PropertyCount)
		if s.Super == "" {
			return nil, 0, false
		}
		s = d.schema(s.Super)
	}
	return nil, 0, false
}

// unversionedStruct reads a struct serialized with unversioned properties.
func (d *decoder) unversionedStruct(r *binread.Reader, name string) any {
	props := d.unversioned(r, name)
	return d.newStruct(Struct{Type: name, Properties: props})
}

// unversioned reads an unversioned property stream for the struct or class
// name. Without a schema nothing can be read: the reader's error is set.
func (d *decoder) unversioned(r *binread.Reader, name string) []*Property {
	// As in tagged, the properties collect on d.props.
	start := len(d.props)
	d.unversionedOnStack(r, name)
	var props []*Property
	if n := len(d.props) - start; n > 0 {
		props = append(d.listSlab.alloc(n), d.props[start:]...)
	}
	clear(d.props[start:])
	d.props = d.props[:start]
	return props
}

// unversionedOnStack is unversioned with the properties pushed on d.props.
func (d *decoder) unversionedOnStack(r *binread.Reader, name string) {
	s := d.schema(name)
	if s == nil {
		if d.ctx.Mappings == nil && d.ctx.LocalSchema == nil {
			r.Failf("UnversionedProperties", "%s: unversioned properties need a .usmap mappings file", name)
		} else {
			r.Failf("UnversionedProperties", "no schema for %q in the mappings", name)
		}
		return
	}
	type frag struct {
		skip, values int
		zeroes, last bool
	}
	var fbuf [8]frag
	frags := fbuf[:0]
	zeroBits := 0
	for {
		if len(frags) >= maxFragments {
			r.Failf("UnversionedHeader", "more than %d fragments", maxFragments)
			return
		}
		v := r.U16("UnversionedHeader.Fragment")
		if r.Err() != nil {
			return
		}
		f := frag{skip: int(v & fragSkipMask), values: int(v >> fragValueShift), zeroes: v&fragHasZeroes != 0, last: v&fragIsLast != 0}
		frags = append(frags, f)
		if f.zeroes {
			zeroBits += f.values
		}
		if f.last {
			break
		}
	}
	if checkHeaderSpan {
		// The fragments may cover no more properties than the schema
		// has: bytes of a natively serialized struct read as a header
		// (a run of skip-only fragments) are no property stream.
		total := 0
		for _, f := range frags {
			total += f.skip + f.values
		}
		if total > 0 && !d.hasProperty(s, total-1) {
			r.Failf("UnversionedHeader", "%s: the header covers %d properties, more than the schema has (natively serialized?)", name, total)
			return
		}
	}
	var mask []byte
	var maskBuf [16]byte // small masks are read here
	switch {
	case zeroBits == 0:
	case zeroBits <= 8:
		mask = d.zeroMask(r, 1, maskBuf[:])
	case zeroBits <= 16:
		mask = d.zeroMask(r, 2, maskBuf[:])
	default:
		mask = d.zeroMask(r, int64((zeroBits+31)/32*4), maskBuf[:])
	}
	if r.Err() != nil {
		return
	}
	idx, zi := 0, 0
	fs := d.flatOf(s)
	for _, f := range frags {
		idx += f.skip
		for range f.values {
			zero := false
			if f.zeroes {
				zero = mask[zi/8]&(1<<(zi%8)) != 0
				zi++
			}
			fp, ok := d.flatProperty(r, s, fs, idx)
			if !ok {
				r.Failf("UnversionedProperties", "%s: schema index %d not in the mappings (the mappings do not match this package)", name, idx)
				return
			}
			t, pname := fp.t, fp.name
			var p *Property
			if d.keepChildren() {
				p = d.propSlab.new()
				*p = Property{Name: pname, Type: fp.tname, ArrayIndex: fp.arrIdx, Offset: r.Offset()}
				d.props = append(d.props, p)
			} else {
				p = &d.bareProp // written, never read
			}
			d.push(pname)
			if zero {
				p.Zero = true
				if p != &d.bareProp {
					p.Value = d.zeroValue(t)
				}
			} else {
				p.Value = d.value(r, t, mUnv, nil)
			}
			d.pop()
			p.Size = r.Offset() - p.Offset
			if r.Err() != nil {
				p.Error = r.Err().Error()
				return
			}
			idx++
		}
	}
}

// zeroMask reads the n bytes of an unversioned header's zero mask, into
// buf when they fit and are there (the read cannot fail then).
func (d *decoder) zeroMask(r *binread.Reader, n int64, buf []byte) []byte {
	if n <= int64(len(buf)) && r.Remaining() >= n {
		b := buf[:n]
		r.Fixed(b, "UnversionedHeader.ZeroMask")
		return b
	}
	return r.Bytes(n, "UnversionedHeader.ZeroMask")
}

// zeroValue is the value of a zero-masked property.
func (d *decoder) zeroValue(t *Type) any {
	switch t.Name {
	case "BoolProperty":
		return false
	case "Int8Property", "Int16Property", "IntProperty", "Int64Property":
		return int64(0)
	case "ByteProperty", "UInt16Property", "UInt32Property", "UInt64Property":
		if t.Enum != "" && t.Enum != "None" {
			return d.enumName(t.Enum, 0) // named from the mappings, as a stored value is
		}
		return uint64(0)
	case "FloatProperty":
		return float32(0)
	case "DoubleProperty":
		return 0.0
	case "StrProperty", "AnsiStrProperty", "Utf8StrProperty":
		return ""
	case "NameProperty":
		return "None"
	case "EnumProperty":
		return d.enumName(t.Enum, 0)
	case "ArrayProperty":
		return []any{}
	case "StructProperty":
		if nf, ok := t.nativeOf(); ok && zeroStructFields {
			// A native struct's zero value, with its fields (X, Y, Z
			// of a Vector), as the tagged cook shows it.
			return d.native(binread.FromBytes(zeroBytes[:]), t.Struct, nf, -1)
		}
		return &Struct{Type: t.Struct}
	case "ObjectProperty", "ClassProperty", "WeakObjectProperty", "InterfaceProperty":
		return ObjectRef{}
	}
	return nil
}

// zeroBytes are what a zero-masked native struct is decoded from: more
// than any native layout with fixed fields takes.
var zeroBytes [256]byte

// typeName caches the printed form of schema types; the printing counts
// against the decode's text budget (failing r past it): a mappings file's
// types can nest long struct names many levels deep.
func (d *decoder) typeName(r *binread.Reader, t *Type) (string, bool) {
	if d.typeNames == nil {
		d.typeNames = map[*Type]string{}
	}
	if s, ok := d.typeNames[t]; ok {
		return s, true
	}
	if !d.spendText(r, "UnversionedProperties", typeLen(t)) {
		return "", false
	}
	s := t.String()
	d.typeNames[t] = s
	return s, true
}
