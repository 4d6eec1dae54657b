package property

import (
	"encoding/hex"
	"fmt"

	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/ue"
)

// Property is one decoded property: a tagged property with its tag, or an
// unversioned property with the name and type from the schema.
type Property struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"` // full type, e.g. "ArrayProperty<StructProperty<Vector>>"
	ArrayIndex int32    `json:"array_index,omitempty"`
	Guid       *ue.Guid `json:"property_guid,omitempty"`
	// Offset is where the value starts (relative to the decoded data) and
	// Size its length in bytes (the tag's size for tagged properties).
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
	// Zero marks an unversioned property the zero mask says is zero: it has
	// no bytes and Value is the type's zero value.
	Zero  bool `json:"zero,omitempty"`
	Value any  `json:"value"`
	// Error says why the value could not be decoded (then Value is a *Raw
	// when the bytes are known).
	Error string `json:"error,omitempty"`
}

// Struct is a struct value: either a property list (tagged or unversioned)
// or a natively serialized struct with its fields.
type Struct struct {
	Type string `json:"struct"`
	// Properties holds the members of a property-serialized struct.
	Properties []*Property `json:"properties,omitempty"`
	// Fields holds the members of a natively serialized struct in order.
	Fields Fields `json:"fields,omitempty"`
	// Value holds a native struct that is a single value (Guid, SoftObjectPath).
	Value any `json:"value,omitempty"`
}

// Field is one member of a native struct.
type Field struct {
	Name  string
	Value any
}

// Fields is an ordered list of native struct members; it marshals as a JSON
// object in declaration order.
type Fields []Field

// MarshalJSON writes the fields as an object, keeping their order.
func (fs Fields) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := jsonenc.Marshal(f.Name)
		v, err := jsonenc.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// Get returns the field called name.
func (fs Fields) Get(name string) (any, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}

// Raw is data kept undecoded: an unknown native struct, or the bytes of a
// value that failed to decode. Its size is always known.
type Raw struct {
	Struct string `json:"struct,omitempty"` // the struct's name, when the data is a struct
	Reason string `json:"reason"`
	Size   int64  `json:"size"`
	Data   []byte `json:"-"`
}

// MarshalJSON shows the reason, the size and the first bytes in hex.
func (r *Raw) MarshalJSON() ([]byte, error) {
	type raw struct {
		Struct string `json:"struct,omitempty"`
		Reason string `json:"reason"`
		Size   int64  `json:"size"`
		Hex    string `json:"hex,omitempty"`
	}
	const maxHex = 64
	h := hex.EncodeToString(r.Data[:min(len(r.Data), maxHex)])
	if len(r.Data) > maxHex {
		h += "..."
	}
	return jsonenc.Marshal(raw{r.Struct, r.Reason, r.Size, h})
}

// ObjectRef is an FPackageIndex with the path it resolves to.
type ObjectRef struct {
	Index int32  `json:"index"`
	Path  string `json:"path,omitempty"`
}

func (o ObjectRef) String() string {
	if o.Index == 0 {
		return "None"
	}
	if o.Path == "" {
		return fmt.Sprintf("PackageIndex(%d)", o.Index)
	}
	return o.Path
}

// SoftObjectPath is FSoftObjectPath: an asset path and a sub-object path.
type SoftObjectPath struct {
	AssetPath string `json:"asset_path"`
	SubPath   string `json:"sub_path,omitempty"`
}

func (s SoftObjectPath) String() string {
	if s.SubPath == "" {
		return s.AssetPath
	}
	return s.AssetPath + ":" + s.SubPath
}

// Delegate is FScriptDelegate: an object and a function name.
type Delegate struct {
	Object   ObjectRef `json:"object"`
	Function string    `json:"function"`
}

// FieldPath is FFieldPath: a path of names and the owning struct.
type FieldPath struct {
	Path  []string  `json:"path"`
	Owner ObjectRef `json:"owner"`
}

// MapEntry is one key/value pair of a map.
type MapEntry struct {
	Key   any `json:"key"`
	Value any `json:"value"`
}

// Map is a MapProperty value.
type Map struct {
	// Removed lists keys removed relative to the defaults (delta
	// serialization); usually empty.
	Removed []any      `json:"removed,omitempty"`
	Entries []MapEntry `json:"entries"`
}

// Set is a SetProperty value.
type Set struct {
	Removed  []any `json:"removed,omitempty"`
	Elements []any `json:"elements"`
}

// Enum is an enum value: the enum's name and the value's name (or number).
type Enum struct {
	Enum  string `json:"enum,omitempty"`
	Value string `json:"value"`
}

func (e Enum) String() string { return e.Value }

// Issue is a place where decoding did not go exactly as the data said: a
// value that failed, or a value that did not use up its tag's size.
type Issue struct {
	Offset int64  `json:"offset"`
	Path   string `json:"path"`
	Msg    string `json:"msg"`
}

func (i Issue) String() string { return fmt.Sprintf("%s at 0x%x: %s", i.Path, i.Offset, i.Msg) }
