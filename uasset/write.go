package uasset

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/binwrite"
)

// WriteHeader serializes the package header from the model: the summary and
// every section up to TotalHeaderSize (name, import and export maps, depends
// map, soft references, searchable names, thumbnails, asset registry data,
// preload dependencies, data resources, …), each at the offset the summary
// gives it. Bytes no section accounts for (padding some writers leave) are
// copied from the original file and reported by HeaderGaps.
//
// For a package read without loss the result equals the first
// TotalHeaderSize bytes of the file.
func (f *File) WriteHeader() ([]byte, error) {
	end := f.headerEnd()
	recs := f.sortedSers()
	var order binary.ByteOrder = binary.LittleEndian
	if f.BigEndian {
		order = binary.BigEndian
	}
	// One writer for the whole header: sections are written at their
	// offsets, gaps copied from the file between them.
	sv := newSaver(order, 0)
	sv.w.Grow(int(min(end, maxHeaderPresize)))
	for _, rec := range recs {
		if rec.off >= end {
			continue
		}
		pos := int64(sv.w.Len())
		if rec.off < pos {
			return nil, fmt.Errorf("uasset: rewrite: section %s at 0x%x overlaps the previous one (ending at 0x%x)", rec.name, rec.off, pos)
		}
		if gap := rec.off - pos; gap > 0 {
			b, err := f.headerBytes(pos, gap)
			if err != nil {
				return nil, err
			}
			sv.w.Raw(b)
		}
		rec.ser(sv)
	}
	if pos := int64(sv.w.Len()); pos < end {
		b, err := f.headerBytes(pos, end-pos)
		if err != nil {
			return nil, err
		}
		sv.w.Raw(b)
	}
	return sv.w.Bytes(), nil
}

// headerBytes returns original bytes [off, off+n), from the header buffer
// when it holds them (without copying), else read from the file.
func (f *File) headerBytes(off, n int64) ([]byte, error) {
	if off >= 0 && n >= 0 && off+n <= int64(len(f.hdr)) {
		return f.hdr[off : off+n], nil
	}
	return f.originalBytes(off, n)
}

// maxHeaderPresize bounds the room reserved up front for a rewritten
// header (headers are KiB to a few MiB; a bigger one grows as it is written).
const maxHeaderPresize = 4 << 20

// headerEnd is where the rewritten header stops: TotalHeaderSize, or the end
// of the last header section when that lies beyond it (asset registry data
// written after the header by some versions).
func (f *File) headerEnd() int64 {
	end := int64(f.Summary.TotalHeaderSize)
	if end <= 0 || end > f.size {
		end = f.size
	}
	return end
}

// Gap is a byte range of the header that no section accounts for.
type Gap struct {
	Offset int64
	Size   int64
	Zero   bool // all bytes are zero (padding)
}

// headerSpan is a header section's byte range, cut at headerEnd.
type headerSpan struct {
	name     string
	off, end int64
}

// headerSpans lists the sections that lie in the header (not export data,
// bulk data, the trailer or the tag), sorted by offset.
func (f *File) headerSpans() []headerSpan { return f.headerSpansInto(nil) }

// headerSpansInto is headerSpans appending to spans (a caller's buffer).
func (f *File) headerSpansInto(spans []headerSpan) []headerSpan {
	end := f.headerEnd()
	for _, s := range f.Sections {
		if s.InUexp || s.Offset >= end || s.Size <= 0 {
			continue
		}
		switch s.Name {
		case "export data", "bulk data", "package trailer", "package tag":
			continue
		}
		spans = append(spans, headerSpan{s.Name, s.Offset, min(s.Offset+s.Size, end)})
	}
	// The same pattern-defeating quicksort as sort.Slice, without its
	// reflection (spans at equal offsets stay in the order it gives).
	slices.SortFunc(spans, func(a, b headerSpan) int { return cmp.Compare(a.off, b.off) })
	return spans
}

// HeaderGaps lists the header bytes between sections that no section
// accounts for.
func (f *File) HeaderGaps() []Gap { return f.gapsBetween(f.headerSpans()) }

// gapsBetween lists the header bytes the spans (from headerSpans) leave.
func (f *File) gapsBetween(spans []headerSpan) []Gap {
	end := f.headerEnd()
	var gaps []Gap
	pos := int64(0)
	for _, sp := range spans {
		if sp.off > pos {
			gaps = append(gaps, f.gap(pos, sp.off-pos))
		}
		pos = max(pos, sp.end)
	}
	if pos < end {
		gaps = append(gaps, f.gap(pos, end-pos))
	}
	return gaps
}

func (f *File) gap(off, n int64) Gap {
	return Gap{Offset: off, Size: n, Zero: f.zeroBytes(off, n)}
}

// zeroBytes reports whether the n bytes at off can be read and are all zero.
func (f *File) zeroBytes(off, n int64) bool {
	b, err := f.originalBytes(off, n)
	if err != nil {
		return false
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (f *File) originalBytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off > f.size || n > f.size-off {
		return nil, formatErrf("rewrite", "range [0x%x, +0x%x) outside the file", off, n)
	}
	if m, ok := f.r.(binread.Mem); ok && off+n <= int64(len(m)) {
		return m[off : off+n : off+n], nil // in memory already (read only)
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, off); err != nil {
		return nil, formatErr("rewrite", err)
	}
	return b, nil
}

// HeaderRoundTrip rewrites the header from the model and reports whether it
// equals the file's bytes, with the offset of the first difference (-1 when
// equal). It gives what comparing [File.WriteHeader]'s result with the
// file's first bytes gives, but compares each section as it is written, in
// one reused buffer, instead of building the whole header first.
func (f *File) HeaderRoundTrip() (bool, int64, error) {
	end := f.headerEnd()
	recs := f.sortedSers()
	sv := roundTripSavers.Get().(*saver)
	defer putRoundTripSaver(sv)
	sv.w.SetOrder(binary.LittleEndian)
	if f.BigEndian {
		sv.w.SetOrder(binary.BigEndian)
	}
	// Bytes between sections are copied from the file by WriteHeader, so
	// only the sections can differ. Like WriteHeader, every section is
	// written even after a difference: a later one may fail the rewrite.
	pos, diff := int64(0), int64(-1)
	written := func() { // compares what was written at sv.base
		b := sv.w.Bytes()
		if diff >= 0 || len(b) == 0 {
			return
		}
		orig, err := f.headerBytes(sv.base, int64(len(b)))
		if err != nil {
			// Past the end of the file: the comparison below reports it.
			return
		}
		if !bytes.Equal(b, orig) {
			i := 0
			for b[i] == orig[i] {
				i++
			}
			diff = sv.base + int64(i)
		}
	}
	// Blobs the model keeps as the file's own bytes (thumbnail images, raw
	// sections) equal the file where they are written when they are those
	// very bytes: then what precedes them is compared, and they are
	// skipped instead of copied and compared.
	sv.inPlace = func(off int64, v []byte) bool {
		if len(v) < minInPlace {
			return false
		}
		orig, err := f.headerBytes(off, int64(len(v)))
		if err != nil || &orig[0] != &v[0] {
			return false
		}
		written()
		sv.w.Reset()
		sv.base = off + int64(len(v))
		return true
	}
	for _, rec := range recs {
		if rec.off >= end {
			continue
		}
		if rec.off < pos {
			return false, 0, fmt.Errorf("uasset: rewrite: section %s at 0x%x overlaps the previous one (ending at 0x%x)", rec.name, rec.off, pos)
		}
		if gap := rec.off - pos; gap > 0 {
			if _, err := f.headerBytes(pos, gap); err != nil {
				return false, 0, err
			}
		}
		sv.w.Reset()
		sv.base = rec.off
		rec.ser(sv)
		written()
		pos = sv.base + int64(sv.w.Len())
	}
	if pos < end {
		if _, err := f.headerBytes(pos, end-pos); err != nil {
			return false, 0, err
		}
		pos = end
	}
	if pos > int64(len(f.hdr)) {
		// The rewrite reaches past the header buffer: the file must hold it.
		if _, err := f.originalBytes(0, pos); err != nil {
			return false, 0, err
		}
	}
	if diff >= 0 {
		return false, diff, nil
	}
	return true, -1, nil
}

// sortedSers returns the header section serializers in offset order.
// Callers only read the result: when the records are in order already
// (they are read in offset order, most often) it is f.sers itself.
func (f *File) sortedSers() []sectionRec {
	sorted := true
	for i := 1; i < len(f.sers) && sorted; i++ {
		sorted = f.sers[i].off >= f.sers[i-1].off
	}
	if sorted {
		return f.sers
	}
	recs := append([]sectionRec(nil), f.sers...)
	// Insertion sort, stable: a few dozen records at most, read nearly in
	// offset order (and no reflection, unlike sort.SliceStable).
	for i := 1; i < len(recs); i++ {
		for j := i; j > 0 && recs[j].off < recs[j-1].off; j-- {
			recs[j], recs[j-1] = recs[j-1], recs[j]
		}
	}
	return recs
}

// roundTripSavers keep the buffers HeaderRoundTrip writes sections into.
var roundTripSavers = sync.Pool{New: func() any { return &saver{w: binwrite.New()} }}

// maxPooledRoundTrip bounds the buffer a pooled saver keeps.
const maxPooledRoundTrip = 1 << 20

// minInPlace is the smallest blob HeaderRoundTrip skips rather than copies.
const minInPlace = 64

func putRoundTripSaver(sv *saver) {
	sv.inPlace = nil
	if sv.w.Cap() <= maxPooledRoundTrip {
		roundTripSavers.Put(sv)
	}
}
