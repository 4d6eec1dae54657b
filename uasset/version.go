package uasset

import (
	"github.com/upkg/upkg/internal/jsonenc"
	"github.com/upkg/upkg/ue"
)

// CustomVersion is FCustomVersion: a subsystem's own version number, keyed
// by GUID. Packages with LegacyFileVersion -2 store an enum tag instead of a
// GUID; it is kept as the GUID {0, 0, 0, tag}, as the engine converts it.
type CustomVersion struct {
	Key     ue.Guid `json:"key"`
	Version int32   `json:"version"`
	// FriendlyName is stored only by LegacyFileVersion -3 … -5 packages.
	FriendlyName String `json:"friendly_name,omitzero"`
}

// Name returns the registry name of the custom version ("EditorObjectVersion"),
// the friendly name the file stored, or "" when unknown.
func (c CustomVersion) Name() string {
	if n := CustomVersionName(c.Key); n != "" {
		return n
	}
	return c.FriendlyName.S
}

// MarshalJSON writes the version as stored with its registry name
// ("name", which the file does not store) after the version, when known.
func (c CustomVersion) MarshalJSON() ([]byte, error) {
	type stored CustomVersion // the fields, without this method
	return jsonenc.Marshal(struct {
		Key     ue.Guid `json:"key"`
		Version int32   `json:"version"`
		Name    string  `json:"name,omitempty"`
		stored
	}{c.Key, c.Version, CustomVersionName(c.Key), stored(c)})
}

// customVersionFormat is ECustomVersionSerializationFormat, chosen by the
// legacy file version.
type customVersionFormat int

const (
	cvfNone      customVersionFormat = iota // LegacyFileVersion -1: no container
	cvfEnums                                // -2: uint32 tag, int32 version
	cvfGuids                                // -3 … -5: GUID, version, friendly name
	cvfOptimized                            // -6 and later: GUID, version
)

func customVersionFormatFor(legacy int32) customVersionFormat {
	switch {
	case legacy > -2:
		return cvfNone
	case legacy == -2:
		return cvfEnums
	case legacy >= -5:
		return cvfGuids
	default:
		return cvfOptimized
	}
}

func (c *CustomVersion) serialize(a archive, f customVersionFormat) {
	switch f {
	case cvfEnums:
		a.u32("CustomVersion.Tag", &c.Key[3])
		a.i32("CustomVersion.Version", &c.Version)
	case cvfGuids:
		a.guid("CustomVersion.Key", &c.Key)
		a.i32("CustomVersion.Version", &c.Version)
		a.str("CustomVersion.FriendlyName", &c.FriendlyName)
	default:
		a.guid("CustomVersion.Key", &c.Key)
		a.i32("CustomVersion.Version", &c.Version)
	}
}

// Versions are the version numbers a package is read with: the ones its
// summary records, or for an unversioned (cooked) package the ones of the
// engine release it was assumed or inferred to come from.
type Versions struct {
	UE4      int32 `json:"ue4"`
	UE5      int32 `json:"ue5"`
	Licensee int32 `json:"licensee"`
	// CookedImportPackageName is set for packages of UE 5.8 and later, whose
	// import maps store ObjectImport.PackageName in cooked (editor-only
	// filtered) packages too; before 5.8 only editor packages stored it. No
	// object version marks the change (5.7, 5.8 and 6.0 all write UE5 1018),
	// so it comes from the engine release (unversioned packages), or for a
	// versioned package from the saved-by version or the size of the import
	// map (see File.cookedImportLayout).
	CookedImportPackageName bool `json:"cooked_import_package_name,omitempty"`
	// Custom are the custom versions in effect.
	Custom []CustomVersion `json:"custom,omitempty"`
}

// CustomVersion returns the version of the custom version key, and whether
// the package (or the assumed engine) has it.
func (v *Versions) CustomVersion(key ue.Guid) (int32, bool) {
	for _, c := range v.Custom {
		if c.Key == key {
			return c.Version, true
		}
	}
	return 0, false
}
