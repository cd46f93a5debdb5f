package sourcemap

import (
	"fmt"
	"math"
	"slices"
	"sort"
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
	if m.NumLines() != 2 || len(m.Line(0)) != 2 || len(m.Line(1)) != 1 {
		t.Fatalf("lines %d: %+v %+v", m.NumLines(), m.Line(0), m.Line(1))
	}
	if l0 := m.Line(0); l0[0].GenColumn != 2 || l0[0].OrigLine != 1 || l0[1].GenColumn != 8 || l0[1].OrigLine != 0 {
		t.Fatalf("line 0 not sorted by generated column: %+v", l0)
	}
	if seg, ok := m.OnLine(0, 5); !ok || seg.OrigLine != 1 {
		t.Fatalf("OnLine(0, 5) = %+v %v, want the segment at column 2", seg, ok)
	}
	if seg, ok := m.OnLine(1, 3); !ok || seg.OrigLine != 2 {
		t.Fatalf("OnLine(1, 3) = %+v %v", seg, ok)
	}
	// Appending to one line's slice must never overwrite the next line's.
	l0 := append(m.Line(0), Segment{GenColumn: 99})
	if m.Line(1)[0].OrigLine != 2 || len(l0) != 3 || len(m.Line(0)) != 2 {
		t.Fatalf("lines share capacity: %+v %+v", m.Line(0), m.Line(1))
	}
}

// The map decodes a line when asked; what it answers must be what decoding
// every line up front gave (referenceDecode, the earlier decoder): the same
// error for malformed mappings, else the same lines and segments.
func TestLazyLinesEqualTheEagerDecode(t *testing.T) {
	for _, c := range []struct {
		mappings string
		sources  int
	}{
		{"", 1}, {";;;", 1}, {"AAAA", 1}, {"AAAA,CAAC;AACA,EAAE", 2}, {"QAAA,NACA;AACA", 1},
		{"A,AAAA;;E,GAAG,AAAA", 1}, {"AAAAA,CAACC", 1}, {"AA", 1}, {"AAA", 1}, {"AAAAAA", 1},
		{"AAAA,", 1}, {"AAAA;", 1}, {"AAAg", 1}, {"AA!A", 1}, {"AAAA", 0}, {"ACAA", 1}, {"ADAA", 1},
		{"gggggggggggggA", 1}, {"AAAA,AAAA,AAAA", 1}, {"KAAK,DAAD,DAAD;IAAI", 1}, {"2/////D", 1},
	} {
		checkLazyAgainstReference(t, c.mappings, c.sources)
	}
}

func checkLazyAgainstReference(t *testing.T, mappings string, sources int) {
	t.Helper()
	want, wantErr := referenceDecode(mappings, sources)
	m, err := FromMappings(make([]string, sources), mappings)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, eager decode %v", mappings, err, wantErr)
	}
	if err != nil {
		return
	}
	if m.NumLines() != len(want) {
		t.Fatalf("%q: %d lines, eager decode %d", mappings, m.NumLines(), len(want))
	}
	for l, segs := range want {
		got := m.Line(l)
		if len(got) != len(segs) || m.Mapped(l) != (len(segs) > 0) {
			t.Fatalf("%q line %d: %+v, eager decode %+v", mappings, l, got, segs)
		}
		for i := range segs {
			if got[i] != segs[i] {
				t.Fatalf("%q line %d: %+v, eager decode %+v", mappings, l, got, segs)
			}
		}
	}
	for l := -1; l <= len(want); l++ {
		for _, col := range []int{-1, 0, 3, 1 << 20} {
			a, aok := m.Original(l, col)
			b, bok := referenceOriginal(want, l, col)
			if a != b || aok != bok {
				t.Fatalf("%q Original(%d, %d) = %+v %v, eager decode %+v %v", mappings, l, col, a, aok, b, bok)
			}
		}
	}
}

// referenceOriginal is Original over eagerly decoded lines.
func referenceOriginal(lines [][]Segment, line, col int) (Segment, bool) {
	for l := min(line, len(lines)-1); l >= 0; l-- {
		segs := lines[l]
		if len(segs) == 0 {
			continue
		}
		if l < line {
			return segs[len(segs)-1], true
		}
		i := sort.Search(len(segs), func(i int) bool { return int(segs[i].GenColumn) > col })
		if i > 0 {
			return segs[i-1], true
		}
	}
	return Segment{}, false
}

// FuzzMappings: any mappings text and source count give the eager
// decoder's error or its lines, and never panic.
func FuzzMappings(f *testing.F) {
	for _, s := range []string{"AAAA,CAAC;AACA,EAAE", "QAAA,NACA;AACA", "A,AAAA;;E,GAAG", "2/////D", "AAAAA,CAACC;;"} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, mappings string, sources int) {
		if sources < 0 || sources > 64 {
			return
		}
		checkLazyAgainstReference(t, mappings, sources)
	})
}

// referenceDecode is the eager decoder the package had before it kept
// mappings as text (kept verbatim as the reference the lazy one must equal):
// it decodes "mappings" into each generated line's segments.
// Every segment lives in one backing array (sized from the separators, an
// upper bound), each line a slice of it: one allocation instead of one per
// line and its growth, which in wasm is much of a large application's
// garbage. A line is sorted only when its segments are out of order (the
// format allows it; esbuild and tsc never write it).
func referenceDecode(s string, nSources int) ([][]Segment, error) {
	var decode [256]int8
	for i := range decode {
		decode[i] = -1
	}
	for i := 0; i < len(referenceAlphabet); i++ {
		decode[referenceAlphabet[i]] = int8(i)
	}
	nLines := strings.Count(s, ";") + 1
	var (
		lines                    = make([][]Segment, 0, nLines)
		all                      = make([]Segment, 0, nLines+strings.Count(s, ","))
		lineStart                int
		genCol, src, oLine, oCol int
		fields                   [5]int
		nField                   int
		value, shift             int
		inValue                  bool
	)
	flushSegment := func() error {
		if nField == 0 {
			return nil
		}
		genCol += fields[0]
		if nField >= 4 {
			src += fields[1]
			oLine += fields[2]
			oCol += fields[3]
			if src < 0 || src >= nSources || oLine < 0 || oCol < 0 || genCol < 0 ||
				genCol > math.MaxInt32 || oLine > math.MaxInt32 || oCol > math.MaxInt32 {
				return fmt.Errorf("decode source map: segment out of range")
			}
			all = append(all, Segment{GenColumn: int32(genCol), Source: int32(src), OrigLine: int32(oLine), OrigColumn: int32(oCol)})
		} else if nField != 1 {
			return fmt.Errorf("decode source map: segment with %d fields", nField)
		}
		nField = 0
		return nil
	}
	endLine := func() {
		line := all[lineStart:len(all):len(all)]
		if !slices.IsSortedFunc(line, byGenColumn) {
			slices.SortStableFunc(line, byGenColumn)
		}
		lines = append(lines, line)
		lineStart = len(all)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ',', ';':
			if inValue {
				return nil, fmt.Errorf("decode source map: truncated VLQ at byte %d", i)
			}
			if err := flushSegment(); err != nil {
				return nil, err
			}
			if c == ';' {
				endLine()
				genCol = 0
			}
			continue
		}
		d := decode[c]
		if d < 0 {
			return nil, fmt.Errorf("decode source map: invalid character %q at byte %d", c, i)
		}
		if shift > 60 {
			return nil, fmt.Errorf("decode source map: VLQ too long at byte %d", i)
		}
		value |= int(d&31) << shift
		shift += 5
		inValue = d&32 != 0
		if inValue {
			continue
		}
		v := value >> 1
		if value&1 != 0 {
			v = -v
		}
		if nField >= len(fields) {
			return nil, fmt.Errorf("decode source map: too many fields at byte %d", i)
		}
		fields[nField] = v
		nField++
		value, shift = 0, 0
	}
	if inValue {
		return nil, fmt.Errorf("decode source map: truncated VLQ at end")
	}
	if err := flushSegment(); err != nil {
		return nil, err
	}
	endLine()
	return lines, nil
}

const referenceAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
