package executable

import (
	"debug/macho"
	"encoding/binary"
	"os"
	"testing"
)

// writeFat joins thin Mach-O files into a universal one, as lipo does.
func writeFat(out string, thin ...string) error {
	hdr := make([]byte, 8+20*len(thin))
	binary.BigEndian.PutUint32(hdr, macho.MagicFat)
	binary.BigEndian.PutUint32(hdr[4:], uint32(len(thin)))
	var body []byte
	off := uint32(0x4000)
	for i, p := range thin {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mf, err := macho.NewFile(bytesReader(b))
		if err != nil {
			return err
		}
		e := hdr[8+20*i:]
		binary.BigEndian.PutUint32(e, uint32(mf.Cpu))
		binary.BigEndian.PutUint32(e[4:], mf.SubCpu)
		binary.BigEndian.PutUint32(e[8:], off)
		binary.BigEndian.PutUint32(e[12:], uint32(len(b)))
		binary.BigEndian.PutUint32(e[16:], 14)
		pad := int(off) - len(hdr) - len(body)
		body = append(body, make([]byte, pad)...)
		body = append(body, b...)
		off = (off + uint32(len(b)) + 0x3fff) &^ 0x3fff
	}
	return os.WriteFile(out, append(hdr, body...), 0o644)
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, os.ErrInvalid
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, os.ErrInvalid
	}
	return n, nil
}

func bytesReader(b []byte) bytesReaderAt { return bytesReaderAt(b) }

func mustOpen(t *testing.T, p string) *os.File {
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	return fh
}

func fileSize(t *testing.T, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
