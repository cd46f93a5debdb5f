package leb128

import (
	"errors"
	"math"
	"testing"
)

func TestRoundTripsAndBounds(t *testing.T) {
	for _, v := range []uint32{0, 1, 127, 128, 300, 1 << 21, math.MaxUint32} {
		b := AppendUint32(nil, v)
		got, n, err := Uint32(append(b, 0xff))
		if err != nil || got != v || n != len(b) {
			t.Errorf("Uint32(%x) = %d %d %v, want %d %d", b, got, n, err, v, len(b))
		}
	}
	for _, v := range []int32{0, 1, -1, 63, 64, -64, -65, math.MaxInt32, math.MinInt32} {
		b := AppendInt64(nil, int64(v))
		got, n, err := Int32(b)
		if err != nil || got != v || n != len(b) {
			t.Errorf("Int32(%x) = %d %d %v, want %d", b, got, n, err, v)
		}
	}
	for _, c := range []struct {
		in   []byte
		want error
	}{
		{[]byte{0x80, 0x80}, ErrTruncated},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x1f}, ErrOverflow},
	} {
		if _, _, err := Uint32(c.in); !errors.Is(err, c.want) {
			t.Errorf("Uint32(%x): %v, want %v", c.in, err, c.want)
		}
	}
	// A continuation bit on the fifth byte: too many bits for Uint32,
	// too many bytes for Int32.
	if _, _, err := Uint32([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}); !errors.Is(err, ErrOverflow) {
		t.Errorf("Uint32 with 6 bytes: %v", err)
	}
	if _, _, err := Int32([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}); !errors.Is(err, ErrTooLong) {
		t.Errorf("Int32 with 6 bytes: %v", err)
	}
	if _, _, err := Int32(AppendInt64(nil, 1<<31)); !errors.Is(err, ErrOverflow) {
		t.Errorf("Int32 of 2^31: %v", err)
	}
}
