package jssource

import (
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"rea/jsengine/jsparse"
)

// bundle is a bundler output split into its module factories: the forms
// the analysis recovers (webpack 4/5 module tables, webpack/rspack chunk
// pushes, esbuild __commonJS/__esm wrappers, browserify maps).
type bundle struct {
	kind    string
	modules []*factory
	// tables are the byte ranges of the module tables (object or array
	// literals): what is left of the file outside them is the runtime and
	// the entry code.
	tables [][2]int
	prog   *ast.Program
}

// factory is one module of a bundle, as byte ranges of the shipped file.
type factory struct {
	key        string
	start, end int // the factory (for esbuild, from its key)
	node       ast.Node
	params     []string
	reqName    string // the require parameter (webpack), "" otherwise
	wrap       wrapper
	// bodyStart/bodyEnd are the factory body's inside ({…} without the
	// braces, or an arrow's expression).
	bodyStart, bodyEnd int
	exprBody           bool
	// deps are browserify's specifier → key map.
	deps map[string]string
	// esbuildName is the require_x binding an esbuild wrapper is held in.
	esbuildName string
}

// idx is goja's 1-based offset as a 0-based byte offset.
func idx(i file.Idx) int { return int(i) - 1 }

// looksBundled is the cheap test before a parse.
func looksBundled(src string) bool {
	for _, s := range []string{"__webpack_require__", "webpackChunk", "rspackChunk", "webpackJsonp", "__commonJS", "__esm(", "__webpack_modules__", "MODULE_NOT_FOUND"} {
		if strings.Contains(src, s) {
			return true
		}
	}
	return false
}

// splitBundle parses src and finds its module factories; nil when src is
// no bundle (or does not parse as a script).
func splitBundle(name, src string) (*bundle, error) {
	if !looksBundled(src) {
		return nil, nil
	}
	text := src
	if strings.HasPrefix(text, "#!") {
		text = "//" + text[2:] // same length: offsets stay
	}
	prog, err := jsparse.Parse(name, text)
	if err != nil {
		return nil, err
	}
	f := &finder{src: src}
	walkAST(prog, f.enter)
	if len(f.b.modules) == 0 {
		return nil, nil
	}
	f.b.prog = prog
	return &f.b, nil
}

type finder struct {
	src     string
	b       bundle
	pending string
}

func (f *finder) enter(n any) bool {
	switch n := n.(type) {
	case *ast.Binding:
		if id, ok := n.Target.(*ast.Identifier); ok {
			if id.Name == "__webpack_modules__" && f.table(n.Initializer, "webpack", 2) {
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
		if d, ok := n.Callee.(*ast.DotExpression); ok && d.Identifier.Name == "push" && len(n.ArgumentList) == 1 {
			recv := f.src[max(0, idx(d.Left.Idx0())):min(len(f.src), max(0, idx(d.Left.Idx1())))]
			if strings.Contains(recv, "webpackChunk") || strings.Contains(recv, "webpackJsonp") || strings.Contains(recv, "rspackChunk") {
				if arr, ok := n.ArgumentList[0].(*ast.ArrayLiteral); ok && len(arr.Value) >= 2 && f.table(arr.Value[1], "webpack-chunk", 2) {
					return false
				}
			}
		}
		if _, ok := n.Callee.(*ast.CallExpression); ok && len(n.ArgumentList) == 3 && f.browserify(n.ArgumentList[0]) {
			return false
		}
		if fn, ok := n.Callee.(*ast.FunctionLiteral); ok && len(n.ArgumentList) == 1 && fn.ParameterList != nil && len(fn.ParameterList.List) >= 1 {
			if strings.Contains(fn.Source, "__webpack_require__") || strings.Contains(fn.Source, "installedModules") || strings.Contains(fn.Source, ".m=") || strings.Contains(fn.Source, ".m =") {
				if f.table(n.ArgumentList[0], "webpack", 2) {
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

func isFactory(x ast.Expression) bool {
	switch fn := x.(type) {
	case *ast.FunctionLiteral:
		return fn.ParameterList == nil || len(fn.ParameterList.List) <= 3
	case *ast.ArrowFunctionLiteral:
		return fn.ParameterList == nil || len(fn.ParameterList.List) <= 3
	}
	return false
}

func staticKey(k ast.Expression, computed bool) (string, bool) {
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

func (f *finder) table(x ast.Expression, kind string, requireParam int) bool {
	type entry struct {
		key string
		fn  ast.Expression
	}
	var entries []entry
	switch t := x.(type) {
	case *ast.ObjectLiteral:
		for _, p := range t.Value {
			kp, ok := p.(*ast.PropertyKeyed)
			if !ok {
				return false
			}
			k, ok := staticKey(kp.Key, kp.Computed)
			if !ok || !isFactory(kp.Value) {
				return false
			}
			entries = append(entries, entry{k, kp.Value})
		}
	case *ast.ArrayLiteral:
		for i, v := range t.Value {
			if v == nil {
				continue
			}
			if !isFactory(v) {
				return false
			}
			entries = append(entries, entry{strconv.Itoa(i), v})
		}
	default:
		return false
	}
	if len(entries) == 0 {
		return false
	}
	f.b.kind = kind
	f.b.tables = append(f.b.tables, [2]int{idx(x.Idx0()), min(len(f.src), idx(x.Idx1()))})
	for _, e := range entries {
		m := f.factory(e.key, e.fn, idx(e.fn.Idx0()), exprWrapper)
		if len(m.params) > requireParam {
			m.reqName = m.params[requireParam]
		}
		f.b.modules = append(f.b.modules, m)
	}
	return true
}

func (f *finder) esbuild(c *ast.CallExpression) {
	obj := c.ArgumentList[0].(*ast.ObjectLiteral)
	f.b.tables = append(f.b.tables, [2]int{idx(obj.Idx0()), min(len(f.src), idx(obj.Idx1()))})
	for _, p := range obj.Value {
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok {
			continue
		}
		k, ok := staticKey(kp.Key, kp.Computed)
		if !ok || !isFactory(kp.Value) {
			continue
		}
		f.b.kind = "esbuild"
		m := f.factory(k, kp.Value, idx(kp.Key.Idx0()), methodWrapper)
		m.esbuildName = f.pending
		f.b.modules = append(f.b.modules, m)
	}
}

func (f *finder) browserify(x ast.Expression) bool {
	obj, ok := x.(*ast.ObjectLiteral)
	if !ok || len(obj.Value) == 0 {
		return false
	}
	var mods []*factory
	for _, p := range obj.Value {
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok {
			return false
		}
		k, ok := staticKey(kp.Key, kp.Computed)
		arr, ok2 := kp.Value.(*ast.ArrayLiteral)
		if !ok || !ok2 || len(arr.Value) != 2 || !isFactory(arr.Value[0]) {
			return false
		}
		m := f.factory(k, arr.Value[0], idx(arr.Value[0].Idx0()), exprWrapper)
		m.deps = map[string]string{}
		if deps, ok := arr.Value[1].(*ast.ObjectLiteral); ok {
			for _, d := range deps.Value {
				if dk, ok := d.(*ast.PropertyKeyed); ok {
					spec, ok := staticKey(dk.Key, dk.Computed)
					if !ok {
						continue
					}
					switch v := dk.Value.(type) {
					case *ast.NumberLiteral:
						m.deps[spec] = v.Literal
					case *ast.StringLiteral:
						m.deps[spec] = string(v.Value)
					}
				}
			}
		}
		mods = append(mods, m)
	}
	f.b.kind = "browserify"
	f.b.tables = append(f.b.tables, [2]int{idx(obj.Idx0()), min(len(f.src), idx(obj.Idx1()))})
	f.b.modules = append(f.b.modules, mods...)
	return true
}

func (f *finder) factory(key string, fn ast.Expression, start int, w wrapper) *factory {
	m := &factory{key: key, start: start, end: min(len(f.src), idx(fn.Idx1())), node: fn, wrap: w}
	var pl *ast.ParameterList
	switch x := fn.(type) {
	case *ast.FunctionLiteral:
		pl = x.ParameterList
		if x.Body != nil {
			m.bodyStart, m.bodyEnd = idx(x.Body.LeftBrace)+1, idx(x.Body.RightBrace)
		}
	case *ast.ArrowFunctionLiteral:
		pl = x.ParameterList
		switch b := x.Body.(type) {
		case *ast.BlockStatement:
			m.bodyStart, m.bodyEnd = idx(b.LeftBrace)+1, idx(b.RightBrace)
		case *ast.ExpressionBody:
			m.bodyStart, m.bodyEnd, m.exprBody = idx(b.Expression.Idx0()), idx(b.Expression.Idx1()), true
		}
	}
	if pl != nil {
		for _, b := range pl.List {
			if id, ok := b.Target.(*ast.Identifier); ok {
				m.params = append(m.params, string(id.Name))
			} else {
				m.params = append(m.params, "")
			}
		}
	}
	m.bodyStart, m.bodyEnd = max(0, min(m.bodyStart, len(f.src))), max(0, min(m.bodyEnd, len(f.src)))
	return m
}

// requireCall is a require of another module inside a factory: the call's
// byte range and the key (or, for esbuild, the require_x binding; for
// browserify, the specifier).
type requireCall struct {
	start, end int
	key        string
}

// requires lists the requires inside m's body, in order.
func (m *factory) requires(esbuild, browserify bool) []requireCall {
	var out []requireCall
	walkAST(m.node, func(n any) bool {
		c, ok := n.(*ast.CallExpression)
		if !ok {
			return true
		}
		id, ok := c.Callee.(*ast.Identifier)
		if !ok {
			return true
		}
		name := string(id.Name)
		switch {
		case esbuild && strings.HasPrefix(name, "require_") && len(c.ArgumentList) == 0:
			out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), name})
		case (m.reqName != "" && name == m.reqName || browserify && name == "require") && len(c.ArgumentList) == 1:
			switch a := c.ArgumentList[0].(type) {
			case *ast.StringLiteral:
				out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), string(a.Value)})
			case *ast.NumberLiteral:
				out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), a.Literal})
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// entryRequires lists the requires of modules in the code outside the
// module tables: webpack's __webpack_require__(key) and esbuild's
// require_x() calls of the runtime and entry code.
func (b *bundle) entryRequires() []requireCall {
	inTable := func(off int) bool {
		for _, t := range b.tables {
			if t[0] <= off && off < t[1] {
				return true
			}
		}
		return false
	}
	var out []requireCall
	walkAST(b.prog, func(n any) bool {
		c, ok := n.(*ast.CallExpression)
		if !ok {
			return true
		}
		if inTable(idx(c.Idx0())) {
			return false
		}
		id, ok := c.Callee.(*ast.Identifier)
		if !ok {
			return true
		}
		name := string(id.Name)
		switch {
		case b.kind == "esbuild" && strings.HasPrefix(name, "require_") && len(c.ArgumentList) == 0:
			out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), name})
		case name == "__webpack_require__" && len(c.ArgumentList) == 1:
			switch a := c.ArgumentList[0].(type) {
			case *ast.StringLiteral:
				out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), string(a.Value)})
			case *ast.NumberLiteral:
				out = append(out, requireCall{idx(c.Idx0()), idx(c.Idx1()), a.Literal})
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// walkAST visits every syntax node under n (depth first) while visit
// returns true for the node. It reads the tree through reflection: the
// parser's node types change, the walk does not need to.
func walkAST(n any, visit func(any) bool) {
	var walk func(v reflect.Value)
	nodeType := reflect.TypeOf((*ast.Node)(nil)).Elem()
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || v.Elem().Kind() != reflect.Struct {
				return
			}
			if v.Type().Implements(nodeType) || v.Type() == reflect.TypeOf(&ast.Binding{}) || v.Type() == reflect.TypeOf(&ast.ParameterList{}) {
				if !visit(v.Interface()) {
					return
				}
			}
			walk(v.Elem())
		case reflect.Struct:
			t := v.Type()
			if t.PkgPath() != "github.com/dop251/goja/ast" {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				if t.Field(i).Name == "DeclarationList" {
					continue // the same declarations again, as the body has them
				}
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(n))
}
