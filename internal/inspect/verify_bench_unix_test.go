//go:build unix

package inspect

import "github.com/upkg/upkg/internal/mapfile"

// As the CLI's verify with a worker per processor: files mapped, system
// calls made directly.
func init() { benchOpenWhole, benchDirect = mapfile.OpenWholeDirect, true }
