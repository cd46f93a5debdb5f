package jssource

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
)

// maxSkippedListed bounds the skipped files named in a search result
// (all are counted).
const maxSkippedListed = 100

// Search finds a literal or an RE2 regular expression in the text files
// of fsys. Go's regexp is RE2: matching is linear in the text, so no
// pattern can backtrack; what a pattern may cost is bounded by the bytes
// searched.
func Search(fsys fs.FS, req sourcewire.SearchRequest) (*sourcewire.SearchResult, error) {
	re, err := compileQuery(&req)
	if err != nil {
		return nil, err
	}
	res := &sourcewire.SearchResult{Query: req.Query, Regex: req.Regex, Offset: req.Offset, Limit: req.Limit,
		Hits: []sourcewire.Hit{}, Skipped: []sourcewire.SkippedFile{}, Coverage: "complete", Limitations: []string{}}
	skipped := 0
	skip := func(p, why string) {
		skipped++
		res.Coverage = "partial"
		if len(res.Skipped) < maxSkippedListed {
			res.Skipped = append(res.Skipped, sourcewire.SkippedFile{Path: p, Reason: why})
		}
	}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			skip(p, "unreadable: "+err.Error())
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || !wanted(p, req.Paths) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			skip(p, "unreadable")
			return nil
		}
		if info.Size() > int64(req.MaxFileBytes) {
			skip(p, fmt.Sprintf("%d bytes, over max_file_bytes=%d", info.Size(), req.MaxFileBytes))
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			skip(p, "unreadable")
			return nil
		}
		if bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0 {
			return nil // binary: not text, not searched (and not a gap)
		}
		res.FilesScanned++
		res.BytesScanned += int64(len(b))
		searchFile(p, string(b), re, &req, res, fsys)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if skipped > 0 {
		l := fmt.Sprintf("%d files were not searched (listed in skipped with the reason); raise max_file_bytes to search files over %d bytes", skipped, req.MaxFileBytes)
		if skipped > len(res.Skipped) {
			l = fmt.Sprintf("%d files were not searched (the first %d are listed in skipped); raise max_file_bytes to search files over %d bytes", skipped, len(res.Skipped), req.MaxFileBytes)
		}
		res.Limitations = append(res.Limitations, l)
	}
	if res.HitsCapped {
		res.Limitations = append(res.Limitations, fmt.Sprintf("counting stopped at max_hits=%d; raise max_hits, or narrow the query or the paths", req.MaxHits))
	}
	if end := req.Offset + len(res.Hits); end < res.TotalHits {
		res.NextOffset = &end
	}
	return res, nil
}

func wanted(p string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, pre := range prefixes {
		pre = strings.TrimSuffix(pre, "/")
		if pre == "" || pre == "." || p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

// compileQuery checks the request and compiles the query (nil for a
// case-sensitive literal, which strings.Index finds).
func compileQuery(r *sourcewire.SearchRequest) (*regexp.Regexp, error) {
	if r.Query == "" {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "give the text to search for (query)").WithDetail("field", "query")
	}
	if len(r.Query) > sourcewire.MaxPatternBytes {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "query is %d bytes, over %d", len(r.Query), sourcewire.MaxPatternBytes).WithDetail("field", "query")
	}
	for _, b := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"limit", &r.Limit, sourcewire.DefaultSearchLimit, sourcewire.MaxSearchLimit},
		{"snippet_bytes", &r.SnippetBytes, sourcewire.DefaultSnippet, sourcewire.MaxSnippet},
		{"max_file_bytes", &r.MaxFileBytes, sourcewire.DefaultMaxFileBytes, sourcewire.MaxMaxFileBytes},
		{"max_hits", &r.MaxHits, 10_000, 1_000_000},
		{"offset", &r.Offset, 0, 1_000_000},
	} {
		if *b.v < 0 || *b.v > b.max {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s=%d is outside 0..%d", b.name, *b.v, b.max).WithDetail("field", b.name)
		}
		if *b.v == 0 {
			*b.v = b.def
		}
	}
	if !r.Regex && r.CaseSensitive {
		return nil, nil
	}
	pat := r.Query
	if !r.Regex {
		pat = regexp.QuoteMeta(pat)
	}
	flags := "(?m)"
	if !r.CaseSensitive {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + pat)
	if err != nil {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "query is not an RE2 regular expression (no backreferences or lookaround): %v", err).WithDetail("field", "query")
	}
	return re, nil
}

// searchFile counts the hits of one file and materialises those on the
// requested page.
func searchFile(p, src string, re *regexp.Regexp, req *sourcewire.SearchRequest, res *sourcewire.SearchResult, fsys fs.FS) {
	var t *text
	var spans *sourcewire.SpansResult
	var smap *shipped
	mapLoaded := false
	emit := func(a, b int) bool {
		if res.TotalHits >= req.MaxHits {
			res.HitsCapped = true
			return false
		}
		n := res.TotalHits
		res.TotalHits++
		if n < req.Offset || n >= req.Offset+req.Limit {
			return true
		}
		if t == nil {
			t = newText(p, src)
			if looksBundled(src) {
				s := Spans(p, src)
				spans = &s
				res.ModulesIndexed += len(s.Modules)
			}
		}
		if !mapLoaded {
			smap, _ = loadMap(fsys, p, src, req.MaxFileBytes)
			mapLoaded = true
		}
		pos := t.pos(a)
		h := sourcewire.Hit{Path: p, Shipped: pos, Length: b - a, Snippet: snippet(src, a, b, req.SnippetBytes),
			SourceRef: sourcewire.SourceRef{Path: p, Line: pos.Line, Column: pos.Column, ColumnUnit: "byte", SHA256: req.Digests[p]}}
		h.Original, _ = smap.original(pos.Line, pos.ColumnUTF16-1)
		if spans != nil {
			for _, m := range spans.Modules {
				if m.Start <= a && a < m.End {
					s, e := t.pos(m.Start), t.pos(m.End)
					h.Module = &sourcewire.ModuleRef{Bundle: p, Key: m.Key, NodeID: "bundled:" + p + "#" + m.Key, Start: &s, End: &e}
				}
			}
		}
		res.Hits = append(res.Hits, h)
		return true
	}
	if re == nil {
		for from := 0; from <= len(src); {
			i := strings.Index(src[from:], req.Query)
			if i < 0 || !emit(from+i, from+i+len(req.Query)) {
				return
			}
			from += i + len(req.Query)
		}
		return
	}
	// One pass over the whole text, so anchors (^, $, \b) see the real
	// neighbours of each position instead of a slice's start; at most one
	// hit past the cap is asked for, so memory stays bounded.
	for _, loc := range re.FindAllStringIndex(src, req.MaxHits-res.TotalHits+1) {
		if !emit(loc[0], loc[1]) {
			return
		}
	}
}

// snippet is the match with context on its line, at most n bytes, on
// character boundaries, valid UTF-8.
func snippet(src string, a, b, n int) string {
	ls := strings.LastIndexByte(src[:a], '\n') + 1
	le := strings.IndexByte(src[b:], '\n')
	if le < 0 {
		le = len(src)
	} else {
		le += b
	}
	room := max(0, n-(b-a))
	from := max(ls, a-room/2)
	to := min(le, b+room-(a-from))
	for from > 0 && from < len(src) && src[from]&0xC0 == 0x80 {
		from++
	}
	s, _ := cut(src[from:to], n)
	return clean(strings.TrimRight(s, "\r"))
}
