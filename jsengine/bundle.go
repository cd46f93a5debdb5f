package jsengine

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"

	"rea/jsengine/bundleform"
	"rea/jsengine/internal/digest"
)

// maxFingerprintNodes bounds the structural fingerprint of one factory.
const maxFingerprintNodes = 200_000

// detectBundle recognises bundler output in m (bundleform's tables:
// webpack 4/5 module tables, minified or not, webpack chunk pushes,
// esbuild __commonJS/__esm wrappers, browserify maps). Factories are never
// run.
func (e *engine) detectBundle(m *moduleInfo) *Bundle {
	src := m.pf.generated
	if !bundleform.Prefilter(src) {
		return nil
	}
	bf := &bundleform.Finder{Src: src, Offset: m.pf.offset}
	walk(bf, m.pf.prog)
	f := &bundleFinder{e: e, m: m, esbuildNames: map[string]string{}}
	for _, t := range bf.Tables {
		f.record(t)
	}
	if len(f.mods) == 0 {
		return nil
	}
	kind := bf.Kind()
	b := &Bundle{Path: m.path, Kind: kind}
	// esbuild wrappers call each other through their require_x bindings.
	for i := range f.mods {
		for j, r := range f.mods[i].Requires {
			if k, ok := f.esbuildNames[r]; ok {
				f.mods[i].Requires[j] = k
			}
		}
		sort.Strings(f.mods[i].Requires)
		f.mods[i].Requires = dedupStrings(f.mods[i].Requires)
	}
	sort.SliceStable(f.mods, func(i, j int) bool { return lessLoc(f.mods[i].Location, f.mods[j].Location) })
	remaining := e.opts.MaxBundleModules - e.bundledModules
	if len(f.mods) > remaining {
		e.hit("max_bundle_modules", e.opts.MaxBundleModules, len(f.mods)-remaining)
		f.mods = f.mods[:remaining]
		b.Truncated = true
	}
	e.bundledModules += len(f.mods)
	b.Modules = f.mods
	return b
}

func dedupStrings(xs []string) []string {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// factoryInfo lets the evaluator follow __webpack_require__(key) to the
// factory registered under key in the same table.
type factoryInfo struct {
	key     string
	node    ast.Node
	mod     *moduleInfo
	params  []string // module, exports, require parameter names
	table   map[string]*factoryInfo
	reqName string
}

// bundleFinder turns the tables bundleform found into the analysis's
// bundled modules (fingerprints, requires) and the evaluator's factory
// tables.
type bundleFinder struct {
	e            *engine
	m            *moduleInfo
	mods         []BundledModule
	esbuildNames map[string]string // require_x binding → module key
	fp           *fingerprinter
}

// record adds one table's modules.
func (f *bundleFinder) record(t bundleform.Table) {
	switch t.Kind {
	case bundleform.KindEsbuild:
		for _, en := range t.Entries {
			f.mods = append(f.mods, f.factory(en.Key, en.Fn, -1))
			if t.EsbuildName != "" {
				f.esbuildNames[t.EsbuildName] = en.Key
			}
		}
	case bundleform.KindBrowserify:
		for _, en := range t.Entries {
			mod := f.factory(en.Key, en.Fn, -2)
			mod.Requires = nil
			if en.Deps != nil {
				for _, p := range en.Deps.Value {
					if kp, ok := p.(*ast.PropertyKeyed); ok {
						switch v := kp.Value.(type) {
						case *ast.NumberLiteral:
							mod.Requires = append(mod.Requires, v.Literal)
						case *ast.StringLiteral:
							mod.Requires = append(mod.Requires, string(v.Value))
						}
					}
				}
			}
			f.mods = append(f.mods, mod)
		}
	default: // webpack tables and chunks
		tbl := f.e.tableFor(f.m)
		for _, en := range t.Entries {
			f.mods = append(f.mods, f.factory(en.Key, en.Fn, bundleform.RequireParam))
			fi := &factoryInfo{key: en.Key, node: en.Fn, mod: f.m, table: tbl}
			fi.params = paramNames(en.Fn)
			if len(fi.params) > bundleform.RequireParam {
				fi.reqName = fi.params[bundleform.RequireParam]
			}
			tbl[en.Key] = fi
			if sc := f.m.scopes[en.Fn]; sc != nil {
				f.e.factoryByScope[sc] = fi
			}
		}
	}
}

// factory fingerprints one module factory and lists what it requires.
func (f *bundleFinder) factory(key string, fn ast.Node, requireParam int) BundledModule {
	pf := f.m.pf
	a, b := pf.offset(fn.Idx0()), pf.offset(fn.Idx1())
	factorySHA := digest.HexString(pf.generated[a:b])
	fp := f.fp
	if fp == nil {
		fp = &fingerprinter{}
		f.fp = fp
	}
	fp.reset()
	var params *ast.ParameterList
	var body ast.Node
	switch x := fn.(type) {
	case *ast.FunctionLiteral:
		params, body = x.ParameterList, x.Body
	case *ast.ArrowFunctionLiteral:
		params, body = x.ParameterList, x.Body
	}
	fp.buf = append(fp.buf, "params:"+strconv.Itoa(paramCount(params))+";"...)
	reqName := ""
	if requireParam >= 0 && params != nil && len(params.List) > requireParam {
		if id, ok := params.List[requireParam].Target.(*ast.Identifier); ok {
			reqName = string(id.Name)
		}
	}
	rc := &requireCollector{reqName: reqName, esbuild: requireParam < 0}
	walk(&factoryVisitor{fp: fp, rc: rc}, body)
	mod := BundledModule{Key: key, FactorySHA256: factorySHA, Fingerprint: "sfp1:" + fp.sum(),
		Truncated: fp.budget <= 0, Location: pf.loc(fn.Idx0())}
	mod.Requires = rc.keys
	return mod
}

func paramCount(pl *ast.ParameterList) int {
	if pl == nil {
		return 0
	}
	return len(pl.List)
}

// factoryVisitor walks a factory body once for both the fingerprinter and
// the requireCollector (a walk is a large share of a bundle's time in wasm).
// The fingerprinter sees exactly what a walk of its own would show it:
// below a node it declined (its budget ran out) it is not called, while
// the requireCollector still sees every node.
type factoryVisitor struct {
	fp    *fingerprinter
	rc    *requireCollector
	depth int
	skip  int // depth of the node the fingerprinter declined, 0 when none
}

func (v *factoryVisitor) Enter(n any) bool {
	v.depth++
	if v.skip == 0 && !v.fp.Enter(n) {
		v.skip = v.depth
	}
	v.rc.Enter(n)
	return true
}

func (v *factoryVisitor) Leave(n any) {
	if v.skip == 0 || v.skip == v.depth {
		v.fp.Leave(n)
		if v.skip == v.depth {
			v.skip = 0
		}
	}
	v.depth--
}

// requireCollector lists module keys required inside a factory:
// __webpack_require__(key) through the factory's own parameter, or esbuild's
// require_x() calls.
type requireCollector struct {
	reqName string
	esbuild bool
	keys    []string
}

func (r *requireCollector) Leave(any) {}

func (r *requireCollector) Enter(n any) bool {
	c, ok := n.(*ast.CallExpression)
	if !ok {
		return true
	}
	id, ok := c.Callee.(*ast.Identifier)
	if !ok {
		return true
	}
	switch {
	case r.reqName != "" && string(id.Name) == r.reqName && len(c.ArgumentList) == 1:
		switch a := c.ArgumentList[0].(type) {
		case *ast.StringLiteral:
			r.keys = append(r.keys, string(a.Value))
		case *ast.NumberLiteral:
			r.keys = append(r.keys, a.Literal)
		}
	case r.esbuild && strings.HasPrefix(string(id.Name), "require_") && len(c.ArgumentList) == 0:
		r.keys = append(r.keys, string(id.Name))
	}
	return true
}

// fingerprinter hashes syntax, literals, operators, property keys and
// member names, but not identifier names, so renaming variables (minifiers,
// rebuilds) keeps the fingerprint.
type fingerprinter struct {
	budget int
	buf    []byte // the serialised shape, hashed at once (by the host in a module)
}

func (f *fingerprinter) reset() {
	f.buf = f.buf[:0]
	f.budget = maxFingerprintNodes
}

// sum is the hex sha256 of the serialised shape.
func (f *fingerprinter) sum() string {
	return digest.Hex(f.buf)
}

func (f *fingerprinter) Enter(n any) bool {
	if f.budget <= 0 {
		return false
	}
	f.budget--
	b := append(f.buf, '(')
	b = append(b, nodeName(n)...)
	switch x := n.(type) {
	case *ast.Identifier:
		b = append(b[:len(f.buf)+1], 'I')
	case *ast.StringLiteral:
		b = append(b, ' ')
		b = strconv.AppendQuote(b, string(x.Value))
	case *ast.NumberLiteral:
		b = append(b, ' ')
		b = append(b, x.Literal...)
	case *ast.BooleanLiteral:
		b = strconv.AppendBool(append(b, ' '), x.Value)
	case *ast.RegExpLiteral:
		b = append(append(b, ' '), x.Literal...)
	case *ast.TemplateElement:
		b = append(append(b, ' '), x.Literal...)
	case *ast.BinaryExpression:
		b = append(append(b, ' '), x.Operator.String()...)
	case *ast.AssignExpression:
		b = append(append(b, ' '), x.Operator.String()...)
	case *ast.UnaryExpression:
		b = append(append(b, ' '), x.Operator.String()...)
		if x.Postfix {
			b = append(b, 'p')
		}
	case *ast.DotExpression:
		b = append(append(b, ' '), x.Identifier.Name...)
	case *ast.PropertyKeyed:
		if k, ok := staticKey(x.Key, x.Computed); ok {
			b = strconv.AppendQuote(append(b, ' '), k)
		}
		b = append(append(b, ' '), x.Kind...)
	case *ast.PropertyShort:
		b = append(append(b, ' '), x.Name.Name...)
	case *ast.TemplateLiteral:
		for _, el := range x.Elements {
			b = strconv.AppendQuote(append(b, ' '), el.Literal)
		}
	case *ast.VariableStatement, *ast.LexicalDeclaration:
		if l, ok := x.(*ast.LexicalDeclaration); ok {
			b = append(append(b, ' '), l.Token.String()...)
		}
	}
	f.buf = b
	return true
}

func (f *fingerprinter) Leave(any) {
	f.buf = append(f.buf, ')')
}

// tableFor returns the module-key table shared by all webpack tables of m
// (a main bundle and its chunks resolve keys in one namespace).
func (e *engine) tableFor(m *moduleInfo) map[string]*factoryInfo {
	if t, ok := e.factoryTables[m]; ok {
		return t
	}
	t := map[string]*factoryInfo{}
	e.factoryTables[m] = t
	return t
}

func paramNames(fn ast.Node) []string {
	var pl *ast.ParameterList
	switch x := fn.(type) {
	case *ast.FunctionLiteral:
		pl = x.ParameterList
	case *ast.ArrowFunctionLiteral:
		pl = x.ParameterList
	}
	var out []string
	if pl == nil {
		return out
	}
	for _, b := range pl.List {
		if id, ok := b.Target.(*ast.Identifier); ok {
			out = append(out, string(id.Name))
		} else {
			out = append(out, "")
		}
	}
	return out
}

// factoryExports evaluates what a webpack factory exports: module.exports =
// E, exports.X = E and __webpack_require__.d(exports, {X: () => E}).
func (e *engine) factoryExports(fi *factoryInfo, c evalCtx) value {
	if v, ok := e.factoryCache[fi]; ok {
		return v
	}
	if e.factoryBusy[fi] {
		e.cuts++
		return unknown("webpack module " + fi.key)
	}
	e.factoryBusy[fi] = true
	defer delete(e.factoryBusy, fi)
	m := fi.mod
	s := m.scopes[fi.node]
	var body []ast.Statement
	switch x := fi.node.(type) {
	case *ast.FunctionLiteral:
		if x.Body != nil {
			body = x.Body.List
		}
	case *ast.ArrowFunctionLiteral:
		if b, ok := x.Body.(*ast.BlockStatement); ok {
			body = b.List
		}
	}
	param := func(i int) string {
		if i < len(fi.params) {
			return fi.params[i]
		}
		return "\x00"
	}
	isIdent := func(x ast.Expression, name string) bool {
		id, ok := x.(*ast.Identifier)
		return ok && string(id.Name) == name
	}
	var base *value
	named := newObject()
	for _, st := range body {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok || s == nil {
			continue
		}
		exprs := []ast.Expression{es.Expression}
		if seq, ok := es.Expression.(*ast.SequenceExpression); ok {
			exprs = seq.Sequence
		}
		for _, x := range exprs {
			switch x := x.(type) {
			case *ast.AssignExpression:
				d, ok := x.Left.(*ast.DotExpression)
				if !ok {
					continue
				}
				name := string(d.Identifier.Name)
				switch {
				case isIdent(d.Left, param(0)) && name == "exports":
					v := e.eval(m, s, x.Right, c)
					base = &v
				case isIdent(d.Left, param(1)):
					named.set(name, e.eval(m, s, x.Right, c))
				}
			case *ast.CallExpression:
				d, ok := x.Callee.(*ast.DotExpression)
				if !ok || d.Identifier.Name != "d" || !isIdent(d.Left, param(2)) || len(x.ArgumentList) != 2 {
					continue
				}
				obj, ok := x.ArgumentList[1].(*ast.ObjectLiteral)
				if !ok {
					continue
				}
				for _, p := range obj.Value {
					kp, ok := p.(*ast.PropertyKeyed)
					if !ok {
						continue
					}
					k, ok := staticKey(kp.Key, kp.Computed)
					if e2 := singleReturn(kp.Value); ok && e2 != nil {
						named.set(k, e.eval(m, s, e2, c))
					}
				}
			}
		}
	}
	var out value
	switch {
	case base != nil && len(named.keys) == 0:
		out = *base
	case base != nil && base.kind == kObject:
		for _, k := range named.keys {
			base.obj.set(k, named.props[k])
		}
		out = *base
	case base != nil:
		out = *base
	default:
		out = value{kind: kObject, obj: named}
	}
	out.inferred = true
	e.factoryCache[fi] = out
	return out
}
