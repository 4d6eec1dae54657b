package uasset

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/upkg/upkg/internal/binread"
)

// ReadSummary reads only the package file summary, the cheap path next to
// NewFile (as png.DecodeConfig is to png.Decode). Unversioned packages are
// read with WithEngine or WithVersions when given; otherwise each candidate
// release's layout is tried and the first (newest) one whose summary ends
// exactly where the name map starts is used. The returned Versions are the
// ones the summary was read with.
func ReadSummary(r io.ReaderAt, size int64, opts ...Option) (*PackageFileSummary, Versions, error) {
	var o options
	for _, fn := range opts {
		if err := fn(&o); err != nil {
			return nil, Versions{}, err
		}
	}
	head := make([]byte, min(size, summaryHead))
	if n, _ := r.ReadAt(head, 0); n < len(head) {
		head = head[:n]
	}
	if len(head) >= 4 && string(head[:4]) == "ACE7" {
		return nil, Versions{}, ErrEncrypted
	}
	if len(head) < 4 {
		return nil, Versions{}, formatErr("summary", &binread.Error{Offset: 0, Field: "PackageFileSummary.Tag", Err: io.ErrUnexpectedEOF})
	}
	var order binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(head) {
	case PackageFileTag:
	case PackageFileTagSwapped:
		order = binary.BigEndian
	default:
		return nil, Versions{}, ErrNotPackage
	}
	read := func(v Versions) (*PackageFileSummary, int64, error) {
		var br *binread.Reader
		if int64(len(head)) == size {
			br = binread.FromBytes(head)
		} else {
			br = binread.New(r, size)
		}
		br.SetOrder(order)
		s := &PackageFileSummary{}
		s.serialize(loader{br}, &v)
		if err := br.Err(); err != nil {
			return nil, 0, formatErr("summary", err)
		}
		return s, br.Offset(), nil
	}
	br := binread.FromBytes(head)
	br.SetOrder(order)
	var s PackageFileSummary
	s.serializeVersions(loader{br})
	if err := br.Err(); err != nil {
		return nil, Versions{}, formatErr("summary", err)
	}
	if s.LegacyFileVersion >= 0 || s.LegacyFileVersion < LegacyFileVersionCurrent {
		return nil, Versions{}, &UnsupportedError{fmt.Sprintf("legacy file version %d is not a UE4/UE5 package", s.LegacyFileVersion)}
	}
	var v Versions
	switch {
	case !s.Unversioned():
		v = Versions{UE4: s.FileVersionUE4, UE5: s.FileVersionUE5, Licensee: s.FileVersionLicenseeUE}
	case o.versions != nil:
		v = *o.versions
	case o.engine != "":
		e, _ := LookupEngine(o.engine)
		v = e.versions()
	default:
		var firstErr error
		for i := len(engines) - 1; i >= 0; i-- {
			e := engines[i]
			if e.Legacy != s.LegacyFileVersion {
				continue
			}
			sum, end, err := read(e.versions())
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if sum.NameCount == 0 || int64(sum.NameOffset) == end {
				return sum, e.versions(), nil
			}
		}
		if firstErr == nil {
			firstErr = ErrNeedEngine
		}
		return nil, Versions{}, firstErr
	}
	sum, _, err := read(v)
	if err != nil {
		return nil, Versions{}, err
	}
	if !s.Unversioned() {
		v.Custom = sum.CustomVersions
	}
	return sum, v, nil
}
