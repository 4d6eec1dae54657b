//go:build linux && !(386 || arm || mips || mipsle)

package mapfile

import "syscall"

// sysMmap is mmap with the six arguments of mmap(2).
const sysMmap = syscall.SYS_MMAP
