package zen

import "fmt"

// HeaderVersion is EIoContainerHeaderVersion (IoContainerHeader.h). It
// versions both the container header and the zen package summary inside
// the container. PreInitial is UE 4.26's unversioned header.
type HeaderVersion int32

const (
	HeaderPreInitial                  HeaderVersion = -1 // 4.26
	HeaderInitial                     HeaderVersion = 0  // 4.27 (UE4 FPackageSummary)
	HeaderLocalizedPackages           HeaderVersion = 1  // 5.0: FZenPackageSummary
	HeaderOptionalSegmentPackages     HeaderVersion = 2  // 5.1–5.2
	HeaderNoExportInfo                HeaderVersion = 3  // 5.3–5.4: dependency bundles, imported package names
	HeaderSoftPackageReferences       HeaderVersion = 4  // 5.5
	HeaderSoftPackageReferencesOffset HeaderVersion = 5  // 5.6+: Verse cell import/export maps

	HeaderLatest = HeaderSoftPackageReferencesOffset
)

// headerVersionNames names the versions from -1 (PreInitial) on.
var headerVersionNames = [...]string{
	"PreInitial", "Initial", "LocalizedPackages", "OptionalSegmentPackages",
	"NoExportInfo", "SoftPackageReferences", "SoftPackageReferencesOffset",
}

func (v HeaderVersion) String() string {
	if i := int64(v) + 1; i >= 0 && i < int64(len(headerVersionNames)) {
		return headerVersionNames[i]
	}
	return fmt.Sprintf("HeaderVersion(%d)", int32(v))
}
