//go:build unix && !linux

package fscall

import "syscall"

// Outside Linux both modes make the calls as package syscall does.

func (m Mode) open(path string, flags int, perm uint32) (int, error) {
	return syscall.Open(path, flags, perm)
}

func (m Mode) fstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func (m Mode) pread(fd int, b []byte, off int64) (int, error) { return syscall.Pread(fd, b, off) }

func (m Mode) close(fd int) error { return syscall.Close(fd) }
