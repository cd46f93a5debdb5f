package screenshots

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"rea/abi"
)

func pngOf(t *testing.T, w, h int, paint func(x, y int) color.Color) *bytes.Reader {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, paint(x, y))
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b.Bytes())
}

func TestCompareCountsPixelsBeyondTheThreshold(t *testing.T) {
	white := func(x, y int) color.Color { return color.White }
	dotted := func(x, y int) color.Color {
		if x >= 2 && x < 4 && y == 5 {
			return color.Black
		}
		if x == 9 && y == 9 {
			return color.RGBA{250, 250, 250, 255}
		}
		return color.White
	}
	for _, c := range []struct {
		name      string
		threshold int
		right     func(x, y int) color.Color
		status    string
		differing int
		bounds    *Rect
	}{
		{"same", 0, white, "identical", 0, nil},
		{"dots", 0, dotted, "different", 3, &Rect{MinX: 2, MinY: 5, MaxX: 10, MaxY: 10}},
		{"dots above a threshold of 10", 10, dotted, "different", 2, &Rect{MinX: 2, MinY: 5, MaxX: 4, MaxY: 6}},
	} {
		res, err := Compare(pngOf(t, 10, 10, white), pngOf(t, 10, 10, c.right), Limits{ChannelThreshold: c.threshold})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != c.status || res.DifferingPixels != c.differing || (c.bounds == nil) != (res.DiffBounds == nil) || c.bounds != nil && *c.bounds != *res.DiffBounds {
			t.Errorf("%s: %+v", c.name, res)
		}
	}
}

func TestCompareBoundsPixelsBeforeDecoding(t *testing.T) {
	big := pngOf(t, 100, 100, func(x, y int) color.Color { return color.White })
	_, err := Compare(big, pngOf(t, 1, 1, func(x, y int) color.Color { return color.White }), Limits{MaximumPixels: 5000})
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint {
		t.Fatalf("a 10,000-pixel image under maximum_pixels 5,000: %v", err)
	}
	_, err = Compare(bytes.NewReader([]byte("GIF89a not a png")), big, Limits{})
	if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest {
		t.Fatalf("not a PNG: %v", err)
	}
}

// Hostile PNGs end in a typed error or a result, never a panic.
func FuzzCompare(f *testing.F) {
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	_ = png.Encode(&b, img)
	f.Add(b.Bytes())
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Compare(bytes.NewReader(data), bytes.NewReader(b.Bytes()), Limits{MaximumPixels: 1 << 16})
	})
}
