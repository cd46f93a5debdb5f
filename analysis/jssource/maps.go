package jssource

import (
	"fmt"
	"io/fs"
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

// mapRef finds the map a file declares (sourcemap.Locate, as the analysis
// finds it): its path ("" for an inline map) and, for inline maps, its bytes.
func mapRef(fsys fs.FS, p, src string) (string, []byte, bool) {
	mp, data, ok := sourcemap.Locate(p, src, func(q string) bool {
		info, err := fs.Stat(fsys, q)
		return err == nil && !info.IsDir()
	})
	if data != nil {
		mp = ""
	}
	return mp, data, ok
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
		s.names[i] = sourcemap.SourceName(dir, m.SourceRoot, src)
	}
	return s, nil
}

// original maps a shipped 1-based line and 0-based UTF-16 column.
func (s *shipped) original(line, col16 int) (*sourcewire.Original, int) {
	if s == nil {
		return nil, -1
	}
	seg, ok := s.m.OnLine(line-1, col16)
	if !ok || int(seg.Source) >= len(s.names) {
		return nil, -1
	}
	return &sourcewire.Original{File: s.names[seg.Source], Line: int(seg.OrigLine) + 1, Column: int(seg.OrigColumn) + 1}, int(seg.Source)
}

// content is the embedded source of index i, if the map carries it.
func (s *shipped) content(i int) (string, bool) {
	if s == nil || i < 0 || s.m.Contents == nil || i >= len(s.m.Contents) || s.m.Contents[i] == nil {
		return "", false
	}
	return *s.m.Contents[i], true
}
