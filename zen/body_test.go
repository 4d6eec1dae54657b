package zen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// checkBody parses data given only its first n bytes and opts.Body: the
// result must be what parsing all of data gave (p and err), and every
// export's data the same bytes.
func checkBody(t *testing.T, name string, data []byte, n int, opts Options, p *Package, err error) {
	t.Helper()
	opts.Body, opts.Size = bytes.NewReader(data), int64(len(data))
	q, qerr := Parse(data[:n], opts)
	if (err == nil) != (qerr == nil) {
		t.Fatalf("%s: given %d of %d bytes and the rest as Body: %v; whole: %v", name, n, len(data), qerr, err)
	}
	if err != nil {
		return
	}
	// All but where the bytes come from (and the spare tables).
	a, b := *p, *q
	for _, x := range []*Package{&a, &b} {
		x.data, x.body, x.size, x.bodyRead, x.spare = nil, nil, 0, 0, spareTables{}
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: given %d of %d bytes and the rest as Body, the package differs", name, n, len(data))
	}
	// Exports that overlap may stop reading through Body (errBodyReads).
	for i := range p.Exports {
		d, err := p.ExportData(i)
		e, qerr := q.ExportData(i)
		if errors.Is(qerr, errBodyReads) {
			return
		}
		if (err == nil) != (qerr == nil) || !bytes.Equal(d, e) {
			t.Fatalf("%s: export %d: %d bytes, %v; through Body %d bytes, %v", name, i, len(d), err, len(e), qerr)
		}
	}
	for i := range p.CellExports {
		d, err := p.CellExportData(i)
		e, qerr := q.CellExportData(i)
		if errors.Is(qerr, errBodyReads) {
			return
		}
		if (err == nil) != (qerr == nil) || !bytes.Equal(d, e) {
			t.Fatalf("%s: cell export %d differs through Body", name, i)
		}
	}
}

// TestBodyReadsBounded: a package whose exports all claim the same big
// range reads at most maxBodyReads times its size through Body, then fails
// with errBodyReads instead of reading on.
func TestBodyReadsBounded(t *testing.T) {
	for _, path := range retocZenFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(data, Options{Auto: true})
		if err != nil || len(p.Exports) == 0 {
			continue
		}
		cr := &countingReader{r: bytes.NewReader(data)}
		q, err := Parse(data[:p.Summary.HeaderSize], Options{Auto: true, Body: cr, Size: int64(len(data))})
		if err != nil {
			t.Fatal(err)
		}
		// Every export claims all the data after the header, many times.
		for i := range q.exportOffsets {
			q.exportOffsets[i] = int64(q.Summary.HeaderSize)
			q.Exports[i].CookedSerialSize = uint64(len(data)) - uint64(q.Summary.HeaderSize)
		}
		failed := false
		for range 100 {
			for i := range q.Exports {
				if _, err := q.ExportData(i); errors.Is(err, errBodyReads) {
					failed = true
				}
			}
		}
		if !failed || cr.n > maxBodyReads*int64(len(data)) {
			t.Fatalf("%s: %d bytes read through Body for a %d-byte package (failed %v)", filepath.Base(path), cr.n, len(data), failed)
		}
		return
	}
	t.Fatal("no package with exports")
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.n += int64(n)
	return n, err
}

// TestParseBody parses every corpus zen package from prefixes of every
// interesting length (shorter than a summary, than the header, the header
// exactly, more) with the rest as Options.Body: the same package as parsed
// whole, and the same export data.
func TestParseBody(t *testing.T) {
	files := retocZenFiles(t)
	layouts := map[HeaderVersion]int{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Auto: true}
		p, err := Parse(data, opts)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		layouts[p.Layout]++
		h := int(p.Summary.HeaderSize)
		for _, n := range []int{0, 7, 8, 51, 52, 100, h / 2, h - 1, h, h + 1, len(data) - 1, len(data)} {
			if n >= 0 && n <= len(data) {
				checkBody(t, filepath.Base(path), data, n, opts, p, nil)
			}
		}
		// The layout given, as a container gives it.
		checkBody(t, filepath.Base(path), data, min(h, 64), Options{HeaderVersion: p.Layout}, p, nil)
	}
	if len(layouts) < 2 {
		t.Errorf("layouts %v: want both UE4 and UE5 summaries covered", layouts)
	}
	t.Logf("%d packages, layouts %v", len(files), layouts)
}

// TestParseBodySize: a Size smaller than what Parse is given, or past any
// package, is an error; export data past Size is cut short.
func TestParseBodySize(t *testing.T) {
	data, err := os.ReadFile(retocZenFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.NewReader(data)
	if _, err := Parse(data, Options{Auto: true, Body: body, Size: 10}); err == nil {
		t.Error("Size below the bytes given parsed")
	}
	if _, err := Parse(data[:64], Options{Auto: true, Body: body, Size: 1 << 50}); err == nil {
		t.Error("Size of 2^50 parsed")
	}
	p, err := Parse(data, Options{Auto: true})
	if err != nil {
		t.Fatal(err)
	}
	short := int64(p.Summary.HeaderSize) + 1
	q, err := Parse(data[:64], Options{Auto: true, Body: body, Size: short})
	if err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	for i := range q.Exports {
		if q.Exports[i].CookedSerialSize > 1 {
			if _, err := q.ExportData(i); !errors.As(err, &fe) {
				t.Errorf("export %d past Size: %v", i, err)
			}
		}
	}
}
