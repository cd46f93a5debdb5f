// Package jslex is the lexer-level pass of the JavaScript analysis: one
// linear, bounded scan of a file that finds what the module graph needs
// (literal require calls and their positions) and whether the file can
// contribute any fact of the Electron analysis at all (a relevant word
// anywhere in its bytes). The analysis then builds full syntax trees only
// for the files that can contribute, their providers and their importers
// (jsengine/lexpass.go); every other file is reported from this scan.
//
// The scan is conservative by construction:
//
//   - relevance is a word scan over the raw bytes, independent of the
//     tokeniser: a relevant word inside a comment, a string or a regular
//     expression counts, so a mis-tokenised line can never hide one;
//   - Facts.NeedsParse names anything the scan cannot stand in for
//     exactly (ESM syntax, a require that is not require('literal'), an
//     escape in a specifier, syntax goja's parser rejects, ambiguous
//     tokens); the caller parses such files;
//   - the tokeniser is bounded (template nesting, token count) and every
//     malformed input (unterminated string, template, comment or regular
//     expression, unbalanced brackets, invalid UTF-8 is just bytes) ends in
//     a typed *Error, after which the caller parses the file and the
//     parser gives its own verdict.
//
// It reads bytes only; nothing is executed and nothing is allocated per
// byte.
package jslex

import (
	"fmt"
)

// Limits bound one scan. Zero fields take the defaults.
type Limits struct {
	// MaxTokens bounds the tokens of one file.
	MaxTokens int
	// MaxDepth bounds template-literal nesting (`${ `${ … }` }`).
	MaxDepth int
	// MaxRequires bounds the require calls reported.
	MaxRequires int
}

// DefaultLimits are the bounds the analysis uses.
var DefaultLimits = Limits{MaxTokens: 50_000_000, MaxDepth: 256, MaxRequires: 100_000}

// Error is why a scan stopped; the file must then be parsed.
type Error struct {
	Kind   string // unterminated-string | unterminated-template | unterminated-comment | unterminated-regex | unbalanced | too-deep | too-many-tokens | too-many-requires
	Offset int
}

func (e *Error) Error() string { return fmt.Sprintf("jslex: %s at byte %d", e.Kind, e.Offset) }

// Require is a call require('literal') with exactly one string-literal
// argument (no escapes), callee the bare identifier require.
type Require struct {
	Spec   string
	Offset int // byte offset of the identifier require
}

// Facts is what one scan found.
type Facts struct {
	Requires []Require
	// Relevant is the first word that makes the file able to contribute a
	// fact ("" when none occurs anywhere in its bytes).
	Relevant string
	// Propagates says that some relevant word can give an importer of the
	// file a fact (an Electron object, an IPC helper, the renderer bridge,
	// a child process); false when every relevant word's facts stay in
	// the file (relevant.go localWords).
	Propagates bool
	// NeedsParse says why the scan cannot stand in for the parser ("" when
	// it can).
	NeedsParse string
}

// Scan lexes src. On an *Error the returned Facts still carry Relevant.
func Scan(src string, lim Limits) (Facts, error) {
	f, err := scan(src, lim)
	return f, err
}

// Words is the relevance scan alone: the first relevant word of src and
// whether importers can gain facts from the file (see Facts).
func Words(src string) (first string, propagates bool) { return relevantWord(src) }

func scan(src string, lim Limits) (Facts, error) {
	if lim.MaxTokens <= 0 {
		lim.MaxTokens = DefaultLimits.MaxTokens
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultLimits.MaxDepth
	}
	if lim.MaxRequires <= 0 {
		lim.MaxRequires = DefaultLimits.MaxRequires
	}
	var f Facts
	f.Relevant, f.Propagates = relevantWord(src)
	s := scanner{src: src, lim: lim}
	err := s.run()
	f.Requires = s.requires
	f.NeedsParse = s.needs
	if err == nil && s.rawRequires != len(s.requires) && f.NeedsParse == "" {
		// A "require" word the tokeniser did not see as a literal call
		// (in a comment, a string, or mis-tokenised): let the parser decide.
		f.NeedsParse = "require outside a literal call"
	}
	if err != nil {
		return f, err
	}
	return f, nil
}

type tokKind uint8

const (
	tNone tokKind = iota
	tWord
	tKeywordExpr // a keyword after which an expression (or regex) starts
	tNumber
	tString
	tTemplate
	tRegex
	tClose // ) or ]
	tCloseBrace
	tPunct
)

type scanner struct {
	src      string
	lim      Limits
	i        int
	tokens   int
	prev     tokKind
	prevWord string
	prevDot  bool // the previous token is "."
	// depth counts open ( [ {; braces counts open { only.
	depth, braces int
	// tmpl is the brace depth at which each open template's ${ started.
	tmpl []int
	// a pending require: 1 after `require`, 2 after `(`, 3 after the string
	reqState  int
	reqOffset int
	reqSpec   string

	requires    []Require
	rawRequires int
	needs       string
}

func (s *scanner) need(why string) {
	if s.needs == "" {
		s.needs = why
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// exprKeywords are words after which a "/" starts a regular expression.
var exprKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

func (s *scanner) run() error {
	src := s.src
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for s.i < len(src) && src[s.i] != '\n' {
			s.i++
		}
	}
	for s.i < len(src) {
		c := src[s.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.i++
			continue
		case c == '/' && s.i+1 < len(src) && src[s.i+1] == '/':
			for s.i < len(src) && src[s.i] != '\n' {
				s.i++
			}
			continue
		case c == '/' && s.i+1 < len(src) && src[s.i+1] == '*':
			start := s.i
			s.i += 2
			for {
				if s.i+1 >= len(src) {
					return &Error{Kind: "unterminated-comment", Offset: start}
				}
				if src[s.i] == '*' && src[s.i+1] == '/' {
					s.i += 2
					break
				}
				s.i++
			}
			continue
		}
		s.tokens++
		if s.tokens > s.lim.MaxTokens {
			return &Error{Kind: "too-many-tokens", Offset: s.i}
		}
		var err error
		switch {
		case isIdentStart(c):
			s.word()
		case c == '\\':
			s.need("an escaped identifier")
			s.i++
			s.token(tWord, "")
		case c >= '0' && c <= '9' || c == '.' && s.i+1 < len(src) && src[s.i+1] >= '0' && src[s.i+1] <= '9':
			for s.i < len(src) && (isIdentPart(src[s.i]) || src[s.i] == '.') {
				s.i++
			}
			s.token(tNumber, "")
		case c == '\'' || c == '"':
			err = s.str(c)
		case c == '`':
			s.i++
			err = s.template()
		case c == '/':
			if s.regexAllowed() {
				err = s.regex()
			} else {
				s.i++
				s.token(tPunct, "")
			}
		default:
			err = s.punct(c)
		}
		if err != nil {
			return err
		}
	}
	if s.depth != 0 || len(s.tmpl) != 0 {
		return &Error{Kind: "unbalanced", Offset: len(src)}
	}
	s.token(tNone, "") // settles a require cut off by the end
	return nil
}

func (s *scanner) regexAllowed() bool {
	switch s.prev {
	case tWord, tNumber, tString, tTemplate, tRegex, tClose:
		return false
	}
	return true
}

// token records the kind of the token just read and advances the require
// recogniser.
func (s *scanner) token(k tokKind, text string) {
	switch s.reqState {
	case 1:
		if k == tPunct && text == "(" {
			s.reqState = 2
		} else {
			s.reqState = 0
		}
	case 2:
		if k == tString && text != "\x00" {
			s.reqState, s.reqSpec = 3, text
		} else {
			s.reqState = 0
		}
	case 3:
		if k == tClose && text == ")" {
			if len(s.requires) < s.lim.MaxRequires {
				s.requires = append(s.requires, Require{Spec: s.reqSpec, Offset: s.reqOffset})
			} else {
				s.need("too many require calls")
			}
		}
		s.reqState = 0
	}
	s.prev = k
	s.prevDot = k == tPunct && text == "."
}

func (s *scanner) word() {
	start := s.i
	for s.i < len(s.src) && isIdentPart(s.src[s.i]) {
		s.i++
	}
	w := s.src[start:s.i]
	afterDot := s.prevDot
	switch w {
	case "require":
		s.rawRequires++
		kind := tWord
		s.token(kind, w)
		if !afterDot {
			s.reqState, s.reqOffset = 1, start
		}
		s.prevWord = w
		return
	case "import", "export":
		if !afterDot {
			s.need("ESM syntax (" + w + ")")
		}
	case "await":
		if !afterDot && (s.braces == 0 || s.prevWord == "for") {
			s.need("await at the top level or in for await")
		}
	case "return":
		if !afterDot && s.braces == 0 {
			s.need("a top-level return")
		}
	}
	k := tWord
	if !afterDot && exprKeywords[w] {
		k = tKeywordExpr
	}
	s.token(k, w)
	s.prevWord = w
}

// str reads a '…' or "…" literal. Its text goes to the require
// recogniser; a literal with an escape is passed as "\x00" (not a
// specifier this scan decodes).
func (s *scanner) str(q byte) error {
	start := s.i
	s.i++
	escaped := false
	for {
		if s.i >= len(s.src) {
			return &Error{Kind: "unterminated-string", Offset: start}
		}
		c := s.src[s.i]
		switch c {
		case q:
			s.i++
			text := "\x00"
			if !escaped {
				text = s.src[start+1 : s.i-1]
			}
			s.token(tString, text)
			return nil
		case '\\':
			escaped = true
			s.i += 2
			continue
		case '\n', '\r':
			return &Error{Kind: "unterminated-string", Offset: start}
		}
		s.i++
	}
}

// template reads template text after a backquote or a closing } of a
// substitution, up to its end or the next ${.
func (s *scanner) template() error {
	start := s.i
	for {
		if s.i >= len(s.src) {
			return &Error{Kind: "unterminated-template", Offset: start}
		}
		switch s.src[s.i] {
		case '`':
			s.i++
			s.token(tTemplate, "")
			return nil
		case '\\':
			s.i += 2
			continue
		case '$':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '{' {
				if len(s.tmpl) >= s.lim.MaxDepth {
					return &Error{Kind: "too-deep", Offset: s.i}
				}
				s.i += 2
				s.tmpl = append(s.tmpl, s.braces)
				s.braces++
				s.depth++
				s.token(tPunct, "${")
				return nil
			}
		}
		s.i++
	}
}

func (s *scanner) regex() error {
	start := s.i
	s.i++
	class := false
	for {
		if s.i >= len(s.src) {
			return &Error{Kind: "unterminated-regex", Offset: start}
		}
		c := s.src[s.i]
		switch {
		case c == '\n' || c == '\r':
			return &Error{Kind: "unterminated-regex", Offset: start}
		case c == '\\':
			s.i += 2
			continue
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			s.i++
			for s.i < len(s.src) && isIdentPart(s.src[s.i]) {
				s.i++
			}
			s.token(tRegex, "")
			return nil
		}
		s.i++
	}
}

func (s *scanner) punct(c byte) error {
	at := s.i
	s.i++
	if s.prev == tWord && c != '{' && c != '[' && (s.prevWord == "const" || s.prevWord == "let" || s.prevWord == "var") {
		// `const = …`: goja refuses it; the parser reports the file.
		s.need("a declaration without a name")
	}
	switch c {
	case '(', '[', '{':
		s.depth++
		if c == '{' {
			s.braces++
		}
		s.token(tPunct, string(c))
	case ')', ']':
		if s.depth == 0 {
			return &Error{Kind: "unbalanced", Offset: at}
		}
		s.depth--
		s.token(tClose, string(c))
	case '}':
		if s.depth == 0 || s.braces == 0 {
			return &Error{Kind: "unbalanced", Offset: at}
		}
		s.depth--
		s.braces--
		if n := len(s.tmpl); n > 0 && s.tmpl[n-1] == s.braces {
			s.tmpl = s.tmpl[:n-1]
			return s.template()
		}
		s.token(tCloseBrace, "}")
	case '@':
		s.need("a decorator (@)")
		s.token(tPunct, "@")
	case '<':
		// JSX (<div …>, <>, </x>) and HTML comments (<!--) are not
		// syntax goja parses: after an operand "<" is a comparison.
		if s.i < len(s.src) {
			n := s.src[s.i]
			if n == '!' || (s.regexAllowed() && (isIdentStart(n) || n == '>' || n == '/')) {
				s.need("JSX or an HTML comment (<)")
			}
		}
		s.token(tPunct, "<")
	case '.':
		s.token(tPunct, ".")
	default:
		s.token(tPunct, string(c))
	}
	return nil
}
