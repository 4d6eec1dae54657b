// Package proptest holds checks shared by the tests of the property
// decoder and its callers.
package proptest

import (
	"fmt"
	"reflect"

	"github.com/upkg/upkg/property"
)

// LiteDiff says how the lite decode of an export
// ([property.ReadExportLite]) differs from the full one
// ([property.ReadExport]) in what statistics, inference checks and verify
// use from a decode; "" when it does not.
func LiteDiff(full, lite *property.Object) string {
	switch {
	case full.Complete != lite.Complete:
		return fmt.Sprintf("complete %v, lite %v", full.Complete, lite.Complete)
	case full.Size != lite.Size || full.PropertiesEnd != lite.PropertiesEnd || full.Unaccounted != lite.Unaccounted:
		return fmt.Sprintf("size/end/unaccounted %d/%d/%d, lite %d/%d/%d", full.Size, full.PropertiesEnd, full.Unaccounted, lite.Size, lite.PropertiesEnd, lite.Unaccounted)
	case fmt.Sprint(full.Err()) != fmt.Sprint(lite.Err()):
		return fmt.Sprintf("error %v, lite %v", full.Err(), lite.Err())
	case !reflect.DeepEqual(full.Issues, lite.Issues):
		return fmt.Sprintf("issues %v, lite %v", full.Issues, lite.Issues)
	case !reflect.DeepEqual(full.NativeStructs, lite.NativeStructs):
		return fmt.Sprintf("native structs %v, lite %v", full.NativeStructs, lite.NativeStructs)
	case !reflect.DeepEqual(full.Notes, lite.Notes):
		return fmt.Sprintf("notes %v, lite %v", full.Notes, lite.Notes)
	case (full.Tail == nil) != (lite.Tail == nil) || full.Tail != nil && (full.Tail.Size != lite.Tail.Size || full.Tail.Reason != lite.Tail.Reason):
		return "tail differs"
	case (full.Leading == nil) != (lite.Leading == nil) || full.HasGuid != lite.HasGuid || !reflect.DeepEqual(full.Guid, lite.Guid):
		return "leading bytes or object GUID differ"
	case !reflect.DeepEqual(full.SerializationControl, lite.SerializationControl) || !reflect.DeepEqual(full.OverrideOperation, lite.OverrideOperation):
		return "serialization control differs"
	case (full.ClassData == nil) != (lite.ClassData == nil) || (full.SparseClassData == nil) != (lite.SparseClassData == nil):
		return "class data or sparse class data present in one decode only"
	case len(lite.Properties) > 0 && len(full.Properties) != len(lite.Properties):
		// A lite decode keeps the object's own properties only when its
		// class data needs them (data tables).
		return fmt.Sprintf("%d properties, lite %d", len(full.Properties), len(lite.Properties))
	}
	for i, q := range lite.Properties {
		p := full.Properties[i]
		if p.Name != q.Name || p.Type != q.Type || p.ArrayIndex != q.ArrayIndex || p.Offset != q.Offset || p.Size != q.Size || p.Zero != q.Zero || p.Error != q.Error {
			return fmt.Sprintf("property %d: %+v, lite %+v", i, *p, *q)
		}
		if ref, ok := p.Value.(property.ObjectRef); ok && q.Value != ref {
			return fmt.Sprintf("property %d: object %v, lite %v", i, ref, q.Value)
		}
	}
	return ""
}
