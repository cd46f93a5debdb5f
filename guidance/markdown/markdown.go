// Package markdown is the small, fence-aware markdown scanner the guidance
// bundle needs: ATX headings, fenced code blocks and inline code spans. It is
// deliberately not a full CommonMark parser: guidance search only needs to know
// where sections start, and the tool-reference check only needs code spans and
// code blocks. Everything here is line based and runs in linear time, so an
// adversarial bundle cannot make the scanner slow.
package markdown

import (
	"strings"
)

// Line is one physical line of a document. Start and End are byte offsets of
// the line's content; Next is the offset of the following line (after the
// line terminator), so src[Start:Next] is the whole line as written.
type Line struct {
	Start, End, Next int
}

// SplitLines splits src into lines. "\n", "\r\n" and a lone "\r" all end a
// line, as in CommonMark. A final line without a terminator is kept; an empty
// src has no lines.
func SplitLines(src []byte) []Line {
	var lines []Line
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, Line{Start: start, End: i, Next: i + 1})
			start = i + 1
		case '\r':
			next := i + 1
			if next < len(src) && src[next] == '\n' {
				next++
			}
			lines = append(lines, Line{Start: start, End: i, Next: next})
			start = next
			i = next - 1
		}
	}
	if start < len(src) {
		lines = append(lines, Line{Start: start, End: len(src), Next: len(src)})
	}
	return lines
}

// Heading is one ATX heading ("# Title" … "###### Title").
type Heading struct {
	// Line is the index of the heading's line in SplitLines(src).
	Line int
	// Level is 1–6, the number of opening '#' characters.
	Level int
	// Text is the heading's inline content with the optional closing '#'
	// sequence and surrounding whitespace removed.
	Text string
}

// CodeBlock is one fenced code block.
type CodeBlock struct {
	// Open is the line index of the opening fence; Close is the line index of
	// the closing fence, or len(lines) when the block runs to the end of the
	// document (an unclosed fence, as CommonMark allows).
	Open, Close int
	// Info is the first word of the info string ("json" in "```json").
	Info string
	// Content is the text between the fences.
	Content string
}

// Document is the scanned shape of one markdown file.
type Document struct {
	Lines    []Line
	Headings []Heading
	Blocks   []CodeBlock
	// InCode reports, per line, whether the line belongs to a fenced code
	// block (fences included). Headings never start on such a line.
	InCode []bool
}

// Scan finds the headings and fenced code blocks of src. A '#' line inside a
// fenced code block is code, not a heading.
func Scan(src []byte) Document {
	lines := SplitLines(src)
	doc := Document{Lines: lines, InCode: make([]bool, len(lines))}
	var fence *fenceOpen
	var blockStart, contentStart int
	str := string(src) // one copy; lines are sliced from it
	for i, ln := range lines {
		text := str[ln.Start:ln.End]
		if fence != nil {
			doc.InCode[i] = true
			if fence.closedBy(text) {
				doc.Blocks = append(doc.Blocks, CodeBlock{
					Open: blockStart, Close: i, Info: fence.info,
					Content: str[contentStart:ln.Start],
				})
				fence = nil
			}
			continue
		}
		if f, ok := openFence(text); ok {
			fence = &f
			blockStart = i
			contentStart = ln.Next
			doc.InCode[i] = true
			continue
		}
		if level, title, ok := atxHeading(text); ok {
			doc.Headings = append(doc.Headings, Heading{Line: i, Level: level, Text: title})
		}
	}
	if fence != nil {
		doc.Blocks = append(doc.Blocks, CodeBlock{
			Open: blockStart, Close: len(lines), Info: fence.info,
			Content: str[min(contentStart, len(src)):],
		})
	}
	return doc
}

type fenceOpen struct {
	char   byte
	length int
	info   string
}

// indentOf returns the number of leading spaces (tabs count as stopping the
// scan: a tab indents to column 4 and makes the line code, not a fence).
func indentOf(s string) (int, bool) {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	if n < len(s) && s[n] == '\t' {
		return n, false
	}
	return n, n <= 3
}

func openFence(line string) (fenceOpen, bool) {
	n, ok := indentOf(line)
	if !ok {
		return fenceOpen{}, false
	}
	rest := line[n:]
	if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return fenceOpen{}, false
	}
	c := rest[0]
	k := 0
	for k < len(rest) && rest[k] == c {
		k++
	}
	if k < 3 {
		return fenceOpen{}, false
	}
	info := strings.TrimSpace(rest[k:])
	if c == '`' && strings.IndexByte(info, '`') >= 0 {
		// CommonMark: a backtick fence's info string may not contain backticks.
		return fenceOpen{}, false
	}
	if sp := strings.IndexAny(info, " \t"); sp >= 0 {
		info = info[:sp]
	}
	return fenceOpen{char: c, length: k, info: info}, true
}

func (f *fenceOpen) closedBy(line string) bool {
	n, ok := indentOf(line)
	if !ok {
		return false
	}
	rest := line[n:]
	k := 0
	for k < len(rest) && rest[k] == f.char {
		k++
	}
	return k >= f.length && strings.TrimSpace(rest[k:]) == ""
}

// atxHeading recognises "#{1,6}" followed by a space, a tab or the end of the
// line, indented by at most three spaces.
func atxHeading(line string) (int, string, bool) {
	n, ok := indentOf(line)
	if !ok {
		return 0, "", false
	}
	rest := line[n:]
	level := 0
	for level < len(rest) && rest[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest = rest[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return 0, "", false
	}
	return level, headingText(rest), true
}

// headingText trims whitespace and an optional closing sequence of '#'
// characters (which must be preceded by a space or be the whole content).
func headingText(s string) string {
	s = strings.Trim(s, " \t")
	end := len(s)
	for end > 0 && s[end-1] == '#' {
		end--
	}
	switch {
	case end == 0:
		return ""
	case end < len(s) && (s[end-1] == ' ' || s[end-1] == '\t'):
		return strings.TrimRight(s[:end], " \t")
	}
	return s
}

// CodeSpan is one inline code span found on a prose line.
type CodeSpan struct {
	// Line is the line index; Offset is the byte offset of the opening
	// backtick within the document.
	Line, Offset int
	// Text is the span's content with one surrounding space stripped when
	// both ends have one, as CommonMark does.
	Text string
}

// CodeSpans returns the inline code spans on every line outside fenced code
// blocks. Spans are matched per line: a span left open at the end of a line is
// not a span (the bundle never wraps code spans across lines).
func (d Document) CodeSpans(src []byte) []CodeSpan {
	var spans []CodeSpan
	str := string(src)
	for i, ln := range d.Lines {
		if d.InCode[i] {
			continue
		}
		text := str[ln.Start:ln.End]
		for j := 0; j < len(text); {
			if text[j] == '\\' {
				j += 2
				continue
			}
			if text[j] != '`' {
				j++
				continue
			}
			k := j
			for k < len(text) && text[k] == '`' {
				k++
			}
			run := k - j
			closeAt := findRun(text, k, run)
			if closeAt < 0 {
				j = k
				continue
			}
			content := text[k:closeAt]
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			spans = append(spans, CodeSpan{Line: i, Offset: ln.Start + j, Text: content})
			j = closeAt + run
		}
	}
	return spans
}

// findRun returns the index of the next run of exactly n backticks at or after
// from, or -1.
func findRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		k := i
		for k < len(s) && s[k] == '`' {
			k++
		}
		if k-i == n {
			return i
		}
		i = k
	}
	return -1
}
