package jsengine

import (
	"encoding/base64"
	"io/fs"
	"net/url"
	"path"
	"strings"

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
	u := sourceMappingURLRaw(src)
	var data []byte
	var mapPath string
	switch {
	case strings.HasPrefix(u, "data:"):
		_, payload, ok := strings.Cut(u, ",")
		if !ok || !strings.Contains(u[:len(u)-len(payload)], ";base64") {
			return nil
		}
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return nil
		}
		data, mapPath = b, p
	case u != "" && !strings.Contains(u, "://"):
		dec, err := url.PathUnescape(strings.SplitN(u, "?", 2)[0])
		if err != nil {
			return nil
		}
		mapPath = path.Join(path.Dir(p), dec)
	case e.files[p+".map"]:
		mapPath = p + ".map"
	default:
		return nil
	}
	if data == nil {
		if !e.files[mapPath] {
			return nil
		}
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
		sm.names[i] = originalName(path.Dir(mapPath), m.SourceRoot, s)
	}
	return sm
}

// originalName reports a map's source name: bundler schemes dropped, then
// relative to the map's directory (and sourceRoot), cleaned.
func originalName(mapDir, root, src string) string {
	for _, scheme := range []string{"webpack://", "webpack-internal://", "vite://", "rollup://"} {
		if rest, ok := strings.CutPrefix(src, scheme); ok {
			// webpack://<app name>/./src/x.ts: the name is not a directory.
			if _, after, ok := strings.Cut(rest, "/"); ok {
				return path.Clean(strings.TrimPrefix(after, "./"))
			}
			return path.Clean(rest)
		}
	}
	if strings.HasPrefix(src, "file://") {
		return strings.TrimPrefix(src, "file://")
	}
	if strings.Contains(src, "://") || strings.HasPrefix(src, "/") {
		return src
	}
	if root != "" && !strings.Contains(root, "://") && !strings.HasPrefix(root, "/") {
		return path.Join(mapDir, root, src)
	}
	return path.Join(mapDir, src)
}

// original maps a 1-based position of the shipped file to its source.
func (sm *shippedMap) original(line, col int) (report.SourcePosition, bool) {
	seg, ok := sm.m.OnLine(line-1, col-1)
	if !ok || seg.Source >= len(sm.names) {
		return report.SourcePosition{}, false
	}
	return report.SourcePosition{File: sm.names[seg.Source], Line: seg.OrigLine + 1, Column: seg.OrigColumn + 1}, true
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

// sourceMappingURLRaw is the last sourceMappingURL a file declares, whole
// (sourceMappingURL abbreviates data: URLs for reports).
func sourceMappingURLRaw(src string) string {
	// The comment ends the file. Most files declare none, and only their
	// last 4 KiB are read (a scan of the whole file costs fuel in wasm); a
	// tail that is one run of base64 is the end of a long inline map.
	tail := strings.TrimRight(src, " \t\r\n")
	if len(tail) > 4096 {
		tail = tail[len(tail)-4096:]
	}
	if !strings.Contains(tail, "sourceMappingURL=") && !isBase64Run(tail) {
		return ""
	}
	i := strings.LastIndex(src, "sourceMappingURL=")
	if i < 2 || (src[i-2:i] != "# " && src[i-2:i] != "@ ") {
		return ""
	}
	rest := src[i+len("sourceMappingURL="):]
	if j := strings.IndexAny(rest, " \t\r\n*"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// isBase64Run reports whether s is made of base64 characters only.
func isBase64Run(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return len(s) > 0
}
