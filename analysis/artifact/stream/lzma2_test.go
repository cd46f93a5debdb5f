package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ulikunitz/xz/lzma"
)

// rawLZMA2 encodes data as a raw LZMA2 stream with ulikunitz/xz's
// encoder (another implementation than the decoder under test) and
// returns it with its dictionary property byte.
func rawLZMA2(t testing.TB, data []byte, dict int) ([]byte, byte) {
	t.Helper()
	var buf bytes.Buffer
	w, err := lzma.Writer2Config{DictCap: dict}.NewWriter2(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	prop := byte(0)
	for lzma2DictSize(prop) < int64(dict) {
		prop++
	}
	return buf.Bytes(), prop
}

func sampleText(n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("function f")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("(a) { return ipcRenderer.invoke('payload', a) }\n")
	}
	return []byte(b.String()[:n])
}

func TestLZMA2DictPropCoversTheOutput(t *testing.T) {
	for _, c := range []struct {
		declared byte
		size     int64
	}{{24, 0}, {24, 100}, {24, 4096}, {24, 4097}, {24, 1 << 20}, {24, 64 << 20}, {40, 5 << 30}, {0, 1 << 20}, {18, 1<<20 + 1}} {
		p := lzma2DictProp(c.declared, c.size)
		if p > c.declared {
			t.Errorf("declared %d, size %d: prop %d is larger than declared", c.declared, c.size, p)
		}
		if got, want := lzma2DictSize(p), min(lzma2DictSize(c.declared), c.size); got < want {
			t.Errorf("declared %d, size %d: prop %d holds %d bytes, %d needed", c.declared, c.size, p, got, want)
		}
		if p > 0 && lzma2DictSize(p-1) >= min(lzma2DictSize(c.declared), c.size) {
			t.Errorf("declared %d, size %d: prop %d is not the smallest", c.declared, c.size, p)
		}
	}
}

// TestOpenLZMA2 decodes raw LZMA2 through the .xz frame and refuses every
// stream that does not match what the archive declares for it.
func TestOpenLZMA2(t *testing.T) {
	text := sampleText(300 << 10)
	noise := make([]byte, 200<<10)
	x := uint32(7)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	data := append(append([]byte{}, text...), noise...) // LZMA and stored chunks
	raw, prop := rawLZMA2(t, data, 1<<20)
	for _, c := range []struct {
		name    string
		packed  []byte
		declare int64 // packed bytes the archive declares
		size    int64
		prop    byte
		wantErr bool
	}{
		{"as declared", raw, int64(len(raw)), int64(len(data)), prop, false},
		{"declared 64 MiB dictionary, small output", raw, int64(len(raw)), int64(len(data)), 26, false},
		{"empty", []byte{0}, 1, 0, prop, false},
		{"decodes to more than declared", raw, int64(len(raw)), int64(len(data)) - 1, prop, true},
		{"decodes to less than declared", raw, int64(len(raw)), int64(len(data)) + 1, prop, true},
		{"packed stream cut short", raw[:len(raw)-100], int64(len(raw)), int64(len(data)), prop, true},
		{"bytes after the end marker", append(append([]byte{}, raw...), 1, 2, 3), int64(len(raw)) + 3, int64(len(data)), prop, true},
		{"no end marker", raw[:len(raw)-1], int64(len(raw)) - 1, int64(len(data)), prop, true},
		{"dictionary property out of range", raw, int64(len(raw)), int64(len(data)), 41, true},
		{"no packed bytes", nil, 0, 0, prop, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := openLZMA2(bytes.NewReader(c.packed), c.declare, c.size, c.prop)
			var got []byte
			if err == nil {
				got, err = io.ReadAll(r)
			}
			if errors.Is(err, errLZMA2Panic) {
				t.Fatalf("the decoder panicked: %v", err)
			}
			if c.wantErr {
				if err == nil {
					t.Fatalf("decoded %d bytes without an error", len(got))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := data[:c.size]; !bytes.Equal(got, want) && c.size > 0 {
				t.Fatalf("decoded %d bytes, not the %d encoded", len(got), len(want))
			}
		})
	}
}

// TestOpenLZMA2CorruptBytes flips one byte at a time through the stream:
// each decode fails or yields the declared number of (other) bytes, which
// the 7z CRCs then judge, and none panics. (XZ Embedded ignores the first
// range-coder byte of a chunk, as the LZMA format leaves it zero, so a
// flip there decodes to the original bytes.)
func TestOpenLZMA2CorruptBytes(t *testing.T) {
	data := sampleText(64 << 10)
	raw, prop := rawLZMA2(t, data, 1<<16)
	failed := 0
	for i := 0; i < len(raw); i += max(1, len(raw)/200) {
		bad := append([]byte{}, raw...)
		bad[i] ^= 0x55
		r, err := openLZMA2(bytes.NewReader(bad), int64(len(bad)), int64(len(data)), prop)
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		if errors.Is(err, errLZMA2Panic) {
			t.Fatalf("byte %d: the decoder panicked: %v", i, err)
		}
		if err == nil && len(got) != len(data) {
			t.Errorf("byte %d flipped: %d bytes decoded for %d declared, without an error", i, len(got), len(data))
		}
		if err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Error("no corrupt stream failed to decode; the frame's checks are not reached")
	}
}

// FuzzOpenLZMA2: any packed bytes, declared size and property, read to
// the end, either decode to exactly the declared size or fail with an
// error, and never panic (guardedReader would hide one, so it is checked
// for here).
func FuzzOpenLZMA2(f *testing.F) {
	for _, d := range [][]byte{sampleText(5000), {}, bytes.Repeat([]byte{0xe8, 0, 0, 0, 0}, 900)} {
		raw, prop := rawLZMA2(f, d, 1<<16)
		f.Add(raw, int64(len(d)), prop)
	}
	f.Fuzz(func(t *testing.T, packed []byte, size int64, prop byte) {
		if size < 0 || size > 1<<20 {
			return
		}
		r, err := openLZMA2(bytes.NewReader(packed), int64(len(packed)), size, prop)
		if err != nil {
			return
		}
		// Read to the end: the frame's index (the declared size) is
		// checked there. Hosts stop at the declared size (exactReader).
		const most = 64 << 20
		n, err := io.Copy(io.Discard, io.LimitReader(r, most))
		if errors.Is(err, errLZMA2Panic) {
			t.Fatalf("the decoder panicked: %v", err)
		}
		if err == nil && n != size && n < most {
			t.Fatalf("decoded %d bytes for %d declared, without an error", n, size)
		}
	})
}
