package index

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"rea/abi/textfold"
)

// GenericWordsVersion identifies the generic-word list below. Change the
// version whenever the list changes: the same query can then match different
// sections, and results report the version they were computed with.
const GenericWordsVersion = 1

// genericWords is version 1 of the words a query may contain that never narrow
// a search: English function words, question and request words an analyst
// types around the actual subject ("how do I …", "please show …"), and the
// product's own name and the word "tool", which every section could claim.
// The list is compared after the same normalisation as every term (NFKC,
// Unicode case folding), so it is written in folded form.
var genericWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(genericWordList) {
		genericWords[w] = true
	}
}

const genericWordList = `
a about above after again against all also am an and any are as at
be because been before being below between both but by
can could did do does doing done down during each either else etc
few for from further had has have having he her here hers him his how
i if in into is it its itself just let me more most my myself
no nor not now of off on once only or other our ours out over own
please s same she should show so some such t than that the their theirs them then there these they this those through to too
under until up very via was we were what when where whether which while who whom whose why will with would
you your yours
help need needs want wants way find
rea tool tools use used uses using
`

// IsGeneric reports whether a normalised term is on the generic-word list.
func IsGeneric(term string) bool { return genericWords[term] }

// GenericWords returns version GenericWordsVersion of the list, sorted.
func GenericWords() []string {
	out := strings.Fields(genericWordList)
	slices.Sort(out)
	return out
}

// normaliser folds text for matching (textfold: NFKC, then full Unicode case
// folding, as MCP completion matches prefixes). A folder keeps state, so
// each user gets its own.
type normaliser struct {
	fold *textfold.Folder
	buf  []byte
}

func newNormaliser() *normaliser { return &normaliser{fold: textfold.NewFolder()} }

func (n *normaliser) normalise(s string) string { return n.fold.Fold(s) }

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// eachWord calls fn with every word of s: each maximal run of letters,
// numbers and combining marks, normalised (NFKC, case folding) and split
// again if normalising introduced a separator. Everything else — spaces,
// punctuation, underscores, hyphens, dots, slashes — separates words, so
// `analyze_javascript_application` holds the words analyze, javascript and
// application. The slice passed to fn is only valid during the call.
func (n *normaliser) eachWord(s string, fn func(w []byte)) {
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			n.emitRun(s[start:i], fn)
			start = -1
		}
	}
	if start >= 0 {
		n.emitRun(s[start:], fn)
	}
}

func (n *normaliser) emitRun(run string, fn func(w []byte)) {
	if isASCII(run) {
		// NFKC leaves ASCII unchanged and folding it is lower-casing: skip
		// the Unicode tables for the common case.
		n.buf = append(n.buf[:0], run...)
		for i, c := range n.buf {
			if c >= 'A' && c <= 'Z' {
				n.buf[i] = c + ('a' - 'A')
			}
		}
		fn(n.buf)
		return
	}
	for _, w := range splitWords(n.normalise(run)) {
		fn([]byte(w))
	}
}

// tokens returns the words of s (see eachWord) as strings.
func (n *normaliser) tokens(s string) []string {
	var out []string
	n.eachWord(s, func(w []byte) { out = append(out, string(w)) })
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// utf16Len counts the UTF-16 code units of s: two for a rune outside the
// Basic Multilingual Plane, one otherwise (invalid bytes count as U+FFFD).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 && r <= utf8.MaxRune {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func runeUnits(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
