package executable

import (
	"bytes"
	"math/rand"
	"testing"
)

// stringMix is data with printable runs, zero padding, UTF-16 text and
// noise, so runs start and end at every offset of a 64-byte block.
func stringMix(rng *rand.Rand, size int, kind int) []byte {
	var data []byte
	for len(data) < size {
		n := rng.Intn(90)
		for k := 0; k < n; k++ {
			switch {
			case kind == 0 || k%5 == 0 && rng.Intn(2) == 0:
				data = append(data, byte(rng.Intn(256)))
			case rng.Intn(4) == 0:
				data = append(data, 0)
			case rng.Intn(3) == 0:
				data = append(data, "\t\n\r ~\x7f\x1f\x0b\x0cA"[rng.Intn(10)], 0)
			default:
				data = append(data, byte(0x20+rng.Intn(0x5f)))
			}
		}
	}
	return data[:size]
}

func referenceCount(data []byte, minLen int) int {
	ascii, wide := referenceStrings(data, minLen)
	return len(ascii) + len(wide)
}

func TestStringCountEqualsTheScan(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"one printable", []byte("a")},
		{"ascii to the end", []byte("hello world")},
		{"utf-16 to an even end", []byte("h\x00e\x00l\x00l\x00o\x00")},
		{"utf-16 to an odd end", []byte("h\x00e\x00l\x00l\x00o\x00!")},
		{"odd-phase utf-16", []byte("\x01h\x00e\x00l\x00l\x00o\x00\x01\x01")},
		{"64 printable", bytes.Repeat([]byte("x"), 64)},
		{"65 printable", bytes.Repeat([]byte("x"), 65)},
		{"all zero", make([]byte, 300)},
		{"all 0xff", bytes.Repeat([]byte{0xff}, 300)},
		{"control bytes", bytes.Repeat([]byte("\t\n\r\x0b\x0c\x7f\x80abcd"), 40)},
		{"utf-16 across blocks", bytes.Repeat([]byte("a\x00"), 100)},
	}
	for size := 0; size < 200; size++ {
		cases = append(cases, struct {
			name string
			data []byte
		}{"mixed", stringMix(rng, size, size%3)})
	}
	for round := 0; round < 60; round++ {
		cases = append(cases, struct {
			name string
			data []byte
		}{"large mixed", stringMix(rng, 1000+rng.Intn(5000), round%3)})
	}
	for _, c := range cases {
		for _, minLen := range []int{1, 2, 4, 5, 31, 64, 100} {
			want := referenceCount(c.data, minLen)
			// Small read buffers cut the data into chunks at block boundaries.
			for _, bufSize := range []int{129, 256, 4097} {
				got, err := countStrings(bytes.NewReader(c.data), 0, int64(len(c.data)), minLen, make([]byte, bufSize))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("%s (%d bytes, min %d, buffer %d): counted %d strings, the scan lists %d", c.name, len(c.data), minLen, bufSize, got, want)
				}
			}
		}
	}
}

func TestStringCountReadsAtTheSectionOffset(t *testing.T) {
	data := append(bytes.Repeat([]byte("abcdef"), 20), 0, 0, 0)
	file := append(bytes.Repeat([]byte{0xff}, 100), data...)
	got, err := countStrings(bytes.NewReader(file), 100, int64(len(data)), 4, make([]byte, 129))
	if err != nil || got != 1 {
		t.Fatalf("counted %d (%v), want the one run at offset 100", got, err)
	}
	if _, err := countStrings(bytes.NewReader(file), 100, int64(len(data))+10, 4, make([]byte, 129)); err == nil {
		t.Fatalf("a section past the end of the file was counted without error")
	}
}

func TestPrintableLanesMatchTheByteClass(t *testing.T) {
	for b := 0; b < 256; b++ {
		w := uint64(b) << 24
		got := printableLanes(w)>>31&1 == 1
		if got != printable(byte(b)) {
			t.Errorf("byte %#x: printable lane %v, byte class %v", b, got, printable(byte(b)))
		}
		if z := zeroLanes(w)>>31&1 == 1; z != (b == 0) {
			t.Errorf("byte %#x: zero lane %v", b, z)
		}
	}
}
