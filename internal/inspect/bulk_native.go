//go:build !wasm

package inspect

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/upkg/upkg/uasset"
)

func init() { checkBulkFiles = checkDataResourceFiles }

// bulkCheckBuilt: verify checks bulk data files (checkBulkFiles).
const bulkCheckBuilt = true

// EBulkDataFlags bits that place a payload (FObjectDataResource's
// LegacyBulkDataFlags).
const (
	bulkPayloadInSeparateFile    = 1 << 8
	bulkOptionalPayload          = 1 << 11
	bulkMemoryMappedPayload      = 1 << 12
	bulkDuplicateNonOptionalData = 1 << 14
)

// checkDataResourceFiles checks that every payload the data resources of
// f (UE 5.2 on) place outside the package, in its .ubulk, .uptnl or
// .m.ubulk, lies inside that file: a missing or cut-short bulk data file
// leaves textures and sounds without their data, and nothing else in the
// package tells.
//
// A bulk data file that is not there at all is a note, as a missing .uexp
// is (copies of packages often come without them): what lies in it was
// not checked. One that is there but too short is an error.
func checkDataResourceFiles(f *uasset.File, sibling func(ext string) (io.ReaderAt, int64, error)) (note string, err error) {
	if f.DataResources == nil {
		return "", nil
	}
	sizes := map[string]int64{}
	var missing []string
	within := func(i int, ext string, off, size int64) error {
		n, ok := sizes[ext]
		if !ok {
			_, s, err := sibling(ext)
			if errors.Is(err, fs.ErrNotExist) {
				missing = append(missing, ext)
				s = -1
			} else if err != nil {
				return fmt.Errorf("data resource %d: %s: %w", i, ext, err)
			}
			n, sizes[ext] = s, s
		}
		if n < 0 {
			return nil // not there: noted
		}
		if off < 0 || off > n || size > n-off {
			return fmt.Errorf("data resource %d: [0x%x, +0x%x) runs past the end of the %d-byte %s (cut short?)", i, off, size, n, ext)
		}
		return nil
	}
	for i, r := range f.DataResources.Resources {
		fl := r.LegacyBulkDataFlags
		if fl&bulkPayloadInSeparateFile == 0 || r.SerialSize <= 0 {
			continue
		}
		ext := ".ubulk"
		switch {
		case fl&bulkOptionalPayload != 0:
			ext = ".uptnl"
		case fl&bulkMemoryMappedPayload != 0:
			ext = ".m.ubulk"
		}
		if err := within(i, ext, r.SerialOffset, r.SerialSize); err != nil {
			return "", err
		}
		if fl&bulkDuplicateNonOptionalData != 0 && r.DuplicateSerialOffset >= 0 {
			if err := within(i, ".uptnl", r.DuplicateSerialOffset, r.SerialSize); err != nil {
				return "", err
			}
		}
	}
	if len(missing) > 0 {
		return "bulk data not checked: its " + strings.Join(missing, " and ") + " was not found", nil
	}
	return "", nil
}
