package legacy

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
)

// encodePNG encodes img as a PNG file: 8-bit truecolour, with alpha only
// when some pixel is not opaque, each row with the filter whose output has
// the smallest sum of absolute values (the heuristic of the PNG spec and of
// image/png).
//
// It replaces png.Encode, which links image/png's decoder (registered with
// image by its init) and its support for every image type: about 200 KB of
// the page's WebAssembly for the two image layouts exported here.
func encodePNG(img image.Image) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	nrgba, _ := img.(*image.NRGBA)
	pix := func(x, y int) color.NRGBA {
		if nrgba != nil {
			i := nrgba.PixOffset(x, y)
			s := nrgba.Pix[i : i+4 : i+4]
			return color.NRGBA{s[0], s[1], s[2], s[3]}
		}
		return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
	}
	opaque := true
	for y := b.Min.Y; y < b.Max.Y && opaque; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if pix(x, y).A != 0xff {
				opaque = false
				break
			}
		}
	}
	bpp, colorType := 4, byte(6)
	if opaque {
		bpp, colorType = 3, 2
	}

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var hdr [8]byte
		binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
		copy(hdr[4:], typ)
		out.Write(hdr[:])
		out.Write(data)
		crc := crc32.NewIEEE()
		crc.Write(hdr[4:])
		crc.Write(data)
		binary.BigEndian.PutUint32(hdr[:4], crc.Sum32())
		out.Write(hdr[:4])
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, colorType // bit depth, colour type; compression, filter, interlace 0
	chunk("IHDR", ihdr[:])

	var z bytes.Buffer
	zw := newZlibWriter(&z) // png_zlib_*.go
	stride := w * bpp
	prev := make([]byte, stride)
	cur := make([]byte, stride)
	var cand [5][]byte
	for f := range cand {
		cand[f] = make([]byte, 1+stride)
		cand[f][0] = byte(f)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := 0; x < w; x++ {
			c := pix(b.Min.X+x, y)
			o := cur[x*bpp : x*bpp+bpp]
			o[0], o[1], o[2] = c.R, c.G, c.B
			if bpp == 4 {
				o[3] = c.A
			}
		}
		best, bestSum := 0, -1
		for f := range cand {
			row := cand[f][1:]
			for i := range cur {
				var a, up, ul byte
				if i >= bpp {
					a, ul = cur[i-bpp], prev[i-bpp]
				}
				up = prev[i]
				switch f {
				case 0:
					row[i] = cur[i]
				case 1:
					row[i] = cur[i] - a
				case 2:
					row[i] = cur[i] - up
				case 3:
					row[i] = cur[i] - byte((int(a)+int(up))/2)
				case 4:
					row[i] = cur[i] - paeth(a, up, ul)
				}
			}
			sum := 0
			for _, v := range row {
				sum += min(int(v), 256-int(v))
			}
			if bestSum < 0 || sum < bestSum {
				best, bestSum = f, sum
			}
		}
		if _, err := zw.Write(cand[best]); err != nil {
			return nil, err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes(), nil
}

// paeth is the PNG Paeth predictor.
func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
