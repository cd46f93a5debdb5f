package index

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"rea/abi"
)

// FuzzBuildReadSearch checks, for any one-file bundle and any query, that
// Build either refuses the bundle as a whole or yields sections that tile the
// document, that every locator reads back exactly its byte range with the
// length search reports, and that every search result respects its bounds.
func FuzzBuildReadSearch(f *testing.F) {
	f.Add([]byte("# A\nalpha\n## B\nbeta\n"), "alpha beta")
	f.Add([]byte("---\nx: 1\n---\npre\n# A\n```\n# no\n```\n"), "pre no")
	f.Add([]byte("# 😀\n"+strings.Repeat("😀", 300)), "😀")
	f.Add([]byte("###### deep\n# top\n## mid\n"), "deep top mid")
	f.Add([]byte("\xff# bad"), "bad")
	f.Fuzz(func(t *testing.T, src []byte, query string) {
		ix, err := Build(fstest.MapFS{"a.md": {Data: src}})
		if err != nil {
			if code, _ := codeOf(err); code != abi.CodeBundleUnavailable || ix != nil {
				t.Fatalf("refusal is not a whole bundle_unavailable: %v", err)
			}
			return
		}
		text := ix.docs[0].src
		next := -1
		for i, s := range ix.sections {
			r, err := ix.Read(ReadParams{Locator: ix.locator(i)})
			if err != nil {
				t.Fatalf("section %d unreadable: %v", i, err)
			}
			if len(ix.locator(i)) != 68 || r.Content != text[s.start:s.end] || r.ContentLength != units(r.Content) {
				t.Fatalf("section %d: locator %q, content mismatch or length %d", i, ix.locator(i), r.ContentLength)
			}
			if s.ownEnd < s.start || s.ownEnd > s.end || s.last < i {
				t.Fatalf("section %d bounds %+v", i, s)
			}
			if s.parent < 0 {
				if next >= 0 && s.start != next {
					t.Fatalf("top sections do not tile: gap before %d", s.start)
				}
				next = s.end
			}
		}
		if next != len(text) {
			t.Fatalf("top sections end at %d, document at %d", next, len(text))
		}
		res, err := ix.Search(SearchParams{Query: query})
		if err != nil {
			if code, _ := codeOf(err); code != abi.CodeInvalidRequest {
				t.Fatalf("search error %v", err)
			}
			return
		}
		if len(res.Matches) > MaxLimit {
			t.Fatalf("%d matches on a page", len(res.Matches))
		}
		for _, m := range res.Matches {
			if units(m.Excerpt) > MaxExcerptUnits || !utf8.ValidString(m.Excerpt) || len(m.Subsections) > MaxSubsections {
				t.Fatalf("match out of bounds: %+v", m)
			}
		}
	})
}
