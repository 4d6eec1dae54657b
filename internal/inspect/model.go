package inspect

// Package is what every package reader gives the CLI and the page. Field
// names are stable: they are the JSON of `upkg info --json` and the page's data.
type Package struct {
	Path   string `json:"path"`
	Format string `json:"format"` // "uasset" | "legacy" | "zen"

	// Engine is the engine version used to read the file ("4.27", "5.3", or
	// the saved-by version string), and how it was known.
	Engine           string   `json:"engine"`
	EngineSource     string   `json:"engine_source"` // "header" | "flag" | "detected"
	EngineCandidates []string `json:"engine_candidates,omitempty"`
	EngineNote       string   `json:"engine_note,omitempty"` // e.g. "ambiguous: 4.26 and 4.27 read alike"
	BigEndian        bool     `json:"big_endian,omitempty"`

	// Summary lists the header's fields in file order, for display.
	Summary []Field `json:"summary"`
	// CustomVersions are the custom version GUIDs with their registry names.
	CustomVersions []CustomVersion `json:"custom_versions,omitempty"`
	// Sections are the ranges the summary points at, each with its own error
	// when it could not be read.
	Sections []Section `json:"sections"`

	Names      []Name      `json:"names"`
	Imports    []Object    `json:"imports"`
	Exports    []Object    `json:"exports"`
	Thumbnails []Thumbnail `json:"thumbnails,omitempty"`
	// Dependencies lists soft package references, searchable names and the
	// like, by section name.
	Dependencies map[string][]string `json:"dependencies,omitempty"`
	// AssetRegistry holds the asset registry objects and their tags.
	AssetRegistry []AssetRegistryObject `json:"asset_registry,omitempty"`
	Warnings      []string              `json:"warnings,omitempty"`

	// Companions are the sibling files read with the package (.uexp, .ubulk).
	Companions []string `json:"companions,omitempty"`

	// Checks filled when Options.Verify is set.
	HeaderRoundtrip *bool  `json:"header_roundtrip,omitempty"`
	Properties      *Stats `json:"properties,omitempty"`

	// Legacy (UE1–UE3) packages.
	PackageVersion  *int `json:"package_version,omitempty"`
	LicenseeVersion *int `json:"licensee_version,omitempty"`

	// Dump is the format's complete model, printed by `upkg dump --json`.
	Dump any `json:"-"`
	// ThumbnailData returns the image bytes of thumbnail i as stored (PNG or JPEG).
	ThumbnailData func(i int) ([]byte, error) `json:"-"`
	// ExportData returns the serialized bytes of export i (0-based), across
	// the .uasset/.uexp split.
	ExportData func(i int) ([]byte, error) `json:"-"`
	// Props decodes the properties of export i (0-based) for `upkg props` and the
	// page's tree; nil until the format supports it.
	Props func(i int) (any, error) `json:"-"`
	// Raw returns the bytes of a section by name for the hex view.
	Raw func(section string) ([]byte, error) `json:"-"`

	// counts, set by an opener under Options.resultOnly instead of
	// filling Names, Imports and Exports, gives ResultFor their lengths.
	counts *objectCounts
	// verifyNote is the VerifyResult's Note: what of the package verify
	// could not check.
	verifyNote string
}

// objectCounts are the lengths of a package's name, import and export
// lists.
type objectCounts struct{ names, imports, exports int }

// Field is one summary line.
type Field struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

// CustomVersion is one entry of the custom version container.
type CustomVersion struct {
	Guid    string `json:"guid"`
	Name    string `json:"name,omitempty"` // registry name, "" when unknown
	Version int32  `json:"version"`
}

// Section is a byte range of the file with what it holds.
type Section struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	Count  int    `json:"count,omitempty"`
	File   string `json:"file,omitempty"` // companion holding it (".uexp"), "" for the main file
	Error  string `json:"error,omitempty"`
}

// Name is one name map entry.
type Name struct {
	Name string `json:"name"`
	Hash string `json:"hash,omitempty"` // as stored, hex
	// Flags are UE1–UE3 name flags.
	Flags uint64 `json:"flags,omitempty"`
}

// Object is an import or export, with its references resolved to paths.
type Object struct {
	// Index is the FPackageIndex that refers to the object: -(i+1) for
	// import i, i+1 for export i.
	Index      int32  `json:"index"`
	Name       string `json:"name"`
	Class      string `json:"class"` // full class path, e.g. "/Script/Engine.Actor"
	ClassIndex int32  `json:"class_index,omitempty"`
	Outer      string `json:"outer,omitempty"` // full path of the outer object
	OuterIndex int32  `json:"outer_index,omitempty"`
	Path       string `json:"path"` // full object path
	// Imports only.
	ClassPackage string `json:"class_package,omitempty"`
	PackageName  string `json:"package_name,omitempty"`
	Optional     bool   `json:"optional,omitempty"`
	// Exports only.
	Super        string `json:"super,omitempty"`
	Template     string `json:"template,omitempty"`
	ObjectFlags  uint32 `json:"object_flags,omitempty"`
	Flags        string `json:"flags,omitempty"` // readable object/export flags
	SerialOffset int64  `json:"serial_offset,omitempty"`
	SerialSize   int64  `json:"serial_size,omitempty"`
	File         string `json:"file,omitempty"` // ".uexp" when the data is in the companion
	IsAsset      bool   `json:"is_asset,omitempty"`
}

// Thumbnail is one entry of the thumbnail table.
type Thumbnail struct {
	Object string `json:"object"` // "Class Path" as the table stores it
	Format string `json:"format"` // "png", "jpeg", "raw" or "empty"
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
}

// AssetRegistryObject is one object of the asset registry section.
type AssetRegistryObject struct {
	ObjectPath string            `json:"object_path"`
	Class      string            `json:"class"`
	Tags       map[string]string `json:"tags"`
}

// Stats counts property decoding results (issue: properties).
type Stats struct {
	ExportsWithProperties int   `json:"exports_with_properties"`
	OK                    int   `json:"properties_ok"`
	Failed                int   `json:"properties_failed"`
	BytesUnaccounted      int64 `json:"bytes_unaccounted"`
	// Failures names the first few failing exports with the reason.
	Failures []string `json:"failures,omitempty"`
}

// VerifyResult is one line of `upkg verify --json`.
type VerifyResult struct {
	Path            string `json:"path"`
	Format          string `json:"format"`
	OK              bool   `json:"ok"`
	Error           string `json:"error"`
	Engine          string `json:"engine"`
	EngineSource    string `json:"engine_source"`
	Names           int    `json:"names"`
	Imports         int    `json:"imports"`
	Exports         int    `json:"exports"`
	HeaderRoundtrip *bool  `json:"header_roundtrip"`

	// Properties (filled when the format decodes properties).
	ExportsWithProperties *int   `json:"exports_with_properties,omitempty"`
	PropertiesOK          *int   `json:"properties_ok,omitempty"`
	PropertiesFailed      *int   `json:"properties_failed,omitempty"`
	BytesUnaccounted      *int64 `json:"bytes_unaccounted,omitempty"`

	// Legacy packages.
	PackageVersion  *int `json:"package_version,omitempty"`
	LicenseeVersion *int `json:"licensee_version,omitempty"`

	// Containers (format "utoc" / "pak").
	Entries      *int `json:"entries,omitempty"`
	ChunksOK     *int `json:"chunks_ok,omitempty"`
	ChunksFailed *int `json:"chunks_failed,omitempty"`

	// Note says what of an ok package could not be checked, and why (its
	// warnings: export data in a .uexp that was not found, say).
	Note string `json:"note,omitempty"`
}

// sized returns an empty slice with room for n elements, or nil when n is
// 0 (so that an empty table still prints as null). n must count elements
// already in memory, never a header field.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// noMappingsNote is verify's note on a package with unversioned
// properties read without mappings: its header was checked, its property
// values were not.
const noMappingsNote = "properties not checked: unversioned, and no --mappings given"

// addNote adds note (when not "") to what verify notes of p, after a
// "; " when there is one already.
func (p *Package) addNote(note string) {
	switch {
	case note == "" || !verifyNotes:
	case p.verifyNote == "":
		p.verifyNote = note
	default:
		p.verifyNote += "; " + note
	}
}
