package uasset

import (
	"bytes"
	"os"
	"testing"
)

// writeHeaderRoundTrip is what HeaderRoundTrip reports, computed the long
// way: the whole rewritten header compared with the file's first bytes.
func writeHeaderRoundTrip(f *File) (bool, int64, error) {
	hdr, err := f.WriteHeader()
	if err != nil {
		return false, 0, err
	}
	orig, err := f.originalBytes(0, int64(len(hdr)))
	if err != nil {
		return false, 0, err
	}
	if bytes.Equal(hdr, orig) {
		return true, -1, nil
	}
	i := 0
	for hdr[i] == orig[i] {
		i++
	}
	return false, int64(i), nil
}

// TestHeaderRoundTripSections checks that comparing the rewrite section by
// section gives what comparing the whole rewritten header gives, for the
// corpus packages as read and with a name changed (a difference).
func TestHeaderRoundTripSections(t *testing.T) {
	var paths []string
	for _, dir := range []string{"uncooked", "cooked"} {
		paths = append(paths, corpusPackages(t, dir)...)
	}
	diffs := 0
	for _, p := range paths {
		d, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFile(bytes.NewReader(d), int64(len(d)))
		if err != nil {
			continue
		}
		for pass := 0; pass < 2; pass++ {
			if pass == 1 {
				if len(f.Names) == 0 {
					break
				}
				names := append([]NameEntry(nil), f.Names...)
				names[len(names)/2].Name.S += "x"
				f.Names = names
			}
			ok1, at1, err1 := f.HeaderRoundTrip()
			ok2, at2, err2 := writeHeaderRoundTrip(f)
			if !ok1 {
				diffs++
			}
			if ok1 != ok2 || at1 != at2 || (err1 == nil) != (err2 == nil) {
				t.Errorf("%s pass %d: HeaderRoundTrip = %v, %d, %v; whole header = %v, %d, %v", p, pass, ok1, at1, err1, ok2, at2, err2)
			}
		}
	}
	if diffs == 0 && len(paths) > 0 {
		t.Errorf("no rewrite differed: the changed names were not compared")
	}
}
