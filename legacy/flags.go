package legacy

import (
	"fmt"
	"strings"
)

// Object flag names (EObjectFlags) of UE1/UE2 (32-bit) and the UE3 bits
// that keep their meaning; unknown bits print as hex.
var ue12ObjectFlags = []struct {
	bit  uint64
	name string
}{
	{0x00000001, "Transactional"}, {0x00000004, "Public"}, {0x00010000, "LoadForClient"},
	{0x00020000, "LoadForServer"}, {0x00040000, "LoadForEdit"}, {0x00080000, "Standalone"},
	{0x00100000, "NotForClient"}, {0x00200000, "NotForServer"}, {0x00400000, "NotForEdit"},
	{0x02000000, "HasStack"}, {0x04000000, "Native"},
}

var ue3ObjectFlags = []struct {
	bit  uint64
	name string
}{
	{0x0000000000000100, "Protected"}, {rfCDOUE3, "ClassDefaultObject"}, {rfArchetypeUE3, "ArchetypeObject"},
	{0x0000000000040000, "MarkedByCooker"}, {0x0000000000080000, "LocalizedResource"},
	{0x0000000100000000, "Transactional"}, {0x0000000400000000, "Public"},
	{0x0000400000000000, "Transient"}, {0x0000800000000000, "Cooked"},
	{0x0001000000000000, "LoadForClient"}, {0x0002000000000000, "LoadForServer"},
	{0x0004000000000000, "LoadForEdit"}, {0x0008000000000000, "Standalone"},
	{0x0010000000000000, "NotForClient"}, {0x0020000000000000, "NotForServer"},
	{0x0040000000000000, "NotForEdit"}, {rfHasStackUE3, "HasStack"}, {0x0400000000000000, "Native"},
}

// FlagString renders export object flags as names joined by "|", with any
// remaining bits in hex.
func (f *File) FlagString(flags uint64) string {
	table := ue12ObjectFlags
	if f.ue3() {
		table = ue3ObjectFlags
	}
	var parts []string
	for _, fl := range table {
		if flags&fl.bit != 0 {
			parts = append(parts, fl.name)
			flags &^= fl.bit
		}
	}
	if flags != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", flags))
	}
	return strings.Join(parts, "|")
}

// Package flags (EPackageFlags) by bit.
var packageFlagNames = []struct {
	bit  uint32
	name string
}{
	{0x0001, "AllowDownload"}, {0x0002, "ClientOptional"}, {0x0004, "ServerSideOnly"},
	{0x0008, "BrokenLinks/Cooked"}, {0x0010, "Unsecure"}, {0x8000, "Need"},
	// UE3's (UnObjBas.h).
	{0x0020, "SavedWithNewerVersion"}, {0x00010000, "Compiling"}, {0x00020000, "ContainsMap"},
	{0x00040000, "Trash"}, {0x00080000, "DisallowLazyLoading"}, {0x00100000, "PlayInEditor"},
	{0x00200000, "ContainsScript"}, {0x00400000, "ContainsDebugInfo"},
	{0x00800000, "RequireImportsAlreadyLoaded"}, {0x01000000, "SelfContainedLighting"},
	{PkgStoreCompressed, "StoreCompressed"}, {PkgStoreFullyCompressed, "StoreFullyCompressed"},
	{0x08000000, "ContainsInlinedShaders"}, {0x10000000, "ContainsFaceFXData"},
	{0x20000000, "NoExportAllowed"}, {0x40000000, "StrippedSource"}, {0x80000000, "FilterEditorOnly"},
}

// PackageFlagString renders package flags.
func PackageFlagString(flags uint32) string {
	var parts []string
	for _, fl := range packageFlagNames {
		if flags&fl.bit != 0 {
			parts = append(parts, fl.name)
			flags &^= fl.bit
		}
	}
	if flags != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", flags))
	}
	return strings.Join(parts, "|")
}
