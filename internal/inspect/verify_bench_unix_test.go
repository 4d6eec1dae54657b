//go:build unix

package inspect

import "github.com/upkg/upkg/internal/mapfile"

func init() { benchOpenWhole = mapfile.OpenWhole }
