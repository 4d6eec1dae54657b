package uasset

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/upkg/upkg/internal/binread"
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

// TestReadDependsMap checks the one-array depends map reader against the
// generic serializer, on the corpus and on every truncation of one map.
func TestReadDependsMap(t *testing.T) {
	generic := func(b []byte, off int64, n int) ([][]PackageIndex, error) {
		r := binread.FromBytes(b)
		r.SeekTo(off, "")
		var d [][]PackageIndex
		serializeN(loader{r}, "DependsMap", &d, n, 4, func(a archive, d *[]PackageIndex) {
			serializeSlice(a, "DependsMap.Entry", d, 4, func(a archive, p *PackageIndex) { p.serialize(a, "DependsMap.Index") })
		})
		return d, r.Err()
	}
	flat := func(b []byte, off int64, n int) ([][]PackageIndex, error) {
		r := binread.FromBytes(b)
		r.SeekTo(off, "")
		d := readDependsMap(r, n)
		return d, r.Err()
	}
	same := func(what string, b []byte, off int64, n int) {
		d1, err1 := generic(b, off, n)
		d2, err2 := flat(b, off, n)
		if !reflect.DeepEqual(d1, d2) || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("%s: generic %v, %v; one array %v, %v", what, d1, err1, d2, err2)
		}
	}
	tested := 0
	for _, p := range corpusPackages(t, "uncooked") {
		d, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFile(bytes.NewReader(d), int64(len(d)))
		if err != nil || f.Summary.DependsOffset <= 0 || f.Summary.ExportCount == 0 {
			continue
		}
		off, n := int64(f.Summary.DependsOffset), int(f.Summary.ExportCount)
		same(p, d, off, n)
		if tested < 3 {
			for end := off; end < off+int64(n)*4+64 && end <= int64(len(d)); end++ {
				same(fmt.Sprintf("%s cut at %d", p, end), d[:end], off, n)
			}
		}
		tested++
	}
	if tested == 0 {
		t.Skip("no depends map in the corpus")
	}
}
