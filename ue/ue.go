// Package ue holds the small value types every Unreal format shares: GUIDs,
// engine versions and hashes. Format packages (uasset, legacy, iostore, pak)
// read and write them through these types so that they print the same way
// everywhere.
package ue

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/binwrite"
)

// Guid is FGuid: four uint32 components A, B, C, D, serialized in that order.
type Guid [4]uint32

// String formats the GUID as the engine's default EGuidFormats::Digits:
// 32 upper-case hex digits, A B C D.
func (g Guid) String() string {
	const digits = "0123456789ABCDEF"
	var b [32]byte
	for i, w := range g {
		for j := range 8 {
			b[8*i+j] = digits[w>>(28-4*j)&0xF]
		}
	}
	return string(b[:])
}

// Dashed formats the GUID as EGuidFormats::DigitsWithHyphens
// (XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX), the form used in docs and headers.
func (g Guid) Dashed() string {
	return fmt.Sprintf("%08X-%04X-%04X-%04X-%04X%08X", g[0], g[1]>>16, g[1]&0xFFFF, g[2]>>16, g[2]&0xFFFF, g[3])
}

// IsZero reports whether all components are zero.
func (g Guid) IsZero() bool { return g == Guid{} }

// MarshalText makes GUIDs print as strings in JSON.
func (g Guid) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// ReadGuid reads an FGuid.
func ReadGuid(r *binread.Reader, field string) Guid {
	return Guid{r.U32(field), r.U32(field), r.U32(field), r.U32(field)}
}

// WriteGuid writes an FGuid.
func WriteGuid(w *binwrite.Writer, g Guid) {
	for _, c := range g {
		w.U32(c)
	}
}

// EngineVersion is FEngineVersion (FEngineVersionBase plus the branch name).
type EngineVersion struct {
	Major      uint16         `json:"major"`
	Minor      uint16         `json:"minor"`
	Patch      uint16         `json:"patch"`
	Changelist uint32         `json:"changelist"` // top bit set marks a licensee changelist
	Branch     string         `json:"branch"`
	BranchEnc  binread.StrEnc `json:"-"`
}

// IsEmpty reports whether no version was recorded (all zero), as in cooked
// packages and packages saved by engines without version info.
func (v EngineVersion) IsEmpty() bool {
	return v.Major == 0 && v.Minor == 0 && v.Patch == 0 && v.Changelist == 0 && v.Branch == ""
}

// String formats the version the way the engine's ToString(EVersionComponent::Branch) does:
// "5.3.2-29314046+++UE5+Release-5.3".
func (v EngineVersion) String() string {
	s := fmt.Sprintf("%d.%d.%d-%d", v.Major, v.Minor, v.Patch, v.Changelist&0x7FFFFFFF)
	if v.Branch != "" {
		s += "+" + v.Branch
	}
	return s
}

// ReadEngineVersion reads an FEngineVersion.
func ReadEngineVersion(r *binread.Reader, field string) EngineVersion {
	var v EngineVersion
	if r.Err() == nil && r.Remaining() >= 10+4 {
		// The fixed fields and the branch length are there: only the
		// branch can fail, so only its field name is built.
		v.Major = r.U16(field)
		v.Minor = r.U16(field)
		v.Patch = r.U16(field)
		v.Changelist = r.U32(field)
	} else {
		v.Major = r.U16(field + ".Major")
		v.Minor = r.U16(field + ".Minor")
		v.Patch = r.U16(field + ".Patch")
		v.Changelist = r.U32(field + ".Changelist")
	}
	v.Branch, v.BranchEnc = r.FStringEncSub(field, ".Branch")
	return v
}

// WriteEngineVersion writes an FEngineVersion.
func WriteEngineVersion(w *binwrite.Writer, v EngineVersion) {
	w.U16(v.Major)
	w.U16(v.Minor)
	w.U16(v.Patch)
	w.U32(v.Changelist)
	w.FStringEnc(v.Branch, v.BranchEnc)
}

// SHAHash is FSHAHash (20 bytes).
type SHAHash [20]byte

func (h SHAHash) String() string               { return hex.EncodeToString(h[:]) }
func (h SHAHash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }
func (h SHAHash) IsZero() bool                 { return h == SHAHash{} }

// IoHash is FIoHash (a 20-byte BLAKE3-160 hash, stored in 32 bytes in some places).
type IoHash [20]byte

func (h IoHash) String() string               { return hex.EncodeToString(h[:]) }
func (h IoHash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }
func (h IoHash) IsZero() bool                 { return h == IoHash{} }

// FormatName renders an FName the way the engine prints it: the base name,
// and "_<Number-1>" when Number is non-zero.
func FormatName(base string, number int32) string {
	if number == 0 {
		return base
	}
	return base + "_" + strconv.Itoa(int(number-1))
}

// ID is a 64-bit identifier, hash or bit mask a format stores (a package
// ID, a public export hash, a name's hash, a magic number, a state's probe
// mask). In JSON it is a string of 16 hex digits after 0x: as a number, its
// low bits would be lost to readers whose numbers are doubles (JavaScript,
// jq).
type ID uint64

// MarshalText writes id as "0x" and 16 hex digits.
func (id ID) MarshalText() ([]byte, error) {
	const digits = "0123456789abcdef"
	b := []byte("0x0000000000000000")
	for i := 17; i >= 2; i-- {
		b[i] = digits[id&15]
		id >>= 4
	}
	return b, nil
}
