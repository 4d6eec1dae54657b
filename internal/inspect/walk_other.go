//go:build !linux

package inspect

import "os"

// dirReader lists folders for the verify walk (with os.ReadDir here; see
// walk_linux.go). direct is for Linux only.
type dirReader struct{ direct bool }

// read lists the folder path; parent, name and depth are for readers that
// open folders relative to their parent. It returns no descriptor (-1).
func (r *dirReader) read(parent int, name, path string, depth int) (int, []dirEntry, error) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return -1, nil, err
	}
	ents := make([]dirEntry, len(entries))
	for i, d := range entries {
		ents[i] = dirEntry{name: d.Name(), typ: d.Type()}
	}
	return -1, ents, nil
}

func (r *dirReader) closeDir(int) {}

// readHead reads the first len(b) bytes of the file path.
func (r *dirReader) readHead(_ int, _, path string, b []byte) bool { return readHead(path, b) }
