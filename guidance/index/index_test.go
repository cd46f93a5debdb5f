package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf16"
	"unicode/utf8"

	"rea/abi"
)

func bundle(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, s := range files {
		m[p] = &fstest.MapFile{Data: []byte(s), Mode: 0o644}
	}
	return m
}

func mustBuild(t testing.TB, files map[string]string) *Index {
	t.Helper()
	ix, err := Build(bundle(files))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return ix
}

func search(t testing.TB, ix *Index, q string) *SearchResult {
	t.Helper()
	res, err := ix.Search(SearchParams{Query: q})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return res
}

func headings(res *SearchResult) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Heading+"|"+m.MatchScope)
	}
	return out
}

func units(s string) int { return len(utf16.Encode([]rune(s))) }

func codeOf(err error) (string, string) {
	var e *abi.Error
	if !errors.As(err, &e) {
		return "", ""
	}
	reason, _ := e.Details["reason"].(string)
	return e.Code, reason
}

func TestEveryNonGenericQueryWordMustOccur(t *testing.T) {
	ix := mustBuild(t, map[string]string{
		"a.md": "# Preload scripts\nThe preload runs before the renderer.\n",
		"b.md": "# Renderer\nThe renderer shows pages.\n",
	})
	if got := headings(search(t, ix, "preload renderer")); !reflect.DeepEqual(got, []string{"Preload scripts|section"}) {
		t.Fatalf("both words: %v", got)
	}
	res := search(t, ix, "preload renderer sandbox")
	if res.TotalMatches != 0 || res.NoMatchReason != ReasonNoSectionHoldsEveryTerm {
		t.Fatalf("a missing word still matched: %+v", res)
	}
	if !reflect.DeepEqual(res.Terms, []string{"preload", "renderer", "sandbox"}) {
		t.Fatalf("terms = %v", res.Terms)
	}
}

func TestGenericOnlyQueriesReturnNoMatches(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# How to use the tool\nWhat do you want to find? Use rea tools.\n"})
	res := search(t, ix, "How do I use the tool?")
	if res.TotalMatches != 0 || len(res.Matches) != 0 {
		t.Fatalf("generic-only query matched: %+v", res.Matches)
	}
	if res.NoMatchReason != ReasonGenericOnly {
		t.Fatalf("reason = %q, want %q", res.NoMatchReason, ReasonGenericOnly)
	}
	if !reflect.DeepEqual(res.IgnoredGenericWords, []string{"how", "do", "i", "use", "the", "tool"}) {
		t.Fatalf("ignored = %v", res.IgnoredGenericWords)
	}
	if res.GenericWordsVersion != 1 || !strings.Contains(res.Note, "says nothing about analysis capability availability") {
		t.Fatalf("result does not state version and note: %+v", res)
	}
	if res := search(t, ix, "?! ..."); res.NoMatchReason != ReasonNoTerms || res.TotalMatches != 0 {
		t.Fatalf("punctuation-only query: %+v", res)
	}
}

func TestGenericWordsAreDroppedButTheRestMustStillOccur(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Integrity\nrecord-and-continue policy\n"})
	res := search(t, ix, "how do I use the integrity policy")
	if !reflect.DeepEqual(res.Terms, []string{"integrity", "policy"}) || res.TotalMatches != 1 {
		t.Fatalf("terms %v total %d", res.Terms, res.TotalMatches)
	}
}

func TestMatchingIsCaseInsensitiveAndUnicodeNormalised(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# ＰＲＥＬＯＡＤ\nStraße und Café (e + U+0301: Cafe\u0301).\n"})
	for _, q := range []string{"preload", "Preload", "strasse", "STRASSE", "café", "cafe\u0301"} {
		if res := search(t, ix, q); res.TotalMatches != 1 {
			t.Errorf("query %q: %d matches, want 1", q, res.TotalMatches)
		}
	}
}

func TestTermsMatchWholeWordsNotSubstrings(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Catalog\nanalyze_javascript_application takes input_path.\n"})
	if res := search(t, ix, "log"); res.TotalMatches != 0 {
		t.Fatalf("substring matched")
	}
	if res := search(t, ix, "javascript input"); res.TotalMatches != 1 {
		t.Fatalf("underscore-separated words did not match")
	}
}

func TestSectionMatchHasEveryTermInItsOwnText(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Top\nalpha beta\n## Child\ngamma\n"})
	res := search(t, ix, "alpha beta")
	if len(res.Matches) != 1 {
		t.Fatalf("matches: %v", headings(res))
	}
	m := res.Matches[0]
	if m.MatchScope != ScopeSection || m.Heading != "Top" || !reflect.DeepEqual(m.OwnTextTerms, []string{"alpha", "beta"}) ||
		len(m.Subsections) != 0 || m.OmittedSubsections != 0 {
		t.Fatalf("match = %+v", m)
	}
}

func TestOwnTextIsHeadingAndBodyBeforeFirstSubsection(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Alpha heading\nbody text\n## Child\nbeta\nextra\n# Next\nbeta\n"})
	// "alpha" is in the heading, "body" in the body: own text.
	if got := headings(search(t, ix, "alpha body")); !reflect.DeepEqual(got, []string{"Alpha heading|section"}) {
		t.Fatalf("heading+body: %v", got)
	}
	// "extra" belongs to the child, not to the parent's own text.
	res := search(t, ix, "alpha extra")
	if len(res.Matches) != 1 || res.Matches[0].MatchScope != ScopeSubsections {
		t.Fatalf("alpha extra: %v", headings(res))
	}
}

func TestSubsectionsMatchListsOwnTextTermsAndGreedyCover(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Parent\nalpha\n## A\nbeta\n## B\nbeta gamma\n## C\ndelta\n### C1\nepsilon\n"})
	res := search(t, ix, "alpha beta gamma delta epsilon")
	if len(res.Matches) != 1 {
		t.Fatalf("matches: %v", headings(res))
	}
	m := res.Matches[0]
	if m.Heading != "Parent" || m.MatchScope != ScopeSubsections {
		t.Fatalf("match = %+v", m)
	}
	if !reflect.DeepEqual(m.OwnTextTerms, []string{"alpha"}) {
		t.Fatalf("own_text_terms = %v", m.OwnTextTerms)
	}
	var got []string
	for _, s := range m.Subsections {
		got = append(got, s.Heading+":"+strings.Join(s.Terms, ","))
	}
	// B covers two terms, beating A (one); then C (delta) before C1 (epsilon)
	// by document order, then C1.
	want := []string{"B:beta,gamma", "C:delta", "C1:epsilon"}
	if !reflect.DeepEqual(got, want) || m.OmittedSubsections != 0 {
		t.Fatalf("subsections = %v (omitted %d), want %v", got, m.OmittedSubsections, want)
	}
	for _, s := range m.Subsections {
		if _, err := ix.Read(ReadParams{Locator: s.Locator}); err != nil {
			t.Fatalf("subsection locator %s unreadable: %v", s.Locator, err)
		}
	}
}

func TestSubsectionsListHoldsAtMostEightAndCountsTheOmitted(t *testing.T) {
	var b strings.Builder
	var q []string
	b.WriteString("# Parent\n")
	for i := range 11 {
		fmt.Fprintf(&b, "## Part %d\nword%c\n", i, 'a'+i)
		q = append(q, fmt.Sprintf("word%c", 'a'+i))
	}
	ix := mustBuild(t, map[string]string{"a.md": b.String()})
	res := search(t, ix, strings.Join(q, " "))
	if len(res.Matches) != 1 {
		t.Fatalf("matches %v", headings(res))
	}
	m := res.Matches[0]
	if len(m.Subsections) != 8 || m.OmittedSubsections != 3 {
		t.Fatalf("listed %d, omitted %d; want 8 and 3", len(m.Subsections), m.OmittedSubsections)
	}
	if m.Subsections[0].Heading != "Part 0" || m.Subsections[7].Heading != "Part 7" {
		t.Fatalf("greedy order broken: %+v", m.Subsections)
	}
}

func TestParentNotListedWhenOneSubsectionHoldsEveryTerm(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Parent\nalpha\n## Child\nintro\n### Grandchild\nbeta gamma\n## Other\nbeta\n"})
	got := headings(search(t, ix, "beta gamma"))
	if !reflect.DeepEqual(got, []string{"Grandchild|section"}) {
		t.Fatalf("got %v, want only the grandchild", got)
	}
	// Spread over two children of Child's parent but inside one child of the
	// top: Child lists its spread, Parent does not.
	ix = mustBuild(t, map[string]string{"a.md": "# Parent\n## Child\n### G1\nbeta\n### G2\ngamma\n"})
	got = headings(search(t, ix, "beta gamma"))
	if !reflect.DeepEqual(got, []string{"Child|subsections"}) {
		t.Fatalf("got %v, want only Child as a subsections match", got)
	}
}

func TestParentListedWhenItsOwnTextAlsoHoldsEveryTerm(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Parent\nbeta gamma\n## Child\nbeta gamma\n"})
	got := headings(search(t, ix, "beta gamma"))
	if !reflect.DeepEqual(got, []string{"Parent|section", "Child|section"}) {
		t.Fatalf("got %v", got)
	}
}

func TestSectionMatchesRankFirst(t *testing.T) {
	ix := mustBuild(t, map[string]string{
		"a.md": "# Overview\n## X\nalpha\n## Y\nbeta\n",
		"b.md": "# Zed\nalpha beta\n",
	})
	got := headings(search(t, ix, "alpha beta"))
	if !reflect.DeepEqual(got, []string{"Zed|section", "Overview|subsections"}) {
		t.Fatalf("got %v", got)
	}
}

func TestOrderTieBreaksAreHeadingTermsThenPathThenPosition(t *testing.T) {
	ix := mustBuild(t, map[string]string{
		"b.md":     "# Notes\nalpha beta\n# Later notes\nalpha beta\n",
		"a.md":     "# Misc\nalpha beta\n",
		"c.md":     "# Alpha\nalpha beta\n",
		"sub/0.md": "# Beta and alpha\nalpha beta\n",
	})
	got := headings(search(t, ix, "alpha beta"))
	want := []string{"Beta and alpha|section", "Alpha|section", "Misc|section", "Notes|section", "Later notes|section"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestSearchIsDeterministic(t *testing.T) {
	files := map[string]string{"x.md": "# A\nalpha\n## B\nbeta\n", "y.md": "# C\nalpha beta\n"}
	r1 := search(t, mustBuild(t, files), "alpha beta")
	r2 := search(t, mustBuild(t, files), "alpha beta")
	if !reflect.DeepEqual(r1, r2) {
		t.Fatalf("two builds of the same bundle answered differently")
	}
}

func TestAtMostTwentyMatchesPerPageWithOffsetPaging(t *testing.T) {
	var b strings.Builder
	for i := range 45 {
		fmt.Fprintf(&b, "# Section %02d\nalpha\n", i)
	}
	ix := mustBuild(t, map[string]string{"a.md": b.String()})
	seen := map[string]bool{}
	offset := 0
	var sizes []int
	for page := 0; ; page++ {
		res, err := ix.Search(SearchParams{Query: "alpha", Offset: &offset})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalMatches != 45 || res.Limit != 20 {
			t.Fatalf("total %d limit %d", res.TotalMatches, res.Limit)
		}
		sizes = append(sizes, len(res.Matches))
		for _, m := range res.Matches {
			if seen[m.Locator] {
				t.Fatalf("locator %s on two pages", m.Locator)
			}
			seen[m.Locator] = true
		}
		if res.NextOffset == nil {
			break
		}
		offset = *res.NextOffset
	}
	if !reflect.DeepEqual(sizes, []int{20, 20, 5}) || len(seen) != 45 {
		t.Fatalf("page sizes %v, distinct %d", sizes, len(seen))
	}
	past := 45
	res, err := ix.Search(SearchParams{Query: "alpha", Offset: &past})
	if err != nil || len(res.Matches) != 0 || res.NextOffset != nil {
		t.Fatalf("offset past the end: %+v %v", res, err)
	}
}

func TestPagingBoundsAreRejectedWithFieldPaths(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# A\nalpha\n"})
	zero, big, neg := 0, 21, -1
	for _, tc := range []struct {
		p     SearchParams
		field string
	}{
		{SearchParams{Query: "alpha", Limit: &zero}, "limit"},
		{SearchParams{Query: "alpha", Limit: &big}, "limit"},
		{SearchParams{Query: "alpha", Offset: &neg}, "offset"},
		{SearchParams{Query: "   "}, "query"},
		{SearchParams{Query: strings.Repeat("x ", MaxQueryBytes)}, "query"},
	} {
		_, err := ix.Search(tc.p)
		var e *abi.Error
		if !errors.As(err, &e) || e.Code != abi.CodeInvalidRequest || e.Details["field"] != tc.field {
			t.Errorf("params %+v: err %v, want invalid_request on %s", tc.p, err, tc.field)
		}
	}
}

func TestExcerptIsAtMost500CodeUnitsAroundTheFirstTerm(t *testing.T) {
	body := strings.Repeat("filler words here. ", 100) + "\nThe needle is here.\n" + strings.Repeat("tail ", 200)
	ix := mustBuild(t, map[string]string{"a.md": "# Haystack\n" + body})
	res := search(t, ix, "needle")
	m := res.Matches[0]
	if n := units(m.Excerpt); n > 500 || n < 400 {
		t.Fatalf("excerpt is %d code units", n)
	}
	if !strings.HasPrefix(m.Excerpt, "The needle") {
		t.Fatalf("excerpt does not start at the needle's line: %q", m.Excerpt[:40])
	}
	read, err := ix.Read(ReadParams{Locator: m.Locator})
	if err != nil {
		t.Fatal(err)
	}
	content16 := utf16.Encode([]rune(read.Content))
	if got := string(utf16.Decode(content16[m.ExcerptStart : m.ExcerptStart+units(m.Excerpt)])); got != m.Excerpt {
		t.Fatalf("excerpt_start %d does not locate the excerpt in the content", m.ExcerptStart)
	}
}

func TestExcerptNeverSplitsASurrogatePair(t *testing.T) {
	// "# Smiles\n" is 9 code units; each emoji is 2. 245 emoji reach 499
	// units, so unit 500 is the first half of a pair and must be left out.
	ix := mustBuild(t, map[string]string{"a.md": "# Smiles\n" + strings.Repeat("😀", 400) + "\n"})
	m := search(t, ix, "smiles").Matches[0]
	if !utf8.ValidString(m.Excerpt) || strings.ContainsRune(m.Excerpt, utf8.RuneError) {
		t.Fatalf("excerpt holds a broken rune")
	}
	if units(m.Excerpt) != 499 || !strings.HasSuffix(m.Excerpt, "😀") {
		t.Fatalf("excerpt is %d units, want 499 ending in a whole emoji", units(m.Excerpt))
	}
}

func TestContentLengthIsTheUTF16LengthOfWhatReadReturns(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Top 😀\nalpha é\n## Child\n𝄞 beta\n# Other\nalpha\n"})
	for _, m := range search(t, ix, "alpha").Matches {
		read, err := ix.Read(ReadParams{Locator: m.Locator})
		if err != nil {
			t.Fatal(err)
		}
		if m.ContentLength != units(read.Content) || read.ContentLength != m.ContentLength || read.LengthUnit != "utf-16-code-units" {
			t.Fatalf("%s: content_length %d, read %d units", m.Heading, m.ContentLength, units(read.Content))
		}
	}
}

func TestReadReturnsTheSectionWithAllItsSubsections(t *testing.T) {
	src := "# Top\nintro\n## A\na text\n### A1\ndeep\n## B\nb text\n# Next\nother\n"
	ix := mustBuild(t, map[string]string{"a.md": src})
	m := search(t, ix, "intro").Matches[0]
	read, err := ix.Read(ReadParams{Locator: m.Locator})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Top\nintro\n## A\na text\n### A1\ndeep\n## B\nb text\n"
	if read.Content != want {
		t.Fatalf("content = %q, want %q", read.Content, want)
	}
	if len(read.Subsections) != 2 || read.Subsections[0].Heading != "A" || read.Subsections[1].Heading != "B" {
		t.Fatalf("subsections = %+v", read.Subsections)
	}
	if !reflect.DeepEqual(read.HeadingPath, []string{"Top"}) {
		t.Fatalf("heading path %v", read.HeadingPath)
	}
	a1 := search(t, ix, "deep").Matches[0]
	if !reflect.DeepEqual(a1.HeadingPath, []string{"Top", "A", "A1"}) || a1.Level != 3 {
		t.Fatalf("A1 = %+v", a1)
	}
}

func TestHashLinesInFencedCodeDoNotStartSections(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Shell\n```sh\n# install the thing\nmake\n```\nafter\n"})
	if ix.Len() != 1 {
		t.Fatalf("%d sections, want 1", ix.Len())
	}
	m := search(t, ix, "install after").Matches[0]
	if m.Heading != "Shell" || m.MatchScope != ScopeSection {
		t.Fatalf("match = %+v", m)
	}
}

func TestFrontMatterBelongsToNoSectionAndPreambleIsALevelZeroSection(t *testing.T) {
	ix := mustBuild(t, map[string]string{
		"skill.md": "---\nname: secretword\n# yaml comment\n---\n# Title\nbody\n",
		"pre.md":   "Preamble words.\n# First\nbody\n",
	})
	if res := search(t, ix, "secretword"); res.TotalMatches != 0 {
		t.Fatalf("front matter was indexed")
	}
	if res := search(t, ix, "yaml comment"); res.TotalMatches != 0 {
		t.Fatalf("a '#' line in front matter became a section")
	}
	m := search(t, ix, "preamble").Matches[0]
	if m.Level != 0 || m.Heading != "" || m.Path != "pre.md" {
		t.Fatalf("preamble match = %+v", m)
	}
	read, err := ix.Read(ReadParams{Locator: m.Locator})
	if err != nil || read.Content != "Preamble words.\n# First\nbody\n" {
		t.Fatalf("preamble read = %q, %v", read.Content, err)
	}
}

func TestLocatorBoundByFixedSizeHashes(t *testing.T) {
	long := strings.Repeat("very long heading ", 20000)
	ix := mustBuild(t, map[string]string{"a.md": "# " + long + "\nalpha\n## Child\nbeta\n", "b.md": "# Short\nalpha\n"})
	res := search(t, ix, "alpha")
	if len(res.Matches) != 2 {
		t.Fatalf("matches %d", len(res.Matches))
	}
	for _, m := range res.Matches {
		if len(m.Locator) != 68 {
			t.Fatalf("locator for heading of %d bytes is %d long: %s", len(m.Heading), len(m.Locator), m.Locator)
		}
		if _, err := ix.Read(ReadParams{Locator: m.Locator}); err != nil {
			t.Fatalf("long-heading locator unreadable: %v", err)
		}
	}
	// The section part binds the complete section: editing a subsection
	// changes the parent's section hash, and a sibling document's section
	// hash stays put while the bundle part changes.
	ix2 := mustBuild(t, map[string]string{"a.md": "# " + long + "\nalpha\n## Child\ngamma\n", "b.md": "# Short\nalpha\n"})
	res2 := search(t, ix2, "alpha")
	parts := func(l string) []string { return strings.Split(l, ".") }
	longOld, longNew := parts(res.Matches[0].Locator), parts(res2.Matches[0].Locator)
	shortOld, shortNew := parts(res.Matches[1].Locator), parts(res2.Matches[1].Locator)
	if longOld[2] == longNew[2] {
		t.Fatalf("editing a subsection did not change the parent's section hash")
	}
	if shortOld[2] != shortNew[2] || shortOld[1] == shortNew[1] {
		t.Fatalf("sibling document: section part %v→%v, bundle part %v→%v", shortOld[2], shortNew[2], shortOld[1], shortNew[1])
	}
}

func TestStaleLocatorReportsUnavailableWithoutContent(t *testing.T) {
	old := mustBuild(t, map[string]string{"a.md": "# A\nalpha secret text\n"})
	loc := search(t, old, "alpha").Matches[0].Locator
	current := mustBuild(t, map[string]string{"a.md": "# A\nalpha secret text, edited\n"})
	res, err := current.Read(ReadParams{Locator: loc})
	if code, reason := codeOf(err); code != abi.CodeUnavailable || reason != ReasonStaleLocator {
		t.Fatalf("stale locator: %v", err)
	}
	if res != nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("stale read returned content: %+v / %v", res, err)
	}
}

func TestUnknownAndMalformedLocators(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# A\nalpha\n"})
	loc := search(t, ix, "alpha").Matches[0].Locator
	unknown := loc[:len(loc)-32] + strings.Repeat("0", 32)
	if code, reason := codeOf(errOf(ix.Read(ReadParams{Locator: unknown}))); code != abi.CodeUnavailable || reason != ReasonUnknownSection {
		t.Fatalf("unknown section: %s %s", code, reason)
	}
	for _, bad := range []string{"", "g1", "g2" + loc[2:], loc + ".x", strings.ToUpper(loc), strings.Repeat("a", 100000)} {
		if code, _ := codeOf(errOf(ix.Read(ReadParams{Locator: bad}))); code != abi.CodeInvalidRequest {
			t.Errorf("malformed locator %.20q: code %q", bad, code)
		}
	}
}

func errOf(_ *ReadResult, err error) error { return err }

// lyingFS reports every file as tiny whatever its content.
type lyingFS struct{ fstest.MapFS }

type lyingFile struct{ fs.File }
type lyingInfo struct{ fs.FileInfo }

func (l lyingFS) Open(name string) (fs.File, error) {
	f, err := l.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return lyingFile{f}, nil
}
func (f lyingFile) Stat() (fs.FileInfo, error) {
	st, err := f.File.Stat()
	return lyingInfo{st}, err
}
func (lyingInfo) Size() int64 { return 1 }

func (f lyingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	return f.File.(fs.ReadDirFile).ReadDir(n)
}

func nested(prefix string, size int) string {
	head := prefix + "# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6\n"
	return head + strings.Repeat("x", size-len(head))
}

func TestAdmissionRejectsOversizedBundleWithNoPartialIndex(t *testing.T) {
	mib := 1 << 20
	sections := func(n int) string { return strings.Repeat("# s\n", n) }
	files := func(n, size int, mk func(int) string) fs.FS {
		m := fstest.MapFS{}
		for i := range n {
			m[fmt.Sprintf("f%d.md", i)] = &fstest.MapFile{Data: []byte(mk(size))}
		}
		return m
	}
	plain := func(size int) string { return "# h\n" + strings.Repeat("y", size-4) }
	tests := []struct {
		name   string
		fsys   fs.FS
		reason string
	}{
		{"file of exactly 1 MiB", files(1, mib, plain), ""},
		{"file over 1 MiB", files(1, mib+1, plain), ReasonFileTooLarge},
		{"file over 1 MiB that claims to be small", lyingFS{bundle(map[string]string{"a.md": plain(mib + 1)})}, ReasonFileTooLarge},
		{"bundle of exactly 4 MiB", files(4, mib, plain), ""},
		{"bundle over 4 MiB", files(5, mib-100, plain), ReasonBundleTooLarge},
		{"4096 sections", bundle(map[string]string{"a.md": sections(4000), "b.md": sections(96)}), ""},
		{"4097 sections", bundle(map[string]string{"a.md": sections(4000), "b.md": sections(97)}), ReasonTooManySections},
		{"expansion within 25,165,824 units", files(4, mib, func(n int) string { return nested("", n) }), ""},
		{"expansion beyond 25,165,824 units", files(4, mib, func(n int) string { return nested("preamble\n", n) }), ReasonExpandedTooLarge},
		{"invalid UTF-8", bundle(map[string]string{"a.md": "# A\n\xff\n"}), ReasonInvalidUTF8},
		{"no markdown", bundle(map[string]string{"a.txt": "# A\n"}), ReasonEmptyBundle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := Build(tc.fsys)
			if tc.reason == "" {
				if err != nil || ix == nil {
					t.Fatalf("admitted bundle refused: %v", err)
				}
				return
			}
			if ix != nil {
				t.Fatalf("a partial index was returned with the error")
			}
			if code, reason := codeOf(err); code != abi.CodeBundleUnavailable || reason != tc.reason {
				t.Fatalf("err = %v, want bundle_unavailable/%s", err, tc.reason)
			}
		})
	}
}

func TestAdmissionRefusesLinksAndUnreadableBundles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(os.DirFS(dir)); !hasReason(err, ReasonNotRegularFile) {
		t.Fatalf("symlinked file: %v", err)
	}
	if _, err := Build(os.DirFS(filepath.Join(dir, "missing"))); !hasReason(err, ReasonUnreadable) {
		t.Fatalf("missing root: %v", err)
	}
}

func hasReason(err error, reason string) bool {
	code, r := codeOf(err)
	return code == abi.CodeBundleUnavailable && r == reason
}

func TestLongHeadingsAreClippedInResultsButReadReturnsThemWhole(t *testing.T) {
	long := strings.Repeat("𝄞long heading ", 5000)
	ix := mustBuild(t, map[string]string{"a.md": "# " + long + "\nalpha\n## " + long + "\nbeta\n"})
	for _, m := range search(t, ix, "alpha").Matches {
		for _, h := range append([]string{m.Heading}, m.HeadingPath...) {
			if units(h) > MaxHeadingUnits || !strings.HasSuffix(h, "…") || !utf8.ValidString(h) {
				t.Fatalf("heading of %d units returned: %.40q", units(h), h)
			}
		}
		read, err := ix.Read(ReadParams{Locator: m.Locator})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(read.Content, "# "+long+"\n") {
			t.Fatalf("read did not return the whole heading")
		}
		if units(read.Subsections[0].Heading) > MaxHeadingUnits {
			t.Fatalf("subsection heading not clipped")
		}
	}
}

func TestNoMatchSaysNothingAboutCapabilityAvailability(t *testing.T) {
	ix := mustBuild(t, map[string]string{"a.md": "# Electron\npreload\n"})
	res := search(t, ix, "firmware uefi")
	if res.TotalMatches != 0 || res.NoMatchReason != ReasonNoSectionHoldsEveryTerm {
		t.Fatalf("unexpected matches: %+v", res)
	}
	if res.Note != NoMatchNote || !strings.Contains(res.Note, "says nothing about analysis capability availability") {
		t.Fatalf("no-match result does not say it is silent on capabilities: %q", res.Note)
	}
}
