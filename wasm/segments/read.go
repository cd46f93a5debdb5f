package segments

import (
	"errors"
	"fmt"

	"rea/wasm/internal/leb128"
)

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
	v, n, err := leb128.Uint32(r.b[r.pos:])
	if err != nil {
		return 0, r.leb(err)
	}
	r.pos += n
	return v, nil
}

// s32 reads a signed LEB128 value of at most 5 bytes.
func (r *reader) s32() (int32, error) {
	v, n, err := leb128.Int32(r.b[r.pos:])
	if err != nil {
		return 0, r.leb(err)
	}
	r.pos += n
	return v, nil
}

func (r *reader) leb(err error) error {
	if errors.Is(err, leb128.ErrTruncated) {
		r.pos = len(r.b)
		return r.malformed("unexpected end of the data section")
	}
	return r.malformed("%v", err)
}
