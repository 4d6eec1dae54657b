package uasset

import "fmt"

// GatherableTextData is FGatherableTextData: localizable text found in the
// package, for the localization gatherer (VER_UE4_SERIALIZE_TEXT_IN_PACKAGES, 459).
type GatherableTextData struct {
	NamespaceName        String                  `json:"namespace_name"`
	SourceString         String                  `json:"source_string"`
	SourceStringMetaData LocMetadataObject       `json:"source_string_metadata"`
	SourceSiteContexts   []TextSourceSiteContext `json:"source_site_contexts"`
}

// TextSourceSiteContext is FTextSourceSiteContext.
type TextSourceSiteContext struct {
	KeyName         String            `json:"key_name"`
	SiteDescription String            `json:"site_description"`
	IsEditorOnly    bool              `json:"is_editor_only"`
	IsOptional      bool              `json:"is_optional"`
	InfoMetaData    LocMetadataObject `json:"info_metadata"`
	KeyMetaData     LocMetadataObject `json:"key_metadata"`
}

// LocMetadataObject is FLocMetadataObject: a map of names to values.
type LocMetadataObject struct {
	Values []LocMetadataEntry `json:"values,omitempty"`
}

// LocMetadataEntry is one key of a LocMetadataObject.
type LocMetadataEntry struct {
	Key   String           `json:"key"`
	Value LocMetadataValue `json:"value"`
}

// LocMetadataValue is FLocMetadataValue, tagged by ELocMetadataType.
type LocMetadataValue struct {
	Type   int32              `json:"type"` // 1 bool, 2 string, 3 array, 4 object
	Bool   bool               `json:"bool,omitempty"`
	String String             `json:"string,omitzero"`
	Array  []LocMetadataValue `json:"array,omitempty"`
	Object *LocMetadataObject `json:"object,omitempty"`
}

// Values of ELocMetadataType.
const (
	locMetaNone    = 0
	locMetaBoolean = 1
	locMetaString  = 2
	locMetaArray   = 3
	locMetaObject  = 4
)

// maxLocMetaDepth bounds nesting of metadata objects and arrays.
const maxLocMetaDepth = 32

func (g *GatherableTextData) serialize(a archive, depth int) {
	a.str("GatherableTextData.NamespaceName", &g.NamespaceName)
	a.str("GatherableTextData.SourceData.SourceString", &g.SourceString)
	g.SourceStringMetaData.serialize(a, depth)
	serializeSlice(a, "GatherableTextData.SourceSiteContexts", &g.SourceSiteContexts, 24, func(a archive, c *TextSourceSiteContext) {
		a.str("TextSourceSiteContext.KeyName", &c.KeyName)
		a.str("TextSourceSiteContext.SiteDescription", &c.SiteDescription)
		a.bool32("TextSourceSiteContext.IsEditorOnly", &c.IsEditorOnly)
		a.bool32("TextSourceSiteContext.IsOptional", &c.IsOptional)
		c.InfoMetaData.serialize(a, depth)
		c.KeyMetaData.serialize(a, depth)
	})
}

func (o *LocMetadataObject) serialize(a archive, depth int) {
	if depth > maxLocMetaDepth {
		a.fail("LocMetadataObject", fmt.Errorf("nested deeper than %d", maxLocMetaDepth))
		return
	}
	serializeSlice(a, "LocMetadataObject.Values", &o.Values, 8, func(a archive, e *LocMetadataEntry) {
		a.str("LocMetadataObject.Key", &e.Key)
		e.Value.serialize(a, depth+1)
	})
}

func (v *LocMetadataValue) serialize(a archive, depth int) {
	if depth > maxLocMetaDepth {
		a.fail("LocMetadataValue", fmt.Errorf("nested deeper than %d", maxLocMetaDepth))
		return
	}
	a.i32("LocMetadataValue.Type", &v.Type)
	switch v.Type {
	case locMetaNone:
	case locMetaBoolean:
		a.bool32("LocMetadataValue.Bool", &v.Bool)
	case locMetaString:
		a.str("LocMetadataValue.String", &v.String)
	case locMetaArray:
		serializeSlice(a, "LocMetadataValue.Array", &v.Array, 4, func(a archive, e *LocMetadataValue) { e.serialize(a, depth+1) })
	case locMetaObject:
		if v.Object == nil {
			v.Object = &LocMetadataObject{}
		}
		v.Object.serialize(a, depth+1)
	default:
		a.fail("LocMetadataValue.Type", fmt.Errorf("unknown metadata type %d", v.Type))
	}
}
