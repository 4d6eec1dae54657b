package legacy

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// TestEncodePNG round-trips opaque and translucent images through
// image/png's decoder.
func TestEncodePNG(t *testing.T) {
	for _, alpha := range []bool{false, true} {
		img := image.NewNRGBA(image.Rect(0, 0, 37, 23))
		for y := range 23 {
			for x := range 37 {
				c := color.NRGBA{byte(x * 7), byte(y * 11), byte(x ^ y), 255}
				if alpha {
					c.A = byte(x + y*3)
				}
				img.SetNRGBA(x, y, c)
			}
		}
		data, err := encodePNG(img)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("alpha %v: %v", alpha, err)
		}
		if got.Bounds() != img.Bounds() {
			t.Fatalf("alpha %v: bounds %v", alpha, got.Bounds())
		}
		for y := range 23 {
			for x := range 37 {
				if g := color.NRGBAModel.Convert(got.At(x, y)); g != img.NRGBAAt(x, y) {
					t.Fatalf("alpha %v: pixel (%d,%d) = %v, want %v", alpha, x, y, g, img.NRGBAAt(x, y))
				}
			}
		}
	}
	// A sub-image whose bounds do not start at the origin.
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	img.SetNRGBA(5, 6, color.NRGBA{1, 2, 3, 255})
	sub := img.SubImage(image.Rect(4, 4, 8, 8))
	data, err := encodePNG(sub)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil || got.Bounds().Dx() != 4 || color.NRGBAModel.Convert(got.At(1, 2)) != (color.NRGBA{1, 2, 3, 255}) {
		t.Fatalf("sub-image: %v %v", got.Bounds(), err)
	}
}
