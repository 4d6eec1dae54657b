//go:build !unix

package mapfile

import "github.com/upkg/upkg/internal/osfile"

// OpenWhole is osfile.OpenWhole: files are read, not mapped, here.
var OpenWhole = osfile.OpenWhole
