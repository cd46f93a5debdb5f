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
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"

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
}

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

// parseJS parses src. CommonJS and plain scripts go straight to goja's
// parser; ESM, TypeScript, JSX and anything goja rejects go through esbuild
// first (CommonJS, ES2017, dynamic import lowered to require) and keep
// esbuild's source map to report original positions.
func parseJS(p, src string) (*parsedFile, error) {
	switch brackets, chain := syntaxDepth(src); {
	case brackets > maxNesting:
		return nil, fmt.Errorf("brackets nest %d deep, over the %d this analyser accepts", brackets, maxNesting)
	case chain > maxOperatorChain:
		return nil, fmt.Errorf("operators chain about %d deep (as in a+b+c+… or x=>y=>…), over the %d this analyser accepts", chain, maxOperatorChain)
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
		prog, err := gojaParse(p, src)
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
			if prog, werr := gojaParse(p, cjsWrapperHead+body+cjsWrapperTail); werr == nil {
				pf.prog, pf.generated, pf.parsedBy, pf.lineStarts = prog, src, "goja", pf.origStarts
				pf.shift = len(cjsWrapperHead)
				return pf, nil
			}
		}
		directErr = err
	}
	loaders := []api.Loader{api.LoaderJS, api.LoaderJSX}
	switch pf.language {
	case "typescript":
		loaders = []api.Loader{api.LoaderTS}
	case "tsx":
		loaders = []api.Loader{api.LoaderTSX}
	case "jsx":
		loaders = []api.Loader{api.LoaderJSX}
	}
	var lastErr error
	for _, loader := range loaders {
		res := api.Transform(src, api.TransformOptions{
			Loader:      loader,
			Format:      api.FormatCommonJS,
			Target:      api.ES2017,
			Supported:   map[string]bool{"dynamic-import": false},
			Sourcemap:   api.SourceMapExternal,
			Sourcefile:  p,
			TsconfigRaw: tsconfigForTransform,
			LogLevel:    api.LogLevelSilent,
		})
		if len(res.Errors) > 0 {
			lastErr = esbuildError(res.Errors)
			continue
		}
		gen := string(res.Code)
		prog, err := gojaParse(p, gen)
		if err != nil {
			lastErr = fmt.Errorf("parse esbuild output: %w", err)
			continue
		}
		m, err := sourcemap.Parse(res.Map)
		if err != nil {
			return nil, fmt.Errorf("esbuild source map for %s: %w", p, err)
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

// gojaParse parses with source-map loading disabled: goja would otherwise
// read any path named in a sourceMappingURL comment from the disk.
func gojaParse(name, src string) (prog *ast.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("parser panic: %v", r)
		}
	}()
	return parser.ParseFile(nil, name, src, 0, parser.WithDisableSourceMaps)
}

func esbuildError(msgs []api.Message) error {
	m := msgs[0]
	if m.Location != nil {
		return fmt.Errorf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column+1, m.Text)
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
	if pf.smap == nil {
		return Location{File: pf.path, Line: line + 1, Column: col + 1}
	}
	seg, ok := pf.smap.Original(line, col)
	if !ok {
		return Location{File: pf.path, Line: 1, Column: 1}
	}
	return Location{File: pf.path, Line: seg.OrigLine + 1, Column: seg.OrigColumn + 1}
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
	if l.Line < 1 || l.Line > len(pf.origStarts) {
		return ""
	}
	start := pf.origStarts[l.Line-1]
	end := len(pf.original)
	if l.Line < len(pf.origStarts) {
		end = pf.origStarts[l.Line]
	}
	s := redactURLs(strings.TrimSpace(pf.original[start:end]))
	if len(s) > 160 {
		s = truncateUTF8(s, 160) + "…"
	}
	return s
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

// maxNesting bounds bracket nesting: the parsers and the walker recurse per
// level, and a hostile file of a million "(" would otherwise exhaust the
// stack instead of failing as one unparsable file.
const maxNesting = 1000

// maxOperatorChain bounds syntaxDepth's estimate of how deep a file's syntax tree
// goes. Operators nest without brackets — a+b+c+…, a=b=c=…, a?b:c?…,
// x=>y=>…, a.b.c… put one node inside the next per operator — and in wasm
// the call stack (wazero's, 50 MB) ends far sooner than natively: measured
// on the jsapp module, 12,000 chained "+" or "=" and 8,000 chained arrow
// functions exhausted it and took the whole analysis down, 5,000 did not.
// Real code stays far below: the deepest of 7,000 files surveyed (npm's,
// the MCP Inspector's and rolldown's bundles, rustdoc's) estimates 750.
const maxOperatorChain = 4000

// isOperatorByte reports whether c can be part of an operator (a switch:
// no call or loop per byte in wasm, where both cost fuel).
func isOperatorByte(c byte) bool {
	switch c {
	case '+', '-', '*', '%', '&', '|', '^', '!', '~', '<', '>', '=', '?', ':', '.', '/':
		return true
	}
	return false
}

// syntaxDepth approximates how deep src's syntax tree can go, skipping
// string literals and comments (regular expressions are not recognised, so
// the estimate can only err high for bracket- or operator-heavy regexps).
// It returns the deepest bracket nesting and the deepest nesting of
// brackets plus operator chains: at each bracket level it counts operators
// since the last ",", ";" or bracket (==, &&, <=, => … once; !!, ++ … per
// character), and sums those counts over the open levels.
func syntaxDepth(src string) (brackets, chain int) {
	var runs []int // per open bracket level: operators since its last separator
	run, sum := 0, 0
	closedAt := -1 // offset of the ")" or "]" a call or index may follow, or -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c >= 'a' && c <= 'z' {
			// new, typeof and void nest like prefix operators (new new new
			// … f): checked at their last letter only.
			if (c == 'w' || c == 'f' || c == 'd') && isPrefixKeywordEnd(src, i) {
				run++
				sum++
				chain = max(chain, sum+len(runs))
			}
			continue
		}
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\n' || c == '\t' || c == '_' || c == '$' || c >= 0x80 {
			continue // most bytes: names, numbers, blanks
		}
		if c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
			if src[i+1] == '/' {
				from := i
				for i < len(src) && src[i] != '\n' {
					i++
				}
				closedAt = afterComment(src, closedAt, from, i)
				continue
			}
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return brackets, chain
			}
			from := i
			i += end + 3
			closedAt = afterComment(src, closedAt, from, i)
			continue
		}
		switch c {
		case '(', '[', '{':
			if c != '{' && closedAt >= 0 && blank(src[closedAt+1:i]) {
				// f()()… and a[0][0]…: each call or index of a call's or
				// index's result nests one node deeper.
				run++
				sum++
				chain = max(chain, sum+len(runs))
			}
			closedAt = -1
			runs = append(runs, run)
			run = 0
			brackets = max(brackets, len(runs))
		case ')', ']', '}':
			if len(runs) > 0 {
				sum -= run
				run = runs[len(runs)-1]
				runs = runs[:len(runs)-1]
			}
			closedAt = -1
			if c != '}' {
				closedAt = i
			}
		case ',', ';':
			sum -= run
			run = 0
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' && c != '`' {
					break
				}
			}
		default:
			if !isOperatorByte(c) {
				continue
			}
			if i > 0 && (c == '=' || c == '&' || c == '|' || c == '<' || c == '>') && isOperatorByte(src[i-1]) {
				continue // the rest of ==, &&, ||, <=, >>>, => …: one operator
			}
			run++
			sum++
			chain = max(chain, sum+len(runs))
		}
	}
	return brackets, chain
}

// afterComment moves the ")" or "]" a call may follow over a comment
// from..end when only blanks separate them (f()/**/() still chains), and
// forgets it otherwise, so no byte is looked at twice.
func afterComment(src string, closedAt, from, end int) int {
	if closedAt >= 0 && blank(src[closedAt+1:from]) {
		return end
	}
	return -1
}

// blank reports whether s holds only spaces, tabs and line breaks.
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// isPrefixKeywordEnd reports whether src[i] ends the word new, typeof or
// void.
func isPrefixKeywordEnd(src string, i int) bool {
	if i+1 < len(src) && isWordByte(src[i+1]) {
		return false
	}
	for _, kw := range [...]string{"new", "typeof", "void"} {
		if s := i + 1 - len(kw); s >= 0 && src[s:i+1] == kw && (s == 0 || !isWordByte(src[s-1])) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
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
