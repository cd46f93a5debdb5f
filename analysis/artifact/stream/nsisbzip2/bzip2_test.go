package nsisbzip2

import (
	"bytes"
	"compress/bzip2"
	"errors"
	"io"
	"os/exec"
	"testing"
)

// TestReaderRefusesStandardBzip2: a standard stream (the real bzip2's
// "BZh9" header and 48-bit block magic) is not NSIS's framing and fails
// with a StructuralError, as arbitrary bytes do; the NSIS streams
// themselves are decoded in the container tests against makensis.
func TestReaderRefusesStandardBzip2(t *testing.T) {
	if _, err := exec.LookPath("bzip2"); err != nil {
		t.Fatal("bzip2 is needed: apt-get install -y bzip2")
	}
	cmd := exec.Command("bzip2", "-c")
	cmd.Stdin = bytes.NewReader(bytes.Repeat([]byte("hello "), 1000))
	std, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(std))); err != nil {
		t.Fatalf("the standard reader refuses the fixture: %v", err)
	}
	for name, in := range map[string][]byte{"standard": std, "garbage": []byte("not bzip2 at all"), "empty": nil} {
		_, err := io.ReadAll(NewReader(bytes.NewReader(in)))
		var se StructuralError
		if err == nil || (!errors.As(err, &se) && !errors.Is(err, io.ErrUnexpectedEOF)) {
			t.Errorf("%s: err = %v, want a StructuralError or a truncation", name, err)
		}
	}
}

// FuzzReader: arbitrary bytes never panic the NSIS bzip2 decoder, and
// every failure is a StructuralError or a truncation.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0x31, 0, 0, 0, 0x17})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := io.Copy(io.Discard, io.LimitReader(NewReader(bytes.NewReader(data)), 1<<20))
		var se StructuralError
		if err != nil && !errors.As(err, &se) && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
