package jsengine

import (
	"io/fs"
	"path"

	"rea/jsengine/report"
	"rea/jsengine/sourcemap"
)

// shippedMap is a source map the application ships for one of its files:
// locations in that file are also given in the source it was built from,
// and snippets quote that source.
type shippedMap struct {
	m *sourcemap.Map
	// names are the sources as reported (webpack:// and sourceRoot
	// resolved, relative to the root where they lie inside it).
	names []string
	// lines are the start offsets of each embedded source's lines.
	lines [][]int
}

// loadShippedMap reads the map a module declares (a sourceMappingURL file
// of the root, or an inline data: URL), or, failing that, p+".map". It is
// never fetched from a network and never read outside the root.
func (e *engine) loadShippedMap(p, src string) *shippedMap {
	mapPath, data, ok := sourcemap.Locate(p, src, func(q string) bool { return e.files[q] })
	if !ok {
		return nil
	}
	if data == nil {
		info, err := fs.Stat(e.fsys, mapPath)
		if err != nil || info.Size() > int64(e.opts.MaxTextFileBytes) {
			return nil
		}
		if data, err = fs.ReadFile(e.fsys, mapPath); err != nil {
			return nil
		}
	}
	m, err := sourcemap.ParseShipped(data)
	if err != nil || len(m.Sources) == 0 {
		return nil
	}
	sm := &shippedMap{m: m, names: make([]string, len(m.Sources)), lines: make([][]int, len(m.Sources))}
	for i, s := range m.Sources {
		sm.names[i] = sourcemap.SourceName(path.Dir(mapPath), m.SourceRoot, s)
	}
	return sm
}

// original maps a 1-based position of the shipped file to its source.
func (sm *shippedMap) original(line, col int) (report.SourcePosition, bool) {
	seg, ok := sm.m.OnLine(line-1, col-1)
	if !ok || int(seg.Source) >= len(sm.names) {
		return report.SourcePosition{}, false
	}
	return report.SourcePosition{File: sm.names[seg.Source], Line: int(seg.OrigLine) + 1, Column: int(seg.OrigColumn) + 1}, true
}

// sourceLine returns line (1-based) of the embedded source named file.
func (sm *shippedMap) sourceLine(file string, line int) (string, bool) {
	for i, n := range sm.names {
		if n != file || sm.m.Contents == nil || sm.m.Contents[i] == nil {
			continue
		}
		text := *sm.m.Contents[i]
		if sm.lines[i] == nil {
			sm.lines[i] = lineStarts(text)
		}
		starts := sm.lines[i]
		if line < 1 || line > len(starts) {
			return "", false
		}
		end := len(text)
		if line < len(starts) {
			end = starts[line]
		}
		return text[starts[line-1]:end], true
	}
	return "", false
}
