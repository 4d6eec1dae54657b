//go:build unix && !linux

package mapfile

import "io"

// arenaMap is Linux-only (see arena_linux.go): elsewhere every file is
// mapped on its own.
func arenaMap(fd int, size int64) (b []byte, c io.Closer, ok bool) { return nil, nil, false }
