//go:build linux && (amd64 || arm64)

package fscall

import (
	"syscall"
	"unsafe"
)

const atFDCWD = -0x64 // AT_FDCWD

func (m Mode) open(path string, flags int, perm uint32) (int, error) {
	if m == Blocking {
		return syscall.Open(path, flags, perm)
	}
	return m.openat(atFDCWD, path, flags, perm)
}

// Openat is syscall.Openat, retried on EINTR.
func (m Mode) Openat(dirfd int, path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := m.openat(dirfd, path, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// Direct calls are made on the 64-bit architectures whose system calls
// take these arguments as package syscall passes them (elsewhere a 64-bit
// offset is split in two, and fstat has other numbers).
//
// The direct calls below return what package syscall's do (a count or
// descriptor of -1 with an error).

func (m Mode) openat(dirfd int, path string, flags int, perm uint32) (int, error) {
	if m == Blocking {
		return syscall.Openat(dirfd, path, flags, perm)
	}
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	r, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags|syscall.O_LARGEFILE), uintptr(perm), 0, 0)
	return int(r), errnoErr(r, 0, e)
}

func (m Mode) fstat(fd int, st *syscall.Stat_t) error {
	if m == Blocking {
		return syscall.Fstat(fd, st)
	}
	return errnoErr(syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0))
}

func (m Mode) pread(fd int, b []byte, off int64) (int, error) {
	if m == Blocking {
		return syscall.Pread(fd, b, off)
	}
	r, _, e := syscall.RawSyscall6(syscall.SYS_PREAD64, uintptr(fd), uintptr(bytesPtr(b)), uintptr(len(b)), uintptr(off), 0, 0)
	return int(r), errnoErr(r, 0, e)
}

func (m Mode) close(fd int) error {
	if m == Blocking {
		return syscall.Close(fd)
	}
	return errnoErr(syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0))
}

// ReadDirent is syscall.ReadDirent (getdents64), retried on EINTR.
func (m Mode) ReadDirent(fd int, b []byte) (int, error) {
	for {
		var n int
		var err error
		if m == Blocking {
			n, err = syscall.ReadDirent(fd, b)
		} else {
			r, _, e := syscall.RawSyscall(syscall.SYS_GETDENTS64, uintptr(fd), uintptr(bytesPtr(b)), uintptr(len(b)))
			n, err = int(r), errnoErr(r, 0, e)
		}
		if err != syscall.EINTR {
			return n, err
		}
	}
}

func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// errnoErr is the error of a call's results (r1, r2, errno).
func errnoErr(_, _ uintptr, e syscall.Errno) error {
	if e != 0 {
		return e
	}
	return nil
}
