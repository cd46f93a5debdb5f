package jsengine

import (
	"context"
	"io/fs"
	"path"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// engine holds one analysis: the modules, the files of the root and the
// facts gathered so far.
type engine struct {
	opts    Options
	fsys    fs.FS
	files   map[string]bool
	modules map[string]*moduleInfo
	// packages memoises resolvePackage by (importing dir, specifier): the
	// walk up node_modules directories depends only on files and
	// manifests, which do not change once listed, and the same bare
	// specifier is looked up again at every evaluation that reaches it.
	packages map[[2]string]string

	busy map[*binding]bool
	// initMemo keeps destructured initializers' values, stamped with the
	// top-level evaluation (evalGen) they belong to; cuts counts the cycles
	// and bounds that made a value unknown (evalInit keeps only values no
	// cut shaped).
	initMemo     map[ast.Expression]initMemo
	evalGen      int
	cuts         int
	steps        int
	refused      int // evaluations refused once steps ran out
	localSteps   int // what the current top-level evaluation may still spend
	nested       int
	boundReached bool

	windows     map[ast.Node]*windowRec
	windowList  []*windowRec
	exposed     []ExposedAPI
	ipc         []IPCOperation
	obs         []Observation
	findings    []Finding
	entry       []Entrypoint
	edges       []GraphEdge
	limitations []string
	// fuseGaps counts fuse settings the build configuration makes in a way
	// rea could not read (each with a limitation); they make coverage partial.
	fuseGaps int
	hits     []LimitHit
	omitted  []OmittedFile

	bundledModules int
	bundles        []Bundle
	factoryByScope map[*scope]*factoryInfo
	factoryTables  map[*moduleInfo]map[string]*factoryInfo
	factoryCache   map[*factoryInfo]value
	factoryBusy    map[*factoryInfo]bool

	bundler   *bundlerResolution
	manifests map[string]*manifestInfo
	readCache map[string][]byte

	// on-demand indexing state (analyseModules)
	ctx       context.Context
	ps        *parseState
	res       *Result
	progress  func(string, int, int)
	pending   map[string]*textFile
	order     []*moduleInfo
	ctxErr    error
	reachable map[string]bool
	// queue is every file analyseModules may parse, with its text: where
	// parameter questions look for callers (paramflow.go).
	queue []textFile
	// Parameter questions' state (paramflow.go): busy questions, the
	// functions of read scopes, and the files parsed afresh for callers.
	paramBusy    map[string]bool
	thisBusy     map[thisKey]bool // this-members being evaluated
	paramAnswers map[string]value
	// queueBytes is the queue's text size; callerScanned the bytes searched
	// for callers so far (bounded by maxCallerScan).
	queueBytes, callerScanned int
	scopeFns                  map[*scope]ast.Node
	scopeFnsRead              map[*moduleInfo]bool
	callerCopies              map[string]*moduleInfo
	callerBytes               int

	// lex is the lexer-level pass's plan (lexpass.go); nil with FullParse.
	lex *lexPlan
	// retire says when analysed modules are released (retire.go); nil
	// with KeepAnalysed.
	retire *retirePlan
	// resolved memoises resolve by directory and specifier once the
	// resolution configuration is read (resolutionRead).
	resolved       map[[2]string]string
	resolutionRead bool

	pkgSrc string
	html   map[string]string
	rules  rulesState // rules_*.go: facts the rules gather while finishing

	// sharding (shard.go): which queued files this instance analyses, the
	// queue position being analysed, modules of other shards parsed on
	// demand and not yet brought to the state one instance would have them
	// in, and why the merged result would not equal one instance's.
	shard Shard
	owned map[string]bool
	// ownedFrom is the queue position of the first owned file, ownedCount
	// how many are owned (progress counts a shard's own work).
	ownedFrom, ownedCount int
	pos                   map[string]int
	cur                   int
	foreign               []*moduleInfo
	rest                  map[string]bool
	rerun                 []string
	// digests are sha256 the caller computed already, by path.
	digests map[string]string
	// snippets are source lines precomputed by the shards, for Merge.
	snippets map[string]string

	// wrappers.go: summaries of wrapper functions, and the bridge
	// functions and renderer calls matched at the end.
	wrapperCache map[ast.Node][]wrapperOp
	bridges      []bridgeFact
	bridgeCalls  []bridgeCall

	// app-wide facts for the "missing control" rules
	permissionHandlers int
	navigationLimits   int
}

// windowRec is a window creation being analysed.
type windowRec struct {
	node ast.Node
	mod  *moduleInfo
	w    Window
}

// nodeBuiltins are Node.js core modules (external, never resolved to files).
var nodeBuiltins = map[string]bool{
	"assert": true, "buffer": true, "child_process": true, "crypto": true, "dns": true, "events": true,
	"fs": true, "fs/promises": true, "http": true, "https": true, "net": true, "os": true, "path": true,
	"process": true, "querystring": true, "stream": true, "tls": true, "url": true, "util": true,
	"vm": true, "worker_threads": true, "zlib": true, "module": true, "readline": true, "timers": true,
}

// requireValue is what require(spec) evaluates to from module m.
func (e *engine) requireValue(m *moduleInfo, spec string) value {
	spec = strings.TrimPrefix(spec, "node:")
	if rewritten, ok := e.aliasSpecifier(m.dir, spec); ok {
		spec = strings.TrimPrefix(rewritten, "node:") // "zulip:remote": "electron/main"
	}
	if spec == "electron" || strings.HasPrefix(spec, "electron/") {
		return value{kind: kExternal, ext: "electron"}
	}
	if ipcLibraries[spec] {
		return value{kind: kExternal, ext: spec}
	}
	if nodeBuiltins[spec] {
		if spec == "path" || spec == "path/posix" {
			return value{kind: kExternal, ext: "path"}
		}
		return value{kind: kExternal, ext: spec}
	}
	if r := e.resolve(m.dir, spec); r != "" {
		if !e.reached(m.path, r) {
			return value{kind: kExternal, ext: spec} // redone keeping every module
		}
		mod := e.modules[r]
		if mod == nil {
			mod = e.index(r) // parse and index a dependency on first use
		}
		if mod != nil && !mod.released {
			return value{kind: kModule, mod: mod, inferred: true}
		}
	}
	return value{kind: kExternal, ext: spec}
}

// resolveExts are tried, in order, after a bare relative path.
var resolveExts = []string{"", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".json", ".node"}

// resolve maps a specifier used in dir to a file of the root, or "".
func (e *engine) resolve(dir, spec string) string {
	if spec == "" {
		return ""
	}
	// The same specifiers are resolved from the same directories by the
	// ordering scan, the import graph, every import and every evaluated
	// require; resolution reads only the file list and the configuration.
	key := [2]string{dir, spec}
	if r, ok := e.resolved[key]; ok {
		return r
	}
	r := e.resolveUncached(dir, spec)
	if !e.resolutionRead {
		return r // configurations being read may still change the answer
	}
	if e.resolved == nil {
		e.resolved = map[[2]string]string{}
	}
	e.resolved[key] = r
	return r
}

func (e *engine) resolveUncached(dir, spec string) string {
	var base string
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		base = path.Join(dir, stripQuery(spec))
	case strings.HasPrefix(spec, "/"):
		base = path.Clean(strings.TrimPrefix(spec, "/"))
	default:
		r, _, _ := e.resolveBare(dir, spec)
		return r
	}
	return e.resolveFile(base)
}

func (e *engine) resolveFile(base string) string {
	if strings.HasPrefix(base, "../") || base == ".." {
		return ""
	}
	for _, ext := range resolveExts {
		if p := base + ext; e.files[p] {
			return p
		}
	}
	// TypeScript sources import "./x.js" meaning x.ts.
	if ext := path.Ext(base); ext == ".js" || ext == ".mjs" || ext == ".cjs" {
		stem := strings.TrimSuffix(base, ext)
		for _, alt := range []string{".ts", ".tsx", ".mts", ".cts"} {
			if e.files[stem+alt] {
				return stem + alt
			}
		}
	}
	for _, ext := range resolveExts[1:] {
		if p := path.Join(base, "index"+ext); e.files[p] {
			return p
		}
	}
	return ""
}

// resolvePackage looks a bare specifier up in node_modules directories,
// through each package's exports, main and module.
func (e *engine) resolvePackage(dir, spec string) string {
	key := [2]string{dir, spec}
	if r, ok := e.packages[key]; ok {
		return r
	}
	r := e.lookupPackage(dir, spec)
	if e.packages == nil {
		e.packages = map[[2]string]string{}
	}
	e.packages[key] = r
	return r
}

// lookupPackage is resolvePackage without the memo.
func (e *engine) lookupPackage(dir, spec string) string {
	name, sub := packageName(spec)
	for d := dir; ; d = path.Dir(d) {
		if r := e.packageEntry(path.Join(d, "node_modules", name), sub); r != "" {
			return r
		}
		if d == "." || d == "/" || d == "" {
			return ""
		}
	}
}

func (e *engine) locp(m *moduleInfo, idx file.Idx) *Location {
	l := m.pf.loc(idx)
	return &l
}

// fileExists reports whether an application path exists in the root.
func (e *engine) fileExists(p string) bool { return e.files[p] }
