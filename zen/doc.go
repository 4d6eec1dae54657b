// Package zen reads Unreal Engine "zen" packages: the cooked package format
// stored in IoStore containers (chunk type ExportBundleData) and written out
// by tools as .uzenasset, or as .uasset files without the 0x9E2A83C1 tag.
// It also holds the pieces IoStore shares with them: name batches with their
// CityHash64 hashes, FMappedName, FPackageObjectIndex, package IDs and the
// global script-object table.
//
// The layout is the engine's FZenPackageSummary / FZenPackageHeader
// (ZenPackageHeader.h, AsyncLoading2.cpp) and UE 4.26/4.27's FPackageSummary;
// which one a package uses follows the container header version
// (iostore.ContainerHeaderVersion), passed in [Options].
//
// Export data follows the header; where each export's bytes lie depends on
// the layout (see [Package.ExportData]): in the order of the export bundles
// in UE 4.26/4.27, at each bundle's SerialOffset in UE 5.0–5.2, and at
// HeaderSize + CookedSerialOffset from UE 5.3 on, where the bundle entries
// give the load order only. [Package.DataRanges] lists the ranges, which
// tile the export data of a well-formed package.
//
// # Security
//
// Every offset of the summary is checked to lie inside the header and to
// be ordered before a section is read, counts are derived from the offsets
// (never trusted to allocate), and name lengths are checked against the
// bytes left.
package zen
