package legacy

import (
	"fmt"
	"strings"

	"github.com/upkg/upkg/internal/binread"
)

// UE3 bulk data flags (EBulkDataFlags).
const (
	bulkSeparateFile = 0x01 // payload is in a texture file cache (.tfc) or elsewhere
	bulkZlib         = 0x02
	bulkLZO          = 0x10
	bulkUnused       = 0x20 // no payload
	bulkLZX          = 0x80
)

// BulkData is FUntypedBulkData as UE3 serializes it inline.
type BulkData struct {
	Flags        uint32
	ElementCount int32
	SizeOnDisk   int32
	OffsetInFile int32
	// Data is the payload, decompressed; nil when it is stored elsewhere
	// or unused.
	Data []byte
}

// readBulk reads a bulk data header and its inline payload.
func (f *File) readBulk(r *binread.Reader, field string) (BulkData, error) {
	b := BulkData{
		Flags:        r.U32(field + ".Flags"),
		ElementCount: r.I32(field + ".ElementCount"),
		SizeOnDisk:   r.I32(field + ".SizeOnDisk"),
		OffsetInFile: r.I32(field + ".OffsetInFile"),
	}
	if err := r.Err(); err != nil {
		return b, err
	}
	if b.Flags&(bulkSeparateFile|bulkUnused) != 0 || b.SizeOnDisk <= 0 {
		return b, nil
	}
	raw := r.Bytes(int64(b.SizeOnDisk), field+".Data")
	if err := r.Err(); err != nil {
		return b, err
	}
	method := ""
	switch {
	case b.Flags&bulkZlib != 0:
		method = "Zlib"
	case b.Flags&bulkLZO != 0:
		method = "LZO"
	case b.Flags&bulkLZX != 0:
		method = "LZX"
	}
	if method == "" {
		b.Data = raw
		return b, nil
	}
	if b.ElementCount < 0 || int64(b.ElementCount) > int64(len(raw))*maxRatio || b.ElementCount > maxContentSize {
		return b, &FormatError{Off: r.Abs(), Field: field + ".ElementCount", Msg: fmt.Sprintf("%d bytes from %d compressed", b.ElementCount, len(raw))}
	}
	br := &bytesAt{raw}
	blocks, err := readChunkBlocks(br, int64(len(raw)), f.order, 0, int64(b.ElementCount))
	if err != nil {
		return b, err
	}
	out := make([]byte, b.ElementCount)
	if _, err := expandBlocks(br, int64(len(raw)), blocks, out, method); err != nil {
		return b, err
	}
	b.Data = out
	return b, nil
}

// bytesAt is a minimal io.ReaderAt over a byte slice.
type bytesAt struct{ b []byte }

func (x *bytesAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(x.b)) {
		return 0, fmt.Errorf("legacy: offset %d outside %d bytes", off, len(x.b))
	}
	n := copy(p, x.b[off:])
	if n < len(p) {
		return n, fmt.Errorf("legacy: short read")
	}
	return n, nil
}

// ue3PixelFormats maps EPixelFormat names to the decoders of [Texture].
var ue3PixelFormats = [...]struct {
	name   string
	format int
}{
	{"PF_DXT1", TexDXT1}, {"PF_DXT3", TexDXT3}, {"PF_DXT5", TexDXT5},
	{"PF_A8R8G8B8", TexRGBA8}, {"PF_G8", TexL8}, {"PF_V8U8", texV8U8},
}

// ue3PixelFormatOrder is EPixelFormat in enum order, for packages storing
// the Format property as a plain byte.
var ue3PixelFormatOrder = []string{"PF_Unknown", "PF_A32B32G32R32F", "PF_A8R8G8B8", "PF_G8", "PF_G16", "PF_DXT1", "PF_DXT3", "PF_DXT5"}

// texture3 reads a UE3 Texture2D: the UTexture source art, then the mip
// maps, each a bulk data block with its size.
func (f *File) texture3(i int) (*Texture, error) {
	if f.BigEndian && !f.isXbox360() {
		return nil, &UnsupportedError{Feature: "PS3 / Wii U texture layout"}
	}
	o, r, err := f.nativeReader(i)
	if err != nil {
		return nil, err
	}
	var format string
	if p := o.Prop("Format"); p != nil {
		switch v := p.Value.(type) {
		case string:
			format = v
			if k := strings.LastIndex(v, "::"); k >= 0 {
				format = v[k+2:]
			}
		case uint8:
			if int(v) < len(ue3PixelFormatOrder) {
				format = ue3PixelFormatOrder[v]
			}
		}
	}
	t := &Texture{USize: o.intProp("SizeX", 0), VSize: o.intProp("SizeY", 0), ue3: true}
	if f.game != gameME3 && !(f.game == gameMELE && f.Summary.LicenseeVersion >= 205) {
		if _, err := f.readBulk(r, "Texture.SourceArt"); err != nil {
			return nil, fmt.Errorf("legacy: texture %s: %w", f.ExportPath(i), err)
		}
	}
	if f.Summary.FileVersion < 297 {
		t.USize, t.VSize = int(r.I32("Texture2D.SizeX")), int(r.I32("Texture2D.SizeY"))
		if n := int(r.I32("Texture2D.Format")); n < len(ue3PixelFormatOrder) {
			format = ue3PixelFormatOrder[n]
		}
	}
	start := r.Offset()
	n := r.I32("Texture2D.Mips")
	cnt := r.CheckCount(start, int64(n), 24, "Texture2D.Mips")
	if cnt > maxMips {
		r.FailAt(start, "Texture2D.Mips", fmt.Errorf("%d mip maps", cnt))
	}
	for range cnt {
		if r.Err() != nil {
			break
		}
		b, err := f.readBulk(r, "Mip.Data")
		if err != nil {
			return nil, fmt.Errorf("legacy: texture %s: %w", f.ExportPath(i), err)
		}
		m := Mip{Data: b.Data, Width: int(r.I32("Mip.SizeX")), Height: int(r.I32("Mip.SizeY"))}
		t.Mips = append(t.Mips, m)
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("legacy: texture %s: %w", f.ExportPath(i), err)
	}
	fmtNo, ok := 0, false
	for _, p := range ue3PixelFormats {
		if p.name == format {
			fmtNo, ok = p.format, true
			break
		}
	}
	if !ok {
		return nil, &UnsupportedError{Feature: fmt.Sprintf("texture pixel format %q", format)}
	}
	t.Format = fmtNo
	if f.isXbox360() {
		for k := range t.Mips {
			m := &t.Mips[k]
			if len(m.Data) == 0 {
				continue
			}
			if m.Data, err = untile360(m.Data, m.Width, m.Height, fmtNo); err != nil {
				return nil, fmt.Errorf("legacy: texture %s mip %d: %w", f.ExportPath(i), k, err)
			}
		}
	}
	return t, nil
}
