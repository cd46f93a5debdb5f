package jsengine

import (
	"path"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// moduleInfo is one parsed file and what the first pass learned about it:
// its scopes, the plain assignments to its names and what it exports.
type moduleInfo struct {
	path string
	dir  string
	sha  string
	size int
	pf   *parsedFile

	scopes     map[any]*scope
	top        *scope
	exports    []exportDef
	reExports  []assignment
	thisAssign map[string][]assignment
	// thisMembers are the member assignments below a this-member
	// (this.options.webPreferences = v), by the this-member's name.
	thisMembers map[string][]memberAssignment
	nodes       int
	truncated   bool
	released    bool // syntax tree dropped after analysis
	retired     bool // released because no later analysis can reach it
	analysed    bool
	// copy marks a file parsed afresh to read a parameter's callers
	// (paramflow.go): evaluations in it record no windows.
	copy bool

	// wrapperNames are the names of functions of this module whose
	// parameters reach an IPC channel (firstpass.go).
	wrapperNames map[string]bool

	exportCache map[string]value
	exportBusy  map[string]bool
	roles       map[string]bool
	imports     []Import
}

// exportDef is one way the module exports a name ("" = module.exports = …).
type exportDef struct {
	name  string
	expr  ast.Expression
	scope *scope
}

// scopeBuilder is the first pass: it creates every scope, hoists
// declarations, and records assignments and exports, so that the second pass
// and the evaluator can resolve names used before they are assigned.
type scopeBuilder struct {
	m     *moduleInfo
	stack []*scope
	// owners are the nodes that opened the scopes of stack, so Leave pops
	// by comparing pointers rather than looking the node up in a map.
	owners []any
	// fnBodies are the bodies of the functions being entered: a function's
	// scope is its body's, so that block opens no scope of its own. Inner
	// functions' bodies are met before the outer body, so a stack works.
	fnBodies []*ast.BlockStatement
	budget   int // AST nodes this module may still visit
	// fnNames name function literals by where they are bound (method,
	// property, variable, assignment); iters are the collections of
	// forEach-like callbacks about to be entered (firstpass.go).
	fnNames map[any]string
	iters   map[ast.Node]iteration
}

func (b *scopeBuilder) cur() *scope { return b.stack[len(b.stack)-1] }

func (b *scopeBuilder) push(n any, s *scope) {
	b.m.scopes[n] = s
	b.stack = append(b.stack, s)
	b.owners = append(b.owners, n)
}

func (b *scopeBuilder) Enter(n any) bool {
	if b.m.nodes >= b.budget {
		b.m.truncated = true
		return false
	}
	b.m.nodes++
	switch n := n.(type) {
	case *ast.Program:
		s := newScope(nil, b.m)
		hoist(s, n.Body, true)
		b.m.top = s
		b.push(n, s)
	case *ast.FunctionLiteral:
		s := newScope(b.cur(), b.m)
		declareParams(s, n.ParameterList)
		b.enterFunction(n, s, n.ParameterList)
		if n.Body != nil {
			hoist(s, n.Body.List, true)
			b.fnBodies = append(b.fnBodies, n.Body)
		}
		b.push(n, s)
	case *ast.ArrowFunctionLiteral:
		s := newScope(b.cur(), b.m)
		declareParams(s, n.ParameterList)
		b.enterFunction(n, s, n.ParameterList)
		if body, ok := n.Body.(*ast.BlockStatement); ok {
			hoist(s, body.List, true)
			b.fnBodies = append(b.fnBodies, body)
		}
		b.push(n, s)
	case *ast.BlockStatement:
		if k := len(b.fnBodies) - 1; k >= 0 && b.fnBodies[k] == n {
			b.fnBodies = b.fnBodies[:k]
			return true
		}
		s := newScope(b.cur(), b.m)
		for _, st := range n.List {
			switch st.(type) {
			case *ast.LexicalDeclaration, *ast.FunctionDeclaration, *ast.ClassDeclaration:
				hoistStatement(s, st, true)
			}
		}
		b.push(n, s)
	case *ast.CatchStatement:
		s := newScope(b.cur(), b.m)
		if n.Parameter != nil {
			s.declareTarget(n.Parameter, nil, nil, true)
		}
		b.push(n, s)
	case *ast.ForStatement:
		if in, ok := n.Initializer.(*ast.ForLoopInitializerLexicalDecl); ok {
			s := newScope(b.cur(), b.m)
			for _, bd := range in.LexicalDeclaration.List {
				s.declareTarget(bd.Target, nil, nil, true)
			}
			b.push(n, s)
		}
	case *ast.ForInStatement:
		b.forDecl(n, n.Into)
	case *ast.ForOfStatement:
		b.forDecl(n, n.Into)
	case *ast.AssignExpression:
		b.assignment(n)
		b.nameAssigned(n)
	case *ast.CallExpression:
		b.call(n)
		b.noteWrapper(n)
	case *ast.FieldDefinition:
		b.nameFunction(n)
		b.fieldAssign(n)
	case *ast.MethodDefinition:
		b.nameFunction(n)
		b.getterAssign(n)
	case *ast.PropertyKeyed, *ast.Binding:
		b.nameFunction(n)
	case *ast.IfStatement:
		b.noteGuard(n.Test)
	case *ast.ConditionalExpression:
		b.noteGuard(n.Test)
	case *ast.BinaryExpression:
		if n.Operator == token.LOGICAL_AND {
			b.noteGuard(n.Left)
		}
	}
	return true
}

func (b *scopeBuilder) forDecl(n ast.Node, into ast.ForInto) {
	if d, ok := into.(*ast.ForDeclaration); ok {
		s := newScope(b.cur(), b.m)
		s.declareTarget(d.Target, nil, nil, true)
		b.loopVars(n, s)
		b.push(n, s)
	}
}

func (b *scopeBuilder) Leave(n any) {
	if k := len(b.owners) - 1; k >= 0 && b.owners[k] == n {
		b.stack, b.owners = b.stack[:k], b.owners[:k]
	}
}

// scopeOf returns the scope n opens, if any. Only the node kinds that can
// open one are looked up: a map lookup keyed by an interface on every node
// of every walk cost 13 % of the whole analysis natively, more in wasm.
func (m *moduleInfo) scopeOf(n any) (*scope, bool) {
	switch n.(type) {
	case *ast.Program, *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.BlockStatement,
		*ast.CatchStatement, *ast.ForStatement, *ast.ForInStatement, *ast.ForOfStatement:
		s, ok := m.scopes[n]
		return s, ok
	}
	return nil, false
}

// free reports whether name is not declared in the current scope chain
// (a CommonJS free variable such as module, exports or require).
func (b *scopeBuilder) free(name string) bool { return b.cur().lookup(name) == nil }

func (b *scopeBuilder) assignment(n *ast.AssignExpression) {
	if n.Operator != token.ASSIGN {
		return
	}
	switch l := n.Left.(type) {
	case *ast.Identifier:
		if bd := b.cur().lookup(string(l.Name)); bd != nil {
			bd.more().assigned = append(bd.assigned(), assignment{expr: n.Right, scope: b.cur()})
		}
	case *ast.PrivateDotExpression:
		// this.#field = v: private fields are this-members named with their #.
		if _, this := l.Left.(*ast.ThisExpression); this {
			name := "#" + string(l.Identifier.Name)
			b.m.thisAssign[name] = append(b.m.thisAssign[name], assignment{expr: n.Right, scope: b.cur()})
		}
	case *ast.DotExpression:
		name := string(l.Identifier.Name)
		switch left := l.Left.(type) {
		case *ast.ThisExpression:
			b.m.thisAssign[name] = append(b.m.thisAssign[name], assignment{expr: n.Right, scope: b.cur()})
		case *ast.Identifier:
			if left.Name == "module" && name == "exports" && b.free("module") {
				b.m.exports = append(b.m.exports, exportDef{name: "", expr: n.Right, scope: b.cur()})
			}
			if left.Name == "exports" && b.free("exports") {
				b.m.exports = append(b.m.exports, exportDef{name: name, expr: n.Right, scope: b.cur()})
			}
		case *ast.DotExpression:
			if id, ok := left.Left.(*ast.Identifier); ok && id.Name == "module" && left.Identifier.Name == "exports" && b.free("module") {
				b.m.exports = append(b.m.exports, exportDef{name: name, expr: n.Right, scope: b.cur()})
			}
		}
	case *ast.BracketExpression:
		if id, ok := l.Left.(*ast.Identifier); ok && id.Name == "exports" && b.free("exports") {
			if k, ok := l.Member.(*ast.StringLiteral); ok {
				b.m.exports = append(b.m.exports, exportDef{name: string(k.Value), expr: n.Right, scope: b.cur()})
			}
		}
	}
	b.memberAssignment(n)
}

// fieldAssign records an instance field with an initializer (`x = v`,
// `#x = v`) as the assignment to this.x it is when an instance is built.
func (b *scopeBuilder) fieldAssign(n *ast.FieldDefinition) {
	if n.Static || n.Initializer == nil || n.Computed {
		return
	}
	var name string
	switch k := n.Key.(type) {
	case *ast.PrivateIdentifier:
		name = "#" + string(k.Name)
	case *ast.Identifier:
		name = string(k.Name)
	case *ast.StringLiteral:
		name = string(k.Value)
	default:
		return
	}
	b.m.thisAssign[name] = append(b.m.thisAssign[name], assignment{expr: n.Initializer, scope: b.cur()})
}

// getterAssign records what an instance getter returns (get win() {
// return this._win }) as an assignment to this.<name>: reading the member
// runs it. Returns of nothing (undefined, null) are left out — under ?. they
// mean no receiver, not another value.
func (b *scopeBuilder) getterAssign(n *ast.MethodDefinition) {
	if n.Static || n.Kind != ast.PropertyKindGet || n.Body == nil || n.Body.Body == nil {
		return
	}
	name, ok := staticKey(n.Key, n.Computed)
	if !ok {
		if k, isPrivate := n.Key.(*ast.PrivateIdentifier); isPrivate {
			name, ok = "#"+string(k.Name), true
		}
	}
	if !ok {
		return
	}
	var returns []ast.Expression
	collectReturns(n.Body.Body.List, &returns)
	for _, r := range returns {
		if r == nil || isNothing(r) {
			continue
		}
		b.m.thisAssign[name] = append(b.m.thisAssign[name], assignment{expr: r, scope: b.cur()})
	}
}

// isNothing reports whether x is undefined, void 0 or null.
func isNothing(x ast.Expression) bool {
	switch x := x.(type) {
	case *ast.Identifier:
		return x.Name == "undefined"
	case *ast.NullLiteral:
		return true
	case *ast.UnaryExpression:
		return x.Operator == token.VOID
	}
	return false
}

// memberAssignment records `x.a.b = v` against the binding of x, so that
// options objects completed after their literal (prefs.webSecurity = false)
// are seen with the assigned value.
func (b *scopeBuilder) memberAssignment(n *ast.AssignExpression) {
	var path []string
	x := n.Left
	for {
		switch l := x.(type) {
		case *ast.DotExpression:
			path = append(path, string(l.Identifier.Name))
			x = l.Left
			continue
		case *ast.BracketExpression:
			k, ok := l.Member.(*ast.StringLiteral)
			if !ok {
				return
			}
			path = append(path, string(k.Value))
			x = l.Left
			continue
		case *ast.Identifier:
			if len(path) == 0 || len(path) > 8 {
				return
			}
			bd := b.cur().lookup(string(l.Name))
			if bd == nil || bd.opaque {
				return
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			if len(bd.members()) < 64 {
				bd.more().members = append(bd.members(), memberAssignment{path: path, expr: n.Right, scope: b.cur()})
			}
		case *ast.ThisExpression:
			// this.options.webPreferences = {…}: a member of a this-member
			// (this.x = v itself is a this-assignment).
			if len(path) < 2 || len(path) > 8 {
				return
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			name := path[0]
			if len(b.m.thisMembers[name]) < 64 {
				if b.m.thisMembers == nil {
					b.m.thisMembers = map[string][]memberAssignment{}
				}
				b.m.thisMembers[name] = append(b.m.thisMembers[name], memberAssignment{path: path[1:], expr: n.Right, scope: b.cur()})
			}
		}
		return
	}
}

func (b *scopeBuilder) call(n *ast.CallExpression) {
	b.noteIteration(n)
	switch callee := n.Callee.(type) {
	case *ast.Identifier:
		switch callee.Name {
		case "__export": // esbuild: __export(target, { name: () => local })
			if len(n.ArgumentList) == 2 {
				if obj, ok := n.ArgumentList[1].(*ast.ObjectLiteral); ok {
					for _, p := range obj.Value {
						kp, ok := p.(*ast.PropertyKeyed)
						if !ok {
							continue
						}
						key, ok := staticKey(kp.Key, kp.Computed)
						if !ok {
							continue
						}
						if arrow, ok := kp.Value.(*ast.ArrowFunctionLiteral); ok {
							if body, ok := arrow.Body.(*ast.ExpressionBody); ok {
								b.m.exports = append(b.m.exports, exportDef{name: key, expr: body.Expression, scope: b.cur()})
							}
						}
					}
				}
			}
		case "__reExport": // esbuild: __reExport(target, require("x"), module.exports)
			if len(n.ArgumentList) >= 2 {
				b.m.reExports = append(b.m.reExports, assignment{expr: n.ArgumentList[1], scope: b.cur()})
			}
		case "__exportStar": // tsc: __exportStar(require("x"), exports)
			if len(n.ArgumentList) >= 1 {
				b.m.reExports = append(b.m.reExports, assignment{expr: n.ArgumentList[0], scope: b.cur()})
			}
		}
	case *ast.DotExpression:
		// Object.defineProperty(exports, "X", { get: function () { return e; } })
		obj, ok := callee.Left.(*ast.Identifier)
		if !ok || obj.Name != "Object" || callee.Identifier.Name != "defineProperty" || len(n.ArgumentList) != 3 {
			break
		}
		target, ok := n.ArgumentList[0].(*ast.Identifier)
		key, ok2 := n.ArgumentList[1].(*ast.StringLiteral)
		desc, ok3 := n.ArgumentList[2].(*ast.ObjectLiteral)
		if !ok || !ok2 || !ok3 || target.Name != "exports" || !b.free("exports") {
			break
		}
		for _, p := range desc.Value {
			kp, ok := p.(*ast.PropertyKeyed)
			if !ok {
				continue
			}
			k, _ := staticKey(kp.Key, kp.Computed)
			switch k {
			case "value":
				b.m.exports = append(b.m.exports, exportDef{name: string(key.Value), expr: kp.Value, scope: b.cur()})
			case "get":
				if e := singleReturn(kp.Value); e != nil {
					b.m.exports = append(b.m.exports, exportDef{name: string(key.Value), expr: e, scope: b.cur()})
				}
			}
		}
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		// TypeScript enums: (function (E) { E["A"] = "a"; })(E || (exports.E = E = {}));
		if len(n.ArgumentList) == 1 {
			if or, ok := n.ArgumentList[0].(*ast.BinaryExpression); ok && or.Operator == token.LOGICAL_OR {
				if id, ok := or.Left.(*ast.Identifier); ok {
					if bd := b.cur().lookup(string(id.Name)); bd != nil && bd.init == nil {
						bd.more().populators = append(bd.populators(), n)
					}
				}
			}
		}
	}
}

// singleReturn returns the expression a getter function returns directly.
func singleReturn(e ast.Expression) ast.Expression {
	switch f := e.(type) {
	case *ast.FunctionLiteral:
		if f.Body != nil && len(f.Body.List) == 1 {
			if r, ok := f.Body.List[0].(*ast.ReturnStatement); ok {
				return r.Argument
			}
		}
	case *ast.ArrowFunctionLiteral:
		if body, ok := f.Body.(*ast.ExpressionBody); ok {
			return body.Expression
		}
	}
	return nil
}

func newModuleInfo(p string, pf *parsedFile, sha string, size int) *moduleInfo {
	return &moduleInfo{
		path: p, dir: path.Dir(p), sha: sha, size: size, pf: pf,
		scopes: map[any]*scope{}, thisAssign: map[string][]assignment{},
		exportCache: map[string]value{}, exportBusy: map[string]bool{}, roles: map[string]bool{},
	}
}

// buildScopes runs the first pass over m with an AST node budget.
func buildScopes(m *moduleInfo, budget int) {
	b := &scopeBuilder{m: m, budget: budget}
	walk(b, m.pf.prog)
}
