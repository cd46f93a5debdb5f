package executable

import (
	"math/rand"
	"reflect"
	"testing"
)

// referenceStrings is the byte-at-a-time scan the word-at-a-time one must
// equal.
func referenceStrings(data []byte, minLen int) (ascii, wide [][2]int) {
	start := -1
	for i := 0; i <= len(data); i++ {
		if i < len(data) && printable(data[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minLen {
			ascii = append(ascii, [2]int{start, i - start})
		}
		start = -1
	}
	for phase := 0; phase < 2; phase++ {
		start := -1
		for i := phase; i+1 <= len(data); i += 2 {
			if i+1 < len(data) && data[i+1] == 0 && printable(data[i]) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && (i-start)/2 >= minLen {
				wide = append(wide, [2]int{start, (i - start) / 2})
			}
			start = -1
		}
	}
	return ascii, wide
}

func TestStringScanEqualsTheByteAtATimeScan(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 200; round++ {
		// Segments of printable runs, zero padding, UTF-16 text and noise,
		// so the eight-byte steps are taken and cut at every alignment.
		var data []byte
		for len(data) < 3000 {
			n := rng.Intn(40)
			for k := 0; k < n; k++ {
				switch kind := round % 4; {
				case kind == 0 || k%5 == 0 && rng.Intn(2) == 0:
					data = append(data, byte(rng.Intn(256)))
				case rng.Intn(4) == 0:
					data = append(data, 0)
				case rng.Intn(3) == 0:
					data = append(data, byte('A'+k%26), 0)
				default:
					data = append(data, byte(0x20+rng.Intn(0x5f)))
				}
			}
		}
		f := &File{limits: Limits{}.WithDefaults()}
		a := &Analysis{File: f}
		s := &Section{Name: "s"}
		a.scanASCII(s, data, 4)
		a.scanUTF16(s, data, 4)
		var ascii, wide [][2]int
		for _, e := range a.Strings {
			if e.Encoding == EncodingASCII {
				ascii = append(ascii, [2]int{int(e.Address), e.Length})
			} else {
				wide = append(wide, [2]int{int(e.Address), e.Length})
			}
		}
		wa, ww := referenceStrings(data, 4)
		if !reflect.DeepEqual(ascii, wa) || !reflect.DeepEqual(wide, ww) {
			t.Fatalf("round %d: ascii %v want %v; utf16 %v want %v", round, ascii, wa, wide, ww)
		}
		c := &Analysis{File: f, countOnly: true}
		c.scanASCII(s, data, 4)
		c.scanUTF16(s, data, 4)
		if c.StringCount != len(wa)+len(ww) {
			t.Fatalf("round %d: counted %d, want %d", round, c.StringCount, len(wa)+len(ww))
		}
	}
}
