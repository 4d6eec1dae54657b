package osfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

func TestOpenWhole(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.uasset")
	want := []byte("package bytes")
	if err := os.WriteFile(small, want, 0o644); err != nil {
		t.Fatal(err)
	}
	r, size, c, err := OpenWhole(small)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(binread.Mem); !ok || c != nil || size != int64(len(want)) {
		t.Fatalf("have %T, closer %v, size %d; want the bytes in memory", r, c, size)
	}
	got := make([]byte, size)
	if _, err := r.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("have %q, %v", got, err)
	}
	if _, _, _, err := OpenWhole(dir); err == nil {
		t.Error("a directory opened")
	}
	s := Set{Whole: true}
	if r, _, err := s.Open(small); err != nil || len(s.files) != 0 {
		t.Errorf("Set.Open: %T, %v, %d files kept open", r, err, len(s.files))
	}
	if _, _, err := s.Open(filepath.Join(dir, "missing.uexp")); err == nil {
		t.Error("a missing file opened")
	}
}

// TestCheckRegular checks what Open says of files that are not regular
// (opening them is tested with the openers in mapfile's tests).
func TestCheckRegular(t *testing.T) {
	for mode, want := range map[os.FileMode]string{
		0o644:                             "",
		os.ModeDir:                        "x: is a directory",
		os.ModeNamedPipe:                  "x: not a regular file (a named pipe)",
		os.ModeSocket:                     "x: not a regular file (a socket)",
		os.ModeDevice | os.ModeCharDevice: "x: not a regular file (a character device)",
		os.ModeDevice:                     "x: not a regular file (a block device)",
		os.ModeIrregular:                  "x: not a regular file (a special file)",
		os.ModeSymlink | os.ModeNamedPipe: "x: not a regular file (a named pipe)",
	} {
		err := CheckRegular("x", mode)
		if got := fmt.Sprint(err); err == nil && want != "" || err != nil && got != want {
			t.Errorf("CheckRegular(%v) = %v, want %q", mode, err, want)
		}
	}
}
