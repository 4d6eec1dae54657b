//go:build unix

// Package mapfile maps package files read-only into memory for the CLI, in
// place of reading them into fresh buffers (osfile.OpenWhole): no copy, no
// zeroed buffer, no garbage. It is native-only; the library packages never
// import it (the browser build reads from bytes it is given).
//
// A mapping is only as stable as the file: when another process truncates
// a mapped file, reading the pages past the new end raises SIGBUS. Readers
// of mapped files must run with debug.SetPanicOnFault(true), which turns the
// fault into a panic they recover from (inspect.VerifyPackage does).
package mapfile

import (
	"io"
	"sync"
	"syscall"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/osfile"
)

// MinSize is the smallest file OpenWhole maps: for smaller ones the mmap
// and munmap calls and the page faults cost more than reading the bytes.
const MinSize = 64 << 10

// OpenWhole is osfile.OpenWhole that maps files of MinSize to
// osfile.MaxWhole bytes instead of reading them. closer unmaps: nothing
// read from r may be used after it is called. Files that cannot be mapped
// (special files, file systems without mmap) are read as osfile.OpenWhole
// reads them.
func OpenWhole(name string) (r io.ReaderAt, size int64, closer io.Closer, err error) {
	f, size, err := osfile.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	if size < MinSize || size > osfile.MaxWhole {
		return osfile.Whole(f, name, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return osfile.Whole(f, name, size)
	}
	f.Close() // the mapping stays valid without the descriptor
	return binread.Mem(b), size, &mapping{b: b}, nil
}

// mapping unmaps b once.
type mapping struct {
	once sync.Once
	b    []byte
}

func (m *mapping) Close() error {
	var err error
	m.once.Do(func() { err = syscall.Munmap(m.b) })
	return err
}
