package assetprops

import (
	"math"
	"strconv"
	"strings"

	"github.com/upkg/upkg/ue"
)

// Packages without a custom version container (cooked with an unversioned
// header) give no custom versions; the decoder then needs the ones of the
// engine release the package comes from. The values are the last
// FEditorObjectVersion, FFrameworkObjectVersion, FCoreObjectVersion and
// FReleaseObjectVersion of each UE4 release (the ones CUE4Parse's version
// switches use); UE5 releases are past all the thresholds the decoder
// consults.
var (
	keyEditor    = ue.EditorObjectVersion
	keyFramework = ue.FrameworkObjectVersion
	keyCore      = ue.CoreObjectVersion
	keyRelease   = ue.ReleaseObjectVersion
)

// ue4Fallback lists, per custom version, the value from each UE4 minor
// release on (minor -> value); releases before the first entry predate it.
// (A table searched in turn: a map literal costs its own initialization
// code in the WebAssembly.)
var ue4Fallback = [...]struct {
	key   ue.Guid
	table [][2]int32
}{
	{keyEditor, [][2]int32{{12, 2}, {13, 6}, {14, 8}, {15, 14}, {16, 17}, {17, 20}, {19, 23}, {20, 24}, {21, 26},
		{22, 30}, {23, 34}, {24, 37}, {25, 38}, {26, math.MaxInt32}}},
	{keyFramework, [][2]int32{{12, 6}, {13, 12}, {14, 17}, {15, 22}, {16, 23}, {17, 28}, {18, 30}, {19, 33}, {20, 34},
		{22, 35}, {24, 36}, {25, 37}, {26, math.MaxInt32}}},
	{keyCore, [][2]int32{{12, 1}, {15, 2}, {22, 3}, {25, 4}}},
	// FReleaseObjectVersion (4.27 adds the sub-sequence warp counter).
	{keyRelease, [][2]int32{{11, 1}, {13, 3}, {14, 4}, {15, 7}, {16, 9}, {17, 10}, {19, 12}, {20, 17}, {21, 20},
		{23, 23}, {24, 28}, {25, 30}, {26, 38}, {27, 43}}},
}

// engineCustomVersion returns the assumed custom version for key in the
// engine release named engine ("4.23", "5.1").
func engineCustomVersion(engine string, key ue.Guid) (int32, bool) {
	var table [][2]int32
	for _, f := range ue4Fallback {
		if f.key == key {
			table = f.table
			break
		}
	}
	if table == nil {
		return 0, false
	}
	major, minor, ok := parseEngine(engine)
	if !ok {
		return 0, false
	}
	if major >= 5 {
		return math.MaxInt32, true
	}
	v, found := int32(-1), false
	for _, e := range table {
		if int32(minor) >= e[0] {
			v, found = e[1], true
		}
	}
	return v, found
}

func parseEngine(s string) (major, minor int, ok bool) {
	s = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "UE")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(strings.TrimSuffix(parts[1], "EA"))
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return ma, mi, true
}
