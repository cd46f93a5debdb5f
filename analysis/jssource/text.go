// Package jssource reads an application's JavaScript the way an analyst
// needs it: a page of source around a position, pretty-printed by esbuild
// when the shipped code is minified, with every printed line mapped back
// to its shipped position and, through a shipped source map, to the
// original source; literal and RE2 search over text files and bundled
// modules; bundles split into one file per module; and the sourcesContent
// of source maps written out under a directory. It only ever runs inside
// the source module, and never executes what it reads.
package jssource

import (
	"sort"
	"unicode/utf8"

	"rea/analysis/jssource/sourcewire"
)

// text is a shipped file with its line starts.
type text struct {
	path  string
	src   string
	lines []int // byte offset of each line's start
}

func newText(path, src string) *text {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &text{path: path, src: src, lines: starts}
}

// lineCount is the number of lines (a final newline ends the last line).
func (t *text) lineCount() int {
	n := len(t.lines)
	if n > 1 && t.lines[n-1] == len(t.src) {
		n--
	}
	return n
}

// lineOf is the 0-based line holding byte offset off.
func (t *text) lineOf(off int) int {
	return sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
}

// lineEnd is the offset of the end of 0-based line l (before its "\n").
func (t *text) lineEnd(l int) int {
	if l+1 < len(t.lines) {
		e := t.lines[l+1] - 1
		if e > t.lines[l] && t.src[e-1] == '\r' {
			e--
		}
		return e
	}
	return len(t.src)
}

// pos describes byte offset off.
func (t *text) pos(off int) sourcewire.Position {
	off = max(0, min(off, len(t.src)))
	l := t.lineOf(off)
	start := t.lines[l]
	return sourcewire.Position{Line: l + 1, Column: off - start + 1, ColumnUTF16: utf16Len(t.src[start:off]) + 1, Offset: off}
}

// offset is the byte offset of a 1-based line and column counted in unit
// ("byte" or "utf16"); a column past the line's end is clamped to it.
func (t *text) offset(line, col int, unit string) int {
	if line < 1 {
		line = 1
	}
	if line > len(t.lines) {
		return len(t.src)
	}
	start, end := t.lines[line-1], t.lineEnd(line-1)
	if col < 1 {
		col = 1
	}
	if unit != "utf16" {
		off := min(start+col-1, end)
		// Never land inside a UTF-8 sequence.
		for off > start && off < len(t.src) && !utf8.RuneStart(t.src[off]) {
			off--
		}
		return off
	}
	units := 0
	for i, r := range t.src[start:end] {
		if units >= col-1 {
			return start + i
		}
		units += runeUTF16(r)
	}
	return end
}

// utf16Len counts UTF-16 code units of s (invalid bytes count one each,
// as U+FFFD).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeUTF16(r)
		i += size
	}
	return n
}

func runeUTF16(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// cut shortens s to at most n bytes on a character boundary.
func cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// clean makes s valid UTF-8 for the JSON reply: invalid bytes become
// U+FFFD (one per byte, so nothing is merged silently).
func clean(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// minified guesses whether src is minified: long lines make most of it.
func minified(src string) bool {
	if len(src) < 2048 {
		return false
	}
	long, start := 0, 0
	for i := 0; i <= len(src); i++ {
		if i == len(src) || src[i] == '\n' {
			if i-start > 500 {
				long += i - start
			}
			start = i + 1
		}
	}
	return long*2 > len(src)
}
