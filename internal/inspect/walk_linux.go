//go:build linux

package inspect

import (
	"encoding/binary"
	"io/fs"
	"os"
	"sort"
	"syscall"

	"github.com/upkg/upkg/internal/fscall"
)

// dirReader lists folders for the verify walk with plain system calls: a
// subfolder is opened relative to its parent's descriptor (the kernel
// looks up one name, not the whole path again), and entries are read into
// one reused buffer (no os.File, no per-entry objects). The result is what
// os.ReadDir gives: entries sorted by name, "." and ".." left out, types as
// the folder records them (lstat when it does not).
type dirReader struct {
	buf []byte
	// direct: the calls keep the thread's processor (fscall.Direct; see
	// Options.DirectCalls).
	direct bool
}

// sys is how r makes its calls.
func (r *dirReader) sys() fscall.Mode { return fscall.Mode(r.direct) }

// read lists the folder path, which is name in the folder open as parent
// (parent < 0: not known, open path). It returns the folder's descriptor
// for the subfolders (-1 when closed; close it with r.closeDir).
func (r *dirReader) read(parent int, name, path string, depth int) (int, []dirEntry, error) {
	sys := r.sys()
	var fd int
	var err error
	if parent >= 0 {
		fd, err = sys.Openat(parent, name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
	} else {
		fd, err = sys.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
	}
	if err != nil {
		return -1, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if r.buf == nil {
		r.buf = make([]byte, 8192)
	}
	var ents []dirEntry
	for {
		n, err := sys.ReadDirent(fd, r.buf)
		if err != nil {
			sys.Close(fd)
			return -1, nil, &os.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			break
		}
		if ents, err = parseDirents(path, r.buf[:n], ents); err != nil {
			sys.Close(fd)
			return -1, nil, err
		}
	}
	sort.Sort(dirEntries(ents))
	if depth >= maxHeldDirs {
		sys.Close(fd)
		fd = -1
	}
	return fd, ents, nil
}

// parseDirents appends the entries of the linux_dirent64 records in b,
// read from the folder path.
func parseDirents(path string, b []byte, ents []dirEntry) ([]dirEntry, error) {
	// d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), d_name.
	const nameOff = 19
	for len(b) >= nameOff {
		reclen := int(binary.NativeEndian.Uint16(b[16:]))
		if reclen < nameOff || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if binary.NativeEndian.Uint64(rec) == 0 {
			continue
		}
		nameBytes := rec[nameOff:]
		for i, c := range nameBytes {
			if c == 0 {
				nameBytes = nameBytes[:i]
				break
			}
		}
		if len(nameBytes) == 1 && nameBytes[0] == '.' || len(nameBytes) == 2 && nameBytes[0] == '.' && nameBytes[1] == '.' {
			continue
		}
		e := dirEntry{name: string(nameBytes)}
		switch rec[18] {
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
		case syscall.DT_REG:
			e.typ = 0
		case syscall.DT_UNKNOWN:
			var st syscall.Stat_t
			if err := lstat(joinName(path, e.name), &st); err != nil {
				if err == syscall.ENOENT {
					continue // gone since it was listed, as os.ReadDir skips it
				}
				return ents, &os.PathError{Op: "lstat", Path: joinName(path, e.name), Err: err}
			}
			switch st.Mode & syscall.S_IFMT {
			case syscall.S_IFDIR:
				e.typ = fs.ModeDir
			case syscall.S_IFREG:
				e.typ = 0
			default:
				e.typ = fs.ModeIrregular
			}
		default:
			e.typ = fs.ModeIrregular // links, devices, pipes, sockets: not walked
		}
		ents = append(ents, e)
	}
	return ents, nil
}

func lstat(name string, st *syscall.Stat_t) error {
	for {
		err := syscall.Lstat(name, st)
		if err != syscall.EINTR {
			return err
		}
	}
}

// closeDir closes a descriptor read returned.
func (r *dirReader) closeDir(fd int) {
	if fd >= 0 {
		r.sys().Close(fd)
	}
}

// readHead reads the first len(b) bytes of the file path, which is name
// in the folder open as dir (-1: not open).
func (r *dirReader) readHead(dir int, name, path string, b []byte) bool {
	sys := r.sys()
	var fd int
	var err error
	if dir >= 0 {
		fd, err = sys.Openat(dir, name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	} else {
		fd, err = sys.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return false
	}
	defer sys.Close(fd)
	for off := 0; off < len(b); {
		n, err := sys.Pread(fd, b[off:], int64(off))
		if err != nil || n <= 0 {
			return false
		}
		off += n
	}
	return true
}
