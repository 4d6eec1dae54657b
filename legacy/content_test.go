package legacy

import (
	"image"
	"image/color"
	"testing"
)

// TestDXT decodes hand-made S3TC blocks.
func TestDXT(t *testing.T) {
	// Colour block: c0 = pure red (0xF800), c1 = pure blue (0x001F);
	// indices: pixel 0 -> c0, 1 -> c1, 2 -> 2/3 c0 + 1/3 c1, 3 -> 1/3 c0 + 2/3 c1.
	colour := []byte{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0}
	tests := []struct {
		name   string
		format int
		block  []byte
		want   [4]color.NRGBA // pixels 0..3 of the first row
	}{
		{"DXT1", TexDXT1, colour, [4]color.NRGBA{{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}}},
		{"DXT1 punch-through", TexDXT1, []byte{0x1F, 0x00, 0x00, 0xF8, 0xE4, 0, 0, 0},
			[4]color.NRGBA{{0, 0, 255, 255}, {255, 0, 0, 255}, {127, 0, 127, 255}, {0, 0, 0, 0}}},
		{"DXT3", TexDXT3, append([]byte{0x0F, 0xF0, 0, 0, 0, 0, 0, 0}, colour...),
			[4]color.NRGBA{{255, 0, 0, 255}, {0, 0, 255, 0}, {170, 0, 85, 0}, {85, 0, 170, 255}}},
		{"DXT5", TexDXT5, append([]byte{255, 0, 0x08, 0, 0, 0, 0, 0}, colour...),
			// alpha indices: pixel 0 -> 0 (255), pixel 1 -> 1 (0), others 0.
			[4]color.NRGBA{{255, 0, 0, 255}, {0, 0, 255, 0}, {170, 0, 85, 255}, {85, 0, 170, 255}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
			if err := decodeDXT(img, tt.block, tt.format); err != nil {
				t.Fatal(err)
			}
			for x := range 4 {
				if got := img.NRGBAAt(x, 0); got != tt.want[x] {
					t.Errorf("pixel %d = %v, want %v", x, got, tt.want[x])
				}
			}
		})
	}
	t.Run("short data", func(t *testing.T) {
		img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
		if err := decodeDXT(img, colour, TexDXT1); err == nil {
			t.Fatal("no error for 1 block of 4")
		}
	})
}

// TestXGTiledOffset checks the Xbox 360 address function on known points:
// the first texels of a tile are linear in pairs of rows of 8.
func TestXGTiledOffset(t *testing.T) {
	seen := map[uint32]bool{}
	for y := range uint32(32) {
		for x := range uint32(32) {
			o := xgTiledOffset(x, y, 32, 4)
			if o >= 32*32 || seen[o] {
				t.Fatalf("(%d,%d) -> %d: outside the tile or repeated", x, y, o)
			}
			seen[o] = true
		}
	}
	if o := xgTiledOffset(1, 0, 32, 4); o != 1 {
		t.Errorf("(1,0) -> %d, want 1", o)
	}
}
