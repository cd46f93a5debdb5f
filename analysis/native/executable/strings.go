package executable

import (
	"cmp"
	"encoding/binary"
	"sort"
	"unicode/utf16"
)

// MaxStringValue is the most characters a string entry carries; Length
// still counts all of them.
const MaxStringValue = 1024

// DefaultMinString is the shortest run reported, as strings(1) does.
const DefaultMinString = 4

// printableByte is the strings(1) character class as a table: the scan
// touches every data byte, and a lookup beats the comparisons in wasm.
var printableByte = func() (t [256]bool) {
	for b := 0x20; b < 0x7f; b++ {
		t[b] = true
	}
	t['\t'], t['\n'], t['\r'] = true, true, true
	return t
}()

func printable(b byte) bool { return printableByte[b] }

const ones, highs = 0x0101010101010101, 0x8080808080808080

// allPrintable says every byte of w is in 0x20..0x7e (SWAR: no byte below
// 0x20, none above 0x7e).
func allPrintable(w uint64) bool {
	less := (w - ones*0x20) & ^w & highs
	more := ((w + ones*(127-0x7e)) | w) & highs
	return less|more == 0
}

func hasZero(w uint64) bool { return (w-ones)&^w&highs != 0 }

// skipStrings are sections of names and metadata, not program data.
var skipStrings = map[string]bool{".strtab": true, ".dynstr": true, ".shstrtab": true, ".symtab": true, ".dynsym": true, ".comment": true}

func (a *Analysis) findStrings(minLen int) error {
	if minLen <= 0 {
		minLen = DefaultMinString
	}
	f := a.File
	var buf []byte
	for i := range f.Sections {
		s := &f.Sections[i]
		if s.Code || !s.Loaded || s.FileSize == 0 || skipStrings[s.Name] || s.Kind == "NOBITS" {
			continue
		}
		if a.countOnly {
			if err := f.checkFileBytes(s); err != nil {
				return err
			}
			if buf == nil {
				buf = make([]byte, countChunk+1)
			}
			n, err := countStrings(f.r, s.FileOffset, s.FileSize, minLen, buf)
			if err != nil {
				return malformed("reading section %s: %v", s.Name, err)
			}
			a.StringCount += n
			continue
		}
		data, err := f.sectionBytes(s, nil)
		if err != nil {
			return err
		}
		if !a.scanASCII(s, data, minLen) || !a.scanUTF16(s, data, minLen) {
			break
		}
	}
	a.Strings = sortedStable(a.Strings, func(x, y *String) int { return cmp.Compare(x.Address, y.Address) })
	if !a.countOnly {
		a.StringCount = len(a.Strings)
	}
	if a.StringsTruncated {
		a.Limitations = append(a.Limitations, "the string list stopped at max_strings; later strings are not listed")
	}
	return nil
}

func (a *Analysis) add(s String) bool {
	if len(a.Strings) >= a.File.limits.MaxStrings {
		a.StringsTruncated = true
		return false
	}
	a.Strings = append(a.Strings, s)
	return true
}

func (a *Analysis) scanASCII(s *Section, data []byte, minLen int) bool {
	start := -1
	for i := 0; i <= len(data); i++ {
		// Eight bytes at a time through long runs and zero padding: the
		// scan touches every data byte, which costs most in wasm.
		if i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			if allPrintable(w) {
				if start < 0 {
					start = i
				}
				i += 7
				continue
			}
			if w == 0 && start < 0 {
				i += 7
				continue
			}
		}
		if i < len(data) && printable(data[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minLen && a.countOnly {
			a.StringCount++
		} else if start >= 0 && i-start >= minLen {
			n := i - start
			v := data[start : start+min(n, MaxStringValue)]
			if !a.add(String{Address: s.Address + Addr(start), FileOffset: a.File.SliceOffset + s.FileOffset + int64(start), Section: s.Name, Encoding: EncodingASCII,
				Length: n, ByteLength: n, Terminated: i < len(data) && data[i] == 0, Value: string(v), Truncated: n > MaxStringValue}) {
				return false
			}
		}
		start = -1
	}
	return true
}

func (a *Analysis) scanUTF16(s *Section, data []byte, minLen int) bool {
	for phase := 0; phase < 2; phase++ {
		start := -1
		for i := phase; i+1 <= len(data); i += 2 {
			// No zero byte in the next eight: no UTF-16LE ASCII unit starts there.
			if start < 0 && i+8 <= len(data) && !hasZero(binary.LittleEndian.Uint64(data[i:])) {
				i += 6
				continue
			}
			ok := i+1 < len(data) && data[i+1] == 0 && printable(data[i])
			if ok {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && (i-start)/2 >= minLen && a.countOnly {
				a.StringCount++
			} else if start >= 0 && (i-start)/2 >= minLen {
				n := (i - start) / 2
				units := make([]uint16, 0, min(n, MaxStringValue))
				for k := 0; k < min(n, MaxStringValue); k++ {
					units = append(units, uint16(data[start+2*k]))
				}
				term := i+1 < len(data) && data[i] == 0 && data[i+1] == 0
				if !a.add(String{Address: s.Address + Addr(start), FileOffset: a.File.SliceOffset + s.FileOffset + int64(start), Section: s.Name, Encoding: EncodingUTF16LE,
					Length: n, ByteLength: 2 * n, Terminated: term, Value: string(utf16.Decode(units)), Truncated: n > MaxStringValue}) {
					return false
				}
			}
			start = -1
		}
	}
	return true
}

// StringAt is the string whose bytes hold addr, or nil.
func (a *Analysis) StringAt(addr Addr) *String {
	i := sort.Search(len(a.Strings), func(i int) bool { return a.Strings[i].Address > addr })
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		s := &a.Strings[j]
		if addr >= s.Address && addr < s.Address+Addr(s.ByteLength) {
			return s
		}
	}
	return nil
}

// MaxFullValueBytes bounds FullValue, so one giant run (Go packs all its
// string literals into one) cannot be materialised whole.
const MaxFullValueBytes = 1 << 20

// FullValue reads a string's whole value (up to MaxFullValueBytes) when
// the entry carries a truncated one; searches match against it.
func (a *Analysis) FullValue(s String) (string, error) {
	if !s.Truncated {
		return s.Value, nil
	}
	b, err := a.File.ReadAt(s.Address, min(s.ByteLength, MaxFullValueBytes))
	if err != nil {
		return "", err
	}
	if s.Encoding == EncodingUTF16LE {
		units := make([]uint16, len(b)/2)
		for i := range units {
			units[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(units)), nil
	}
	return string(b), nil
}
