//go:build unix

package osfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenSpecial checks that Open refuses what is not a regular file
// saying what it is, and does not wait for a writer on a named pipe.
func TestOpenSpecial(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.uasset")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip(err)
	}
	for name, want := range map[string]string{
		pipe:        "not a regular file (a named pipe)",
		"/dev/null": "not a regular file (a character device)",
		dir:         "is a directory",
	} {
		done := make(chan error, 1)
		go func() {
			_, _, _, err := OpenWhole(name)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != name+": "+want {
				t.Errorf("OpenWhole(%s): %v, want %q", name, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenWhole(%s) still waiting after 10 s", name)
		}
	}
	if err := CheckRegular("x", 0o644); err != nil {
		t.Errorf("a regular file: %v", err)
	}
	if err := CheckRegular("x", os.ModeIrregular); err == nil || !strings.Contains(err.Error(), "special file") {
		t.Errorf("an irregular file: %v", err)
	}
}
