package jssource

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"rea/abi"
	"rea/analysis/jssource/sourcewire"
)

// shippedWidth is where the shipped view cuts a long line into pieces.
const shippedWidth = 400

// pageReserve is what a page's record holds besides its lines (paths,
// unit, module, original source, limitations, the Evidence around it).
const pageReserve = 6 << 10

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b) + 1
}

// maxModuleUnit bounds a bundled module pretty-printed whole.
const maxModuleUnit = 4 * sourcewire.MaxUnitBytes

// spansBelow: a bundle up to this size is split in the read itself when
// the host gave no spans.
const spansBelow = 256 << 10

// readFile reads a file of fsys bounded by maxBytes.
func readFile(fsys fs.FS, p string, maxBytes int, field string) (string, error) {
	if p == "" {
		return "", abi.Errorf(abi.CodeInvalidRequest, "name the file to read (path, or source_ref.path)").WithDetail("field", field)
	}
	if !fs.ValidPath(p) {
		return "", abi.Errorf(abi.CodeInvalidRequest, "path %q must be a clean relative path inside the application (no ../, no leading /)", p).WithDetail("field", field)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return "", abi.Errorf(abi.CodeInvalidRequest, "%s is not a file of the application; list its files with inspect_artifact", p).WithDetail("field", field)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		return "", abi.Errorf(abi.CodeInvalidRequest, "%s is a directory, not a file", p).WithDetail("field", field)
	}
	if info.Size() > int64(maxBytes) {
		return "", abi.Errorf(abi.CodeResourceConstraint, "%s is %d bytes, over max_file_bytes=%d; raise max_file_bytes to read it", p, info.Size(), maxBytes).
			WithDetail("resource", "file_bytes").WithDetail("field", "max_file_bytes")
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
	if err != nil {
		return "", abi.Errorf(abi.CodeInvalidRequest, "%s cannot be read: %v", p, err).WithDetail("field", field)
	}
	if len(b) > maxBytes {
		return "", abi.Errorf(abi.CodeResourceConstraint, "%s is over max_file_bytes=%d", p, maxBytes).WithDetail("resource", "file_bytes").WithDetail("field", "max_file_bytes")
	}
	return string(b), nil
}

// ParseModule splits a module selector: a graph node id
// (bundled:<bundle>#<key>, module:<path>) or a bare key.
func ParseModule(sel string) (bundle, key string, isFile bool) {
	if rest, ok := strings.CutPrefix(sel, "bundled:"); ok {
		if i := strings.Index(rest, "#"); i >= 0 {
			return rest[:i], rest[i+1:], false
		}
	}
	if rest, ok := strings.CutPrefix(sel, "module:"); ok {
		return rest, "", true
	}
	return "", sel, false
}

// Read answers a read request with one page of source.
func Read(fsys fs.FS, req sourcewire.ReadRequest) (*sourcewire.ReadResult, error) {
	if err := normalizeRead(&req); err != nil {
		return nil, err
	}
	var bundleKey string
	if req.Module != "" {
		b, key, isFile := ParseModule(req.Module)
		switch {
		case isFile:
			req.Path = b
		case b != "":
			if req.Path != "" && req.Path != b {
				return nil, abi.Errorf(abi.CodeInvalidRequest, "module %q is in %s, not in path %s", req.Module, b, req.Path).WithDetail("field", "module")
			}
			req.Path, bundleKey = b, key
		default:
			if req.Path == "" {
				return nil, abi.Errorf(abi.CodeInvalidRequest, "a module key needs the bundle it is in: pass path, or the node id bundled:<bundle>#<key>").WithDetail("field", "module")
			}
			bundleKey = key
		}
	}
	src, err := readFile(fsys, req.Path, req.MaxFileBytes, "path")
	if err != nil {
		return nil, err
	}
	t := newText(req.Path, src)
	res := &sourcewire.ReadResult{Path: req.Path, Bytes: len(src), Minified: minified(src), Limitations: []string{}}
	smap, why := loadMap(fsys, req.Path, src, req.MaxFileBytes)
	if why != "" {
		res.Limitations = append(res.Limitations, why)
	}

	focus := -1
	if req.Line > 0 {
		if req.Line > t.lineCount() {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s has %d lines; line %d is past its end", req.Path, t.lineCount(), req.Line).WithDetail("field", "line")
		}
		focus = t.offset(req.Line, max(1, req.Column), req.ColumnUnit)
		p := t.pos(focus)
		res.Focus = &p
	}

	// The spans of the file's bundled modules, when it is a bundle.
	var spans *sourcewire.SpansResult
	switch {
	case req.Spans != nil && req.Spans.Path == req.Path:
		spans = req.Spans
	case bundleKey != "" || (focus >= 0 && len(src) <= spansBelow && looksBundled(src)):
		s := Spans(req.Path, src)
		spans = &s
	case focus >= 0 && looksBundled(src):
		res.Limitations = append(res.Limitations, fmt.Sprintf("the bundled module around the position is not named: %s is over %d KiB and its module list was not given", req.Path, spansBelow>>10))
	}

	var p printed
	var unitA, unitB int
	kind := "file"
	pretty := func(a, b int, ws []wrapper) bool {
		if req.View == "shipped" {
			return false
		}
		if pp, ok := pretty(t, a, b, ws); ok {
			p, unitA, unitB = pp, a, b
			res.View = "pretty"
			return true
		}
		return false
	}
	shipped := func(a, b int) {
		p, unitA, unitB = shippedLines(t, a, b, shippedWidth), a, b
		res.View = "shipped"
	}
	wantPretty := req.View == "pretty" || (req.View == "auto" && res.Minified)

	switch {
	case bundleKey != "":
		var m *sourcewire.ModuleSpan
		for i := range spans.Modules {
			if spans.Modules[i].Key == bundleKey {
				m = &spans.Modules[i]
			}
		}
		if m == nil {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s has no bundled module %q (%d modules: %s)", req.Path, bundleKey, len(spans.Modules), keyList(spans.Modules)).WithDetail("field", "module")
		}
		kind = "module"
		w := exprWrapper
		if spans.Kind == "esbuild" {
			w = methodWrapper
		}
		if !(wantPretty && m.End-m.Start <= maxModuleUnit && pretty(m.Start, m.End, []wrapper{w})) {
			if wantPretty && m.End-m.Start > maxModuleUnit {
				res.Limitations = append(res.Limitations, fmt.Sprintf("the module is %d bytes, over the %d printed at once; it is shown as shipped", m.End-m.Start, maxModuleUnit))
			}
			shipped(m.Start, m.End)
		}
	case req.StartLine > 0:
		if req.StartLine > t.lineCount() {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "%s has %d lines; start_line %d is past its end", req.Path, t.lineCount(), req.StartLine).WithDetail("field", "start_line")
		}
		end := req.EndLine
		if end == 0 || end > t.lineCount() {
			end = t.lineCount()
		}
		if end < req.StartLine {
			return nil, abi.Errorf(abi.CodeInvalidRequest, "end_line %d is before start_line %d", req.EndLine, req.StartLine).WithDetail("field", "end_line")
		}
		kind = "lines"
		shipped(t.lines[req.StartLine-1], t.lineEnd(end-1))
	case focus >= 0 && wantPretty:
		done := false
		if len(src) <= sourcewire.MaxUnitBytes {
			done = pretty(0, len(src), []wrapper{noWrapper})
		}
		if !done {
			// The largest block around the focus that is small enough to
			// print: the handler with the code around it.
			blocks := enclosingBlocks(src, focus)
			for i := len(blocks) - 1; i >= 0 && !done; i-- {
				b := blocks[i]
				if b.close-b.open-1 > sourcewire.MaxUnitBytes {
					continue
				}
				if done = pretty(b.open+1, b.close, bodyWrappers); done {
					kind = "block"
				}
			}
		}
		if !done {
			a, b := focus-sourcewire.MaxUnitBytes/2, focus+sourcewire.MaxUnitBytes/2
			shipped(max(0, a), min(len(src), b))
			kind = "window"
			res.Limitations = append(res.Limitations, "no block around the position could be printed (too large, or not JavaScript); it is shown as shipped")
		}
	case wantPretty && len(src) <= sourcewire.MaxUnitBytes && pretty(0, len(src), []wrapper{noWrapper}):
	default:
		if wantPretty && len(src) > sourcewire.MaxUnitBytes {
			res.Limitations = append(res.Limitations, "the file is too large to print whole; give a line (and column) to print the code around it")
		}
		shipped(0, len(src))
	}
	res.Unit = sourcewire.Span{Kind: kind, Start: t.pos(unitA), End: t.pos(unitB)}

	anchor := focus
	if anchor < 0 {
		anchor = unitA
	}
	if spans != nil {
		for _, m := range spans.Modules {
			if m.Start <= anchor && anchor < m.End {
				s, e := t.pos(m.Start), t.pos(m.End)
				res.Module = &sourcewire.ModuleRef{Bundle: req.Path, Key: m.Key, NodeID: "bundled:" + req.Path + "#" + m.Key, Start: &s, End: &e}
			}
		}
		if spans.ParseError != "" {
			res.Limitations = append(res.Limitations, "the bundle was not split into modules: "+spans.ParseError)
		}
	}

	res.TotalLines = len(p.lines)
	if focus >= 0 {
		res.FocusLine = p.lineFor(focus) + 1
	}
	offset := req.Offset
	if !req.OffsetSet && focus >= 0 {
		offset = max(0, res.FocusLine-1-req.ContextLines)
	}
	if offset > len(p.lines) {
		offset = len(p.lines)
	}
	res.Offset, res.Limit = offset, req.Limit
	// The page's lines are counted as the JSON they become, and the rest
	// of the record is given pageReserve, so a page is at most max_bytes
	// on the wire.
	budget := max(1024, req.MaxBytes-pageReserve)
	i := offset
	for ; i < len(p.lines) && i < offset+req.Limit; i++ {
		line := sourcewire.Line{Number: i + 1}
		if s := p.shipped[i]; s >= 0 {
			pos := t.pos(s)
			line.Shipped = &pos
			line.Original, _ = smap.original(pos.Line, pos.ColumnUTF16-1)
		}
		line.Text = clean(p.lines[i])
		cost := jsonSize(line)
		if cost > budget {
			if i > offset {
				break
			}
			// One line larger than a whole page: cut it.
			for cost > budget && line.Text != "" {
				line.Text, _ = cut(line.Text, len(line.Text)-(cost-budget)-8)
				line.Cut = true
				cost = jsonSize(line)
			}
		}
		budget -= cost
		res.Lines = append(res.Lines, line)
	}
	if i < len(p.lines) {
		next := i
		res.NextOffset = &next
		res.Truncated = i < offset+req.Limit
	}
	if res.Lines == nil {
		res.Lines = []sourcewire.Line{}
	}
	if req.IncludeOriginal && smap != nil {
		res.OriginalSource = originalSource(fsys, t, smap, anchor, req)
	}
	return res, nil
}

func keyList(ms []sourcewire.ModuleSpan) string {
	var keys []string
	for i, m := range ms {
		if i == 8 {
			keys = append(keys, "…")
			break
		}
		keys = append(keys, fmt.Sprintf("%q", m.Key))
	}
	return strings.Join(keys, ", ")
}

// lineFor is the printed line showing shipped offset off: the one whose
// code starts at the greatest shipped offset not after off.
func (p printed) lineFor(off int) int {
	best, bestAt := 0, -1
	for i, s := range p.shipped {
		if s >= 0 && s <= off && s > bestAt {
			best, bestAt = i, s
		}
	}
	return best
}

// originalSource quotes the original source at the anchor: from the
// map's sourcesContent, or the original file when it is in the input.
func originalSource(fsys fs.FS, t *text, smap *shipped, anchor int, req sourcewire.ReadRequest) *sourcewire.OriginalSource {
	pos := t.pos(anchor)
	o, si := smap.original(pos.Line, pos.ColumnUTF16-1)
	if o == nil {
		return nil
	}
	content, ok := smap.content(si)
	from := "sourcesContent"
	if !ok {
		name := path.Clean(o.File)
		if !fs.ValidPath(name) {
			return nil
		}
		c, err := readFile(fsys, name, req.MaxFileBytes, "path")
		if err != nil {
			return nil
		}
		content, from = c, "input"
	}
	ot := newText(o.File, content)
	if o.Line > ot.lineCount() {
		return nil
	}
	out := &sourcewire.OriginalSource{File: o.File, From: from, Lines: []sourcewire.Line{}}
	budget := req.MaxBytes / 4
	for l := max(1, o.Line-req.ContextLines); l <= min(ot.lineCount(), o.Line+req.ContextLines); l++ {
		txt, cutIt := cut(content[ot.lines[l-1]:ot.lineEnd(l-1)], shippedWidth)
		if budget -= len(txt) + 32; budget < 0 {
			break
		}
		out.Lines = append(out.Lines, sourcewire.Line{Number: l, Text: clean(txt), Cut: cutIt})
	}
	return out
}

// normalizeRead applies defaults and bounds, and takes a source_ref.
func normalizeRead(r *sourcewire.ReadRequest) error {
	if s := r.SourceRef; s != nil {
		if r.Path != "" && r.Path != s.Path {
			return abi.Errorf(abi.CodeInvalidRequest, "source_ref names %s and path %s; give one", s.Path, r.Path).WithDetail("field", "path")
		}
		r.Path = s.Path
		if r.Line == 0 {
			r.Line, r.Column, r.ColumnUnit = s.Line, s.Column, s.ColumnUnit
		}
	}
	switch r.ColumnUnit {
	case "", "byte":
		r.ColumnUnit = "byte"
	case "utf16":
	default:
		return abi.Errorf(abi.CodeInvalidRequest, "column_unit %q is not byte or utf16", r.ColumnUnit).WithDetail("field", "column_unit")
	}
	switch r.View {
	case "":
		r.View = "auto"
	case "auto", "pretty", "shipped":
	default:
		return abi.Errorf(abi.CodeInvalidRequest, "view %q is not auto, pretty or shipped", r.View).WithDetail("field", "view")
	}
	if r.Line > 0 && r.StartLine > 0 {
		return abi.Errorf(abi.CodeInvalidRequest, "give a line (a window around it) or start_line/end_line (a range), not both").WithDetail("field", "start_line")
	}
	for _, b := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"limit", &r.Limit, sourcewire.DefaultPageLines, sourcewire.MaxPageLines},
		{"max_bytes", &r.MaxBytes, sourcewire.DefaultPageBytes, sourcewire.MaxPageBytes},
		{"context_lines", &r.ContextLines, sourcewire.DefaultContextLines, 1000},
		{"max_file_bytes", &r.MaxFileBytes, sourcewire.DefaultMaxFileBytes, sourcewire.MaxMaxFileBytes},
	} {
		if *b.v < 0 || *b.v > b.max {
			return abi.Errorf(abi.CodeInvalidRequest, "%s=%d is outside 0..%d", b.name, *b.v, b.max).WithDetail("field", b.name)
		}
		if *b.v == 0 {
			*b.v = b.def
		}
	}
	if r.MaxBytes < 1024 {
		return abi.Errorf(abi.CodeInvalidRequest, "max_bytes=%d is below 1024 (one page must hold a line)", r.MaxBytes).WithDetail("field", "max_bytes")
	}
	if r.Line < 0 || r.Column < 0 || r.StartLine < 0 || r.EndLine < 0 || r.Offset < 0 {
		return abi.Errorf(abi.CodeInvalidRequest, "line, column, start_line, end_line and offset are 1-based (offset 0-based) and never negative").WithDetail("field", "line")
	}
	return nil
}

// Spans splits a file into its bundled modules (none when it is no
// bundle).
func Spans(p, src string) sourcewire.SpansResult {
	out := sourcewire.SpansResult{Path: p, Modules: []sourcewire.ModuleSpan{}}
	b, err := splitBundle(p, src)
	if err != nil {
		out.ParseError = err.Error()
		return out
	}
	if b == nil {
		return out
	}
	out.Kind = b.kind
	for _, m := range b.modules {
		out.Modules = append(out.Modules, sourcewire.ModuleSpan{Key: m.key, Start: m.start, End: m.end})
	}
	return out
}

// FileSpans reads one file and lists its bundled modules.
func FileSpans(fsys fs.FS, req sourcewire.SpansRequest) (*sourcewire.SpansResult, error) {
	if req.MaxFileBytes <= 0 {
		req.MaxFileBytes = sourcewire.DefaultMaxFileBytes
	}
	src, err := readFile(fsys, req.Path, min(req.MaxFileBytes, sourcewire.MaxMaxFileBytes), "path")
	if err != nil {
		return nil, err
	}
	s := Spans(req.Path, src)
	return &s, nil
}

// NormalizeRead applies read_javascript_source's defaults and bounds, as
// the module does (the host's spec is checked against it).
func NormalizeRead(r *sourcewire.ReadRequest) error { return normalizeRead(r) }

// NormalizeSearch applies search_application_text's defaults and bounds.
func NormalizeSearch(r *sourcewire.SearchRequest) error {
	_, err := compileQuery(r)
	return err
}

// NormalizeOutput applies the output bounds of unpack and extraction.
func NormalizeOutput(maxFile, maxOut, maxFiles *int) error {
	return outputBounds(maxFile, maxOut, maxFiles)
}
