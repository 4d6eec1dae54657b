package legacy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/upkg/upkg/internal/binread"
)

// This file reads the native data of the classes whose content users want
// back as files: Texture (and its subclasses), Palette, Sound, Music and
// TextBuffer (UnrealScript source), for UE1 and UE2 packages.

// ErrNoContent reports an export whose class has no content reader here.
var ErrNoContent = errors.New("legacy: no content reader for this class")

// Prop returns the first property named name (array index 0), or nil.
func (o *Object) Prop(name string) *Property {
	for i := range o.Properties {
		if p := &o.Properties[i]; p.ArrayIndex == 0 && strings.EqualFold(p.Name, name) {
			return p
		}
	}
	return nil
}

func (o *Object) intProp(name string, def int) int {
	if p := o.Prop(name); p != nil {
		switch v := p.Value.(type) {
		case int32:
			return int(v)
		case uint8:
			return int(v)
		}
	}
	return def
}

func (o *Object) boolProp(name string) bool {
	if p := o.Prop(name); p != nil {
		if v, ok := p.Value.(bool); ok {
			return v
		}
	}
	return false
}

// nativeReader returns the object's decoded header and a reader positioned
// just after its properties.
func (f *File) nativeReader(i int) (*Object, *binread.Reader, error) {
	data, err := f.Data(i)
	if err != nil {
		return nil, nil, err
	}
	o, err := f.decodeObject(i, data)
	if err != nil {
		return nil, nil, err
	}
	r := binread.FromBytes(data)
	f.setOrder(r)
	r.SeekTo(o.PropertiesEnd, "Native")
	// Offsets inside native data (lazy array skip positions) are absolute.
	return o, r, nil
}

// maxContentSize bounds one embedded content blob.
const maxContentSize = 1 << 30

// lazyArray reads a TLazyArray<BYTE>: before version 62 just a compact
// count; from 62 an int32 skip position (absolute end of the data) first.
func (f *File) lazyArray(r *binread.Reader, field string) []byte {
	if f.Summary.FileVersion >= verLazyArraySkip {
		r.I32(field + ".SkipPos")
	}
	start := r.Offset()
	n := r.CompactIndex(field + ".Count")
	if r.Err() != nil {
		return nil
	}
	if n < 0 || int64(n) > r.Remaining() || n > maxContentSize {
		r.FailAt(start, field+".Count", fmt.Errorf("%w: %d bytes, %d left", binread.ErrCount, n, r.Remaining()))
		return nil
	}
	return r.Bytes(int64(n), field)
}

// Texture formats (ETextureFormat) of UE1 and UE2.
const (
	TexP8     = 0
	TexRGBA7  = 1
	TexRGB16  = 2
	TexDXT1   = 3
	TexRGB8   = 4
	TexRGBA8  = 5
	TexNoData = 6
	TexDXT3   = 7
	TexDXT5   = 8
	TexL8     = 9
	TexG16    = 10

	// texV8U8 is UE3's PF_V8U8 (signed two-channel normal map); it has no
	// UE1/UE2 number.
	texV8U8 = 0x100
)

// texFormatNames names the texture formats. (Tables searched in turn here
// and below: a map literal costs its own initialization code in the
// WebAssembly.)
var texFormatNames = [...]struct {
	format int
	name   string
}{
	{TexP8, "P8"}, {TexRGBA7, "RGBA7"}, {TexRGB16, "RGB16"}, {TexDXT1, "DXT1"}, {TexRGB8, "RGB8"}, {TexRGBA8, "RGBA8"},
	{TexNoData, "NODATA"}, {TexDXT3, "DXT3"}, {TexDXT5, "DXT5"}, {TexL8, "L8"}, {TexG16, "G16"}, {texV8U8, "V8U8"},
}

// texFormatName returns the name of a texture format, "" when unknown.
func texFormatName(format int) string {
	for _, f := range texFormatNames {
		if f.format == format {
			return f.name
		}
	}
	return ""
}

// Mip is one FMipmap of a UE1/UE2 texture.
type Mip struct {
	Width, Height int
	UBits, VBits  uint8
	Data          []byte
}

// Texture is a decoded UE1/UE2 Texture (or subclass) export.
type Texture struct {
	Format  int
	USize   int // from the properties
	VSize   int
	Masked  bool
	Mips    []Mip
	Palette []color.NRGBA // nil for non-paletted formats
	// PaletteNote says why a paletted texture has no palette (an import
	// from another package), in which case Image uses a grey ramp.
	PaletteNote string

	ue3 bool // UE3 Texture2D: the largest mip with a payload is the image
}

// FormatName returns the ETextureFormat name ("P8", "DXT1").
func (t *Texture) FormatName() string {
	if s := texFormatName(t.Format); s != "" {
		return s
	}
	return fmt.Sprintf("format %d", t.Format)
}

// maxMips bounds the mip count (a 2^15 texture has 16 levels).
const maxMips = 32

// Texture reads the texture stored in export i.
func (f *File) Texture(i int) (*Texture, error) {
	if f.ue3() {
		return f.texture3(i)
	}
	o, r, err := f.nativeReader(i)
	if err != nil {
		return nil, err
	}
	t := &Texture{
		Format: o.intProp("Format", TexP8),
		USize:  o.intProp("USize", 0),
		VSize:  o.intProp("VSize", 0),
		Masked: o.boolProp("bMasked"),
	}
	start := r.Offset()
	n := r.CompactIndex("Texture.Mips")
	if r.Err() == nil && (n < 0 || n > maxMips) {
		r.FailAt(start, "Texture.Mips", fmt.Errorf("%d mip maps", n))
	}
	for range n {
		if r.Err() != nil {
			break
		}
		var m Mip
		m.Data = f.lazyArray(r, "Mipmap.DataArray")
		m.Width = int(r.I32("Mipmap.USize"))
		m.Height = int(r.I32("Mipmap.VSize"))
		m.UBits = r.U8("Mipmap.UBits")
		m.VBits = r.U8("Mipmap.VBits")
		t.Mips = append(t.Mips, m)
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("legacy: texture %s: %w", f.ExportPath(i), err)
	}
	if t.Format == TexP8 {
		pal := o.Prop("Palette")
		switch {
		case pal == nil || pal.Ref == 0:
			t.PaletteNote = "no Palette property"
		case pal.Ref < 0:
			t.PaletteNote = "palette " + f.ObjectPath(pal.Ref) + " is in another package"
		default:
			t.Palette, err = f.Palette(int(pal.Ref - 1))
			if err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// Palette reads the colours of a Palette export.
func (f *File) Palette(i int) ([]color.NRGBA, error) {
	if i < 0 || i >= len(f.Exports) {
		return nil, fmt.Errorf("legacy: palette export %d out of range", i)
	}
	if f.ClassName(i) != "Palette" {
		return nil, fmt.Errorf("legacy: export %s is a %s, not a Palette", f.ExportPath(i), f.ClassName(i))
	}
	_, r, err := f.nativeReader(i)
	if err != nil {
		return nil, err
	}
	start := r.Offset()
	n := r.CompactIndex("Palette.Colors")
	n32 := r.CheckCount(start, int64(n), 4, "Palette.Colors")
	if n32 > 256 {
		r.FailAt(start, "Palette.Colors", fmt.Errorf("%d colours (at most 256)", n32))
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	b := r.Bytes(int64(n32)*4, "Palette.Colors")
	cols := make([]color.NRGBA, n32)
	bgra := f.Summary.FileVersion >= verUE2
	for j := range cols {
		c := b[4*j : 4*j+4]
		if bgra {
			cols[j] = color.NRGBA{c[2], c[1], c[0], 255}
		} else {
			cols[j] = color.NRGBA{c[0], c[1], c[2], 255}
		}
	}
	return cols, r.Err()
}

// ErrNoPixels reports a texture whose file stores no pixels: procedural
// textures (FireTexture, WaterTexture and friends compute them at run
// time) and textures stripped from server packages.
var ErrNoPixels = errors.New("legacy: texture stores no pixel data")

// maxPixels bounds a decoded image (8192×8192).
const maxPixels = 1 << 26

// Image decodes mip level 0.
func (t *Texture) Image() (image.Image, error) {
	if len(t.Mips) == 0 {
		return nil, fmt.Errorf("%w (no mip maps)", ErrNoPixels)
	}
	if t.ue3 {
		// Cooked textures keep their top mips in a texture file cache.
		for n, m := range t.Mips {
			if len(m.Data) > 0 {
				return t.MipImage(n)
			}
		}
		return nil, fmt.Errorf("%w (every mip is stored outside the package)", ErrNoPixels)
	}
	if len(t.Mips[0].Data) == 0 {
		return nil, fmt.Errorf("%w (mip 0 of %dx%d is empty)", ErrNoPixels, t.Mips[0].Width, t.Mips[0].Height)
	}
	return t.MipImage(0)
}

// MipImage decodes mip level n.
func (t *Texture) MipImage(n int) (image.Image, error) {
	m := t.Mips[n]
	w, h := m.Width, m.Height
	if w <= 0 || h <= 0 || w > 1<<15 || h > 1<<15 || w*h > maxPixels {
		return nil, fmt.Errorf("legacy: mip %d has size %dx%d", n, w, h)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	need := func(bpp int) error {
		if len(m.Data) < w*h*bpp {
			return fmt.Errorf("legacy: %s mip %d: %d bytes for %dx%d", t.FormatName(), n, len(m.Data), w, h)
		}
		return nil
	}
	switch t.Format {
	case TexP8:
		if err := need(1); err != nil {
			return nil, err
		}
		pal := t.Palette
		if len(pal) == 0 {
			pal = make([]color.NRGBA, 256)
			for i := range pal {
				pal[i] = color.NRGBA{uint8(i), uint8(i), uint8(i), 255}
			}
		}
		for p := 0; p < w*h; p++ {
			idx := int(m.Data[p])
			var c color.NRGBA
			if idx < len(pal) {
				c = pal[idx]
			}
			if t.Masked && idx == 0 {
				c.A = 0
			}
			copy(img.Pix[4*p:], []byte{c.R, c.G, c.B, c.A})
		}
	case TexRGBA8:
		if err := need(4); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			s := m.Data[4*p:]
			copy(img.Pix[4*p:], []byte{s[2], s[1], s[0], s[3]})
		}
	case TexRGB8:
		if err := need(3); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			s := m.Data[3*p:]
			copy(img.Pix[4*p:], []byte{s[2], s[1], s[0], 255})
		}
	case TexL8:
		if err := need(1); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			v := m.Data[p]
			copy(img.Pix[4*p:], []byte{v, v, v, 255})
		}
	case TexG16:
		if err := need(2); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			v := m.Data[2*p+1]
			copy(img.Pix[4*p:], []byte{v, v, v, 255})
		}
	case texV8U8:
		if err := need(2); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			// Signed X and Y; Z completes the unit normal (as UModel and
			// the engine's shaders do), so the map looks as normal maps do.
			x, y := float64(int8(m.Data[2*p]))/127, float64(int8(m.Data[2*p+1]))/127
			z := math.Sqrt(max(0, 1-x*x-y*y))
			copy(img.Pix[4*p:], []byte{m.Data[2*p] ^ 0x80, m.Data[2*p+1] ^ 0x80, uint8(z*127.5 + 127.5), 255})
		}
	case TexRGB16:
		if err := need(2); err != nil {
			return nil, err
		}
		for p := 0; p < w*h; p++ {
			v := binary.LittleEndian.Uint16(m.Data[2*p:])
			// 5-6-5 bits widened to 8 with their top bits repeated below
			// (31 -> 255, not 248).
			r, g, b := uint8(v>>11), uint8(v>>5&0x3F), uint8(v&0x1F)
			r, g, b = r<<3|r>>2, g<<2|g>>4, b<<3|b>>2
			copy(img.Pix[4*p:], []byte{r, g, b, 255})
		}
	case TexDXT1, TexDXT3, TexDXT5:
		if err := decodeDXT(img, m.Data, t.Format); err != nil {
			return nil, fmt.Errorf("legacy: mip %d: %w", n, err)
		}
	default:
		return nil, &UnsupportedError{Feature: "texture format " + t.FormatName()}
	}
	return img, nil
}

// decodeDXT decodes S3TC blocks (BC1/BC2/BC3) into img.
func decodeDXT(img *image.NRGBA, data []byte, format int) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	bw, bh := (w+3)/4, (h+3)/4
	blockSize := 16
	if format == TexDXT1 {
		blockSize = 8
	}
	if len(data) < bw*bh*blockSize {
		return fmt.Errorf("DXT data of %d bytes for %dx%d", len(data), w, h)
	}
	var px [16][4]uint8
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			b := data[(by*bw+bx)*blockSize:]
			color := b
			if format != TexDXT1 {
				color = b[8:]
			}
			c0 := binary.LittleEndian.Uint16(color)
			c1 := binary.LittleEndian.Uint16(color[2:])
			var pal [4][4]uint8
			pal[0] = rgb565(c0)
			pal[1] = rgb565(c1)
			if c0 > c1 || format != TexDXT1 {
				for k := 0; k < 3; k++ {
					pal[2][k] = uint8((2*int(pal[0][k]) + int(pal[1][k])) / 3)
					pal[3][k] = uint8((int(pal[0][k]) + 2*int(pal[1][k])) / 3)
				}
				pal[2][3], pal[3][3] = 255, 255
			} else {
				for k := 0; k < 3; k++ {
					pal[2][k] = uint8((int(pal[0][k]) + int(pal[1][k])) / 2)
				}
				pal[2][3] = 255
				pal[3] = [4]uint8{0, 0, 0, 0}
			}
			bits := binary.LittleEndian.Uint32(color[4:])
			for i := range 16 {
				px[i] = pal[bits>>(2*i)&3]
			}
			switch format {
			case TexDXT3:
				for i := range 16 {
					a := (b[i/2] >> (4 * (i & 1))) & 0xF
					px[i][3] = a<<4 | a
				}
			case TexDXT5:
				a0, a1 := int(b[0]), int(b[1])
				var ap [8]int
				ap[0], ap[1] = a0, a1
				if a0 > a1 {
					for k := 1; k < 7; k++ {
						ap[k+1] = ((7-k)*a0 + k*a1) / 7
					}
				} else {
					for k := 1; k < 5; k++ {
						ap[k+1] = ((5-k)*a0 + k*a1) / 5
					}
					ap[6], ap[7] = 0, 255
				}
				abits := uint64(b[2]) | uint64(b[3])<<8 | uint64(b[4])<<16 | uint64(b[5])<<24 | uint64(b[6])<<32 | uint64(b[7])<<40
				for i := range 16 {
					px[i][3] = uint8(ap[abits>>(3*i)&7])
				}
			}
			for i := range 16 {
				x, y := bx*4+i%4, by*4+i/4
				if x < w && y < h {
					o := img.PixOffset(x, y)
					copy(img.Pix[o:o+4], px[i][:])
				}
			}
		}
	}
	return nil
}

func rgb565(c uint16) [4]uint8 {
	r, g, b := uint8(c>>11&0x1F), uint8(c>>5&0x3F), uint8(c&0x1F)
	return [4]uint8{r<<3 | r>>2, g<<2 | g>>4, b<<3 | b>>2, 255}
}

// Sound reads the embedded file of a Sound export: its declared FileType
// ("WAV", "ogg") and the bytes, which for WAV are a whole RIFF file.
func (f *File) Sound(i int) (fileType string, data []byte, err error) {
	return f.embeddedFile(i, "Sound")
}

// Music reads the embedded module of a Music export: FileType ("it", "s3m",
// "xm", "umx", "ogg") and the bytes.
func (f *File) Music(i int) (fileType string, data []byte, err error) {
	return f.embeddedFile(i, "Music")
}

// embeddedFile reads FileType (a name) and the lazy byte array that follow
// the properties of Sound and Music objects.
func (f *File) embeddedFile(i int, what string) (string, []byte, error) {
	if f.ue3() {
		if what == "Sound" {
			return f.soundNodeWave(i)
		}
		return "", nil, &UnsupportedError{Feature: "UE3 " + what + " payloads are not decoded"}
	}
	_, r, err := f.nativeReader(i)
	if err != nil {
		return "", nil, err
	}
	ft := f.readNameRef(r, what+".FileType")
	at := r.Offset()
	data := f.lazyArray(r, what+".Data")
	if (r.Err() != nil || r.Remaining() != 0) && f.Summary.FileVersion >= verUE2 {
		// UE2 sounds store a float (Likelihood) between the file type and
		// the data in some builds; retry past it.
		r.ClearErr()
		r.SeekTo(at+4, what+".Data")
		data = f.lazyArray(r, what+".Data")
	}
	if err := r.Err(); err != nil {
		return "", nil, fmt.Errorf("legacy: %s %s: %w", strings.ToLower(what), f.ExportPath(i), err)
	}
	return ft, data, nil
}

// TextBuffer reads the text of a TextBuffer export (UnrealScript source
// when it is a class's ScriptText).
func (f *File) TextBuffer(i int) (string, error) {
	_, r, err := f.nativeReader(i)
	if err != nil {
		return "", err
	}
	r.I32("TextBuffer.Pos")
	r.I32("TextBuffer.Top")
	var s string
	if f.ue3() {
		s = r.FString("TextBuffer.Text")
	} else {
		s = readCompactString(r, "TextBuffer.Text")
	}
	if err := r.Err(); err != nil {
		return "", fmt.Errorf("legacy: text buffer %s: %w", f.ExportPath(i), err)
	}
	return s, nil
}

// moduleExt names a tracker module by its signature.
func moduleExt(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("IMPM")):
		return "it"
	case len(b) >= 48 && string(b[44:48]) == "SCRM":
		return "s3m"
	case bytes.HasPrefix(b, []byte("Extended Module:")):
		return "xm"
	case bytes.HasPrefix(b, []byte("OggS")):
		return "ogg"
	case bytes.HasPrefix(b, []byte("RIFF")):
		return "wav"
	case bytes.HasPrefix(b, []byte("fLaC")):
		return "flac"
	case bytes.HasPrefix(b, []byte("ID3")) || len(b) > 2 && b[0] == 0xFF && b[1]&0xE0 == 0xE0:
		return "mp3"
	case len(b) >= 1084 && (string(b[1080:1084]) == "M.K." || string(b[1080:1084]) == "M!K!" || string(b[1080:1084]) == "FLT4"):
		return "mod"
	}
	return ""
}

// maxActors bounds a level's actor list.
const maxActors = 1 << 20

// levelActors reads the actor list at the start of a Level's native data
// (ULevelBase's TTransArray<AActor*>): UE1/UE2 store the count twice as
// int32 (Num, Max) and then compact references; UE3 stores the owner, the
// count and int32 references. Every reference must be an export or null.
func (f *File) levelActors(native []byte) ([]int32, error) {
	r := binread.FromBytes(native)
	f.setOrder(r)
	if f.ue3() {
		r.I32("Level.Actors.Owner")
	}
	start := r.Offset()
	n := r.I32("Level.Actors.Num")
	if !f.ue3() {
		r.I32("Level.Actors.Max")
	}
	cnt := r.CheckCount(start, int64(n), 1, "Level.Actors.Num")
	if cnt > maxActors {
		return nil, fmt.Errorf("legacy: %d actors", cnt)
	}
	refs := make([]int32, 0, binread.SliceCap(cnt))
	for range cnt {
		ref := f.objRef(r, "Level.Actor")
		if r.Err() != nil {
			return nil, r.Err()
		}
		if ref < 0 || !f.validRef(ref) {
			return nil, fmt.Errorf("legacy: actor reference %d is not an export", ref)
		}
		refs = append(refs, ref)
	}
	return refs, r.Err()
}

// soundNodeWave reads a UE3 SoundNodeWave: the RawData bulk (the imported
// WAV file, kept in editor packages), else the PC Ogg Vorbis data.
func (f *File) soundNodeWave(i int) (string, []byte, error) {
	if f.BigEndian {
		return "", nil, &UnsupportedError{Feature: "console sound data"}
	}
	_, r, err := f.nativeReader(i)
	if err != nil {
		return "", nil, err
	}
	raw, err := f.readBulk(r, "SoundNodeWave.RawData")
	if err != nil {
		return "", nil, fmt.Errorf("legacy: sound %s: %w", f.ExportPath(i), err)
	}
	if len(raw.Data) > 0 {
		return "wav", raw.Data, nil
	}
	pc, err := f.readBulk(r, "SoundNodeWave.CompressedPCData")
	if err != nil {
		return "", nil, fmt.Errorf("legacy: sound %s: %w", f.ExportPath(i), err)
	}
	return "ogg", pc.Data, nil
}
