package index

import (
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"rea/abi"
)

// BundleDigest returns "sha256:" + the hex digest of the indexed bundle.
func (ix *Index) BundleDigest() string { return "sha256:" + hex.EncodeToString(ix.digest[:]) }

// Len returns the number of sections.
func (ix *Index) Len() int { return len(ix.sections) }

// query is a parsed query.
type query struct {
	terms   []string
	generic []string
}

func parseQuery(q string) (query, error) {
	if strings.TrimSpace(q) == "" {
		return query{}, abi.Errorf(abi.CodeInvalidRequest,
			"query is empty; pass the words of your question, e.g. \"preload contextBridge\"").WithDetail("field", "query")
	}
	if len(q) > MaxQueryBytes {
		return query{}, abi.Errorf(abi.CodeInvalidRequest,
			"query is %d bytes; shorten it to at most %d", len(q), MaxQueryBytes).
			WithDetail("field", "query").WithDetail("maximum", MaxQueryBytes)
	}
	if !utf8.ValidString(q) {
		return query{}, abi.Errorf(abi.CodeInvalidRequest, "query is not valid UTF-8").WithDetail("field", "query")
	}
	var out query
	seen := map[string]bool{}
	for _, w := range newNormaliser().tokens(q) {
		if seen[w] {
			continue
		}
		seen[w] = true
		if IsGeneric(w) {
			out.generic = append(out.generic, w)
		} else {
			out.terms = append(out.terms, w)
		}
	}
	if len(out.terms) > MaxQueryTerms {
		return query{}, abi.Errorf(abi.CodeInvalidRequest,
			"query has %d distinct non-generic words; use at most %d", len(out.terms), MaxQueryTerms).
			WithDetail("field", "query").WithDetail("maximum", MaxQueryTerms)
	}
	return out, nil
}

func pageBounds(p SearchParams) (offset, limit int, err error) {
	limit = DefaultLimit
	if p.Offset != nil {
		offset = *p.Offset
		if offset < 0 {
			return 0, 0, abi.Errorf(abi.CodeInvalidRequest, "offset must be 0 or more").
				WithDetail("field", "offset").WithDetail("minimum", 0)
		}
	}
	if p.Limit != nil {
		limit = *p.Limit
		if limit < 1 || limit > MaxLimit {
			return 0, 0, abi.Errorf(abi.CodeInvalidRequest, "limit must be between 1 and %d; page with offset for more", MaxLimit).
				WithDetail("field", "limit").WithDetail("minimum", 1).WithDetail("maximum", MaxLimit)
		}
	}
	return offset, limit, nil
}

// has reports whether section i's own text holds term.
func (ix *Index) has(term string, i int) bool {
	_, ok := slices.BinarySearch(ix.postings[term], int32(i))
	return ok
}

// subtreeHas reports whether any section in i's subtree (i included) holds
// term in its own text.
func (ix *Index) subtreeHas(term string, i int) bool {
	post := ix.postings[term]
	k, _ := slices.BinarySearch(post, int32(i))
	return k < len(post) && int(post[k]) <= ix.sections[i].last
}

func (ix *Index) subtreeHasAll(terms []string, i int) bool {
	for _, t := range terms {
		if !ix.subtreeHas(t, i) {
			return false
		}
	}
	return true
}

type candidate struct {
	index        int
	scope        string
	headingTerms int
}

// Search runs a query; see the package documentation for the semantics.
func (ix *Index) Search(p SearchParams) (*SearchResult, error) {
	offset, limit, err := pageBounds(p)
	if err != nil {
		return nil, err
	}
	q, err := parseQuery(p.Query)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{
		BundleDigest: ix.BundleDigest(), Query: p.Query,
		Terms: nonNil(q.terms), IgnoredGenericWords: nonNil(q.generic),
		GenericWordsVersion: GenericWordsVersion, Note: NoMatchNote,
		Offset: offset, Limit: limit, LengthUnit: LengthUnit, Matches: []Match{},
	}
	if len(q.terms) == 0 {
		res.NoMatchReason = ReasonNoTerms
		if len(q.generic) > 0 {
			res.NoMatchReason = ReasonGenericOnly
		}
		return res, nil
	}
	if ix.terms != nil {
		// An opened snapshot: decode just this query's posting lists.
		view := *ix
		if view.postings, err = ix.terms.resolve(q.terms); err != nil {
			return nil, err
		}
		ix = &view
	}
	norm := newNormaliser()
	var found []candidate
	for i := range ix.sections {
		if !ix.subtreeHasAll(q.terms, i) {
			continue
		}
		own := true
		for _, t := range q.terms {
			if !ix.has(t, i) {
				own = false
				break
			}
		}
		c := candidate{index: i, scope: ScopeSection}
		if !own {
			// A subsection that holds every term is a match itself, so
			// this parent adds nothing.
			suppressed := false
			for _, ch := range ix.sections[i].children {
				if ix.subtreeHasAll(q.terms, ch) {
					suppressed = true
					break
				}
			}
			if suppressed {
				continue
			}
			c.scope = ScopeSubsections
		}
		c.headingTerms = countIn(q.terms, norm.tokens(ix.sections[i].heading))
		found = append(found, c)
	}
	// Ranking: section matches first; then more query terms in the heading;
	// then bundle order (document path, then position in the document).
	sort.SliceStable(found, func(a, b int) bool {
		x, y := found[a], found[b]
		if x.scope != y.scope {
			return x.scope == ScopeSection
		}
		if x.headingTerms != y.headingTerms {
			return x.headingTerms > y.headingTerms
		}
		return x.index < y.index
	})
	res.TotalMatches = len(found)
	if len(found) == 0 {
		res.NoMatchReason = ReasonNoSectionHoldsEveryTerm
		return res, nil
	}
	window, next := abi.Window(found, offset, limit)
	for _, c := range window {
		res.Matches = append(res.Matches, ix.match(c, q.terms, norm))
	}
	res.NextOffset = next
	return res, nil
}

func (ix *Index) match(c candidate, terms []string, norm *normaliser) Match {
	s := &ix.sections[c.index]
	m := Match{
		Locator: ix.locator(c.index), Path: ix.docs[s.doc].path, Heading: clipHeading(s.heading),
		HeadingPath: clipPath(ix.headingPath(c.index)), Level: s.level, MatchScope: c.scope,
		ContentLength: s.units, Subsections: []SubsectionRef{}, OwnTextTerms: []string{},
	}
	var rest []string
	for _, t := range terms {
		if ix.has(t, c.index) {
			m.OwnTextTerms = append(m.OwnTextTerms, t)
		} else {
			rest = append(rest, t)
		}
	}
	if c.scope == ScopeSubsections {
		cover := ix.greedyCover(c.index, rest)
		if len(cover) > MaxSubsections {
			m.OmittedSubsections = len(cover) - MaxSubsections
			cover = cover[:MaxSubsections]
		}
		m.Subsections = cover
	}
	m.Excerpt, m.ExcerptStart = ix.excerpt(c.index, terms, norm)
	return m
}

// greedyCover picks descendants of section i whose own text holds the most
// still-uncovered terms, one at a time, until every term in rest is covered.
// Ties go to the earliest descendant in document order.
func (ix *Index) greedyCover(i int, rest []string) []SubsectionRef {
	uncovered := slices.Clone(rest)
	var out []SubsectionRef
	last := ix.sections[i].last
	for len(uncovered) > 0 {
		best, bestTerms := -1, []string(nil)
		for d := i + 1; d <= last; d++ {
			var got []string
			for _, t := range uncovered {
				if ix.has(t, d) {
					got = append(got, t)
				}
			}
			if len(got) > len(bestTerms) {
				best, bestTerms = d, got
			}
		}
		if best < 0 {
			// Cannot happen: the subtree holds every term.
			break
		}
		out = append(out, SubsectionRef{Locator: ix.locator(best), Heading: clipHeading(ix.sections[best].heading), Terms: bestTerms})
		uncovered = slices.DeleteFunc(uncovered, func(t string) bool { return slices.Contains(bestTerms, t) })
	}
	return out
}

// excerpt returns at most MaxExcerptUnits UTF-16 code units of the section's
// own text around the first occurrence of any term, and the excerpt's offset
// in the read content. It starts at the section's beginning when the first
// occurrence is near it, else at the start of the occurrence's line when that
// is close, else a little before the occurrence; it never splits a rune, so a
// surrogate pair is never split either.
func (ix *Index) excerpt(i int, terms []string, norm *normaliser) (string, int) {
	s := &ix.sections[i]
	own := ix.docs[s.doc].src[s.start:s.ownEnd]
	const lead = 100
	hit := firstOccurrence(own, terms, norm)
	startByte := 0
	if hit > 0 {
		hitUnits := utf16Len(own[:hit])
		if hitUnits > MaxExcerptUnits/2 {
			lineStart := strings.LastIndexAny(own[:hit], "\n\r") + 1
			if utf16Len(own[lineStart:hit]) <= MaxExcerptUnits/2 {
				startByte = lineStart
			} else {
				// Walk back lead code units from the hit.
				startByte = hit
				for u := 0; u < lead && startByte > 0; {
					r, size := utf8.DecodeLastRuneInString(own[:startByte])
					u += runeUnits(r)
					startByte -= size
				}
			}
		}
	}
	units, end := 0, startByte
	for end < len(own) {
		r, size := utf8.DecodeRuneInString(own[end:])
		if units+runeUnits(r) > MaxExcerptUnits {
			break
		}
		units += runeUnits(r)
		end += size
	}
	return own[startByte:end], utf16Len(own[:startByte])
}

// firstOccurrence returns the byte offset of the first word in text whose
// normalised form holds one of terms, or -1.
func firstOccurrence(text string, terms []string, norm *normaliser) int {
	start := -1
	check := func(from, to int) bool {
		for _, w := range norm.tokens(text[from:to]) {
			if slices.Contains(terms, w) {
				return true
			}
		}
		return false
	}
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if check(start, i) {
				return start
			}
			start = -1
		}
	}
	if start >= 0 && check(start, len(text)) {
		return start
	}
	return -1
}

func countIn(terms, words []string) int {
	n := 0
	for _, t := range terms {
		if slices.Contains(words, t) {
			n++
		}
	}
	return n
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// clipHeading shortens a heading to MaxHeadingUnits UTF-16 code units, the
// last being "…", cutting between runes.
func clipHeading(h string) string {
	if utf16Len(h) <= MaxHeadingUnits {
		return h
	}
	units, end := 0, 0
	for end < len(h) {
		r, size := utf8.DecodeRuneInString(h[end:])
		if units+runeUnits(r) > MaxHeadingUnits-1 {
			break
		}
		units += runeUnits(r)
		end += size
	}
	return h[:end] + "…"
}

func clipPath(path []string) []string {
	out := make([]string, len(path))
	for i, h := range path {
		out[i] = clipHeading(h)
	}
	return out
}
