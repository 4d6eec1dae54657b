package uasset

// CellImport is FCellImport (UE5 VERSE_CELLS, 1015): a Verse VM cell this
// package references in another package.
type CellImport struct {
	PackageIndex PackageIndex `json:"package_index"`
	VersePath    string       `json:"verse_path"`
}

// CellExport is FCellExport: a Verse VM cell this package defines, and where
// its serialized data lies.
type CellExport struct {
	CppClassInfo                                 Name   `json:"cpp_class_info"`
	VersePath                                    string `json:"verse_path"`
	SerialOffset                                 int64  `json:"serial_offset"`
	SerialLayoutSize                             int64  `json:"serial_layout_size"`
	SerialSize                                   int64  `json:"serial_size"`
	FirstExportDependency                        int32  `json:"first_export_dependency"`
	SerializationBeforeSerializationDependencies int32  `json:"serialization_before_serialization_dependencies"`
	CreateBeforeSerializationDependencies        int32  `json:"create_before_serialization_dependencies"`
}

// cellImportMinSize and cellExportMinSize are the entries with an empty
// Verse path.
const (
	cellImportMinSize = 8
	cellExportMinSize = 48
)

// serializeUTF8 handles an FUtf8String: an int32 byte count and the UTF-8
// bytes, without a terminator.
func serializeUTF8(a archive, field string, s *string) {
	n := a.count(field, len(*s), 1)
	if a.loading() {
		if a.failed() {
			return
		}
		b := make([]byte, n)
		a.fixed(field, b)
		*s = string(b)
		return
	}
	a.fixed(field, []byte(*s))
}

func (c *CellImport) serialize(a archive) {
	c.PackageIndex.serialize(a, "CellImport.PackageIndex")
	serializeUTF8(a, "CellImport.VersePath", &c.VersePath)
}

func (c *CellExport) serialize(a archive) {
	c.CppClassInfo.serialize(a, "CellExport.CppClassInfo")
	serializeUTF8(a, "CellExport.VersePath", &c.VersePath)
	a.i64("CellExport.SerialOffset", &c.SerialOffset)
	a.i64("CellExport.SerialLayoutSize", &c.SerialLayoutSize)
	a.i64("CellExport.SerialSize", &c.SerialSize)
	a.i32("CellExport.FirstExportDependency", &c.FirstExportDependency)
	a.i32("CellExport.SerializationBeforeSerializationDependencies", &c.SerializationBeforeSerializationDependencies)
	a.i32("CellExport.CreateBeforeSerializationDependencies", &c.CreateBeforeSerializationDependencies)
}
