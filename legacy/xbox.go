package legacy

import (
	"fmt"
	"math/bits"
)

// Xbox 360 textures are stored in the GPU's tiled layout, padded to 32×32
// blocks, with 16-bit words byte-swapped (32-bit for A8R8G8B8). untile360
// rewrites one mip map into the linear little-endian layout the decoders
// expect. The address function is the console SDK's XGAddress2DTiledOffset,
// applied to 4×4 blocks for DXT formats and to pixels otherwise.

// isXbox360 reports whether a big-endian package comes from the Xbox 360
// (LZX chunks, or Mass Effect's Xbox build), as opposed to PS3 or Wii U.
func (f *File) isXbox360() bool {
	s := &f.Summary
	return f.BigEndian && (s.CompressionFlags&CompressLZX != 0 || (s.FileVersion == 391 && s.LicenseeVersion == 92))
}

func xgTiledOffset(x, y, width, texelPitch uint32) uint32 {
	alignedWidth := (width + 31) &^ 31
	logBpp := (texelPitch >> 2) + ((texelPitch >> 1) >> (texelPitch >> 2))
	macro := ((x >> 5) + (y>>5)*(alignedWidth>>5)) << (logBpp + 7)
	micro := ((x & 7) + ((y & 6) << 2)) << logBpp
	offset := macro + ((micro &^ 15) << 1) + (micro & 15) + ((y & 8) << (3 + logBpp)) + ((y & 1) << 4)
	return (((offset &^ 511) << 3) + ((offset & 448) << 2) + (offset & 63) + ((y & 16) << 7) + (((((y & 8) >> 2) + (x >> 3)) & 3) << 6)) >> logBpp
}

// packedMipOffset is where, in blocks of block×block pixels, an image of
// w×h pixels with a side of 16 or less sits in its 32×32 tile: Xenos packs
// such small images into one tile, a wide one 16 pixels down, a tall or
// square one 16 pixels across (Xenia's texture_util GetPackedMipOffset, for
// the image's own first level). Larger images start at the tile's corner.
func packedMipOffset(w, h, block int) (x, y int) {
	lw, lh := bits.Len(uint(w-1)), bits.Len(uint(h-1)) // log2, rounded up
	if min(lw, lh) > 4 {
		return 0, 0
	}
	if lw > lh {
		return 0, 16 / block
	}
	return 16 / block, 0
}

// untile360 returns the linear form of a tiled mip of w×h pixels.
func untile360(data []byte, w, h, format int) ([]byte, error) {
	block, pitch := 1, 0
	switch format {
	case TexDXT1:
		block, pitch = 4, 8
	case TexDXT3, TexDXT5:
		block, pitch = 4, 16
	case TexRGBA8:
		pitch = 4
	case TexL8:
		pitch = 1
	case texV8U8:
		pitch = 2
	default:
		return nil, &UnsupportedError{Feature: "Xbox 360 texture format " + texFormatName(format)}
	}
	bw, bh := (w+block-1)/block, (h+block-1)/block
	if bw <= 0 || bh <= 0 || bw > 1<<13 || bh > 1<<13 {
		return nil, fmt.Errorf("legacy: Xbox 360 mip of %dx%d", w, h)
	}
	aw := (bw + 31) &^ 31
	ox, oy := packedMipOffset(w, h, block)
	// The tiled mip is padded, never smaller than the linear one: checked
	// before the linear one is made.
	if len(data) < bw*bh*pitch {
		return nil, fmt.Errorf("legacy: tiled mip of %d bytes too short for %dx%d", len(data), w, h)
	}
	out := make([]byte, bw*bh*pitch)
	for y := range bh {
		for x := range bw {
			src := int(xgTiledOffset(uint32(x+ox), uint32(y+oy), uint32(aw), uint32(pitch))) * pitch
			if src+pitch > len(data) {
				return nil, fmt.Errorf("legacy: tiled mip of %d bytes too short for %dx%d", len(data), w, h)
			}
			dst := (y*bw + x) * pitch
			copy(out[dst:dst+pitch], data[src:src+pitch])
		}
	}
	switch pitch {
	case 2, 8, 16:
		for i := 0; i+1 < len(out); i += 2 {
			out[i], out[i+1] = out[i+1], out[i]
		}
	case 4: // A8R8G8B8 stored big-endian: A R G B -> B G R A
		for i := 0; i+3 < len(out); i += 4 {
			out[i], out[i+1], out[i+2], out[i+3] = out[i+3], out[i+2], out[i+1], out[i]
		}
	}
	return out, nil
}
