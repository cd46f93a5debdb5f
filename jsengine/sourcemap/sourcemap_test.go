package sourcemap

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestOriginalMapsEsbuildOutputBackToTypeScriptSource(t *testing.T) {
	src := "interface A { x: number }\nconst a: number = 1;\n\nexport const channel = \"app:open\";\n"
	res := api.Transform(src, api.TransformOptions{
		Loader: api.LoaderTS, Format: api.FormatCommonJS, Sourcemap: api.SourceMapExternal, Sourcefile: "a.ts",
	})
	if len(res.Errors) > 0 {
		t.Fatalf("transform: %v", res.Errors)
	}
	m, err := Parse(res.Map)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Code)
	lines := strings.Split(out, "\n")
	genLine, genCol := -1, -1
	for i, l := range lines {
		if c := strings.Index(l, `"app:open"`); c >= 0 {
			genLine, genCol = i, c
		}
	}
	if genLine < 0 {
		t.Fatalf("literal not found in output:\n%s", out)
	}
	seg, ok := m.Original(genLine, genCol)
	if !ok {
		t.Fatal("no mapping")
	}
	// "app:open" starts on line 4 (index 3) of the source; the mapping covers
	// at least the declaration that holds it.
	if seg.OrigLine != 3 || m.Sources[seg.Source] != "a.ts" {
		t.Fatalf("mapped to %s:%d:%d, want a.ts line index 3", m.Sources[seg.Source], seg.OrigLine, seg.OrigColumn)
	}
}

func TestParseRejectsMalformedMappings(t *testing.T) {
	for name, data := range map[string]string{
		"bad version":    `{"version":2,"sources":["a"],"mappings":"AAAA"}`,
		"bad character":  `{"version":3,"sources":["a"],"mappings":"AA!A"}`,
		"truncated vlq":  `{"version":3,"sources":["a"],"mappings":"AAAg"}`,
		"source range":   `{"version":3,"sources":["a"],"mappings":"ACAA"}`,
		"three fields":   `{"version":3,"sources":["a"],"mappings":"AAA"}`,
		"not json":       `{`,
		"too long value": `{"version":3,"sources":["a"],"mappings":"gggggggggggggggA"}`,
		// 2^31 as a generated column: past the int32 a segment keeps.
		"column over int32": `{"version":3,"sources":["a"],"mappings":"ggggggEAAA"}`,
	} {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse accepted %s", name, data)
		}
	}
}

func TestOriginalFallsBackToEarlierLine(t *testing.T) {
	// line 0: one segment at col 4 -> src 0 line 0 col 0; line 1 empty.
	m, err := Parse([]byte(`{"version":3,"sources":["a"],"mappings":"IAAA;"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Original(0, 2); ok {
		t.Fatal("column before the first segment with no earlier line must not map")
	}
	seg, ok := m.Original(1, 0)
	if !ok || seg.GenColumn != 4 {
		t.Fatalf("got %+v %v", seg, ok)
	}
}

// Segments of a line may come in any order (the format allows it): lookups
// see them sorted, and each line keeps only its own segments although they
// share one backing array.
func TestLinesAreSortedAndKeptApart(t *testing.T) {
	// line 0: col 8 -> (0,0,0), then col 2 -> (0,1,0); line 1: col 0 -> (0,2,0).
	m, err := Parse([]byte(`{"version":3,"sources":["a"],"mappings":"QAAA,NACA;AACA"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Lines) != 2 || len(m.Lines[0]) != 2 || len(m.Lines[1]) != 1 {
		t.Fatalf("lines %+v", m.Lines)
	}
	if m.Lines[0][0].GenColumn != 2 || m.Lines[0][0].OrigLine != 1 || m.Lines[0][1].GenColumn != 8 || m.Lines[0][1].OrigLine != 0 {
		t.Fatalf("line 0 not sorted by generated column: %+v", m.Lines[0])
	}
	if seg, ok := m.OnLine(0, 5); !ok || seg.OrigLine != 1 {
		t.Fatalf("OnLine(0, 5) = %+v %v, want the segment at column 2", seg, ok)
	}
	if seg, ok := m.OnLine(1, 3); !ok || seg.OrigLine != 2 {
		t.Fatalf("OnLine(1, 3) = %+v %v", seg, ok)
	}
	// Appending to one line's slice must never overwrite the next line's.
	l0 := append(m.Lines[0], Segment{GenColumn: 99})
	if m.Lines[1][0].OrigLine != 2 || len(l0) != 3 {
		t.Fatalf("lines share capacity: %+v", m.Lines)
	}
}
