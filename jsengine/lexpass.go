package jsengine

import (
	"path"
	"strings"
	"unsafe"

	"github.com/dop251/goja/file"

	"rea/jsengine/jslex"
	"rea/jsengine/jsparse"
)

// The lexer-level pass (issue 22 point 3): before the analysis, every
// selected JavaScript file is scanned once by jslex; full syntax trees are
// built only for files that can contribute a fact. A file is reported from
// its scan ("parsed_by": "lexer", no syntax tree, its literal requires as
// imports) only when all of these hold:
//
//   - it is plain CommonJS goja would parse directly (.js or .cjs, no ESM,
//     JSX, decorators, top-level await or return: jslex's NeedsParse), it
//     nests within jsparse's bounds, and the scan ended without an error;
//   - no relevant word (jslex/relevant.go) occurs anywhere in its bytes;
//   - it is not the package's main entry and no HTML page names it;
//   - none of the files it names (scanSpecifiers: require, import, from,
//     script file names) can hand out an Electron object, an IPC helper,
//     the renderer bridge or a child process (a relevant word that is not
//     local, jslex localWords, or an importer of such a file) — it calls
//     or re-exports nothing of the boundary — and no parsed file names it:
//     it provides no constant or helper to one. Both closures are
//     transitive.
//
// Every import of such a file is a literal require('x'): the analyzer
// would record exactly those, at the same positions, resolved the same
// way. If an evaluation still reaches into a file reported from its scan
// (a require whose specifier is computed), the analysis is redone with
// every file parsed (AnalyzeShard), so the result is always the one of
// the full parse. Options.FullParse turns the pass off.

// lexPlan is the outcome of the pass for one analysis.
type lexPlan struct {
	skip    map[string]jslex.Facts // files reported from their scan
	emitted map[string]*moduleInfo // those already reported, by path
	miss    string                 // a reported file an evaluation reached
}

// planLexPass decides which queued files are reported from their scan.
func (e *engine) planLexPass(queue []textFile, texts []textFile, g *importGraph) {
	main := ""
	if e.res != nil && e.res.Package != nil {
		main = e.res.Package.ResolvedMain
	}
	named := map[string]bool{} // scripts an HTML page names
	for _, t := range texts {
		if t.kind != "html" {
			continue
		}
		dir := path.Dir(t.path)
		for _, spec := range scanSpecifiers(bytesOf(t.src), 100_000) {
			if r := e.resolve(dir, spec); r != "" {
				named[r] = true
			}
			named[e.resolveFile(path.Join(dir, spec))] = true
		}
	}
	clean := 0
	type words struct {
		first      string
		propagates bool
	}
	scanned := make(map[string]words, len(queue))
	for _, t := range queue {
		first, p := jslex.Words(t.src)
		scanned[t.path] = words{first, p}
		if first == "" && e.lexCandidate(t, main, named, false) {
			clean++
		}
	}
	if clean == 0 {
		// Every file can contribute (or must be parsed anyway): the
		// module graph would change nothing.
		return
	}
	facts := map[string]jslex.Facts{}
	parse := map[string]bool{}     // files that get a syntax tree
	propagate := map[string]bool{} // files whose importers get one too
	for _, t := range queue {
		dir := path.Dir(t.path)
		if !e.lexCandidate(t, main, named, g.capped[t.path]) {
			parse[t.path] = true
			// The word scan reads raw bytes, so it holds for any dialect.
			if scanned[t.path].propagates {
				propagate[t.path] = true
			}
			continue
		}
		if w := scanned[t.path]; w.first != "" {
			parse[t.path] = true
			if w.propagates {
				propagate[t.path] = true
			}
			continue
		}
		f, err := jslex.Scan(t.src, jslex.DefaultLimits)
		if err != nil || f.Relevant != "" || f.NeedsParse != "" || !e.lexImportsExact(dir, f) {
			parse[t.path] = true
			continue
		}
		facts[t.path] = f
	}
	// Importers of a file that can hand out an Electron object, an IPC
	// helper, the renderer bridge or a child process are parsed (they may
	// call or re-export it), transitively: what they export may be that
	// object too.
	rev := map[string][]string{}
	for from, tos := range g.edges {
		for _, to := range tos {
			rev[to] = append(rev[to], from)
		}
	}
	var stack []string
	for p := range propagate {
		stack = append(stack, p)
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parse[p] = true
		for _, from := range rev[p] {
			if !propagate[from] {
				propagate[from] = true
				stack = append(stack, from)
			}
		}
	}
	// What parsed files name is parsed (constants and helpers they may
	// evaluate), transitively.
	up := make([]string, 0, len(parse))
	for p := range parse {
		up = append(up, p)
	}
	seen := map[string]bool{}
	for len(up) > 0 {
		p := up[len(up)-1]
		up = up[:len(up)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		parse[p] = true
		up = append(up, g.edges[p]...)
	}
	e.lex = &lexPlan{skip: map[string]jslex.Facts{}, emitted: map[string]*moduleInfo{}}
	for p, f := range facts {
		if !parse[p] {
			e.lex.skip[p] = f
		}
	}
}

// lexTargets are the files a specifier found by scanSpecifiers may name:
// what the analyzer's resolution gives (after aliases), and the file a
// bare name would be beside the module (as reachableFirst reads it).
func (e *engine) lexTargets(dir, spec string) []string {
	var out []string
	s := strings.TrimPrefix(spec, "node:")
	if r := e.resolve(dir, s); r != "" {
		out = append(out, r)
	}
	if rw, ok := e.aliasSpecifier(dir, s); ok {
		if r := e.resolve(dir, strings.TrimPrefix(rw, "node:")); r != "" {
			out = append(out, r)
		}
	}
	if !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "/") {
		if r := e.resolveFile(path.Join(dir, s)); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// lexCandidate reports whether t may be reported from its scan at all.
func (e *engine) lexCandidate(t textFile, main string, named map[string]bool, specLimit bool) bool {
	if t.kind != "javascript" || specLimit || t.path == main || named[t.path] {
		return false
	}
	if ext := path.Ext(t.path); ext != ".js" && ext != ".cjs" {
		return false // .mjs, TypeScript, JSX, components, pages: parsed
	}
	brackets, chain := jsparse.Depth(t.src)
	return brackets <= jsparse.MaxNesting && chain <= jsparse.MaxOperatorChain
}

// lexImportsExact reports whether the scan's requires are what the
// analyzer would record without evaluating anything else: specifiers
// that no alias rewrites and that name no native addon.
func (e *engine) lexImportsExact(dir string, f jslex.Facts) bool {
	for _, r := range f.Requires {
		s := strings.TrimPrefix(r.Spec, "node:")
		if strings.HasSuffix(r.Spec, ".node") || strings.ContainsAny(r.Spec, "\\\n\r") {
			return false
		}
		if _, ok := e.aliasSpecifier(dir, s); ok {
			return false
		}
	}
	return true
}

// lexModule is the module record of a file reported from its scan: the
// imports addImport would record for its literal requires.
func (e *engine) lexModule(t textFile, f jslex.Facts) *moduleInfo {
	pf := &parsedFile{path: t.path, original: t.src, generated: t.src, language: languageOf(t.path), parsedBy: "lexer"}
	pf.origStarts = lineStarts(t.src)
	pf.lineStarts = pf.origStarts
	if len(f.Requires) > 0 {
		pf.shipped = e.loadShippedMap(t.path, t.src)
	}
	m := newModuleInfo(t.path, pf, t.sha, len(t.src))
	m.analysed = true
	for _, r := range f.Requires {
		imp := Import{Kind: "require", Specifier: r.Spec, SpecifierKind: "module-specifier", Location: pf.loc(file.Idx(r.Offset + 1))}
		spec := strings.TrimPrefix(r.Spec, "node:")
		if res := e.resolve(m.dir, spec); res != "" {
			imp.Resolved = res
		} else if !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
			imp.External = !e.appInternal(m.dir, spec)
		}
		m.imports = append(m.imports, imp)
	}
	return m
}

// bytesOf views s as bytes without copying (scanSpecifiers only reads):
// the pass runs over every selected byte, and in wasm a copy of each file
// costs the single-threaded GC more than the scan itself.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
