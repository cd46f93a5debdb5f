package fuel

import (
	"errors"

	"rea/wasm/internal/leb128"
)

// reader walks a byte slice that lives at offset base in the original module,
// so every error can name the absolute byte offset a person would look at in
// a hex dump.
type reader struct {
	b    []byte
	pos  int
	base int
}

func (r *reader) eof() bool { return r.pos >= len(r.b) }

// off is the absolute module offset of the next unread byte.
func (r *reader) off() int { return r.base + r.pos }

func (r *reader) malformed(at int, format string, args ...any) *Error {
	return errorf(ErrMalformed, at, format, args...)
}

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, r.malformed(r.off(), "unexpected end of data")
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.pos {
		return nil, r.malformed(r.off(), "length %d runs past the end of its section (%d bytes left)", n, len(r.b)-r.pos)
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

// u32 reads an unsigned LEB128 value of at most 5 bytes whose unused high
// bits are zero, as the spec requires.
func (r *reader) u32() (uint32, error) {
	start := r.off()
	v, n, err := leb128.Uint32(r.b[r.pos:])
	switch {
	case err == nil:
		r.pos += n
		return v, nil
	case errors.Is(err, leb128.ErrTruncated):
		r.pos = len(r.b)
		return 0, r.malformed(r.off(), "unexpected end of data")
	}
	return 0, r.malformed(start, "u32 %v", err)
}

// count reads a vector length and rejects lengths that could not possibly
// fit in the remaining bytes (each element takes at least minSize bytes), so
// hostile counts never drive long loops or large allocations.
func (r *reader) count(minSize int) (int, error) {
	start := r.off()
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(minSize) > uint64(len(r.b)-r.pos) {
		return 0, r.malformed(start, "vector of %d elements cannot fit in the %d bytes left", n, len(r.b)-r.pos)
	}
	return int(n), nil
}

// skipLEB skips a LEB128 value of at most maxBytes bytes (5 for 32-bit,
// 10 for 64-bit values). The value itself is copied verbatim, so only its
// length matters.
func (r *reader) skipLEB(maxBytes int) error {
	start := r.off()
	for i := 0; i < maxBytes; i++ {
		c, err := r.byte()
		if err != nil {
			return err
		}
		if c&0x80 == 0 {
			return nil
		}
	}
	return r.malformed(start, "LEB128 longer than %d bytes", maxBytes)
}

// name reads a length-prefixed UTF-8 name (validity of the UTF-8 is left to
// the runtime; the instrumenter copies names verbatim).
func (r *reader) name() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	s, err := r.bytes(int(n))
	if err != nil {
		return "", err
	}
	return string(s), nil
}
