package jssource

import (
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"rea/analysis/jssource/sourcewire"
	"rea/jsengine/sourcemap"
)

// shipped is a source map an application ships for one of its files.
type shipped struct {
	path  string // the map's path in the root ("" for an inline map)
	m     *sourcemap.Map
	names []string // sources as reported: bundler schemes dropped, relative to the root
}

// mapRef finds the map a file declares: an inline data: URL, a
// sourceMappingURL naming a file of the root, or p+".map". It returns the
// map's path ("" for inline) and, for inline maps, its bytes.
func mapRef(fsys fs.FS, p, src string) (string, []byte, bool) {
	u := sourceMappingURL(src)
	switch {
	case strings.HasPrefix(u, "data:"):
		meta, payload, ok := strings.Cut(u, ",")
		if !ok || !strings.Contains(meta, ";base64") {
			return "", nil, false
		}
		b, err := base64.StdEncoding.DecodeString(payload)
		return "", b, err == nil
	case u != "" && !strings.Contains(u, "://"):
		dec, err := url.PathUnescape(strings.SplitN(u, "?", 2)[0])
		if err != nil {
			return "", nil, false
		}
		mp := path.Join(path.Dir(p), dec)
		if !fs.ValidPath(mp) {
			return "", nil, false
		}
		if _, err := fs.Stat(fsys, mp); err == nil {
			return mp, nil, true
		}
	}
	if _, err := fs.Stat(fsys, p+".map"); err == nil {
		return p + ".map", nil, true
	}
	return "", nil, false
}

// loadMap reads and decodes the map of file p, bounded by maxBytes; why
// says what kept it out when there is one that could not be used.
func loadMap(fsys fs.FS, p, src string, maxBytes int) (*shipped, string) {
	mp, data, ok := mapRef(fsys, p, src)
	if !ok {
		return nil, ""
	}
	if data == nil {
		info, err := fs.Stat(fsys, mp)
		if err != nil {
			return nil, ""
		}
		if info.Size() > int64(maxBytes) {
			return nil, "the source map " + mp + " is larger than max_file_bytes; original positions are not given"
		}
		if data, err = fs.ReadFile(fsys, mp); err != nil {
			return nil, "the source map " + mp + " cannot be read"
		}
	}
	dir := path.Dir(p)
	if mp != "" {
		dir = path.Dir(mp)
	}
	s, err := parseShipped(dir, data)
	if err != nil {
		return nil, "the source map of " + p + " does not decode; original positions are not given"
	}
	s.path = mp
	return s, ""
}

// parseShipped decodes a map whose sources are relative to dir (a .map
// path's own directory is taken when dir ends in ".map").
func parseShipped(dir string, data []byte) (*shipped, error) {
	if strings.HasSuffix(dir, ".map") {
		dir = path.Dir(dir)
	}
	m, err := sourcemap.ParseShipped(data)
	if err != nil {
		return nil, err
	}
	if len(m.Sources) == 0 {
		return nil, fmt.Errorf("the map lists no sources")
	}
	s := &shipped{m: m, names: make([]string, len(m.Sources))}
	for i, src := range m.Sources {
		s.names[i] = sourceName(dir, m.SourceRoot, src)
	}
	return s, nil
}

// sourceName reports a map's source as the analysis does: webpack://,
// vite:// and similar schemes dropped, then relative to the map's
// directory (and sourceRoot), cleaned. A name that leaves the root keeps
// its "../"; absolute names and URLs stay as they are.
func sourceName(mapDir, root, src string) string {
	for _, scheme := range []string{"webpack://", "webpack-internal://", "vite://", "rollup://"} {
		if rest, ok := strings.CutPrefix(src, scheme); ok {
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

// original maps a shipped 1-based line and 0-based UTF-16 column.
func (s *shipped) original(line, col16 int) (*sourcewire.Original, int) {
	if s == nil {
		return nil, -1
	}
	seg, ok := s.m.OnLine(line-1, col16)
	if !ok || seg.Source >= len(s.names) {
		return nil, -1
	}
	return &sourcewire.Original{File: s.names[seg.Source], Line: seg.OrigLine + 1, Column: seg.OrigColumn + 1}, seg.Source
}

// content is the embedded source of index i, if the map carries it.
func (s *shipped) content(i int) (string, bool) {
	if s == nil || i < 0 || s.m.Contents == nil || i >= len(s.m.Contents) || s.m.Contents[i] == nil {
		return "", false
	}
	return *s.m.Contents[i], true
}

// sourceMappingURL is the last sourceMappingURL comment of src.
func sourceMappingURL(src string) string {
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

func isBase64Run(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return len(s) > 0
}
