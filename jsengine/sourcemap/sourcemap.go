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
)

// Segment maps one generated column to an original position. All fields are
// zero-based, as in the source map format.
type Segment struct {
	GenColumn  int32
	Source     int32
	OrigLine   int32
	OrigColumn int32
}

// Map is a decoded source map: for each generated line its segments, sorted
// by generated column.
type Map struct {
	Sources []string
	Lines   [][]Segment
	// SourceRoot and Contents (by source index; nil when not embedded) are
	// kept by ParseShipped only.
	SourceRoot string
	Contents   []*string
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
	lines, err := decodeMappings(raw.Mappings, len(raw.Sources))
	if err != nil {
		return nil, err
	}
	m := &Map{Sources: raw.Sources, Lines: lines, SourceRoot: raw.SourceRoot}
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
	lines, err := decodeMappings(mappings, len(sources))
	if err != nil {
		return nil, err
	}
	return &Map{Sources: sources, Lines: lines}, nil
}

// Original returns the original position of a zero-based generated line and
// column: the segment with the greatest generated column not after col, or,
// when the line starts after col, the nearest mapped segment on an earlier
// line. ok is false when nothing precedes the position.
func (m *Map) Original(line, col int) (seg Segment, ok bool) {
	if m == nil {
		return Segment{}, false
	}
	for l := min(line, len(m.Lines)-1); l >= 0; l-- {
		segs := m.Lines[l]
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

// OnLine returns the original position of a zero-based generated line and
// column from that line's own segments only: the one with the greatest
// generated column not after col, or the line's first when col precedes
// it (indentation). A line without segments has no original position: a
// shipped map that does not cover a line must not lend it another's.
func (m *Map) OnLine(line, col int) (seg Segment, ok bool) {
	if m == nil || line < 0 || line >= len(m.Lines) || len(m.Lines[line]) == 0 {
		return Segment{}, false
	}
	segs := m.Lines[line]
	i := sort.Search(len(segs), func(i int) bool { return int(segs[i].GenColumn) > col })
	if i == 0 {
		return segs[0], true
	}
	return segs[i-1], true
}

const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// decodeMappings decodes "mappings" into each generated line's segments.
// Every segment lives in one backing array (sized from the separators, an
// upper bound), each line a slice of it: one allocation instead of one per
// line and its growth, which in wasm is much of a large application's
// garbage. A line is sorted only when its segments are out of order (the
// format allows it; esbuild and tsc never write it).
func decodeMappings(s string, nSources int) ([][]Segment, error) {
	var decode [256]int8
	for i := range decode {
		decode[i] = -1
	}
	for i := 0; i < len(base64Alphabet); i++ {
		decode[base64Alphabet[i]] = int8(i)
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

func byGenColumn(a, b Segment) int { return cmp.Compare(a.GenColumn, b.GenColumn) }
