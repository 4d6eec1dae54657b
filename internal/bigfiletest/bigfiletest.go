// Package bigfiletest builds, for tests, packages with an export too big
// to read whole (copies of corpus packages grown by a hole, sparse on
// disk), and an opener that cuts a file short while it is mapped.
package bigfiletest

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/osfile"
)

// Export writes a copy of a cooked corpus package whose one export runs
// extra bytes longer, into a .uexp grown by that many zero bytes after its
// properties (a hole: sparse on disk), and returns the .uasset's name.
func Export(t *testing.T, extra int64) string {
	t.Helper()
	src := corpus.Path(t, "uassetapi", "TestImproperNameMapHashes", "OC_Gatling_DamageB_B")
	h, err := os.ReadFile(src + ".uasset")
	if err != nil {
		t.Fatal(err)
	}
	e, err := os.ReadFile(src + ".uexp")
	if err != nil {
		t.Fatal(err)
	}
	// The export's SerialSize (715) and SerialOffset (0x8fa), and the
	// summary's BulkDataStartOffset (3013, where the .uexp's data ends).
	put := func(old, new int64, next ...int64) {
		var pat []byte
		for _, v := range append([]int64{old}, next...) {
			pat = binary.LittleEndian.AppendUint64(pat, uint64(v))
		}
		if bytes.Count(h, pat) != 1 {
			t.Fatalf("%x not found once in the header", pat)
		}
		binary.LittleEndian.PutUint64(h[bytes.Index(h, pat):], uint64(new))
	}
	put(715, 715+extra, 0x8fa)
	put(3013, 3013+extra)
	dir := t.TempDir()
	name := filepath.Join(dir, "Big.uasset")
	if err := os.WriteFile(name, h, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "Big.uexp"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tag := len(e) - 4 // the package tag ends the .uexp
	if _, err := f.Write(e[:tag]); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(e[tag:], int64(tag)+extra); err != nil {
		t.Fatal(err)
	}
	return name
}

// LegacyExport writes a copy of an uncompressed UE3 corpus package whose
// one export (its last bytes) runs extra bytes longer, into zero bytes
// added to the file (a hole: sparse on disk), and returns its name.
func LegacyExport(t *testing.T, extra int64) string {
	t.Helper()
	b, err := os.ReadFile(corpus.Path(t, "legacy_ue123", "Martinii89+Unreal-Library", "010-Stuff", "Stars_UDK.upk"))
	if err != nil {
		t.Fatal(err)
	}
	// The export's SerialSize (120887) and SerialOffset (5253).
	pat := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 120887), 5253)
	if bytes.Count(b, pat) != 1 {
		t.Fatalf("%x not found once", pat)
	}
	binary.LittleEndian.PutUint32(b[bytes.Index(b, pat):], uint32(120887+extra))
	name := filepath.Join(t.TempDir(), "Stars.upk")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, int64(len(b))+extra); err != nil {
		t.Fatal(err)
	}
	return name
}

// Case is a package with an export too big to read whole: how to build
// it with the export extra bytes longer, and the extension of the file
// that holds the export.
type Case struct {
	Name string
	Make func(t *testing.T, extra int64) string
	Ext  string
}

// Cases are the packages Export and LegacyExport build.
var Cases = []Case{{"uexp", Export, ".uexp"}, {"UE3", LegacyExport, ".upk"}}

// CutOnSlice returns open, but for the files whose name ends in ext when
// open gives a binread.Slicer: such a file truncates itself to nothing
// when its first slice is asked for (and sets *cut), as another process
// might between the reading of a package's tables and of an export's
// data.
func CutOnSlice(open osfile.WholeOpener, ext string, cut *bool) osfile.WholeOpener {
	return func(name string) (io.ReaderAt, int64, io.Closer, error) {
		r, size, c, err := open(name)
		if s, ok := r.(binread.Slicer); ok && strings.HasSuffix(name, ext) {
			r = &cutOnSlice{ReaderAt: r, s: s, name: name, cut: cut}
		}
		return r, size, c, err
	}
}

// cutOnSlice is a file that truncates itself on its first slice.
type cutOnSlice struct {
	io.ReaderAt
	s    binread.Slicer
	name string
	cut  *bool
}

func (c *cutOnSlice) Slice(off, n int64) ([]byte, bool) {
	if !*c.cut {
		*c.cut = true
		if err := os.Truncate(c.name, 0); err != nil {
			panic(err)
		}
	}
	return c.s.Slice(off, n)
}
