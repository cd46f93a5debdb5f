package jsengine

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"rea/jsengine/jsparse"
	"rea/jsengine/normalise"
	"rea/jsengine/sourcemap"
)

// parsedFile is one JavaScript file turned into a goja syntax tree, with the
// means to report positions in the original file.
type parsedFile struct {
	path     string
	original string
	language string
	// generated is the text the tree's positions refer to: the original for
	// files goja parsed directly, esbuild's output otherwise.
	generated  string
	prog       *ast.Program
	smap       *sourcemap.Map
	parsedBy   string
	lineStarts []int
	origStarts []int
	// shift is the length of a wrapper prepended before parsing.
	shift int
	// shipped is the source map the application ships for this file.
	shipped *shippedMap
	// wasNormalised keeps normalised() once forgetGenerated dropped smap.
	wasNormalised bool
}

// normalised reports whether esbuild produced the text the tree was
// parsed from.
func (pf *parsedFile) normalised() bool { return pf.smap != nil || pf.wasNormalised }

const (
	cjsWrapperHead = "(function () {"
	cjsWrapperTail = "\n})"
)

// languageOf names the dialect implied by a file extension.
func languageOf(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "tsx"
	case ".jsx":
		return "jsx"
	}
	return "javascript"
}

// tsconfigForTransform enables legacy decorators, which is what Electron
// apps written in TypeScript (Angular, Nest-style services) use.
const tsconfigForTransform = `{"compilerOptions":{"experimentalDecorators":true,"useDefineForClassFields":false}}`

// tsconfigForComponents also keeps imports only a component's template uses.
const tsconfigForComponents = `{"compilerOptions":{"experimentalDecorators":true,"useDefineForClassFields":false,"verbatimModuleSyntax":true}}`

// parseJS parses src. CommonJS and plain scripts go straight to goja's
// parser; ESM, TypeScript, JSX and anything goja rejects go through esbuild
// first (CommonJS, ES2017, dynamic import lowered to require) and keep
// esbuild's source map to report original positions.
func parseJS(p, src string) (*parsedFile, error) {
	admitted, err := jsparse.Admit(p, src)
	if err != nil {
		return nil, err
	}
	pf := &parsedFile{path: p, original: src, language: languageOf(p)}
	pf.origStarts = lineStarts(src)
	ext := strings.ToLower(path.Ext(p))
	direct := pf.language == "javascript" && ext != ".mjs"
	if ext == ".html" || ext == ".htm" {
		// Inline scripts of a page: parsed in place like component blocks.
		src, _ = maskScriptBlocks(src)
		pf.language = "javascript"
		direct = true
	} else if ext == ".vue" || ext == ".svelte" {
		// Single-file components: keep only the <script> blocks, blanking
		// everything else in place so positions stay those of the file.
		src, pf.language = maskScriptBlocks(src)
		direct = false
	}
	var directErr error
	if direct {
		prog, err := admitted.Derive(src).Parse()
		if err == nil {
			pf.prog, pf.generated, pf.parsedBy, pf.lineStarts = prog, src, "goja", pf.origStarts
			return pf, nil
		}
		if strings.Contains(err.Error(), "Illegal return") {
			// Node runs CommonJS inside a function, so a top-level return is
			// legal there: parse inside a wrapper that shifts no line.
			body := src
			if strings.HasPrefix(body, "#!") { // a hashbang is only legal at offset 0
				if nl := strings.IndexByte(body, '\n'); nl > 0 {
					body = strings.Repeat(" ", nl) + body[nl:]
				}
			}
			if prog, werr := admitted.Derive(cjsWrapperHead + body + cjsWrapperTail).Parse(); werr == nil {
				pf.prog, pf.generated, pf.parsedBy, pf.lineStarts = prog, src, "goja", pf.origStarts
				pf.shift = len(cjsWrapperHead)
				return pf, nil
			}
		}
		directErr = err
	}
	loaders := loadersFor(pf.language)
	tsconfig := tsconfigForTransform
	if ext == ".vue" || ext == ".svelte" {
		// The template (blanked here) uses imports the script does not:
		// keep every value import, as the component compiler does.
		tsconfig = tsconfigForComponents
	}
	var lastErr error
	tlaRounds := 0
	for li := 0; li < len(loaders); li++ {
		loader := loaders[li]
		res := transform(normalise.Request{Loader: loader, Sourcefile: p, Tsconfig: tsconfig, Source: src})
		if len(res.Errors) > 0 {
			lastErr = esbuildError(res.Errors)
			if blanked, ok := blankTopLevelAwaits(src, res.Errors); ok && tlaRounds < 4 {
				// CommonJS has no top-level await; the value awaited is
				// what a static analysis sees anyway, so the keyword is
				// blanked in place (positions unchanged) and parsed again.
				src, tlaRounds = blanked, tlaRounds+1
				li--
			}
			continue
		}
		gen := res.Code
		m, err := sourcemap.FromMappings(res.Sources, res.Mappings)
		if err != nil {
			return nil, fmt.Errorf("esbuild source map for %s: %w", p, err)
		}
		prog, err := admitted.Derive(blankHelperPrologue(gen, m)).Parse()
		if err != nil {
			lastErr = fmt.Errorf("parse esbuild output: %w", err)
			continue
		}
		pf.prog, pf.generated, pf.smap, pf.parsedBy = prog, gen, m, "esbuild+goja"
		pf.lineStarts = lineStarts(gen)
		return pf, nil
	}
	if directErr != nil && lastErr != nil {
		return nil, fmt.Errorf("%v; esbuild: %v", directErr, lastErr)
	}
	return nil, lastErr
}

// loadersFor is the esbuild loaders parseJS tries, in order, for a file of
// language that goes through esbuild.
func loadersFor(language string) []string {
	switch language {
	case "typescript":
		return []string{"ts"}
	case "tsx":
		return []string{"tsx"}
	case "jsx":
		return []string{"jsx"}
	}
	return []string{"js", "jsx"}
}

// aheadRequest is the transform parseJS asks for first for a file that
// never goes to goja directly (TypeScript, TSX, JSX, .mjs), so it can be
// announced before the parse (transformAhead); ok is false for any other
// file (plain JavaScript goes to esbuild only when goja refuses it; pages
// and components are masked first).
func aheadRequest(p, src string) (req normalise.Request, ok bool) {
	lang, ext := languageOf(p), strings.ToLower(path.Ext(p))
	switch {
	case ext == ".html" || ext == ".htm" || ext == ".vue" || ext == ".svelte":
		return req, false
	case lang == "javascript" && ext != ".mjs":
		return req, false
	}
	return normalise.Request{Loader: loadersFor(lang)[0], Sourcefile: p, Tsconfig: tsconfigForTransform, Source: src}, true
}

// blankTopLevelAwaits replaces with spaces each `await` esbuild rejected as
// top-level await; ok is false when none was.
func blankTopLevelAwaits(src string, msgs []normalise.Message) (string, bool) {
	starts := lineStarts(src)
	b := []byte(src)
	changed := false
	for _, m := range msgs {
		if !m.Located || !strings.Contains(m.Text, "Top-level await") {
			continue
		}
		line := m.Line - 1
		if line < 0 || line >= len(starts) {
			continue
		}
		off := starts[line] + m.Column
		if off >= 0 && off+5 <= len(b) && string(b[off:off+5]) == "await" {
			copy(b[off:off+5], "     ")
			changed = true
		}
	}
	return string(b), changed
}

func esbuildError(msgs []normalise.Message) error {
	m := msgs[0]
	if m.Located {
		return fmt.Errorf("%s:%d:%d: %s", m.File, m.Line, m.Column+1, m.Text)
	}
	return fmt.Errorf("%s", m.Text)
}

// offset converts a goja index into a byte offset of the generated text.
func (pf *parsedFile) offset(idx file.Idx) int {
	off := int(idx) - 1 - pf.shift
	if off < 0 {
		off = 0
	}
	if off > len(pf.generated) {
		off = len(pf.generated)
	}
	return off
}

// loc reports the original position of a goja index.
func (pf *parsedFile) loc(idx file.Idx) Location {
	off := pf.offset(idx)
	line := sort.Search(len(pf.lineStarts), func(i int) bool { return pf.lineStarts[i] > off }) - 1
	if line < 0 {
		line = 0
	}
	col := off - pf.lineStarts[line]
	var l Location
	if pf.smap == nil {
		l = Location{File: pf.path, Line: line + 1, Column: col + 1}
	} else if seg, ok := pf.smap.Original(line, col); ok {
		l = Location{File: pf.path, Line: int(seg.OrigLine) + 1, Column: int(seg.OrigColumn) + 1}
	} else {
		l = Location{File: pf.path, Line: 1, Column: 1}
	}
	if pf.shipped != nil {
		if o, ok := pf.shipped.original(l.Line, l.Column); ok {
			l.Original = o
		}
	}
	return l
}

// forgetGenerated drops what only locating positions of the syntax tree
// needs — the generated text, its line starts and the maps from it to the
// original — once no position of the module will be asked for again (it
// is retired). Snippets of the original stay available.
func (pf *parsedFile) forgetGenerated() {
	pf.wasNormalised = pf.normalised()
	pf.generated, pf.lineStarts, pf.smap = "", nil, nil
	if pf.shipped != nil {
		pf.shipped.m = pf.shipped.m.WithoutMappings()
	}
}

// text returns the generated source of a node, bounded.
func (pf *parsedFile) text(n ast.Node, max int) string {
	if n == nil {
		return ""
	}
	a, b := pf.offset(n.Idx0()), pf.offset(n.Idx1())
	if b < a {
		b = a
	}
	if b-a > 4*max+16 {
		b = a + 4*max + 16 // only the start is ever shown
	}
	s := pf.generated[a:b]
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = truncateUTF8(s, max) + "…"
	}
	return s
}

// raw returns the generated source of a node as is.
func (pf *parsedFile) raw(n ast.Node) string {
	a, b := pf.offset(n.Idx0()), pf.offset(n.Idx1())
	if b < a {
		return ""
	}
	return pf.generated[a:b]
}

// snippet returns the original line at loc, trimmed and bounded.
func (pf *parsedFile) snippet(l Location) string {
	var s string
	if line, ok := pf.originalLine(l); ok {
		s = line // the source the shipped file was built from
	} else {
		if l.Line < 1 || l.Line > len(pf.origStarts) {
			return ""
		}
		start := pf.origStarts[l.Line-1]
		end := len(pf.original)
		if l.Line < len(pf.origStarts) {
			end = pf.origStarts[l.Line]
		}
		s = pf.original[start:end]
	}
	s = redactURLs(strings.TrimSpace(s))
	if len(s) > 160 {
		s = truncateUTF8(s, 160) + "…"
	}
	return s
}

// originalLine is the line of the shipped source map's embedded source at
// l.Original, when there is one.
func (pf *parsedFile) originalLine(l Location) (string, bool) {
	if pf.shipped == nil || l.Original.File == "" {
		return "", false
	}
	return pf.shipped.sourceLine(l.Original.File, l.Original.Line)
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// idxOf converts a byte offset into a goja index.
func idxOf(off int) file.Idx { return file.Idx(off + 1) }

// maskScriptBlocks returns src with everything outside <script> bodies
// replaced by spaces (newlines kept) and the language of the blocks.
func maskScriptBlocks(src string) (string, string) {
	out := []byte(src)
	lang := "javascript"
	keep := make([]bool, len(src))
	lower := strings.ToLower(src)
	for i := 0; i < len(src); {
		j := strings.Index(lower[i:], "<script")
		if j < 0 {
			break
		}
		start := i + j
		_, attrs, end := readTag(src, start)
		if end <= start {
			i = start + 1
			continue
		}
		close := strings.Index(lower[end:], "</script")
		if close < 0 {
			close = len(src) - end
		}
		if _, external := attrs["src"]; external || !isJavaScriptType(attrs["type"]) {
			i = end + close
			continue
		}
		if l := strings.ToLower(attrs["lang"]); l == "ts" || l == "typescript" {
			lang = "typescript"
		} else if l == "tsx" {
			lang = "tsx"
		} else if l == "jsx" && lang == "javascript" {
			lang = "jsx"
		}
		for k := end; k < end+close; k++ {
			keep[k] = true
		}
		i = end + close
	}
	for k := range out {
		if !keep[k] && out[k] != '\n' && out[k] != '\r' {
			out[k] = ' '
		}
	}
	return string(out), lang
}

// isJavaScriptType reports whether a <script type> holds code (not JSON,
// templates or other data blocks).
func isJavaScriptType(t string) bool {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript", "text/babel", "text/jsx":
		return true
	}
	return false
}

var urlInText = regexp.MustCompile(`\b(?:https?|wss?)://[^\s'"\x60<>)]+`)

// redactURLs drops credentials, query strings and fragments from URLs in a
// snippet: source lines are quoted into reports, tokens in them must not be.
func redactURLs(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			return "[url]"
		}
		return redactURL(u)
	})
}

// blankHelperPrologue replaces with spaces the lines esbuild puts before
// the first line its map covers: its runtime helpers (__defProp, __export,
// __toCommonJS, __decorateClass, …), the same few dozen lines in every
// transformed file and none of the application's code. The analysis knows
// these helpers by name (module.go, eval.go), never by their bodies, so
// parsing and walking them again in every file was pure cost. Positions do
// not move: every other byte, newlines included, stays where it was.
func blankHelperPrologue(gen string, m *sourcemap.Map) string {
	n := 0
	for n < m.NumLines() && !m.Mapped(n) {
		n++
	}
	if n == 0 || n >= m.NumLines() {
		return gen
	}
	end := 0
	for i := 0; i < n; i++ {
		nl := strings.IndexByte(gen[end:], '\n')
		if nl < 0 {
			return gen
		}
		end += nl + 1
	}
	var b strings.Builder
	b.Grow(len(gen))
	for i := 0; i < end; i++ {
		if gen[i] == '\n' {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(gen[end:])
	return b.String()
}
