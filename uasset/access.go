package uasset

import (
	"github.com/upkg/upkg/ue"
	"io"
	"strings"
)

// Reader returns the main file's reader and size.
func (f *File) Reader() (io.ReaderAt, int64) { return f.r, f.size }

// maxSectionBytes bounds SectionBytes (the hex view); sections are checked
// against the file size first, this only caps memory.
const maxSectionBytes = 256 << 20

// SectionBytes returns the bytes of the section called name (as in
// File.Sections, case-insensitive), from the .uasset or the .uexp.
func (f *File) SectionBytes(name string) ([]byte, error) {
	for _, s := range f.Sections {
		if !strings.EqualFold(s.Name, name) {
			continue
		}
		if s.Size > maxSectionBytes {
			return nil, &UnsupportedError{"section " + name + " is larger than the hex view loads"}
		}
		if s.InUexp {
			sr, err := f.serialRange(s.Offset, s.Size)
			if err != nil {
				return nil, err
			}
			return readAllSection(sr)
		}
		if s.Offset < 0 || s.Size < 0 || s.Offset > f.size || s.Size > f.size-s.Offset {
			return nil, formatErrf(name, "range [0x%x, +0x%x) outside the file", s.Offset, s.Size)
		}
		return readAllSection(io.NewSectionReader(f.r, s.Offset, s.Size))
	}
	return nil, formatErrf(name, "package has no section %q", name)
}

// SoftObjectPathString renders a soft object path as
// "/Game/Pkg.Asset:Sub.Path".
func (f *File) SoftObjectPathString(p SoftObjectPath) string {
	s := f.NameString(p.PackageName)
	if a := f.NameString(p.AssetName); p.AssetName.Index != 0 || p.AssetName.Number != 0 || a != "None" {
		if a != "None" {
			s += "." + a
		}
	}
	if p.SubPath.S != "" {
		s += ":" + p.SubPath.S
	}
	return s
}

// CustomVersion returns the version of a custom version key in effect for
// the package (recorded, or the assumed engine's for unversioned ones).
func (f *File) CustomVersion(key ue.Guid) (int32, bool) { return f.Versions.CustomVersion(key) }

// CustomVersionByName is CustomVersion by registry name ("UE5MainStreamObjectVersion").
func (f *File) CustomVersionByName(name string) (int32, bool) {
	k, ok := CustomVersionKey(name)
	if !ok {
		return 0, false
	}
	return f.Versions.CustomVersion(k)
}
