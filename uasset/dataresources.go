package uasset

// DataResources is the data resource table (UE5 DATA_RESOURCES, 1009):
// the bulk data payloads of the package's exports, described in the header
// (FObjectDataResource, EObjectDataResourceVersion).
type DataResources struct {
	Version   uint32               `json:"version"` // 1 initial, 2 added CookedIndex
	Resources []ObjectDataResource `json:"resources"`
}

// ObjectDataResource is FObjectDataResource.
type ObjectDataResource struct {
	Flags                 uint32       `json:"flags"`
	CookedIndex           uint8        `json:"cooked_index"` // version >= 2
	SerialOffset          int64        `json:"serial_offset"`
	DuplicateSerialOffset int64        `json:"duplicate_serial_offset"`
	SerialSize            int64        `json:"serial_size"`
	RawSize               int64        `json:"raw_size"`
	OuterIndex            PackageIndex `json:"outer_index"`
	LegacyBulkDataFlags   uint32       `json:"legacy_bulk_data_flags"`
}

// dataResourceAddedCookedIndex is EObjectDataResourceVersion::AddedCookedIndex.
const dataResourceAddedCookedIndex = 2

func (d *DataResources) serialize(a archive) {
	a.u32("DataResources.Version", &d.Version)
	if a.loading() && (d.Version == 0 || d.Version > dataResourceAddedCookedIndex) {
		a.fail("DataResources.Version", &UnsupportedError{"data resource version " + itoa(int64(d.Version))})
		return
	}
	serializeSlice(a, "DataResources", &d.Resources, 44, func(a archive, r *ObjectDataResource) {
		a.u32("ObjectDataResource.Flags", &r.Flags)
		if d.Version >= dataResourceAddedCookedIndex {
			a.u8("ObjectDataResource.CookedIndex", &r.CookedIndex)
		}
		a.i64("ObjectDataResource.SerialOffset", &r.SerialOffset)
		a.i64("ObjectDataResource.DuplicateSerialOffset", &r.DuplicateSerialOffset)
		a.i64("ObjectDataResource.SerialSize", &r.SerialSize)
		a.i64("ObjectDataResource.RawSize", &r.RawSize)
		r.OuterIndex.serialize(a, "ObjectDataResource.OuterIndex")
		a.u32("ObjectDataResource.LegacyBulkDataFlags", &r.LegacyBulkDataFlags)
	})
}
