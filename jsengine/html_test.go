package jsengine

import (
	"strings"
	"testing"
)

func TestScanHTMLHostilePages(t *testing.T) {
	none := func(string) string { return "" }
	// 50,000 unclosed <script> tags: every tag is recorded up to the
	// budget, the page says it was truncated, and locations stay exact.
	page := "<html>\n" + strings.Repeat("<script>\n", 50_000)
	doc := scanHTML("index.html", page, none)
	if len(doc.Scripts) != MaxHTMLElements || doc.Truncated == "" {
		t.Fatalf("%d scripts, truncated %q; want %d and a reason", len(doc.Scripts), doc.Truncated, MaxHTMLElements)
	}
	if last := doc.Scripts[len(doc.Scripts)-1].Location; last.Line != MaxHTMLElements+1 || last.Column != 1 {
		t.Fatalf("last script at %+v", last)
	}
	// A page under the budget is whole, and a script's body runs to the
	// first "</script" (HTML's rule: a "<script" inside it is text).
	doc = scanHTML("a.html", "<script>\n<script>a()</script>\n<script src=x.js></script>", none)
	if doc.Truncated != "" || len(doc.Scripts) != 2 || !doc.Scripts[0].Inline || doc.Scripts[1].Location.Line != 3 || doc.Scripts[1].Src != "x.js" {
		t.Fatalf("doc = %+v", doc)
	}
}
