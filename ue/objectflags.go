package ue

// objectFlagNames names the EObjectFlags bits (ObjectMacros.h) an export
// map stores, by bit number; "" for bits the engine no longer uses.
var objectFlagNames = [32]string{
	"Public", "Standalone", "MarkAsNative", "Transactional", "ClassDefaultObject",
	"ArchetypeObject", "Transient", "MarkAsRootSet", "TagGarbageTemp",
	"NeedInitialization", "NeedLoad", "KeepForCooker", "NeedPostLoad",
	"NeedPostLoadSubobjects", "NewerVersionExists", "BeginDestroyed",
	"FinishDestroyed", "BeingRegenerated", "DefaultSubObject", "WasLoaded",
	"TextExportTransient", "LoadCompleted", "InheritableComponentTemplate",
	"DuplicateTransient", "StrongRefOnFrame", "NonPIEDuplicateTransient", "",
	"WillBeLoaded", "HasExternalPackage", "", "", "AllocatedInSharedPage",
}

// ObjectFlagsString renders object flags as "Public|Standalone", the bits
// no name is known for as one hex number last ("Public|0x4000000"); "" for
// none. uasset and zen packages share it.
func ObjectFlagsString(f uint32) string {
	s, rest := "", uint32(0)
	for i, n := range objectFlagNames {
		bit := uint32(1) << i
		switch {
		case f&bit == 0:
		case n == "":
			rest |= bit
		default:
			if s != "" {
				s += "|"
			}
			s += n
		}
	}
	if rest != 0 {
		if s != "" {
			s += "|"
		}
		s += "0x" + HexU32(rest)
	}
	return s
}

// HexU32 writes v in upper-case hex digits without leading zeros ("4000000"),
// as flag renderings print the bits they have no name for.
func HexU32(v uint32) string {
	const digits = "0123456789ABCDEF"
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	i := 0
	for i < 7 && b[i] == '0' {
		i++
	}
	return string(b[i:])
}
