package markdown

import (
	"bytes"
	"testing"
)

// FuzzScan checks the invariants the guidance index relies on for any input:
// lines tile the source, headings are level 1–6 and never inside code, code
// blocks are ordered and disjoint.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"# A\n## B\ntext\n",
		"```\n# not\n```\n# yes\n",
		"~~~~\n~~~\n# not\n~~~~~\n",
		"   ### x ###\r\n####### no\r#\n",
		"````js\n",
		"`a` ``b`` `c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := Scan(src)
		var rebuilt bytes.Buffer
		for _, ln := range doc.Lines {
			if ln.Start > ln.End || ln.End > ln.Next || ln.Next > len(src) {
				t.Fatalf("bad line %+v for len %d", ln, len(src))
			}
			rebuilt.Write(src[ln.Start:ln.Next])
		}
		if !bytes.Equal(rebuilt.Bytes(), src) {
			t.Fatalf("lines do not tile the source")
		}
		prev := -1
		for _, h := range doc.Headings {
			if h.Level < 1 || h.Level > 6 {
				t.Fatalf("heading level %d", h.Level)
			}
			if h.Line <= prev || h.Line >= len(doc.Lines) {
				t.Fatalf("heading line %d out of order or range", h.Line)
			}
			if doc.InCode[h.Line] {
				t.Fatalf("heading on code line %d", h.Line)
			}
			prev = h.Line
		}
		end := -1
		for _, b := range doc.Blocks {
			if b.Open <= end || b.Close < b.Open || b.Close > len(doc.Lines) {
				t.Fatalf("block %+v overlaps or is out of range", b)
			}
			end = b.Close
		}
		for _, s := range doc.CodeSpans(src) {
			if doc.InCode[s.Line] || s.Offset >= len(src) || src[s.Offset] != '`' {
				t.Fatalf("bad code span %+v", s)
			}
		}
	})
}
