// Package sourcemap decodes the "mappings" of a version 3 source map so that
// positions in esbuild's normalised output can be reported at the original
// file:line:column. It is deliberately small: generated→original lookups for
// the maps esbuild produces (Parse) and for the maps an application ships
// (ParseShipped, which also keeps sourceRoot and sourcesContent so that
// evidence can quote the original source).
package sourcemap

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// Segment maps one generated column to an original position. All fields are
// zero-based, as in the source map format.
type Segment struct {
	GenColumn  int32
	Source     int32
	OrigLine   int32
	OrigColumn int32
}

// Map is a decoded source map. Its mappings stay in their compact text
// form (a few bytes a segment); the map keeps, for each generated line,
// where the line starts in that text and the running state there, and
// decodes a line when a position on it is asked for. Decoding every line
// into segments of 16 bytes up front held a large application's maps in
// memory four times over, for the few positions facts are reported at.
// Parsing still reads the whole text and refuses it whole when any of it
// is malformed, as before.
type Map struct {
	Sources []string
	// SourceRoot and Contents (by source index; nil when not embedded) are
	// kept by ParseShipped only.
	SourceRoot string
	Contents   []*string

	mappings string
	lines    []lineStart
	// last is the line decoded last: positions are asked for in runs on
	// one line (every node of a statement), so one decode serves a run.
	last atomic.Pointer[decodedLine]
}

// WithoutMappings is m with its sources and their contents only: what
// reads an original line needs, not what maps a position.
func (m *Map) WithoutMappings() *Map {
	return &Map{Sources: m.Sources, SourceRoot: m.SourceRoot, Contents: m.Contents}
}

// decodedLine is one generated line's segments, shared by the lookups
// that read it (never handed out).
type decodedLine struct {
	line int
	segs []Segment
}

// segments returns a mapped line's segments, decoding it unless it was
// the last line asked for.
func (m *Map) segments(line int) []Segment {
	if d := m.last.Load(); d != nil && d.line == line {
		return d.segs
	}
	d := &decodedLine{line: line, segs: m.decodeLine(m.lines[line])}
	m.last.Store(d)
	return d.segs
}

// lineStart is where a generated line's segments begin in the mappings and
// the state the format carries across lines (source, original line and
// column are relative to the previous segment's, whatever its line).
type lineStart struct {
	at                     int32 // mappings are refused past 2 GiB
	src, origLine, origCol int32
	segments               int32 // with an original position
	unsorted               bool  // out of generated-column order
}

type rawMap struct {
	Version        int       `json:"version"`
	Sources        []string  `json:"sources"`
	Mappings       string    `json:"mappings"`
	SourceRoot     string    `json:"sourceRoot"`
	SourcesContent []*string `json:"sourcesContent"`
}

// ParseShipped decodes a source map an application ships, keeping its
// sourceRoot and sourcesContent.
func ParseShipped(data []byte) (*Map, error) {
	var raw rawMap
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("decode source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("decode source map: version %d, want 3", raw.Version)
	}
	m, err := FromMappings(raw.Sources, raw.Mappings)
	if err != nil {
		return nil, err
	}
	m.SourceRoot = raw.SourceRoot
	if len(raw.SourcesContent) == len(raw.Sources) {
		m.Contents = raw.SourcesContent
	}
	return m, nil
}

// mappingsOnly is what Parse decodes: esbuild's own maps embed the whole
// source again in sourcesContent, which is never needed.
type mappingsOnly struct {
	Version  int      `json:"version"`
	Sources  []string `json:"sources"`
	Mappings string   `json:"mappings"`
}

// Parse decodes a version 3 source map. sourcesContent is ignored on purpose.
func Parse(data []byte) (*Map, error) {
	var raw mappingsOnly
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("decode source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("decode source map: version %d, want 3", raw.Version)
	}
	return FromMappings(raw.Sources, raw.Mappings)
}

// FromMappings decodes a version 3 map's mappings for its sources (the
// normaliser hands the two over already out of esbuild's JSON).
func FromMappings(sources []string, mappings string) (*Map, error) {
	lines, err := indexMappings(mappings, len(sources))
	if err != nil {
		return nil, err
	}
	return &Map{Sources: sources, mappings: mappings, lines: lines}, nil
}

// NumLines is the number of generated lines the mappings describe.
func (m *Map) NumLines() int { return len(m.lines) }

// Mapped reports whether a zero-based generated line has segments with an
// original position.
func (m *Map) Mapped(line int) bool {
	return line >= 0 && line < len(m.lines) && m.lines[line].segments > 0
}

// Line returns a zero-based generated line's segments with an original
// position, sorted by generated column (stable: segments of one column
// keep their order). The slice is the caller's.
func (m *Map) Line(line int) []Segment {
	if !m.Mapped(line) {
		return nil
	}
	return m.decodeLine(m.lines[line])
}

// Original returns the original position of a zero-based generated line and
// column: the segment with the greatest generated column not after col, or,
// when the line starts after col, the nearest mapped segment on an earlier
// line. ok is false when nothing precedes the position.
func (m *Map) Original(line, col int) (seg Segment, ok bool) {
	if m == nil {
		return Segment{}, false
	}
	for l := min(line, len(m.lines)-1); l >= 0; l-- {
		if m.lines[l].segments == 0 {
			continue
		}
		segs := m.segments(l)
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

// OnLine returns the original position of a zero-based generated line and
// column from that line's own segments only: the one with the greatest
// generated column not after col, or the line's first when col precedes
// it (indentation). A line without segments has no original position: a
// shipped map that does not cover a line must not lend it another's.
func (m *Map) OnLine(line, col int) (seg Segment, ok bool) {
	if m == nil || !m.Mapped(line) {
		return Segment{}, false
	}
	segs := m.segments(line)
	i := sort.Search(len(segs), func(i int) bool { return int(segs[i].GenColumn) > col })
	if i == 0 {
		return segs[0], true
	}
	return segs[i-1], true
}

// vlqReader reads the mappings' segments in order.
type vlqReader struct {
	s string
	i int
}

// next reads the fields of one segment, up to the next ',' or ';' (sep) or
// the end of the text (sep 0).
func (r *vlqReader) next(fields *[5]int) (n int, sep byte, err error) {
	value, shift, inValue := 0, 0, false
	for ; r.i < len(r.s); r.i++ {
		c := r.s[r.i]
		if c == ',' || c == ';' {
			if inValue {
				return 0, 0, fmt.Errorf("decode source map: truncated VLQ at byte %d", r.i)
			}
			r.i++
			return n, c, nil
		}
		d := base64Value(c)
		if d < 0 {
			return 0, 0, fmt.Errorf("decode source map: invalid character %q at byte %d", c, r.i)
		}
		if shift > 60 {
			return 0, 0, fmt.Errorf("decode source map: VLQ too long at byte %d", r.i)
		}
		value |= (d & 31) << shift
		shift += 5
		inValue = d&32 != 0
		if inValue {
			continue
		}
		v := value >> 1
		if value&1 != 0 {
			v = -v
		}
		if n >= len(fields) {
			return 0, 0, fmt.Errorf("decode source map: too many fields at byte %d", r.i)
		}
		fields[n] = v
		n++
		value, shift = 0, 0
	}
	if inValue {
		return 0, 0, fmt.Errorf("decode source map: truncated VLQ at end")
	}
	return n, 0, nil
}

// base64Value is a base64 digit's value, or -1.
func base64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// position is the decoder's running state: every field of a segment is
// relative to the same field of the segment before it (the generated
// column only within its line).
type position struct{ genCol, src, oLine, oCol int }

// advance applies a segment of n fields; it reports whether the segment
// has an original position (four or five fields).
func (p *position) advance(fields *[5]int, n int) bool {
	p.genCol += fields[0]
	if n < 4 {
		return false
	}
	p.src += fields[1]
	p.oLine += fields[2]
	p.oCol += fields[3]
	return true
}

// indexMappings reads all of "mappings", refusing it when any segment is
// malformed or out of range, and records where each generated line starts.
func indexMappings(s string, nSources int) ([]lineStart, error) {
	if len(s) > math.MaxInt32 {
		return nil, fmt.Errorf("decode source map: mappings of %d bytes", len(s))
	}
	var (
		r       = vlqReader{s: s}
		lines   = make([]lineStart, 0, strings.Count(s, ";")+1)
		cur     lineStart
		p       position
		lastCol = -1
		fields  [5]int
	)
	for {
		n, sep, err := r.next(&fields)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			if p.advance(&fields, n) {
				if p.src < 0 || p.src >= nSources || p.oLine < 0 || p.oCol < 0 || p.genCol < 0 ||
					p.genCol > math.MaxInt32 || p.oLine > math.MaxInt32 || p.oCol > math.MaxInt32 {
					return nil, fmt.Errorf("decode source map: segment out of range")
				}
				if p.genCol < lastCol {
					cur.unsorted = true
				}
				lastCol = p.genCol
				cur.segments++
			} else if n != 1 {
				return nil, fmt.Errorf("decode source map: segment with %d fields", n)
			}
		}
		if sep == ',' {
			continue
		}
		lines = append(lines, cur)
		if sep == 0 {
			return lines, nil
		}
		p.genCol, lastCol = 0, -1
		cur = lineStart{at: int32(r.i), src: int32(p.src), origLine: int32(p.oLine), origCol: int32(p.oCol)}
	}
}

// decodeLine decodes the segments of one line indexMappings has read (and
// so found well formed).
func (m *Map) decodeLine(ls lineStart) []Segment {
	segs := make([]Segment, 0, ls.segments)
	r := vlqReader{s: m.mappings, i: int(ls.at)}
	p := position{src: int(ls.src), oLine: int(ls.origLine), oCol: int(ls.origCol)}
	var fields [5]int
	for {
		n, sep, err := r.next(&fields)
		if err != nil {
			break // not reached: the whole text was read once already
		}
		if n > 0 && p.advance(&fields, n) {
			segs = append(segs, Segment{GenColumn: int32(p.genCol), Source: int32(p.src), OrigLine: int32(p.oLine), OrigColumn: int32(p.oCol)})
		}
		if sep != ',' {
			break
		}
	}
	if ls.unsorted {
		slices.SortStableFunc(segs, byGenColumn)
	}
	return segs
}

func byGenColumn(a, b Segment) int { return cmp.Compare(a.GenColumn, b.GenColumn) }
