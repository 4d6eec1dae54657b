package pak

import (
	"strings"
	"unicode/utf16"
)

// FNV-1a 64-bit constants (FFnv::MemFnv64).
const (
	fnvOffset64 = 0xcbf29ce484222325
	fnvPrime64  = 0x00000100000001b3
)

// PathHash is FPakFile::HashPath as written from pak version 11
// (PakFile_Version_Fnv64BugFix): FNV-1a 64 over the lowercased path,
// relative to the mount point, as UTF-16LE code units, with the index's
// PathHashSeed added to the offset basis. Version 10 paks used a buggy
// variant that this package does not reproduce.
func PathHash(path string, seed uint64) uint64 {
	h := uint64(fnvOffset64) + seed
	for _, u := range utf16.Encode([]rune(strings.ToLower(path))) {
		h ^= uint64(u & 0xff)
		h *= fnvPrime64
		h ^= uint64(u >> 8)
		h *= fnvPrime64
	}
	return h
}

// pathHashChecked reports whether e's path hash can be checked.
func (e *Entry) pathHashChecked() bool {
	return e.hasPathHash && e.Path != "" && e.p.Footer.Version >= VersionFnv64BugFix
}
