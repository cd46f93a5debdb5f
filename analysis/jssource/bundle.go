package jssource

import (
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"

	"rea/jsengine/bundleform"
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
	// requireNames are the runtime's require function: __webpack_require__,
	// or the name a minified build gives it.
	requireNames map[string]bool
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
func looksBundled(src string) bool { return bundleform.Prefilter(src) }

// splitBundle parses src and finds its module factories (bundleform's
// tables, the analysis's own recogniser); nil when src is no bundle (or
// does not parse as a script).
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
	bf := &bundleform.Finder{Src: src, Offset: idx}
	walkAST(prog, bf.Enter)
	f := &finder{src: src}
	for _, t := range bf.Tables {
		f.b.tables = append(f.b.tables, [2]int{idx(t.Literal.Idx0()), min(len(src), idx(t.Literal.Idx1()))})
		for _, e := range t.Entries {
			switch t.Kind {
			case bundleform.KindEsbuild:
				m := f.factory(e.Key, e.Fn, idx(e.KeyNode.Idx0()), methodWrapper)
				m.esbuildName = t.EsbuildName
				f.b.modules = append(f.b.modules, m)
			case bundleform.KindBrowserify:
				m := f.factory(e.Key, e.Fn, idx(e.Fn.Idx0()), exprWrapper)
				m.deps = e.DepKeys()
				f.b.modules = append(f.b.modules, m)
			default:
				m := f.factory(e.Key, e.Fn, idx(e.Fn.Idx0()), exprWrapper)
				if len(m.params) > bundleform.RequireParam {
					m.reqName = m.params[bundleform.RequireParam]
				}
				f.b.modules = append(f.b.modules, m)
			}
		}
	}
	if len(f.b.modules) == 0 {
		return nil, nil
	}
	f.b.kind = bf.Kind()
	f.b.prog = prog
	f.b.requireNames = map[string]bool{"__webpack_require__": true}
	for _, r := range bf.RequireNames() {
		f.b.requireNames[r] = true
	}
	return &f.b, nil
}

type finder struct {
	src string
	b   bundle
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
		case (name == "__webpack_require__" || b.requireNames[name] && b.kind != "esbuild") && len(c.ArgumentList) == 1:
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

// renames lists the references of a factory's module and exports
// parameters that can be renamed to module and exports: every identifier
// of that name in the body that no function inside redeclares (as a
// parameter, var, let, const, class, catch or function name). A factory
// whose own body redeclares a name keeps that name whole. Each entry's key
// is the new name.
func (m *factory) renames(kind string) []requireCall {
	order := []string{"module", "exports"}
	switch kind {
	case "esbuild":
		order = []string{"exports", "module"}
	case "browserify":
		order = []string{"", "module", "exports"}
	}
	to := map[string]string{}
	for i, p := range m.params {
		if i < len(order) && order[i] != "" && p != "" && p != order[i] && p != "module" && p != "exports" && p != "require" {
			to[p] = order[i]
		}
	}
	if len(to) == 0 {
		return nil
	}
	type span struct{ a, b int }
	var funcs []span // every function inside the factory
	type decl struct {
		name string
		at   int
		// outer: a function declaration's name, which binds in the
		// enclosing function, not its own.
		outer bool
	}
	var decls []decl
	type ref struct {
		start, end int
		name       string
	}
	var refs []ref
	declare := func(id *ast.Identifier, outer bool) {
		if id != nil && to[string(id.Name)] != "" {
			decls = append(decls, decl{string(id.Name), idx(id.Idx0()), outer})
		}
	}
	bodyNodes := []any{}
	switch fn := m.node.(type) {
	case *ast.FunctionLiteral:
		if fn.Body != nil {
			bodyNodes = append(bodyNodes, fn.Body)
		}
	case *ast.ArrowFunctionLiteral:
		bodyNodes = append(bodyNodes, fn.Body)
	}
	targets := map[*ast.Identifier]bool{}
	for _, n := range bodyNodes {
		walkAST(n, func(x any) bool {
			switch x := x.(type) {
			case *ast.FunctionLiteral:
				funcs = append(funcs, span{idx(x.Idx0()), idx(x.Idx1())})
				declare(x.Name, false)
				targets[x.Name] = true
			case *ast.ArrowFunctionLiteral:
				funcs = append(funcs, span{idx(x.Idx0()), idx(x.Idx1())})
			case *ast.FunctionDeclaration:
				if x.Function != nil {
					declare(x.Function.Name, true)
					targets[x.Function.Name] = true
				}
			case *ast.ClassLiteral:
				declare(x.Name, false)
				targets[x.Name] = true
			case *ast.Binding:
				if id, ok := x.Target.(*ast.Identifier); ok {
					declare(id, false)
				} else {
					// Destructuring: every identifier under the pattern
					// that is a binding target is taken as a declaration.
					walkAST(x.Target, func(y any) bool {
						switch y := y.(type) {
						case *ast.Identifier:
							declare(y, false)
						case *ast.PropertyShort:
							declare(&y.Name, false)
						}
						return true
					})
				}
			case *ast.CatchStatement:
				if id, ok := x.Parameter.(*ast.Identifier); ok {
					declare(id, false)
				} else if x.Parameter != nil {
					walkAST(x.Parameter, func(y any) bool {
						switch y := y.(type) {
						case *ast.Identifier:
							declare(y, false)
						case *ast.PropertyShort:
							declare(&y.Name, false)
						}
						return true
					})
				}
			case *ast.LabelledStatement, *ast.BranchStatement:
				return false // labels are no references
			case *ast.PropertyShort:
				return false // {e}: a key and a value at once; left as shipped
			case *ast.Identifier:
				if to[string(x.Name)] != "" && !targets[x] {
					refs = append(refs, ref{idx(x.Idx0()), idx(x.Idx1()), string(x.Name)})
				}
			}
			return true
		})
	}
	innermost := func(at int) (span, bool) {
		best, found := span{}, false
		for _, f := range funcs {
			if f.a <= at && at < f.b && (!found || f.a >= best.a) {
				best, found = f, true
			}
		}
		return best, found
	}
	shadow := map[string][]span{}
	for _, d := range decls {
		f, found := innermost(d.at)
		if d.outer && found {
			// A function declaration's span holds its name, which binds
			// in the function around it.
			outer, ok := span{}, false
			for _, g := range funcs {
				if g.a <= f.a && f.b <= g.b && g != f && (!ok || g.a >= outer.a) {
					outer, ok = g, true
				}
			}
			f, found = outer, ok
		}
		if !found {
			delete(to, d.name) // the factory's own body redeclares it
			continue
		}
		shadow[d.name] = append(shadow[d.name], f)
	}
	var keep []requireCall
	for _, r := range refs {
		if to[r.name] == "" {
			continue
		}
		shadowed := false
		for _, f := range shadow[r.name] {
			if f.a <= r.start && r.start < f.b {
				shadowed = true
				break
			}
		}
		if !shadowed {
			keep = append(keep, requireCall{r.start, r.end, to[r.name]})
		}
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].start < keep[j].start })
	return keep
}
