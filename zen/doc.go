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
// # Security
//
// Every offset of the summary is checked to lie inside the header and to
// be ordered before a section is read, counts are derived from the offsets
// (never trusted to allocate), and name lengths are checked against the
// bytes left.
package zen
