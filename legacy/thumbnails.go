package legacy

import (
	"bytes"
	"fmt"
)

// Thumbnail is one entry of a UE3 editor package's thumbnail table (the
// table ThumbnailTableOffset points at, version 584 on): the object it
// shows and where its FObjectThumbnail is.
type Thumbnail struct {
	ObjectClassName string `json:"object_class_name"`
	// ObjectPath is the object's path without the package name.
	ObjectPath string `json:"object_path"`
	FileOffset int32  `json:"file_offset"`

	// Width and Height are FObjectThumbnail's ImageWidth and ImageHeight.
	Width  int32 `json:"width"`
	Height int32 `json:"height"`
	// DataOffset and DataSize locate CompressedImageData in the package
	// image.
	DataOffset int64  `json:"data_offset"`
	DataSize   int64  `json:"data_size"`
	Format     string `json:"format"` // "png", "jpeg", "empty" or "unknown"
}

// thumbnailEntryMin is the fewest bytes a table entry takes (two empty
// FStrings and the offset): the count is checked against the bytes left
// before any entry is read.
const thumbnailEntryMin = 12

// Thumbnails reads the thumbnail table and each entry's image header. A
// package without one (before version 584, or saved without thumbnails)
// has none and no error.
func (f *File) Thumbnails() ([]Thumbnail, error) {
	off := f.Summary.ThumbnailTableOffset
	if !f.ue3() || f.Summary.FileVersion < 584 || off == 0 {
		return nil, nil
	}
	if off < 0 || int64(off) >= f.size {
		return nil, &FormatError{Off: 0, Field: "Summary.ThumbnailTableOffset", Msg: fmt.Sprintf("offset %d outside the %d-byte package", off, f.size)}
	}
	r := f.reader()
	r.SeekTo(int64(off), "ThumbnailTable")
	n := r.Count("ThumbnailTable", thumbnailEntryMin)
	var out []Thumbnail
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, Thumbnail{
			ObjectClassName: r.FString("ThumbnailTable.ObjectClassName"),
			ObjectPath:      r.FString("ThumbnailTable.ObjectPathWithoutPackageName"),
			FileOffset:      r.I32("ThumbnailTable.FileOffset"),
		})
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("legacy: thumbnail table: %w", err)
	}
	for i := range out {
		t := &out[i]
		r.SeekTo(int64(t.FileOffset), fmt.Sprintf("ThumbnailTable[%d].FileOffset", i))
		t.Width = r.I32("ObjectThumbnail.ImageWidth")
		t.Height = r.I32("ObjectThumbnail.ImageHeight")
		size := r.Count("ObjectThumbnail.CompressedImageData", 1)
		t.DataOffset, t.DataSize = r.Abs(), int64(size)
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("legacy: thumbnail %d (%s %s): %w", i, t.ObjectClassName, t.ObjectPath, err)
		}
		var head [4]byte
		r.Fixed(head[:min(size, 4)], "ObjectThumbnail.CompressedImageData")
		switch {
		case size == 0:
			t.Format = "empty"
		case bytes.HasPrefix(head[:], []byte("\x89PNG")):
			t.Format = "png"
		case bytes.HasPrefix(head[:], []byte{0xFF, 0xD8}):
			t.Format = "jpeg"
		default:
			t.Format = "unknown"
		}
	}
	return out, nil
}

// ThumbnailData reads a thumbnail's image bytes as stored.
func (f *File) ThumbnailData(t Thumbnail) ([]byte, error) {
	if t.DataOffset < 0 || t.DataSize < 0 || t.DataOffset > f.size || t.DataSize > f.size-t.DataOffset {
		return nil, &FormatError{Off: t.DataOffset, Field: "ObjectThumbnail.CompressedImageData", Msg: fmt.Sprintf("%d bytes outside the %d-byte package", t.DataSize, f.size)}
	}
	b := make([]byte, t.DataSize)
	if _, err := f.img.ReadAt(b, t.DataOffset); err != nil {
		return nil, fmt.Errorf("legacy: reading thumbnail image: %w", err)
	}
	return b, nil
}
