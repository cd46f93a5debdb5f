// Package bundleform recognises bundler output in a goja syntax tree: the
// module tables of webpack 4/5 (named __webpack_modules__, or the minified
// production runtime's renamed table), webpack/rspack chunk pushes, esbuild
// __commonJS/__esm wrappers and browserify module maps. It is the one
// recogniser both the analysis (jsengine) and the source reader
// (analysis/jssource) use: each walks the tree with its own walker and
// hands every node to a Finder, then reads the Tables it found. Factories
// are never run.
package bundleform

import (
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// Kinds of table.
const (
	KindWebpack      = "webpack"
	KindWebpackChunk = "webpack-chunk"
	KindEsbuild      = "esbuild"
	KindBrowserify   = "browserify"
)

// RequireParam is the index of a webpack factory's require parameter
// ((module, exports, require)).
const RequireParam = 2

// Entry is one module factory of a table.
type Entry struct {
	Key string
	// Fn is the factory (a function or arrow literal).
	Fn ast.Expression
	// KeyNode is the property key the factory is held under (nil in
	// arrays); an esbuild module starts at its key.
	KeyNode ast.Expression
	// Deps is a browserify module's {specifier: key} map (nil when absent).
	Deps *ast.ObjectLiteral
}

// Table is a module table: the literal that holds the factories.
type Table struct {
	Kind    string
	Literal ast.Expression
	Entries []Entry
	// EsbuildName is the require_x binding an esbuild wrapper is held in.
	EsbuildName string
}

// Finder collects the tables of one file. Set Src (the parsed text) and
// Offset (a goja index as a byte offset of Src), hand it every node in
// source order (Enter, Leave), then read Tables.
type Finder struct {
	Src    string
	Offset func(file.Idx) int
	Tables []Table

	pending  string
	runtime  map[string]bool
	required map[string]bool
	scanned  bool
}

// Kind is the kind of the last table found ("" when none).
func (f *Finder) Kind() string {
	if len(f.Tables) == 0 {
		return ""
	}
	return f.Tables[len(f.Tables)-1].Kind
}

// markers are the names bundler runtimes keep even when minified.
var markers = []string{"__webpack_require__", "webpackChunk", "rspackChunk", "webpackJsonp", "__commonJS", "__esm(", "__webpack_modules__", "MODULE_NOT_FOUND"}

// Prefilter is the cheap test before a parse and a walk: false when src
// cannot hold a table this package recognises.
func Prefilter(src string) bool {
	for _, s := range markers {
		if strings.Contains(src, s) {
			return true
		}
	}
	tables, _ := Runtime(src)
	return len(tables) > 0
}

// Runtime finds a minified webpack 5 runtime's module loader by its call
// of the factory, TABLE[id](module, module.exports, REQUIRE) or
// TABLE[id].call(module.exports, module, module.exports, REQUIRE), and
// returns the names of the tables it calls and of the require functions it
// passes (production builds rename __webpack_modules__ and
// __webpack_require__ to single letters).
func Runtime(src string) (tables, requires []string) {
	seen := map[string]bool{}
	for i := 0; ; {
		j := strings.Index(src[i:], "](")
		k := strings.Index(src[i:], "].call(")
		if j < 0 && k < 0 {
			break
		}
		at, call := j, false
		if j < 0 || (k >= 0 && k < j) {
			at, call = k, true
		}
		at += i
		if t, r, ok := loaderCall(src, at, call); ok && !seen[t+"\x00"+r] {
			seen[t+"\x00"+r] = true
			tables = append(tables, t)
			requires = append(requires, r)
		}
		i = at + 2
	}
	return tables, requires
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// loaderCall reads TABLE[id]( … ) around the "](" or "].call(" at at.
func loaderCall(src string, at int, call bool) (table, require string, ok bool) {
	// Backwards: TABLE[id
	p := at
	idEnd := p
	for p > 0 && identByte(src[p-1]) {
		p--
	}
	if p == idEnd || p == 0 || src[p-1] != '[' {
		return "", "", false
	}
	p--
	tEnd := p
	for p > 0 && identByte(src[p-1]) {
		p--
	}
	if p == tEnd || (p > 0 && (src[p-1] == '.' || identByte(src[p-1]))) || src[p] >= '0' && src[p] <= '9' {
		return "", "", false
	}
	table = src[p:tEnd]
	// Forwards: the arguments.
	q := at + len("](")
	if call {
		q = at + len("].call(")
	}
	rest := src[q:min(len(src), q+200)]
	ident := func() string {
		rest = strings.TrimLeft(rest, " ")
		n := 0
		for n < len(rest) && identByte(rest[n]) {
			n++
		}
		id := rest[:n]
		rest = rest[n:]
		return id
	}
	lit := func(s string) bool {
		rest = strings.TrimLeft(rest, " ")
		if !strings.HasPrefix(rest, s) {
			return false
		}
		rest = rest[len(s):]
		return true
	}
	mod := ""
	if call {
		if mod = ident(); mod == "" || !lit(".exports") || !lit(",") || ident() != mod || !lit(",") {
			return "", "", false
		}
	} else if mod = ident(); mod == "" || !lit(",") {
		return "", "", false
	}
	if ident() != mod || !lit(".exports") || !lit(",") {
		return "", "", false
	}
	require = ident()
	if require == "" || !lit(")") {
		return "", "", false
	}
	return table, require, true
}

// RequireNames are the names a minified webpack runtime gives its require
// function (beside __webpack_require__), as Runtime found them.
func (f *Finder) RequireNames() []string {
	f.scan()
	var out []string
	for r := range f.required {
		out = append(out, r)
	}
	return out
}

func (f *Finder) scan() {
	if f.scanned {
		return
	}
	f.scanned = true
	f.runtime, f.required = map[string]bool{}, map[string]bool{}
	if strings.Contains(f.Src, "__webpack_modules__") {
		return // the table has its name
	}
	t, r := Runtime(f.Src)
	for i := range t {
		f.runtime[t[i]], f.required[r[i]] = true, true
	}
}

// Leave does nothing; Finder is a visitor.
func (f *Finder) Leave(any) {}

// Enter looks at one node; false means its children hold nothing more.
func (f *Finder) Enter(n any) bool {
	switch n := n.(type) {
	case *ast.Binding:
		if id, ok := n.Target.(*ast.Identifier); ok {
			// webpack 5: var __webpack_modules__ = ({ ... }) or ([ ... ]);
			// minified: var e = {123: (e, t, n) => { ... }} with the loader
			// calling e[r](…, n).
			if id.Name == "__webpack_modules__" && f.table(n.Initializer, KindWebpack, false) {
				return false
			}
			if f.scan(); f.runtime[string(id.Name)] && f.table(n.Initializer, KindWebpack, true) {
				return false
			}
			if c, ok := n.Initializer.(*ast.CallExpression); ok && isEsbuildWrapper(c) {
				f.pending = string(id.Name)
			}
		}
	case *ast.CallExpression:
		if isEsbuildWrapper(n) {
			f.esbuild(n)
			f.pending = ""
			return false
		}
		// webpack chunk: (self.webpackChunkX = self.webpackChunkX || []).push([[ids], {modules}])
		if d, ok := n.Callee.(*ast.DotExpression); ok && d.Identifier.Name == "push" && len(n.ArgumentList) == 1 {
			a, b := f.Offset(d.Left.Idx0()), f.Offset(d.Left.Idx1())
			recv := f.Src[max(0, min(a, len(f.Src))):max(0, min(b, a+816, len(f.Src)))]
			if strings.Contains(recv, "webpackChunk") || strings.Contains(recv, "webpackJsonp") || strings.Contains(recv, "rspackChunk") {
				if arr, ok := n.ArgumentList[0].(*ast.ArrayLiteral); ok && len(arr.Value) >= 2 && f.table(arr.Value[1], KindWebpackChunk, false) {
					return false
				}
			}
		}
		// browserify: (function(){ function r(e,n,t){…} return r })()({1: [function (require, module, exports) {…}, {"./dep": 2}]}, {}, [1])
		if _, ok := n.Callee.(*ast.CallExpression); ok && len(n.ArgumentList) == 3 && f.browserify(n.ArgumentList[0]) {
			return false
		}
		// webpack 4: (function (modules) { runtime })([ factories ] or { factories })
		if fn, ok := n.Callee.(*ast.FunctionLiteral); ok && len(n.ArgumentList) == 1 && fn.ParameterList != nil && len(fn.ParameterList.List) >= 1 {
			if strings.Contains(fn.Source, "__webpack_require__") || strings.Contains(fn.Source, "installedModules") || strings.Contains(fn.Source, ".m=") || strings.Contains(fn.Source, ".m =") {
				if f.table(n.ArgumentList[0], KindWebpack, false) {
					return false
				}
			}
		}
	}
	return true
}

func isEsbuildWrapper(c *ast.CallExpression) bool {
	id, ok := c.Callee.(*ast.Identifier)
	if !ok || (id.Name != "__commonJS" && id.Name != "__esm") || len(c.ArgumentList) != 1 {
		return false
	}
	_, ok = c.ArgumentList[0].(*ast.ObjectLiteral)
	return ok
}

// IsFactory reports whether x can be a module factory: a function or
// arrow literal of at most three parameters.
func IsFactory(x ast.Expression) bool {
	switch fn := x.(type) {
	case *ast.FunctionLiteral:
		return fn.ParameterList == nil || len(fn.ParameterList.List) <= 3
	case *ast.ArrowFunctionLiteral:
		return fn.ParameterList == nil || len(fn.ParameterList.List) <= 3
	}
	return false
}

// StaticKey is a property key known without evaluation.
func StaticKey(k ast.Expression, computed bool) (string, bool) {
	switch k := k.(type) {
	case *ast.StringLiteral:
		return string(k.Value), true
	case *ast.NumberLiteral:
		return k.Literal, true
	case *ast.Identifier:
		if !computed {
			return string(k.Name), true
		}
	}
	return "", false
}

// moduleID is a key a webpack build gives a module: a number (production
// ids) or a path (named ids). A minified table is only taken with such
// keys: an object of methods that happens to share the loader's one-letter
// name is no module table.
func moduleID(k string) bool {
	if _, err := strconv.ParseUint(k, 10, 64); err == nil {
		return true
	}
	return strings.HasPrefix(k, "./") || strings.HasPrefix(k, "../") || strings.Contains(k, "/node_modules/") || strings.HasPrefix(k, "node_modules/")
}

// table records the factories of a module table; it reports whether x was one.
func (f *Finder) table(x ast.Expression, kind string, idsOnly bool) bool {
	var entries []Entry
	switch t := x.(type) {
	case *ast.ObjectLiteral:
		for _, p := range t.Value {
			kp, ok := p.(*ast.PropertyKeyed)
			if !ok {
				return false
			}
			k, ok := StaticKey(kp.Key, kp.Computed)
			if !ok || !IsFactory(kp.Value) || idsOnly && !moduleID(k) {
				return false
			}
			entries = append(entries, Entry{Key: k, Fn: kp.Value, KeyNode: kp.Key})
		}
	case *ast.ArrayLiteral:
		for i, v := range t.Value {
			if v == nil {
				continue // hole: webpack 4 arrays start at the first used id
			}
			if !IsFactory(v) {
				return false
			}
			entries = append(entries, Entry{Key: strconv.Itoa(i), Fn: v})
		}
	default:
		return false
	}
	if len(entries) == 0 {
		return false
	}
	f.Tables = append(f.Tables, Table{Kind: kind, Literal: x, Entries: entries})
	return true
}

func (f *Finder) esbuild(c *ast.CallExpression) {
	obj := c.ArgumentList[0].(*ast.ObjectLiteral)
	t := Table{Kind: KindEsbuild, Literal: obj, EsbuildName: f.pending}
	for _, p := range obj.Value {
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		k, ok := StaticKey(kp.Key, kp.Computed)
		if !ok || !IsFactory(kp.Value) {
			continue
		}
		t.Entries = append(t.Entries, Entry{Key: k, Fn: kp.Value, KeyNode: kp.Key})
	}
	if len(t.Entries) > 0 {
		f.Tables = append(f.Tables, t)
	}
}

// browserify records a browserify module map: key → [factory, {spec: key}].
func (f *Finder) browserify(x ast.Expression) bool {
	obj, ok := x.(*ast.ObjectLiteral)
	if !ok || len(obj.Value) == 0 {
		return false
	}
	var entries []Entry
	for _, p := range obj.Value {
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok {
			return false
		}
		k, ok := StaticKey(kp.Key, kp.Computed)
		arr, ok2 := kp.Value.(*ast.ArrayLiteral)
		if !ok || !ok2 || len(arr.Value) != 2 || !IsFactory(arr.Value[0]) {
			return false
		}
		deps, _ := arr.Value[1].(*ast.ObjectLiteral)
		entries = append(entries, Entry{Key: k, Fn: arr.Value[0], KeyNode: kp.Key, Deps: deps})
	}
	f.Tables = append(f.Tables, Table{Kind: KindBrowserify, Literal: obj, Entries: entries})
	return true
}

// DepKeys are a browserify module's dependencies: specifier → key.
func (e Entry) DepKeys() map[string]string {
	out := map[string]string{}
	if e.Deps == nil {
		return out
	}
	for _, d := range e.Deps.Value {
		dk, ok := d.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		spec, ok := StaticKey(dk.Key, dk.Computed)
		if !ok {
			continue
		}
		switch v := dk.Value.(type) {
		case *ast.NumberLiteral:
			out[spec] = v.Literal
		case *ast.StringLiteral:
			out[spec] = string(v.Value)
		}
	}
	return out
}
