// Package leb128 reads and writes the LEB128 integers of the WebAssembly
// binary format, bounded as the spec bounds them (a 32-bit value takes at
// most 5 bytes and sets no unused high bits). The module rewriters in
// wasm/fuel and wasm/segments share it and wrap its errors with the offset.
package leb128

import "errors"

var (
	// ErrTruncated: the data ends inside the number.
	ErrTruncated = errors.New("unexpected end of data")
	// ErrOverflow: the fifth byte sets bits beyond 32.
	ErrOverflow = errors.New("LEB128 overflows 32 bits")
	// ErrTooLong: more than 5 bytes.
	ErrTooLong = errors.New("LEB128 longer than 5 bytes")
)

// Uint32 decodes an unsigned 32-bit LEB128 number at the start of b and
// returns it with the number of bytes it took.
func Uint32(b []byte) (uint32, int, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, i, ErrTruncated
		}
		c := b[i]
		if i == 4 && c&0xf0 != 0 {
			return 0, i + 1, ErrOverflow
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, i + 1, nil
		}
	}
	return 0, 5, ErrTooLong
}

// Int32 decodes a signed 32-bit LEB128 number at the start of b.
func Int32(b []byte) (int32, int, error) {
	var v int64
	var shift uint
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, i, ErrTruncated
		}
		c := b[i]
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, i + 1, ErrOverflow
			}
			return int32(v), i + 1, nil
		}
	}
	return 0, 5, ErrTooLong
}

// AppendUint32 appends v as unsigned LEB128.
func AppendUint32(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

// AppendInt64 appends v as signed LEB128 (the shortest form).
func AppendInt64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
