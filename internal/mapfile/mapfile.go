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
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sync"
	"syscall"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/fscall"
	"github.com/upkg/upkg/internal/osfile"
)

// MinSize is the smallest file OpenWhole maps: for smaller ones the mmap
// and munmap calls and the page faults cost more than reading the bytes.
const MinSize = 64 << 10

// OpenWhole is osfile.OpenWhole that maps files of MinSize to
// osfile.MaxWhole bytes instead of reading them, and reads smaller ones
// into buffers it reuses. closer unmaps, or hands the buffer back for the
// next file: nothing read from r may be used after it is called. Files that
// cannot be mapped (special files, file systems without mmap) are read as
// osfile.OpenWhole reads them.
//
// The descriptor is used through plain system calls rather than an
// os.File (unless the file is too big to read whole): for the small files
// that make up most of a game folder, os.File's poller registration and
// descriptor-flag calls outnumbered open, fstat, pread and close.
func OpenWhole(name string) (r io.ReaderAt, size int64, closer io.Closer, err error) {
	return openWhole(name, fscall.Blocking)
}

// OpenWholeDirect is OpenWhole making its open, fstat, pread and close
// calls directly: the calling thread keeps its processor through them
// (see package fscall). It is for callers that run no more goroutines
// opening files than processors (fscall.ForWorkers).
func OpenWholeDirect(name string) (r io.ReaderAt, size int64, closer io.Closer, err error) {
	return openWhole(name, fscall.Direct)
}

func openWhole(name string, sys fscall.Mode) (r io.ReaderAt, size int64, closer io.Closer, err error) {
	// A named pipe is opened without waiting for a writer (and refused).
	fd, err := sys.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := sys.Fstat(fd, &st); err != nil {
		sys.Close(fd)
		return nil, 0, nil, &os.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		sys.Close(fd)
		return nil, 0, nil, osfile.CheckRegular(name, fileMode(uint32(st.Mode)))
	}
	size = st.Size
	if size > osfile.MaxWhole {
		f := &bigFile{File: os.NewFile(uintptr(fd), name), size: size}
		return f, size, f, nil
	}
	if size >= MinSize {
		if b, c, ok := arenaMap(fd, size); ok {
			sys.Close(fd) // the mapping stays valid without the descriptor
			return binread.Mem(b), size, c, nil
		}
		if b, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			sys.Close(fd) // the mapping stays valid without the descriptor
			return binread.Mem(b), size, &mapping{b: b}, nil
		}
	}
	defer sys.Close(fd)
	if size < MinSize {
		// A fresh buffer per file would cost zeroing and, with garbage
		// collected seldom, page faults on fresh heap: reuse one.
		bp := smallBufs.Get().(*[]byte)
		b := (*bp)[:size]
		if err := preadFull(sys, fd, b); err != nil {
			smallBufs.Put(bp)
			return nil, 0, nil, fmt.Errorf("%s: %w", name, pathErr("read", name, err))
		}
		return binread.Mem(b), size, &smallBuf{b: bp}, nil
	}
	b := make([]byte, size)
	if err := preadFull(sys, fd, b); err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", name, pathErr("read", name, err))
	}
	return binread.Mem(b), size, nil, nil
}

// smallBufs holds the MinSize buffers files smaller than that are read
// into.
var smallBufs = sync.Pool{New: func() any { b := make([]byte, MinSize); return &b }}

// smallBuf hands a buffer of smallBufs back once.
type smallBuf struct {
	once sync.Once
	b    *[]byte
}

func (s *smallBuf) Close() error {
	s.once.Do(func() { smallBufs.Put(s.b) })
	return nil
}

// preadFull reads len(b) bytes from offset 0 as os.File.ReadAt does: a
// short file is io.ErrUnexpectedEOF.
func preadFull(sys fscall.Mode, fd int, b []byte) error {
	off := 0
	for off < len(b) {
		n, err := sys.Pread(fd, b[off:], int64(off))
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		off += n
	}
	return nil
}

// fileMode is the type bits of a stat mode as an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// pathErr wraps a system call error as os.File does; io errors stay.
func pathErr(op, name string, err error) error {
	if _, ok := err.(syscall.Errno); ok {
		return &os.PathError{Op: op, Path: name, Err: err}
	}
	return err
}

// bigFile is a file too big to read whole: read with ReadAt, except the
// ranges a reader asks for as slices (it is a binread.Slicer: an export's
// data in a .uexp, an uncompressed UE3 package or a plain pak entry; see
// uasset.ObjectExport.Data, legacy's File.view, pak's BlockReader.Slice),
// served from a mapping of the whole file made at the first such request.
// A mapped range costs memory only for the pages decoding reads, where
// reading it whole would allocate all of it (verify of a 600 MiB export:
// 1.2 GB of peak RSS for a .uexp, 0.6 GB for a UE3 package; more than 1
// GiB was not read at all).
type bigFile struct {
	*os.File
	size int64

	mu     sync.Mutex
	mem    []byte
	failed bool // mapping failed once, or the file is closed: slices are refused
}

// Slice returns the n bytes at off as a slice of the mapped file; ok is
// false when the range is not in the file or the file cannot be mapped.
func (f *bigFile) Slice(off, n int64) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mem == nil && !f.failed {
		if f.size > math.MaxInt {
			f.failed = true
		} else if b, err := syscall.Mmap(int(f.Fd()), 0, int(f.size), syscall.PROT_READ, syscall.MAP_SHARED); err == nil {
			f.mem = b
		} else {
			f.failed = true
		}
	}
	if f.mem == nil || off < 0 || n < 0 || off > int64(len(f.mem)) || n > int64(len(f.mem))-off {
		return nil, false
	}
	return f.mem[off : off+n : off+n], true
}

// Close unmaps the file (nothing may use its slices afterwards) and
// closes it.
func (f *bigFile) Close() error {
	f.mu.Lock()
	var err error
	if f.mem != nil {
		err = syscall.Munmap(f.mem)
		f.mem = nil
	}
	f.failed = true // no slices after Close
	f.mu.Unlock()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	return err
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
