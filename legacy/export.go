package legacy

import (
	"encoding/binary"
	"fmt"
	"image"
	"strings"
)

// Content is an export's content as a standalone file.
type Content struct {
	Export int
	// Name is the suggested relative file name: the object's groups as
	// directories, then its name and the extension ("Skins/Wall1.png").
	Name string
	Kind string // "texture", "palette", "sound", "music", "script", "text"
	Data []byte
	// Width and Height are the image size of a texture.
	Width, Height int
	// Note explains a substitution (a grey ramp for a missing palette).
	Note string
}

// IsTextureClass reports whether a class name is read by [File.Texture]:
// the UE1/UE2 Texture subclasses whose mip maps are stored like Texture's,
// and any other class whose name ends in "Texture", tried the same way.
func IsTextureClass(class string) bool {
	switch class {
	case "Texture", "FireTexture", "WaterTexture", "WaveTexture", "WetTexture",
		"IceTexture", "FractalTexture", "ScriptedTexture", "Cubemap":
		return true
	}
	return strings.HasSuffix(class, "Texture")
}

// ContentKind returns the kind of content export i has, or "" when its
// class has no content reader.
func (f *File) ContentKind(i int) string {
	if f.ue3() {
		switch f.ClassName(i) {
		case "TextBuffer":
			return "script"
		case "Texture2D", "LightMapTexture2D", "ShadowMapTexture2D", "TerrainWeightMapTexture":
			return "texture"
		case "SoundNodeWave":
			return "sound"
		}
		return ""
	}
	switch c := f.ClassName(i); {
	case IsTextureClass(c):
		return "texture"
	case c == "Palette":
		return "palette"
	case c == "Sound":
		return "sound"
	case c == "Music":
		return "music"
	case c == "TextBuffer":
		return "script"
	}
	return ""
}

// relName builds the relative output name of export i: outer objects
// become directories. Characters that are unsafe in file names are
// replaced.
func (f *File) relName(i int, ext string) string {
	var parts []string
	cur := int32(i + 1)
	for depth := 0; cur != 0 && depth < maxDepth; depth++ {
		parts = append(parts, safeName(f.ObjectName(cur)))
		cur = f.outer(cur)
	}
	for a, b := 0, len(parts)-1; a < b; a, b = a+1, b-1 {
		parts[a], parts[b] = parts[b], parts[a]
	}
	return strings.Join(parts, "/") + "." + ext
}

// safeName keeps a path component inside its directory.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, strings.ContainsRune(`/\:*?"<>|`, r):
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// ExportContent converts export i to a file: textures to PNG, sounds to
// their embedded file (WAV), music to the embedded module, TextBuffer to
// .uc source. It returns [ErrNoContent] for other classes.
func (f *File) ExportContent(i int) (*Content, error) {
	if i < 0 || i >= len(f.Exports) {
		return nil, fmt.Errorf("legacy: export %d out of range", i)
	}
	c := &Content{Export: i, Kind: f.ContentKind(i)}
	switch c.Kind {
	case "texture":
		t, err := f.Texture(i)
		if err != nil {
			return nil, err
		}
		img, err := t.Image()
		if err != nil {
			return nil, fmt.Errorf("legacy: texture %s: %w", f.ExportPath(i), err)
		}
		data, err := encodePNG(img)
		if err != nil {
			return nil, err
		}
		c.Data = data
		c.Width, c.Height = img.Bounds().Dx(), img.Bounds().Dy()
		c.Name = f.relName(i, "png")
		if t.Format == TexP8 && t.Palette == nil {
			c.Note = "grey ramp used: " + t.PaletteNote
		}
		if m := t.Mips[0]; c.Width < m.Width || c.Height < m.Height {
			// A cooked UE3 texture whose top mips are in a texture file
			// cache (.tfc) the package does not hold.
			c.Note = fmt.Sprintf("mip 0 (%dx%d) is stored outside the package: wrote the largest mip it holds (%dx%d)", m.Width, m.Height, c.Width, c.Height)
		}
	case "palette":
		pal, err := f.Palette(i)
		if err != nil {
			return nil, err
		}
		// A 16-wide swatch, one pixel per colour, row by row.
		h := max(1, (len(pal)+15)/16)
		img := image.NewNRGBA(image.Rect(0, 0, 16, h))
		for j, col := range pal {
			img.SetNRGBA(j%16, j/16, col)
		}
		data, err := encodePNG(img)
		if err != nil {
			return nil, err
		}
		c.Data, c.Width, c.Height = data, 16, h
		c.Name = f.relName(i, "palette.png")
	case "sound", "music":
		var ft string
		var data []byte
		var err error
		if c.Kind == "sound" {
			ft, data, err = f.Sound(i)
		} else {
			ft, data, err = f.Music(i)
		}
		if err != nil {
			return nil, err
		}
		if riff := riffFile(data); riff != nil {
			data = riff
		}
		ext := moduleExt(data)
		if ext == "" {
			ext = strings.ToLower(safeName(ft))
		}
		if ext == "" || ext == "none" {
			ext = "bin"
		}
		c.Data, c.Name = data, f.relName(i, ext)
	case "script":
		text, err := f.TextBuffer(i)
		if err != nil {
			return nil, err
		}
		c.Data = []byte(text)
		e := &f.Exports[i]
		switch {
		case strings.EqualFold(e.ObjectName, "ScriptText") && e.OuterIndex != 0:
			c.Name = f.relName(int(e.OuterIndex-1), "uc")
		case strings.EqualFold(e.ObjectName, "CppText") && e.OuterIndex != 0:
			c.Name = f.relName(int(e.OuterIndex-1), "cpptext.h")
		default:
			c.Kind = "text"
			c.Name = f.relName(i, "txt")
		}
		if e.OuterIndex < 0 {
			c.Name = f.relName(i, "txt")
		}
	default:
		return nil, fmt.Errorf("%w: %s is a %s", ErrNoContent, f.ExportPath(i), f.ClassName(i))
	}
	return c, nil
}

// riffFile returns the RIFF file at the start of b trimmed to its declared
// size, or nil when b does not start with one.
func riffFile(b []byte) []byte {
	if len(b) < 12 || string(b[:4]) != "RIFF" {
		return nil
	}
	n := int64(binary.LittleEndian.Uint32(b[4:])) + 8
	if n > int64(len(b)) {
		return b
	}
	return b[:n]
}
