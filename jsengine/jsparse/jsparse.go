// Package jsparse is the one way rea parses JavaScript: every module that
// reads JavaScript (jsapp's analysis, compare's export shapes) gets its
// syntax tree here, so each parse of untrusted text is bounded the same way:
//
//   - nesting is measured before the parser runs, and a file nested deeper
//     than the parsers and walkers can recurse is refused as that file
//     (ErrTooDeep) instead of exhausting the stack of the whole module;
//   - goja's source-map support is off: it would read any path a
//     sourceMappingURL comment names from the disk;
//   - a parser panic becomes an error of that file.
//
// Source makes the order explicit: text is admitted (measured) once, and
// texts derived from it by a bounded transformation — a wrapper function,
// esbuild's lowering of ESM or TypeScript — are parsed without measuring
// again, which keeps the cost of the measurement to one pass per file.
package jsparse

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// MaxNesting bounds bracket nesting: the parsers and the walkers recurse
// per level, and a hostile file of a million "(" would otherwise exhaust
// the stack instead of failing as one unparsable file.
const MaxNesting = 1000

// MaxOperatorChain bounds Depth's estimate of how deep a file's syntax tree
// goes. Operators nest without brackets — a+b+c+…, a=b=c=…, a?b:c?…,
// x=>y=>…, a.b.c… put one node inside the next per operator — and in wasm
// the call stack (wazero's, 50 MB) ends far sooner than natively: measured
// on the jsapp module, 12,000 chained "+" or "=" and 8,000 chained arrow
// functions exhausted it and took the whole analysis down, 5,000 did not.
// Real code stays far below: the deepest of 7,000 files surveyed (npm's,
// the MCP Inspector's and rolldown's bundles, rustdoc's) estimates 750.
const MaxOperatorChain = 4000

// ErrTooDeep is what a refusal for nesting matches with errors.Is.
var ErrTooDeep = errors.New("syntax nests too deep")

type tooDeepError struct{ msg string }

func (e *tooDeepError) Error() string        { return e.msg }
func (e *tooDeepError) Is(target error) bool { return target == ErrTooDeep }

// Source is JavaScript text admitted for parsing: its measured nesting is
// within MaxNesting and MaxOperatorChain.
type Source struct {
	name, text string
}

// Admit measures text and admits it, or refuses it with an ErrTooDeep
// error saying which bound it exceeds.
func Admit(name, text string) (Source, error) {
	switch brackets, chain := Depth(text); {
	case brackets > MaxNesting:
		return Source{}, &tooDeepError{fmt.Sprintf("brackets nest %d deep, over the %d this analyser accepts", brackets, MaxNesting)}
	case chain > MaxOperatorChain:
		return Source{}, &tooDeepError{fmt.Sprintf("operators chain about %d deep (as in a+b+c+… or x=>y=>…), over the %d this analyser accepts", chain, MaxOperatorChain)}
	}
	return Source{name: name, text: text}, nil
}

// Derive is text produced from s by a transformation that adds at most a
// few levels of nesting (wrapping it in a function, blanking what is not
// script, esbuild's lowering); it is parsed under s's admission.
func (s Source) Derive(text string) Source { return Source{name: s.name, text: text} }

// Text is the admitted text.
func (s Source) Text() string { return s.text }

// Parse parses the admitted text as a script, with source maps off and a
// parser panic turned into an error.
func (s Source) Parse() (prog *ast.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("parser panic: %v", r)
		}
	}()
	return parser.ParseFile(nil, s.name, s.text, 0, parser.WithDisableSourceMaps)
}

// Parse admits and parses text in one step.
func Parse(name, text string) (*ast.Program, error) {
	s, err := Admit(name, text)
	if err != nil {
		return nil, err
	}
	return s.Parse()
}

// isOperatorByte reports whether c can be part of an operator (a switch:
// no call or loop per byte in wasm, where both cost fuel).
func isOperatorByte(c byte) bool {
	switch c {
	case '+', '-', '*', '%', '&', '|', '^', '!', '~', '<', '>', '=', '?', ':', '.', '/':
		return true
	}
	return false
}

// Depth approximates how deep src's syntax tree can go, skipping
// string literals and comments (regular expressions are not recognised, so
// the estimate can only err high for bracket- or operator-heavy regexps).
// It returns the deepest bracket nesting and the deepest nesting of
// brackets plus operator chains: at each bracket level it counts operators
// since the last ",", ";" or bracket (==, &&, <=, => … once; !!, ++ … per
// character), and sums those counts over the open levels.
func Depth(src string) (brackets, chain int) {
	var runs []int // per open bracket level: operators since its last separator
	run, sum := 0, 0
	closedAt := -1 // offset of the ")" or "]" a call or index may follow, or -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c >= 'a' && c <= 'z' {
			// new, typeof and void nest like prefix operators (new new new
			// … f): checked at their last letter only.
			if (c == 'w' || c == 'f' || c == 'd') && isPrefixKeywordEnd(src, i) {
				run++
				sum++
				chain = max(chain, sum+len(runs))
			}
			continue
		}
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\n' || c == '\t' || c == '_' || c == '$' || c >= 0x80 {
			continue // most bytes: names, numbers, blanks
		}
		if c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
			if src[i+1] == '/' {
				from := i
				for i < len(src) && src[i] != '\n' {
					i++
				}
				closedAt = afterComment(src, closedAt, from, i)
				continue
			}
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return brackets, chain
			}
			from := i
			i += end + 3
			closedAt = afterComment(src, closedAt, from, i)
			continue
		}
		switch c {
		case '(', '[', '{':
			if c != '{' && closedAt >= 0 && blank(src[closedAt+1:i]) {
				// f()()… and a[0][0]…: each call or index of a call's or
				// index's result nests one node deeper.
				run++
				sum++
				chain = max(chain, sum+len(runs))
			}
			closedAt = -1
			runs = append(runs, run)
			run = 0
			brackets = max(brackets, len(runs))
		case ')', ']', '}':
			if len(runs) > 0 {
				sum -= run
				run = runs[len(runs)-1]
				runs = runs[:len(runs)-1]
			}
			closedAt = -1
			if c != '}' {
				closedAt = i
			}
		case ',', ';':
			sum -= run
			run = 0
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' && c != '`' {
					break
				}
			}
		default:
			if !isOperatorByte(c) {
				continue
			}
			if i > 0 && (c == '=' || c == '&' || c == '|' || c == '<' || c == '>') && isOperatorByte(src[i-1]) {
				continue // the rest of ==, &&, ||, <=, >>>, => …: one operator
			}
			run++
			sum++
			chain = max(chain, sum+len(runs))
		}
	}
	return brackets, chain
}

// afterComment moves the ")" or "]" a call may follow over a comment
// from..end when only blanks separate them (f()/**/() still chains), and
// forgets it otherwise, so no byte is looked at twice.
func afterComment(src string, closedAt, from, end int) int {
	if closedAt >= 0 && blank(src[closedAt+1:from]) {
		return end
	}
	return -1
}

// blank reports whether s holds only spaces, tabs and line breaks.
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// isPrefixKeywordEnd reports whether src[i] ends the word new, typeof or
// void.
func isPrefixKeywordEnd(src string, i int) bool {
	if i+1 < len(src) && isWordByte(src[i+1]) {
		return false
	}
	for _, kw := range [...]string{"new", "typeof", "void"} {
		if s := i + 1 - len(kw); s >= 0 && src[s:i+1] == kw && (s == 0 || !isWordByte(src[s-1])) {
			return true
		}
	}
	return false
}

// isWordByte reports whether c can be part of a name.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}
