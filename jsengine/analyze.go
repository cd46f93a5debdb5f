package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja/ast"

	"rea/abi"
	"rea/jsengine/internal/digest"
	"rea/jsengine/report"
)

// Analyze statically analyses the JavaScript/Electron application rooted at
// fsys (a directory or a mounted ASAR). Nothing in the application is
// executed. progress, if not nil, is called as work advances.
//
// When a limit of opts is reached the result's coverage is "partial" and
// names the limit and what was left out, or, with opts.FailOnLimit, Analyze
// returns an *abi.Error with code resource_constraint.
func Analyze(ctx context.Context, fsys fs.FS, opts Options, progress func(phase string, done, total int)) (*Result, error) {
	f, err := AnalyzeShard(ctx, fsys, opts, Shard{Index: 0, Count: 1}, nil, progress)
	if err != nil {
		return nil, err
	}
	res, _, err := Merge(ctx, fsys, opts, []*ShardFacts{f})
	return res, err
}

// AnalyzeShard analyses the part of the application that shard owns and
// returns its facts for Merge. Every shard selects the same files and
// orders them the same way; shard i of n analyses the i-th of n contiguous
// runs of that order (balanced by bytes). A module another shard owns is
// parsed on demand when an evaluation reaches into it, and is treated as the
// single-instance analysis would treat it at that point of the order
// (already analysed and pruned, or not yet analysed), so that the merged
// facts equal those of one instance.
//
// digests, when not nil, are the sha256 of files the caller already hashed
// (by path); they are reported instead of hashing those files again.
func AnalyzeShard(ctx context.Context, fsys fs.FS, opts Options, shard Shard, digests map[string]string, progress func(phase string, done, total int)) (*ShardFacts, error) {
	o, err := opts.WithDefaults()
	if err != nil {
		return nil, err
	}
	if shard.Count < 1 || shard.Index < 0 || shard.Index >= shard.Count {
		return nil, abi.Errorf(abi.CodeInvalidRequest, "shard %d of %d does not exist", shard.Index, shard.Count).WithDetail("field", "shard")
	}
	if progress == nil {
		progress = func(string, int, int) {}
	}
	e := &engine{
		opts: o, fsys: fsys, files: map[string]bool{}, modules: map[string]*moduleInfo{},
		busy: map[*binding]bool{}, windows: map[ast.Node]*windowRec{},
		factoryByScope: map[*scope]*factoryInfo{}, factoryTables: map[*moduleInfo]map[string]*factoryInfo{},
		factoryCache: map[*factoryInfo]value{}, factoryBusy: map[*factoryInfo]bool{},
		steps: o.MaxASTNodes * 4, shard: shard, digests: digests,
	}
	res := &Result{SchemaVersion: SchemaVersion}
	if err := e.list(ctx); err != nil {
		return nil, err
	}
	res.Package = e.packageJSON()
	texts, err := e.selectText(ctx, res, progress)
	if err != nil {
		return nil, err
	}
	if shard.Index > 0 {
		// Selection is the same in every shard; its facts are shard 0's.
		res.Statistics = Statistics{}
		e.limitations, e.hits, e.omitted = nil, nil, nil
	}
	_, err = e.analyseModules(ctx, texts, res, progress)
	if err != nil {
		if _, typed := err.(*abi.Error); typed {
			return nil, err
		}
		return nil, cancelled(err)
	}
	if redo, why := e.redo(opts); why != "" {
		// The result would differ from the one without the shortcut that
		// missed: one instance redoes the analysis without it; a shard
		// asks the merge for one instance (which then does the same).
		if shard.Count == 1 {
			return AnalyzeShard(ctx, fsys, redo, shard, digests, progress)
		}
		f := e.collect(res, texts)
		f.Rerun = append(f.Rerun, why)
		return f, nil
	}
	return e.collect(res, texts), nil
}

// redo says why the analysis must be redone, and with which options: an
// evaluation reached a file the lexer-level pass reported from its scan
// (redone parsing every file), or a module retired as unreachable (a
// computed specifier the import scan could not see; redone keeping every
// analysed module). "" when the analysis stands.
func (e *engine) redo(opts Options) (Options, string) {
	if e.lex != nil && e.lex.miss != "" {
		opts.FullParse = true
		return opts, "an evaluation reached " + e.lex.miss + ", which the lexer-level pass did not parse"
	}
	if e.retire != nil && e.retire.miss != "" {
		opts.KeepAnalysed = true
		return opts, "an evaluation reached " + e.retire.miss + ", which was retired as unreachable"
	}
	return opts, ""
}

func cancelled(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return abi.Errorf(abi.CodeResourceConstraint, "the analysis deadline passed; raise the deadline or analyse a smaller root").WithDetail("limit", "deadline")
	}
	return abi.Errorf(abi.CodeCancelled, "the analysis was cancelled")
}

// textFile is a selected file and its bytes.
type textFile struct {
	path string
	src  string
	sha  string
	kind string // javascript | html
}

// list records every file path of the root.
func (e *engine) list(ctx context.Context) error {
	return fs.WalkDir(e.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("list %s: %w", p, err)
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return cancelled(ctxErr)
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			e.files[p] = true
		}
		return nil
	})
}

func textKind(p string) string { return report.TextKind(p) }

// priority orders work so that the application's own files are read before
// its dependencies: a limit then cuts node_modules, not the Electron entry.
func (e *engine) priority(p string, main string) int {
	switch {
	case p == main:
		return 0
	case strings.Contains("/"+p, "/node_modules/"):
		return 3
	case textKind(p) == "html":
		return 1
	}
	return 2
}

func (e *engine) selectText(ctx context.Context, res *Result, progress func(string, int, int)) ([]textFile, error) {
	main := ""
	if res.Package != nil {
		main = res.Package.ResolvedMain
	}
	var cands []string
	for p := range e.files {
		switch {
		case textKind(p) != "":
			cands = append(cands, p)
		case strings.HasSuffix(p, ".map"), strings.HasSuffix(p, ".node"), path.Base(p) == "package.json":
			res.Statistics.RelevantFiles++
		}
	}
	res.Statistics.RelevantFiles += len(cands)
	sort.Slice(cands, func(i, j int) bool {
		pi, pj := e.priority(cands[i], main), e.priority(cands[j], main)
		if pi != pj {
			return pi < pj
		}
		return cands[i] < cands[j]
	})
	cands = e.reachableFirst(cands, main)
	var out []textFile
	total := 0
	var omitFiles, omitBytes, omitFileBytes int
	for i, p := range cands {
		if err := ctx.Err(); err != nil {
			return nil, cancelled(err)
		}
		progress("read", i, len(cands))
		if len(out) >= e.opts.MaxTextFiles {
			omitFiles++
			e.omit(p, "max_text_files")
			continue
		}
		info, err := fs.Stat(e.fsys, p)
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", p, err)
		}
		if info.Size() > int64(e.opts.MaxTextFileBytes) {
			omitFileBytes++
			e.omit(p, "max_text_file_bytes")
			continue
		}
		if total+int(info.Size()) > e.opts.MaxTotalTextBytes {
			omitBytes++
			e.omit(p, "max_total_text_bytes")
			continue
		}
		b, ok := e.readCache[p]
		delete(e.readCache, p)
		if !ok {
			b, err = fs.ReadFile(e.fsys, p)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", p, err)
			}
		}
		if len(b) > e.opts.MaxTextFileBytes || total+len(b) > e.opts.MaxTotalTextBytes {
			omitBytes++
			e.omit(p, "max_total_text_bytes")
			continue
		}
		sha, ok := e.digests[p]
		if !ok {
			sha = digest.Hex(b)
		}
		if !utf8.Valid(b) {
			// One stray byte must not hide the whole file (often the main
			// entry): its bytes are read as spaces and the file analysed,
			// and the coverage says so.
			var first int
			b, first = sanitiseUTF8(b)
			res.Statistics.InvalidUTF8Files++
			e.limitations = append(e.limitations, fmt.Sprintf("not valid UTF-8: %s (first bad byte at offset %d); its invalid bytes were read as spaces", p, first))
		}
		total += len(b)
		out = append(out, textFile{path: p, src: string(b), sha: sha, kind: textKind(p)})
	}
	e.hit("max_text_files", e.opts.MaxTextFiles, omitFiles)
	e.hit("max_text_file_bytes", e.opts.MaxTextFileBytes, omitFileBytes)
	e.hit("max_total_text_bytes", e.opts.MaxTotalTextBytes, omitBytes)
	lim := omitFiles + omitBytes + omitFileBytes
	res.Statistics.LimitOmittedTextFiles = lim
	res.Statistics.OmittedTextFiles += lim
	res.Statistics.TextFilesSelected = len(out)
	res.Statistics.TextBytesRead = total
	return out, nil
}

// hit records a limit that left omitted items out.
func (e *engine) hit(limit string, value, omitted int) {
	if omitted <= 0 {
		return
	}
	for i := range e.hits {
		if e.hits[i].Limit == limit {
			e.hits[i].Omitted += omitted
			return
		}
	}
	e.hits = append(e.hits, LimitHit{Limit: limit, Value: value, Omitted: omitted})
}

// parseState carries the parse limits across the two phases of analysis.
type parseState struct {
	start                            time.Time
	budget                           time.Duration
	omitTime, omitModules, omitNodes int
	nodes, accepted, done, total     int
	failed                           []Module
	// ownedNodes counts the nodes of the modules this shard owns (all of
	// them in a single instance); nodes also counts modules parsed on
	// demand for another shard's module.
	ownedNodes int
}

// parseOne parses and indexes one file; nil means failed or over a limit
// (both recorded, failures only by the shard that owns the file).
func (e *engine) parseOne(ctx context.Context, t textFile, ps *parseState, res *Result, progress func(string, int, int), owned bool) (*moduleInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	progress("parse", ps.done, ps.total)
	ps.done++
	switch {
	case time.Since(ps.start) > ps.budget:
		ps.omitTime++
		e.omit(t.path, "max_parse_milliseconds")
		return nil, nil
	case ps.accepted >= e.opts.MaxModules:
		ps.omitModules++
		e.omit(t.path, "max_modules")
		return nil, nil
	case ps.nodes >= e.opts.MaxASTNodes:
		ps.omitNodes++
		e.omit(t.path, "max_ast_nodes")
		return nil, nil
	}
	pf, err := parseJS(t.path, t.src)
	if err != nil {
		if owned {
			res.Statistics.ParseFailures++
			ps.failed = append(ps.failed, Module{Path: t.path, SHA256: t.sha, Bytes: len(t.src), Language: languageOf(t.path),
				ParsedBy: "failed", ParseError: truncateUTF8(err.Error(), 300), Roles: []string{}, Imports: []Import{}})
		}
		return nil, nil
	}
	pf.shipped = e.loadShippedMap(t.path, t.src)
	m := newModuleInfo(t.path, pf, t.sha, len(t.src))
	if err := guard(func() { buildScopes(m, e.opts.MaxASTNodes-ps.nodes) }); err != nil {
		if owned {
			res.Statistics.ParseFailures++
			e.limitations = append(e.limitations, "internal error while indexing "+t.path+"; it is not analysed: "+err.Error())
		}
		return nil, nil
	}
	ps.nodes += m.nodes
	if owned {
		ps.ownedNodes += m.nodes
	}
	if m.truncated {
		ps.omitNodes++
		if owned {
			res.Statistics.TruncatedScopes++
			e.limitations = append(e.limitations, "AST node limit reached inside "+t.path+"; its analysis is skipped")
			ps.failed = append(ps.failed, Module{Path: t.path, SHA256: t.sha, Bytes: len(t.src), Language: pf.language,
				ParsedBy: pf.parsedBy, ParseError: "not analysed: max_ast_nodes reached", ASTNodes: m.nodes, Roles: []string{}, Imports: []Import{}})
		}
		return nil, nil
	}
	ps.accepted++
	e.modules[t.path] = m
	return m, nil
}

// analyseModules parses, indexes and analyses the selected files one at a
// time, in selection order (entry point and what it reaches first). A file
// another module requires is indexed on demand, so names resolve across
// modules without holding every syntax tree at once: once a module is
// analysed its tree is dropped and only its top-level scope (what its
// exports need) stays. Dependencies not reached from the entry points are
// released entirely after their analysis.
func (e *engine) analyseModules(ctx context.Context, texts []textFile, res *Result, progress func(string, int, int)) ([]*moduleInfo, error) {
	ps := &parseState{start: time.Now(), budget: time.Duration(e.opts.MaxParseMilliseconds) * time.Millisecond}
	e.ctx, e.ps, e.res, e.progress = ctx, ps, res, progress
	e.pending = map[string]*textFile{}
	var queue []textFile
	rest := map[string]bool{}
	for _, t := range texts {
		if t.kind == "html" && hasInlineScript(t.src) {
			t.kind = "javascript" // its inline scripts are analysed as one module
		}
		if t.kind != "javascript" {
			continue
		}
		ps.total++
		t := t
		e.pending[t.path] = &t
		queue = append(queue, t)
		if strings.Contains("/"+t.path, "/node_modules/") && !e.reachable[t.path] {
			rest[t.path] = true
		}
	}
	e.rest = rest
	e.queue = queue
	e.assignShard(queue)
	var g *importGraph
	if !e.opts.FullParse || !e.opts.KeepAnalysed {
		g = e.importEdges(queue)
		if !e.opts.FullParse {
			e.planLexPass(queue, texts, g)
		}
		if !e.opts.KeepAnalysed {
			e.planRetire(queue, g)
		}
	}
	e.announceTransforms(queue, g)
	for i, t := range queue {
		if !e.owned[t.path] {
			continue
		}
		e.cur = i
		e.catchUp()
		e.retireBefore(i)
		if e.lex != nil && e.modules[t.path] == nil {
			if f, ok := e.lex.skip[t.path]; ok {
				// Reported from its scan: no syntax tree (lexpass.go).
				delete(e.pending, t.path)
				m := e.lexModule(t, f)
				e.lex.emitted[t.path] = m
				e.order = append(e.order, m)
				progress("analyze", i-e.ownedFrom, e.ownedCount)
				continue
			}
		}
		m := e.index(t.path)
		if e.ctxErr != nil {
			return nil, e.ctxErr
		}
		if m == nil || m.analysed {
			continue
		}
		progress("analyze", i-e.ownedFrom, e.ownedCount)
		e.analyseOne(m, res)
		if rest[t.path] {
			e.release(m)
		} else {
			e.prune(m)
		}
		if e.shard.Count > 1 && (ps.omitTime+ps.omitModules+ps.omitNodes > 0 || e.refused > 0) {
			// The merge will ask for one instance: stop spending. (Parse
			// limits already refuse later files cheaply; an exhausted
			// evaluation budget would still parse and walk them.)
			break
		}
	}
	progress("analyze", e.ownedCount, e.ownedCount)
	e.hit("max_parse_milliseconds", e.opts.MaxParseMilliseconds, ps.omitTime)
	e.hit("max_modules", e.opts.MaxModules, ps.omitModules)
	e.hit("max_ast_nodes", e.opts.MaxASTNodes, ps.omitNodes)
	if ps.omitTime+ps.omitModules+ps.omitNodes > 0 {
		e.rerun = append(e.rerun, "a parse limit was reached")
	}
	res.Statistics.VisitedASTNodes = ps.ownedNodes
	res.Modules = ps.failed
	return e.order, ctx.Err()
}

// announceTransforms announces the esbuild transforms of the files this
// instance owns and parses, in the order it is expected to parse them, so
// that in the sandbox the normaliser runs them on another core while this
// instance parses and analyses (transformAhead). Announcing changes no
// result: the announced transform is the one parseJS asks for.
func (e *engine) announceTransforms(queue []textFile, g *importGraph) {
	for _, t := range parseOrder(queue, g) {
		if !e.owned[t.path] || e.modules[t.path] != nil {
			continue
		}
		if e.lex != nil {
			if _, skip := e.lex.skip[t.path]; skip {
				continue
			}
		}
		if req, ok := aheadRequest(t.path, t.src); ok && !transformAhead(req) {
			return // the host takes no more; the rest run when asked
		}
	}
}

// parseOrder is the order the analysis is expected to parse the queue in:
// a module is parsed at its turn in the queue unless a module before it
// named it first, which parses it on demand while it is analysed — so
// each module is followed by what it names, depth first, before the next
// one in the queue. Without an import graph it is the queue's order. The
// normaliser works through its announcements in order, one at a time:
// announced in queue order, a TypeScript module's dependencies (later in
// path order: src/browser before src/common) made the analysis wait for
// transforms the normaliser had not reached.
func parseOrder(queue []textFile, g *importGraph) []textFile {
	if g == nil {
		return queue
	}
	byPath := make(map[string]int, len(queue))
	for i, t := range queue {
		byPath[t.path] = i
	}
	out := make([]textFile, 0, len(queue))
	seen := make([]bool, len(queue))
	var stack []int
	for i := range queue {
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[j] {
				continue
			}
			seen[j] = true
			out = append(out, queue[j])
			// Pushed in reverse, so the first named is visited first.
			to := g.edges[queue[j].path]
			for k := len(to) - 1; k >= 0; k-- {
				if n, ok := byPath[to[k]]; ok && !seen[n] {
					stack = append(stack, n)
				}
			}
		}
	}
	return out
}

// index parses and indexes the selected file at p once; nil when it is not
// selected, failed or fell over a limit.
func (e *engine) index(p string) *moduleInfo {
	if m, ok := e.modules[p]; ok {
		return m
	}
	if e.lex != nil {
		if _, skipped := e.lex.skip[p]; skipped {
			// The plan said nothing needs this file's syntax tree, yet an
			// evaluation does: the whole analysis is redone in full.
			if e.lex.miss == "" {
				e.lex.miss = p
			}
			return nil
		}
	}
	t, ok := e.pending[p]
	if !ok {
		return nil
	}
	delete(e.pending, p)
	owned := e.owned[p]
	m, err := e.parseOne(e.ctx, *t, e.ps, e.res, e.progress, owned)
	if err != nil {
		e.ctxErr = err
		return nil
	}
	if m != nil {
		e.order = append(e.order, m)
		if !owned {
			e.foreign = append(e.foreign, m)
			e.catchUp()
		}
	}
	return m
}

// analyseOne recovers m's bundle modules (the evaluator follows
// __webpack_require__ into them) and walks it for imports and the Electron
// boundary.
func (e *engine) analyseOne(m *moduleInfo, res *Result) {
	m.analysed = true
	var b *Bundle
	if err := guard(func() { b = e.detectBundle(m) }); err != nil {
		e.limitations = append(e.limitations, "internal error while recovering bundle modules of "+m.path+": "+err.Error())
	}
	if b != nil {
		res.Bundles = append(res.Bundles, *b)
	}
	a := &analyzer{e: e, m: m, dynRequire: map[*ast.CallExpression]bool{},
		staticRequire: map[*ast.CallExpression]bool{}, nativeMembers: map[*ast.CallExpression][]string{}, storageSeen: map[string]bool{}}
	if err := guard(func() { walk(ruleWalker{a}, m.pf.prog) }); err != nil {
		e.limitations = append(e.limitations, "internal error while analysing "+m.path+"; its facts may be incomplete: "+err.Error())
	}
}

// prune drops an analysed module's syntax tree and inner scopes; what other
// modules can still reach (its top-level bindings, exports and bundle
// factories) stays reachable through those objects.
func (e *engine) prune(m *moduleInfo) {
	keep := map[any]*scope{}
	for _, fi := range e.factoryTables[m] {
		if sc := m.scopes[fi.node]; sc != nil {
			keep[fi.node] = sc
		}
	}
	m.scopes = keep
	m.pf.prog = nil
	if len(m.exports) == 0 && len(m.reExports) == 0 && len(keep) == 0 {
		// Nothing outside can reach this module's bindings (entry points,
		// preloads, renderers): let its functions go too.
		m.top, m.thisAssign, m.thisMembers = nil, nil, nil
		return
	}
	if m.top != nil {
		keepReachable(m, keep)
	}
}

// keepReachable drops the top-level bindings that nothing outside the
// module can reach: other modules see a module only through its exports,
// this-assignments and bundle factories, so a binding survives when one of
// those, or a surviving binding, names it. The syntax of the functions
// only the module itself used is then garbage, which keeps the live heap
// — and the wasm GC's marking work — close to what exports need.
func keepReachable(m *moduleInfo, factories map[any]*scope) {
	c := &nameCollector{seen: map[string]bool{}}
	for _, d := range m.exports {
		walk(c, d.expr)
	}
	for _, a := range m.reExports {
		walk(c, a.expr)
	}
	for _, as := range m.thisAssign {
		for _, a := range as {
			walk(c, a.expr)
		}
	}
	for _, mas := range m.thisMembers {
		for _, ma := range mas {
			walk(c, ma.expr)
		}
	}
	for n := range factories {
		walk(c, n)
	}
	kept := map[*binding]bool{}
	for len(c.queue) > 0 {
		name := c.queue[len(c.queue)-1]
		c.queue = c.queue[:len(c.queue)-1]
		b := m.top.get(name)
		if b == nil || kept[b] {
			continue
		}
		kept[b] = true
		walk(c, b.init)
		walk(c, b.fn)
		for _, a := range b.assigned() {
			walk(c, a.expr)
		}
		for _, a := range b.members() {
			walk(c, a.expr)
		}
		for _, p := range b.populators() {
			walk(c, p)
		}
	}
	if len(kept) == len(m.top.vars) {
		return
	}
	vars := make([]*binding, 0, len(kept))
	for _, b := range m.top.vars {
		if kept[b] {
			vars = append(vars, b)
		}
	}
	m.top.vars, m.top.index = vars, nil
	if len(vars) > smallScope {
		m.top.index = make(map[string]*binding, len(vars))
		for _, b := range vars {
			m.top.index[b.name] = b
		}
	}
}

// nameCollector gathers every identifier name used in the trees it walks.
type nameCollector struct {
	seen  map[string]bool
	queue []string
}

func (c *nameCollector) Enter(n any) bool {
	var name string
	switch n := n.(type) {
	case *ast.Identifier:
		name = string(n.Name)
	case *ast.PropertyShort:
		name = string(n.Name.Name)
	default:
		return true
	}
	if !c.seen[name] {
		c.seen[name] = true
		c.queue = append(c.queue, name)
	}
	return true
}

func (c *nameCollector) Leave(any) {}

// release drops a module's syntax tree and scopes once it is analysed;
// positions and snippets stay available. Later requires of it see an
// external module.
func (e *engine) release(m *moduleInfo) {
	for _, fi := range e.factoryTables[m] {
		delete(e.factoryByScope, m.scopes[fi.node])
		delete(e.factoryCache, fi)
	}
	delete(e.factoryTables, m)
	for n, w := range e.windows {
		if w.mod == m {
			delete(e.windows, n)
			w.node = nil
		}
	}
	m.pf.prog, m.scopes, m.top = nil, nil, nil
	m.exports, m.reExports, m.thisAssign, m.exportCache = nil, nil, nil, nil
	m.thisMembers = nil
	m.released = true
}

// packageJSON reads the root package.json.
func (e *engine) packageJSON() *PackageInfo {
	if !e.files["package.json"] {
		return nil
	}
	info, err := fs.Stat(e.fsys, "package.json")
	if err != nil || info.Size() > int64(e.opts.MaxTextFileBytes) {
		e.limitations = append(e.limitations, "package.json not read")
		return nil
	}
	b, err := fs.ReadFile(e.fsys, "package.json")
	if err != nil {
		e.limitations = append(e.limitations, "package.json not read")
		return nil
	}
	var pj struct {
		Name            string            `json:"name"`
		Version         string            `json:"version"`
		Main            string            `json:"main"`
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		e.limitations = append(e.limitations, "package.json is not valid JSON: "+truncateUTF8(err.Error(), 200))
		return &PackageInfo{Path: "package.json"}
	}
	p := &PackageInfo{Path: "package.json", Name: pj.Name, Version: pj.Version, Main: pj.Main}
	main := pj.Main
	if main == "" {
		main = "index.js"
	}
	p.ResolvedMain = e.resolveFile(path.Clean(strings.TrimPrefix(main, "./")))
	if v, ok := pj.DevDependencies["electron"]; ok {
		p.ElectronDependency = "devDependencies"
		p.ElectronVersion = v
	}
	if v, ok := pj.Dependencies["electron"]; ok {
		p.ElectronDependency = "dependencies"
		p.ElectronVersion = v
	}
	e.pkgSrc = string(b)
	return p
}

func (e *engine) addFinding(f Finding) { e.findings = append(e.findings, f) }

// snippetAt returns the original source line at l, for modules and HTML.
func (e *engine) snippetAt(l Location) string {
	if s, ok := e.snippets[locKey(l)]; ok {
		return s
	}
	if m, ok := e.modules[l.File]; ok {
		return m.pf.snippet(l)
	}
	if e.lex != nil {
		if m, ok := e.lex.emitted[l.File]; ok {
			return m.pf.snippet(l)
		}
	}
	if src, ok := e.html[l.File]; ok {
		pf := &parsedFile{original: src, origStarts: lineStarts(src)}
		return pf.snippet(l)
	}
	if l.File == "package.json" && e.pkgSrc != "" {
		pf := &parsedFile{original: e.pkgSrc, origStarts: lineStarts(e.pkgSrc)}
		return pf.snippet(l)
	}
	if e.modules == nil && e.files[l.File] {
		// Merging shards: a location no shard kept a snippet for.
		if b, err := fs.ReadFile(e.fsys, l.File); err == nil && len(b) <= e.opts.MaxTextFileBytes {
			src := string(b)
			pf := &parsedFile{original: src, origStarts: lineStarts(src)}
			return pf.snippet(l)
		}
	}
	return ""
}

// scanSpecifiers finds, before parsing, the string literals that name
// other files: arguments of require(, import(, from, import, src=, and
// literals that look like script or page file names. A byte scanner, not a
// regular expression: it runs over every selected byte.
func scanSpecifiers(b []byte, limit int) []string {
	var out []string
	for i := 0; len(out) < limit; i++ {
		if i = nextQuote(b, i); i >= len(b) {
			break
		}
		q := b[i]
		j := i + 1
		for j < len(b) && b[j] != q && b[j] != '\n' && j-i <= 300 {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(b) || b[j] != q {
			continue
		}
		lit := b[i+1 : j]
		if len(lit) > 0 && (afterKeyword(b, i) || looksLikeFileName(lit)) {
			out = append(out, string(lit))
		}
		i = j
	}
	return out
}

// afterKeyword reports whether the literal at b[i] follows require(,
// import(, from, import or src=.
func afterKeyword(b []byte, i int) bool {
	k := i - 1
	for k >= 0 && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
		k--
	}
	if k >= 0 && (b[k] == '(' || b[k] == '=') {
		k--
	}
	prefix := b[max(0, k-6) : k+1]
	return bytes.HasSuffix(prefix, []byte("require")) || bytes.HasSuffix(prefix, []byte("import")) ||
		bytes.HasSuffix(prefix, []byte("from")) || bytes.HasSuffix(prefix, []byte("src"))
}

func looksLikeFileName(lit []byte) bool {
	for _, c := range lit {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '/' || c == '_' || c == '-' || c == '@') {
			return false
		}
	}
	for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", ".tsx", ".html", ".htm"} {
		if bytes.HasSuffix(lit, []byte(ext)) {
			return true
		}
	}
	return false
}

// reachableFirst reorders candidates: the main entry, HTML pages and what
// they reference (transitively) come first, so that a file limit cuts
// unrelated files and dependencies rather than the Electron entry points.
func (e *engine) reachableFirst(cands []string, main string) []string {
	isCand := make(map[string]bool, len(cands))
	for _, c := range cands {
		isCand[c] = true
	}
	var queue []string
	seen := map[string]bool{}
	push := func(p string) {
		if p != "" && isCand[p] && !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	push(main)
	for _, c := range cands {
		if textKind(c) == "html" && !strings.Contains("/"+c, "/node_modules/") {
			push(c)
		}
	}
	e.readCache = map[string][]byte{}
	e.reachable = seen
	budget := e.opts.MaxTotalTextBytes
	for i := 0; i < len(queue) && i < e.opts.MaxTextFiles; i++ {
		p := queue[i]
		info, err := fs.Stat(e.fsys, p)
		if err != nil || info.Size() > int64(e.opts.MaxTextFileBytes) || info.Size() > int64(budget) {
			continue
		}
		b, err := fs.ReadFile(e.fsys, p)
		if err != nil {
			continue
		}
		budget -= len(b)
		e.readCache[p] = b
		dir := path.Dir(p)
		for _, spec := range scanSpecifiers(b, 4096) {
			if r := e.resolve(dir, spec); r != "" {
				push(r)
			} else if !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
				push(e.resolveFile(path.Join(dir, spec)))
			}
		}
	}
	out := make([]string, 0, len(cands))
	out = append(out, queue...)
	for _, c := range cands {
		if !seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// hasInlineScript reports whether an HTML page has a <script> with a body.
func hasInlineScript(src string) bool {
	masked, _ := maskScriptBlocks(src)
	return strings.TrimSpace(masked) != ""
}

// guard runs f and turns a panic into an error, so that one file the
// analyser mishandles costs that file, not the whole application. The
// result then names the file in its limitations.
func guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}

// maxOmittedListed bounds the omitted-file list; the statistics keep the
// full counts.
const maxOmittedListed = 1000

// omit lists a file left out and why (a limit name or invalid-utf8).
func (e *engine) omit(p, reason string) {
	if len(e.omitted) < maxOmittedListed {
		e.omitted = append(e.omitted, OmittedFile{Path: p, Reason: reason})
	}
}
