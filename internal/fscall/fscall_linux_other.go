//go:build linux && !(amd64 || arm64)

package fscall

import "syscall"

// On these Linux architectures both modes make the calls as package
// syscall does (see fscall_direct.go).

func (m Mode) open(path string, flags int, perm uint32) (int, error) {
	return syscall.Open(path, flags, perm)
}

// Openat is syscall.Openat, retried on EINTR.
func (m Mode) Openat(dirfd int, path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, path, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// ReadDirent is syscall.ReadDirent (getdents64), retried on EINTR.
func (m Mode) ReadDirent(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.ReadDirent(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

func (m Mode) fstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func (m Mode) pread(fd int, b []byte, off int64) (int, error) { return syscall.Pread(fd, b, off) }

func (m Mode) close(fd int) error { return syscall.Close(fd) }
