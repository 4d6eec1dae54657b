//go:build linux && (386 || arm || mips || mipsle)

package mapfile

import "syscall"

// sysMmap is mmap with the six arguments of mmap(2): on these 32-bit
// architectures SYS_MMAP is the old call taking one pointer, and mmap2
// (offset in pages; arenas map from offset 0) takes them.
const sysMmap = syscall.SYS_MMAP2
