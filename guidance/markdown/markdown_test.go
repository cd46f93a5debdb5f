package markdown

import (
	"reflect"
	"strings"
	"testing"
)

func headingsOf(src string) []Heading {
	return Scan([]byte(src)).Headings
}

func TestATXHeadingsAreRecognisedWithLevelsAndClosingSequences(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Heading
	}{
		{"levels one to six", "# A\n## B\n### C\n#### D\n##### E\n###### F\n",
			[]Heading{{0, 1, "A"}, {1, 2, "B"}, {2, 3, "C"}, {3, 4, "D"}, {4, 5, "E"}, {5, 6, "F"}}},
		{"seven hashes is a paragraph", "####### G\n", nil},
		{"hash without space is a paragraph", "#hashtag\n", nil},
		{"empty heading", "#\n##   \n", []Heading{{0, 1, ""}, {1, 2, ""}}},
		{"closing sequence stripped", "## Title ##\n", []Heading{{0, 2, "Title"}}},
		{"closing sequence needs a space", "## C#\n", []Heading{{0, 2, "C#"}}},
		{"up to three spaces of indent", "   # Indented\n", []Heading{{0, 1, "Indented"}}},
		{"four spaces is code", "    # Code\n", nil},
		{"tab indent is code", "\t# Code\n", nil},
		{"tab after hashes", "#\tTabbed\n", []Heading{{0, 1, "Tabbed"}}},
		{"crlf and cr line ends", "# One\r\ntext\r## Two", []Heading{{0, 1, "One"}, {2, 2, "Two"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := headingsOf(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("headings of %q = %+v, want %+v", tc.src, got, tc.want)
			}
		})
	}
}

func TestHashLinesInsideFencedCodeAreNotHeadings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Heading
	}{
		{"backtick fence", "# Real\n```sh\n# comment\n```\n## After\n", []Heading{{0, 1, "Real"}, {4, 2, "After"}}},
		{"tilde fence", "~~~\n# no\n~~~\n# yes\n", []Heading{{3, 1, "yes"}}},
		{"shorter closing fence does not close", "````\n```\n# no\n````\n# yes\n", []Heading{{4, 1, "yes"}}},
		{"other fence char does not close", "```\n~~~\n# no\n```\n# yes\n", []Heading{{4, 1, "yes"}}},
		{"closing fence with text does not close", "```\n``` x\n# no\n```\n# yes\n", []Heading{{4, 1, "yes"}}},
		{"unclosed fence runs to the end", "# top\n```\n# no\n## no\n", []Heading{{0, 1, "top"}}},
		{"backtick info with backtick is not a fence", "``` a`b\n# yes\n", []Heading{{1, 1, "yes"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := headingsOf(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("headings of %q = %+v, want %+v", tc.src, got, tc.want)
			}
		})
	}
}

func TestCodeBlocksKeepInfoAndContent(t *testing.T) {
	src := "text\n```json extra\n{\"a\":1}\n```\n~~~\nopen\n"
	doc := Scan([]byte(src))
	want := []CodeBlock{
		{Open: 1, Close: 3, Info: "json", Content: "{\"a\":1}\n"},
		{Open: 4, Close: 6, Info: "", Content: "open\n"},
	}
	if !reflect.DeepEqual(doc.Blocks, want) {
		t.Fatalf("blocks = %+v, want %+v", doc.Blocks, want)
	}
}

func TestCodeSpansAreFoundOnProseLinesOnly(t *testing.T) {
	src := "Call `analyze_javascript_application` with `` `.x` `` and \\`not`.\n```\n`inside_fence`\n```\nA `broken span\n"
	doc := Scan([]byte(src))
	var got []string
	for _, s := range doc.CodeSpans([]byte(src)) {
		got = append(got, s.Text)
	}
	want := []string{"analyze_javascript_application", "`.x`"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("code spans = %q, want %q", got, want)
	}
}

func TestLinesCoverTheSourceExactly(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\r\nb\rc\n\n", "\r\r\n\n"} {
		var b strings.Builder
		for _, ln := range SplitLines([]byte(src)) {
			b.WriteString(src[ln.Start:ln.Next])
		}
		if b.String() != src {
			t.Fatalf("lines of %q rebuild %q", src, b.String())
		}
	}
}
