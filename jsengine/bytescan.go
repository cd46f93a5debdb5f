package jsengine

import "math/bits"

// Byte scans that run over every byte of every file test eight bytes at a
// time: in wasm a loop over bytes pays a branch, a bounds check and a fuel
// check per byte. Each is tested against the plain byte loop it replaces.

// nextQuote is the index of the first ", ' or ` in b[i:], or len(b). Every
// shard scans every file for specifiers (this scan was 8 % of the 50 MiB
// app's time in wasm).
func nextQuote(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := word(b, i)
		if m := byteMask(w, '"') | byteMask(w, '\'') | byteMask(w, '`'); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if q := b[i]; q == '"' || q == '\'' || q == '`' {
			return i
		}
	}
	return len(b)
}

// lineStarts returns the offset of every line of s.
func lineStarts(s string) []int {
	starts := []int{0}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		for m := byteMask(word(s, i), '\n'); m != 0; m &= m - 1 {
			starts = append(starts, i+bits.TrailingZeros64(m)/8+1)
		}
	}
	for ; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// word is the eight bytes of s at i, little-endian.
func word[T string | []byte](s T, i int) uint64 {
	_ = s[i+7] // one bounds check for the eight loads
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// byteMask sets the high bit of every byte of w equal to c and of no other.
func byteMask(w uint64, c byte) uint64 {
	const lo7 = 0x7f7f7f7f7f7f7f7f
	x := w ^ (0x0101010101010101 * uint64(c))
	return ^((x&lo7 + lo7) | x | lo7)
}
