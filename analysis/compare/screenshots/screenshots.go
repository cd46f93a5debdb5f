// Package screenshots compares two PNG screenshots pixel by pixel: how many
// pixels differ beyond a per-channel threshold, by how much, and where. It
// runs inside the compare module: PNG decoding is parsing of bytes a caller
// handed in.
package screenshots

import (
	"fmt"
	"image"
	"image/png"
	"io"

	"rea/abi"
)

// Limits bound one comparison.
type Limits struct {
	// ChannelThreshold is the per-channel difference (0–255) at or below
	// which two pixels count as equal.
	ChannelThreshold int `json:"channel_threshold"`
	// MaximumPixels bounds width×height of each image before it is decoded.
	MaximumPixels int `json:"maximum_pixels"`
}

// Defaults of the limits.
const (
	DefaultMaximumPixels = 16_000_000
	MaxMaximumPixels     = 64_000_000
)

// Rect is a pixel rectangle, max exclusive.
type Rect struct {
	MinX int `json:"min_x"`
	MinY int `json:"min_y"`
	MaxX int `json:"max_x"`
	MaxY int `json:"max_y"`
}

// Result is the pixel comparison.
type Result struct {
	LeftSize        [2]int   `json:"left_size"`
	RightSize       [2]int   `json:"right_size"`
	SameSize        bool     `json:"same_size"`
	ComparedPixels  int      `json:"compared_pixels"`
	DifferingPixels int      `json:"differing_pixels"`
	DifferingRatio  float64  `json:"differing_ratio"`
	MaxChannelDelta int      `json:"max_channel_delta"`
	DiffBounds      *Rect    `json:"diff_bounds"`
	Status          string   `json:"status"` // identical, within-threshold, different, incomparable
	Limitations     []string `json:"limitations"`
}

func decode(r io.ReadSeeker, side string, l Limits) (image.Image, error) {
	cfg, err := png.DecodeConfig(r)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is not a PNG: %v", side, err).WithDetail("field", side)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > l.MaximumPixels {
		return nil, abi.Errorf(abi.CodeResourceConstraint, "%s is %d×%d pixels, over maximum_pixels=%d", side, cfg.Width, cfg.Height, l.MaximumPixels).
			WithDetail("resource", "memory").WithDetail("field", "maximum_pixels")
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	img, err := png.Decode(r)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "%s is not a readable PNG: %v", side, err).WithDetail("field", side)
	}
	return img, nil
}

// Compare decodes both images (each bounded by MaximumPixels before any
// pixel is decoded) and compares them over their common area.
func Compare(left, right io.ReadSeeker, l Limits) (*Result, error) {
	if l.MaximumPixels == 0 {
		l.MaximumPixels = DefaultMaximumPixels
	}
	if l.MaximumPixels < 1 || l.MaximumPixels > MaxMaximumPixels || l.ChannelThreshold < 0 || l.ChannelThreshold > 255 {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "channel_threshold must be 0..255 and maximum_pixels 1..%d", MaxMaximumPixels).WithDetail("field", "limits")
	}
	a, err := decode(left, "left", l)
	if err != nil {
		return nil, err
	}
	b, err := decode(right, "right", l)
	if err != nil {
		return nil, err
	}
	ab, bb := a.Bounds(), b.Bounds()
	res := &Result{LeftSize: [2]int{ab.Dx(), ab.Dy()}, RightSize: [2]int{bb.Dx(), bb.Dy()}, Limitations: []string{}}
	res.SameSize = res.LeftSize == res.RightSize
	w, h := min(ab.Dx(), bb.Dx()), min(ab.Dy(), bb.Dy())
	var box *Rect
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			d := max(delta(r1, r2), delta(g1, g2), delta(b1, b2), delta(a1, a2))
			res.MaxChannelDelta = max(res.MaxChannelDelta, d)
			if d > l.ChannelThreshold {
				res.DifferingPixels++
				if box == nil {
					box = &Rect{MinX: x, MinY: y, MaxX: x + 1, MaxY: y + 1}
				} else {
					box.MinX, box.MinY = min(box.MinX, x), min(box.MinY, y)
					box.MaxX, box.MaxY = max(box.MaxX, x+1), max(box.MaxY, y+1)
				}
			}
		}
	}
	res.ComparedPixels = w * h
	res.DiffBounds = box
	if res.ComparedPixels > 0 {
		res.DifferingRatio = float64(res.DifferingPixels) / float64(res.ComparedPixels)
	}
	switch {
	case !res.SameSize:
		res.Status = "incomparable"
		res.Limitations = append(res.Limitations, fmt.Sprintf("the images differ in size (%dx%d, %dx%d); only their common %dx%d area was compared", ab.Dx(), ab.Dy(), bb.Dx(), bb.Dy(), w, h))
	case res.MaxChannelDelta == 0:
		res.Status = "identical"
	case res.DifferingPixels == 0:
		res.Status = "within-threshold"
	default:
		res.Status = "different"
	}
	return res, nil
}

// delta is the difference of two 16-bit channels on the 0–255 scale.
func delta(a, b uint32) int {
	d := int(a>>8) - int(b>>8)
	if d < 0 {
		return -d
	}
	return d
}
