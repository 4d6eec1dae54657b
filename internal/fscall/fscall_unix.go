//go:build unix

package fscall

import "syscall"

// Open is syscall.Open, retried on EINTR.
func (m Mode) Open(path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := m.open(path, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// Fstat is syscall.Fstat, retried on EINTR.
func (m Mode) Fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := m.fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

// Pread is syscall.Pread, retried on EINTR.
func (m Mode) Pread(fd int, b []byte, off int64) (int, error) {
	for {
		n, err := m.pread(fd, b, off)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// Close is syscall.Close (not retried: on Linux the descriptor is gone
// whatever close returns).
func (m Mode) Close(fd int) error { return m.close(fd) }
