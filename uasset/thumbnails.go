package uasset

import (
	"fmt"

	"github.com/upkg/upkg/internal/binread"
	"io"
	"sort"
)

// Thumbnail is one entry of the thumbnail table (FObjectFullNameAndThumbnail)
// with the header of its FObjectThumbnail. The image bytes are compressed
// PNG or JPEG as the editor stored them; Data reads them.
type Thumbnail struct {
	ObjectClassName String `json:"object_class_name"`
	// ObjectPath is the object path without the package name.
	ObjectPath String `json:"object_path"`
	FileOffset int32  `json:"file_offset"`

	// Width and Height are FObjectThumbnail's ImageWidth and ImageHeight; a
	// negative height marks JPEG compression (the height is its absolute value).
	Width  int32 `json:"width"`
	Height int32 `json:"height"`
	// DataOffset and DataSize locate the compressed image bytes.
	DataOffset int64  `json:"data_offset"`
	DataSize   int64  `json:"data_size"`
	Format     string `json:"format"` // "png", "jpeg", "empty" or "unknown"

	f *File
}

// thumbnailHeaderSize is ImageWidth, ImageHeight and the byte count.
const thumbnailHeaderSize = 12

// Data reads the thumbnail's compressed image bytes.
func (t *Thumbnail) Data() ([]byte, error) {
	if t.f == nil {
		return nil, fmt.Errorf("uasset: thumbnail not attached to a file")
	}
	if t.DataOffset < 0 || t.DataSize < 0 || t.DataOffset > t.f.size || t.DataSize > t.f.size-t.DataOffset {
		return nil, formatErrf("thumbnails", "image range [0x%x, +0x%x) outside the file", t.DataOffset, t.DataSize)
	}
	return readAllSection(io.NewSectionReader(t.f.r, t.DataOffset, t.DataSize))
}

func (f *File) readThumbnails() {
	s := &f.Summary
	off := int64(s.ThumbnailTableOffset)
	err := f.readSection("thumbnail table", off, func(a archive) {
		shareTextUpTo(a, f.nextBoundary(off)-off)
		serializeSlice(a, "ThumbnailTable", &f.Thumbnails, 12, func(a archive, t *Thumbnail) {
			a.str("ThumbnailTable.ObjectClassName", &t.ObjectClassName)
			a.str("ThumbnailTable.ObjectPathWithoutPackageName", &t.ObjectPath)
			a.i32("ThumbnailTable.FileOffset", &t.FileOffset)
		})
	}, func() int { return len(f.Thumbnails) })
	if err != nil || len(f.Thumbnails) == 0 {
		return
	}
	// The images precede the table; read each header.
	lo, hi := int64(-1), int64(0)
	br := f.tryRead(0, "thumbnails", func(br *binread.Reader) {
		lo, hi = -1, 0
		f.readThumbnailHeaders(br, &lo, &hi)
	})
	sec := Section{Name: "thumbnails", Offset: max(lo, 0), Size: max(hi-lo, 0), Count: len(f.Thumbnails), Err: formatErr("thumbnails", br.Err())}
	f.Sections = append(f.Sections, sec)
	if br.Err() != nil {
		return
	}
	f.sers = append(f.sers, sectionRec{name: "thumbnails", off: lo, ser: f.serializeThumbnailData})
}

// readThumbnailHeaders reads each thumbnail's FObjectThumbnail header.
func (f *File) readThumbnailHeaders(br *binread.Reader, lo, hi *int64) {
	for i := range f.Thumbnails {
		t := &f.Thumbnails[i]
		t.f = f
		if off := int64(t.FileOffset); off < 0 || off > br.Size() {
			// The seek fails: name the entry (only then, not per entry).
			br.SeekTo(off, fmt.Sprintf("ThumbnailTable[%d].FileOffset", i))
		} else {
			br.SeekTo(off, "")
		}
		t.Width = br.I32("ObjectThumbnail.ImageWidth")
		t.Height = br.I32("ObjectThumbnail.ImageHeight")
		n := br.Count("ObjectThumbnail.CompressedImageData", 1)
		if br.Err() != nil {
			break
		}
		t.DataOffset = br.Abs()
		t.DataSize = int64(n)
		t.Format = "empty"
		if n > 0 {
			var magic [4]byte
			br.Fixed(magic[:min(4, n)], "ObjectThumbnail.CompressedImageData")
			switch {
			case magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G':
				t.Format = "png"
			case magic[0] == 0xFF && magic[1] == 0xD8:
				t.Format = "jpeg"
			default:
				t.Format = "unknown"
			}
		}
		if *lo < 0 || int64(t.FileOffset) < *lo {
			*lo = int64(t.FileOffset)
		}
		*hi = max(*hi, t.DataOffset+t.DataSize)
	}
}

// serializeThumbnailData writes the thumbnail images in file order, each
// once (entries may share an image).
func (f *File) serializeThumbnailData(a archive) {
	if len(f.Thumbnails) == 1 { // the common case: nothing to sort or share
		f.serializeThumbnail(a, &f.Thumbnails[0])
		return
	}
	idx := make([]int, 0, len(f.Thumbnails))
	seen := map[int32]bool{}
	for i := range f.Thumbnails {
		if !seen[f.Thumbnails[i].FileOffset] {
			seen[f.Thumbnails[i].FileOffset] = true
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(x, y int) bool { return f.Thumbnails[idx[x]].FileOffset < f.Thumbnails[idx[y]].FileOffset })
	for _, i := range idx {
		if !f.serializeThumbnail(a, &f.Thumbnails[i]) {
			return
		}
	}
}

// serializeThumbnail writes one FObjectThumbnail; false when its image
// bytes could not be had.
func (f *File) serializeThumbnail(a archive, t *Thumbnail) bool {
	a.i32("ObjectThumbnail.ImageWidth", &t.Width)
	a.i32("ObjectThumbnail.ImageHeight", &t.Height)
	a.count("ObjectThumbnail.CompressedImageData", int(t.DataSize), 1)
	b, err := f.headerBytes(t.DataOffset, t.DataSize)
	if err != nil {
		a.fail("ObjectThumbnail.CompressedImageData", err)
		return false
	}
	a.fixed("ObjectThumbnail.CompressedImageData", b)
	return true
}
