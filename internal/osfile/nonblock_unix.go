//go:build unix

package osfile

import "syscall"

// openNonblock opens a named pipe without waiting for a writer; regular
// files ignore it.
const openNonblock = syscall.O_NONBLOCK
