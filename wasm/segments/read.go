package segments

import "fmt"

// reader walks a byte slice that starts at absolute module offset base, so
// errors name the offset a person would look at in a hex dump.
type reader struct {
	b    []byte
	pos  int
	base int
}

func (r *reader) malformed(format string, args ...any) error {
	return fmt.Errorf("%w: at offset %d: %s", ErrMalformed, r.base+r.pos, fmt.Sprintf(format, args...))
}

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, r.malformed("unexpected end of the data section")
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, r.malformed("segment of %d bytes runs past the end of the data section (%d bytes left)", n, len(r.b)-r.pos)
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

// u32 reads an unsigned LEB128 value of at most 5 bytes.
func (r *reader) u32() (uint32, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if i == 4 && c&0xf0 != 0 {
			return 0, r.malformed("u32 LEB128 overflows 32 bits")
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, r.malformed("u32 LEB128 longer than 5 bytes")
}

// s32 reads a signed LEB128 value of at most 5 bytes.
func (r *reader) s32() (int32, error) {
	var v int64
	var shift uint
	for i := 0; i < 5; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, r.malformed("s32 LEB128 overflows 32 bits")
			}
			return int32(v), nil
		}
	}
	return 0, r.malformed("s32 LEB128 longer than 5 bytes")
}
