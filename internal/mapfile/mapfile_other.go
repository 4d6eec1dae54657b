//go:build !unix

package mapfile

import "github.com/upkg/upkg/internal/osfile"

// OpenWhole and OpenWholeDirect are osfile.OpenWhole: files are read, not
// mapped, here, with the calls package os makes.
var (
	OpenWhole       = osfile.OpenWhole
	OpenWholeDirect = osfile.OpenWhole
)
