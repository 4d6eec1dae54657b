package fscall

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestModes makes each call both ways on the same files: same results,
// same errors.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("upkg"), 5000)
	for _, name := range []string{"a.uasset", "b.uexp", "c.bin"} {
		if err := os.WriteFile(filepath.Join(dir, name), want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []Mode{Blocking, Direct} {
		fd, err := m.Open(filepath.Join(dir, "a.uasset"), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatalf("%v: Open: %v", m, err)
		}
		var st syscall.Stat_t
		if err := m.Fstat(fd, &st); err != nil || st.Size != int64(len(want)) {
			t.Errorf("%v: Fstat: size %d, %v", m, st.Size, err)
		}
		got := make([]byte, len(want)+10)
		if n, err := m.Pread(fd, got, 7); err != nil || !bytes.Equal(got[:n], want[7:]) {
			t.Errorf("%v: Pread: %d bytes, %v", m, n, err)
		}
		if n, err := m.Pread(fd, got, int64(len(want))); n != 0 || err != nil {
			t.Errorf("%v: Pread at the end: %d, %v", m, n, err)
		}
		if err := m.Close(fd); err != nil {
			t.Errorf("%v: Close: %v", m, err)
		}
		if err := m.Close(fd); err != syscall.EBADF {
			t.Errorf("%v: Close of a closed descriptor: %v", m, err)
		}
		if n, err := m.Pread(fd, got, 0); n != -1 || err != syscall.EBADF {
			t.Errorf("%v: Pread of a closed descriptor: %d, %v", m, n, err)
		}
		if err := m.Fstat(fd, &st); err != syscall.EBADF {
			t.Errorf("%v: Fstat of a closed descriptor: %v", m, err)
		}
		if fd, err := m.Open(filepath.Join(dir, "none"), syscall.O_RDONLY, 0); fd != -1 || err != syscall.ENOENT {
			t.Errorf("%v: Open of a missing file: %d, %v", m, fd, err)
		}
		if _, err := m.Open("a\x00b", syscall.O_RDONLY, 0); err == nil {
			t.Errorf("%v: Open of a name with NUL succeeded", m)
		}

		// A folder: listed in small reads (several calls), and a file
		// opened relative to it.
		dfd, err := m.Open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err != nil {
			t.Fatalf("%v: Open of the folder: %v", m, err)
		}
		buf := make([]byte, 64)
		if n, err := m.ReadDirent(dfd, buf[:1]); n != -1 || err != syscall.EINVAL {
			t.Errorf("%v: ReadDirent into 1 byte: %d, %v", m, n, err)
		}
		var names []string
		for {
			n, err := m.ReadDirent(dfd, buf)
			if err != nil {
				t.Fatalf("%v: ReadDirent: %v", m, err)
			}
			if n == 0 {
				break
			}
			_, _, names = syscall.ParseDirent(buf[:n], -1, names)
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"a.uasset", "b.uexp", "c.bin"}) {
			t.Errorf("%v: listed %q", m, names)
		}
		fd, err = m.Openat(dfd, "c.bin", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatalf("%v: Openat: %v", m, err)
		}
		if n, err := m.Pread(fd, got[:4], 0); n != 4 || err != nil || string(got[:4]) != "upkg" {
			t.Errorf("%v: Pread after Openat: %q, %v", m, got[:max(n, 0)], err)
		}
		if fd, err := m.Openat(dfd, "none", syscall.O_RDONLY, 0); fd != -1 || err != syscall.ENOENT {
			t.Errorf("%v: Openat of a missing file: %d, %v", m, fd, err)
		}
		m.Close(fd)
		m.Close(dfd)
	}
}

func TestForWorkers(t *testing.T) {
	if ForWorkers(1) != Direct || ForWorkers(0) != Direct {
		t.Error("one worker is not Direct")
	}
	if ForWorkers(1<<20) != Blocking {
		t.Error("a million workers are not Blocking")
	}
}
