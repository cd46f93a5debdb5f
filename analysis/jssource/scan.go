package jssource

// A lexer-level pass over JavaScript: strings, template literals (with
// their ${} holes), comments and regular expression literals are skipped,
// so the braces it reports are the code's own. It never fails: on text
// that is not JavaScript it still ends, in one pass.

// block is a brace pair: open is the offset of "{", close of its "}".
type block struct{ open, close int }

// enclosingBlocks lists the brace blocks around offset off, innermost
// first, each closed within src. The scan stops once every block open at
// off is closed (or src ends).
func enclosingBlocks(src string, off int) []block {
	var stack []int // open "{" offsets of code (not template holes)
	var holes []int // depth of stack at each open template hole
	var open []int  // blocks open at off (copied from stack when off is reached)
	var out []block
	reached := false
	prev := byte(0) // last significant byte of code
	prevWord := ""  // last identifier-like word, for regex detection
	n := len(src)
	i := 0
	for i < n {
		if !reached && i >= off {
			reached = true
			open = append([]int(nil), stack...)
			if len(open) == 0 {
				return nil
			}
		}
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := indexFrom(src, i+2, "*/")
			if j < 0 {
				i = n
			} else {
				i = j + 2
			}
			continue
		case c == '"' || c == '\'':
			i = skipString(src, i)
			prev, prevWord = 'a', ""
			continue
		case c == '`':
			i = skipTemplate(src, i+1, &holes, len(stack))
			prev, prevWord = 'a', ""
			continue
		case c == '/' && regexAllowed(prev, prevWord):
			i = skipRegex(src, i)
			prev, prevWord = 'a', ""
			continue
		case c == '{':
			stack = append(stack, i)
		case c == '}':
			if len(holes) > 0 && holes[len(holes)-1] == len(stack) {
				// The end of a template hole: the template continues.
				holes = holes[:len(holes)-1]
				i = skipTemplate(src, i+1, &holes, len(stack))
				prev, prevWord = 'a', ""
				continue
			}
			if len(stack) > 0 {
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if reached && len(open) > 0 && open[len(open)-1] == o {
					open = open[:len(open)-1]
					out = append(out, block{o, i})
					if len(open) == 0 {
						return out
					}
				}
			}
		case isIdentByte(c):
			j := i
			for j < n && isIdentByte(src[j]) {
				j++
			}
			prevWord = src[i:j]
			prev = 'a'
			i = j
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		}
		prev, prevWord = c, ""
		i++
	}
	return out
}

func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}

// regexAllowed: a "/" starts a regular expression after an operator, an
// opening bracket, a separator or a keyword that takes an expression.
func regexAllowed(prev byte, word string) bool {
	if prev == 'a' {
		switch word {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
			return true
		}
		return false
	}
	switch prev {
	case ')', ']', '}':
		return false
	}
	return true
}

func skipString(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(s)
}

// skipTemplate skips template text from i up to its end ("`", returned
// after) or a hole ("${", whose depth is pushed on holes).
func skipTemplate(s string, i int, holes *[]int, depth int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			return i + 1
		case '$':
			if i+1 < len(s) && s[i+1] == '{' {
				*holes = append(*holes, depth)
				return i + 2
			}
		}
	}
	return len(s)
}

func skipRegex(s string, i int) int {
	inClass := false
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				i++
				for i < len(s) && isIdentByte(s[i]) {
					i++
				}
				return i
			}
		case '\n':
			return i
		}
	}
	return len(s)
}
