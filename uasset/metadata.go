package uasset

// MetaData is the package metadata (UMetaData / FMetaData) that UE5
// METADATA_SERIALIZATION_OFFSET (1014) packages store at MetaDataOffset:
// key/value pairs per object, and for the package itself.
type MetaData struct {
	ObjectMetaData []ObjectMetaData `json:"object_metadata"`
	RootMetaData   []MetaDataPair   `json:"root_metadata"`
}

// ObjectMetaData holds the metadata of one object. The object is an
// FSoftObjectPath, which packages with a soft object path list (UE5 1008 and
// later, so every package with this section) store as an index into that list.
type ObjectMetaData struct {
	SoftObjectPathIndex int32          `json:"soft_object_path_index"`
	Values              []MetaDataPair `json:"values"`
}

// MetaDataPair is one key (FName) and its value.
type MetaDataPair struct {
	Key   Name   `json:"key"`
	Value String `json:"value"`
}

func (m *MetaData) serialize(a archive) {
	nObj, nRoot := int32(len(m.ObjectMetaData)), int32(len(m.RootMetaData))
	a.i32("MetaData.ObjectMetaDataCount", &nObj)
	a.i32("MetaData.RootMetaDataCount", &nRoot)
	if a.loading() && (nObj < 0 || nRoot < 0) {
		a.fail("MetaData", errNegativeCount)
		return
	}
	serializeN(a, "MetaData.ObjectMetaData", &m.ObjectMetaData, int(nObj), 8, func(a archive, o *ObjectMetaData) {
		a.i32("MetaData.SoftObjectPathIndex", &o.SoftObjectPathIndex)
		serializeSlice(a, "MetaData.Values", &o.Values, 12, func(a archive, p *MetaDataPair) { p.serialize(a) })
	})
	serializeN(a, "MetaData.RootMetaData", &m.RootMetaData, int(nRoot), 12, func(a archive, p *MetaDataPair) { p.serialize(a) })
}

func (p *MetaDataPair) serialize(a archive) {
	p.Key.serialize(a, "MetaData.Key")
	a.str("MetaData.Value", &p.Value)
}
