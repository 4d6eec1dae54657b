package uasset

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// verFortniteSoftObjectPathUtf8SubPaths is FortniteMainBranchObjectVersion
// SoftObjectPathUtf8SubPaths (5.6): from it a soft object path's sub-path
// is an FUtf8String, its bytes UTF-8 rather than one character each.
const verFortniteSoftObjectPathUtf8SubPaths = 192

// utf8SubPaths reads the sub-paths of the summary's soft object paths as
// UTF-8 in packages that store them so (read as ANSI, a non-ASCII one came
// out garbled: "CoÃ©"). The stored bytes are kept for the rewrite. It runs
// once the package is read and its versions known (NewFile): reading the
// header asks no custom version, so that inference can share one read
// between releases.
func (f *File) utf8SubPaths() {
	// A versioned package's own custom versions (Versions takes them
	// once the read is done), else its engine's.
	v, ok := f.Versions.CustomVersion(ue.FortniteMainBranchObjectVersion)
	for _, c := range f.Summary.CustomVersions {
		if c.Key == ue.FortniteMainBranchObjectVersion {
			v, ok = c.Version, true
		}
	}
	if !ok || v < verFortniteSoftObjectPathUtf8SubPaths {
		return
	}
	for i := range f.SoftObjectPaths {
		s := &f.SoftObjectPaths[i].SubPath
		if s.raw != nil || s.Enc != binread.StrANSI && s.Enc != binread.StrNoNul || binread.IsASCII([]byte(s.S)) {
			continue
		}
		b := make([]byte, 0, len(s.S))
		for _, r := range s.S {
			if r > 0xFF {
				b = nil
				break
			}
			b = append(b, byte(r))
		}
		if b == nil || !utf8.Valid(b) {
			continue
		}
		var order binary.ByteOrder = binary.LittleEndian
		if f.BigEndian {
			order = binary.BigEndian
		}
		sv := newSaver(order, 0)
		sv.str("", s)
		raw := bytes.Clone(sv.w.Bytes())
		s.S, s.raw = string(b), &raw
	}
}
