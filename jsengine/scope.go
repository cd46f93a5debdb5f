package jsengine

import (
	"github.com/dop251/goja/ast"
)

// scope is a lexical scope: a program, a function or a block.
type scope struct {
	parent *scope
	// vars are the declared bindings in order; most scopes (function
	// parameters, blocks) hold a few, searched linearly: a map per scope
	// was a large share of the first pass's allocations. index takes over
	// once a scope grows past smallScope.
	vars  []*binding
	index map[string]*binding
	mod   *moduleInfo
}

const smallScope = 8

// get returns the binding of name declared in s itself.
func (s *scope) get(name string) *binding {
	if s.index != nil {
		return s.index[name]
	}
	for _, b := range s.vars {
		if b.name == name {
			return b
		}
	}
	return nil
}

// binding is one declared name and where its value comes from. It is kept
// small: every parameter of every function is one, and the rare facts
// (later assignments, enum populators, a preset value) live in extra.
type binding struct {
	name  string
	scope *scope
	// init is the initializer, with path the destructuring path inside it
	// (property names; "[i]" for array elements).
	init ast.Expression
	path []string
	// fn is the declared function or class.
	fn     ast.Node
	declAt ast.Node
	extra  *bindingExtra
	opaque bool // a parameter or loop variable with no known value
}

type bindingExtra struct {
	// assigned holds later plain assignments (x = expr) seen anywhere.
	assigned []assignment
	// members holds later member assignments (x.a.b = expr).
	members []memberAssignment
	// populators are enum-style IIFEs that fill this name (TS enums).
	populators []*ast.CallExpression
	// preset is a value bound directly (parameters of an evaluated helper).
	preset *value
	// iter is the collection a loop variable or forEach parameter runs
	// over; guards are allow-list tests on a parameter (alternatives.go).
	iter   *iteration
	guards []allowGuard
}

// more returns the binding's extra facts, creating them.
func (b *binding) more() *bindingExtra {
	if b.extra == nil {
		b.extra = &bindingExtra{}
	}
	return b.extra
}

func (b *binding) assigned() []assignment {
	if b.extra == nil {
		return nil
	}
	return b.extra.assigned
}

func (b *binding) members() []memberAssignment {
	if b.extra == nil {
		return nil
	}
	return b.extra.members
}

func (b *binding) populators() []*ast.CallExpression {
	if b.extra == nil {
		return nil
	}
	return b.extra.populators
}

func (b *binding) preset() *value {
	if b.extra == nil {
		return nil
	}
	return b.extra.preset
}

type assignment struct {
	expr  ast.Expression
	scope *scope
}

type memberAssignment struct {
	path  []string
	expr  ast.Expression
	scope *scope
}

func newScope(parent *scope, mod *moduleInfo) *scope {
	return &scope{parent: parent, mod: mod} // vars allocated on first declaration
}

func (s *scope) lookup(name string) *binding {
	for c := s; c != nil; c = c.parent {
		if b := c.get(name); b != nil {
			return b
		}
	}
	return nil
}

func (s *scope) declare(name string, b *binding) {
	if s.get(name) != nil {
		// A redeclaration (var twice, or a function and a var): keep the
		// first; later assignments are still collected.
		b.name, b.scope = name, s
		return
	}
	b.name, b.scope = name, s
	s.vars = append(s.vars, b)
	switch {
	case s.index != nil:
		s.index[name] = b
	case len(s.vars) > smallScope:
		s.index = make(map[string]*binding, 2*len(s.vars))
		for _, v := range s.vars {
			s.index[v.name] = v
		}
	}
}

// declareTarget binds every name in a binding target to init at its path.
// t is any: targets arrive as BindingTarget, Expression or Property values,
// and converting between those interfaces is a lookup per call in wasm.
func (s *scope) declareTarget(t any, init ast.Expression, p []string, opaque bool) {
	switch t := t.(type) {
	case *ast.Identifier:
		s.declare(string(t.Name), &binding{init: init, path: p, declAt: t, opaque: opaque && init == nil})
	case *ast.ObjectPattern:
		for _, prop := range t.Properties {
			switch prop := prop.(type) {
			case *ast.PropertyShort:
				s.declare(string(prop.Name.Name), &binding{init: init, path: appendPath(p, string(prop.Name.Name)), declAt: &prop.Name, opaque: opaque && init == nil})
			case *ast.PropertyKeyed:
				key, ok := staticKey(prop.Key, prop.Computed)
				if !ok {
					s.declareTarget(prop.Value, nil, nil, true)
					continue
				}
				s.declareTarget(prop.Value, init, appendPath(p, key), opaque)
			}
		}
		if t.Rest != nil {
			s.declareTarget(t.Rest, nil, nil, true)
		}
	case *ast.ArrayPattern:
		for i, el := range t.Elements {
			if el != nil {
				s.declareTarget(el, init, appendPath(p, "["+itoa(i)+"]"), opaque)
			}
		}
		if t.Rest != nil {
			s.declareTarget(t.Rest, nil, nil, true)
		}
	case *ast.AssignExpression: // default value in a pattern
		s.declareTarget(t.Left, init, p, opaque)
	case *ast.Binding:
		s.declareTarget(t.Target, init, p, opaque)
	}
}

func appendPath(p []string, k string) []string {
	out := make([]string, len(p), len(p)+1)
	copy(out, p)
	return append(out, k)
}

// staticKey returns a property key known without evaluation.
func staticKey(k ast.Expression, computed bool) (string, bool) {
	switch k := k.(type) {
	case *ast.StringLiteral:
		return string(k.Value), true
	case *ast.Identifier:
		if !computed {
			return string(k.Name), true
		}
	case *ast.NumberLiteral:
		return k.Literal, true
	}
	return "", false
}

// declareFunctionScope binds parameters (opaque) and hoisted declarations of
// a function body.
func declareParams(s *scope, pl *ast.ParameterList) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		s.declareTarget(b.Target, nil, nil, true)
	}
	if pl.Rest != nil {
		s.declareTarget(pl.Rest, nil, nil, true)
	}
}

// hoist declares the var-scoped names found in stmts (not entering nested
// functions) and, when lexical is set, the let/const/function/class names
// declared directly in stmts.
func hoist(s *scope, stmts []ast.Statement, lexical bool) {
	for _, st := range stmts {
		hoistStatement(s, st, lexical)
	}
}

func hoistStatement(s *scope, st ast.Statement, lexical bool) {
	switch st := st.(type) {
	case *ast.VariableStatement:
		for _, b := range st.List {
			s.declareTarget(b.Target, b.Initializer, nil, false)
		}
	case *ast.LexicalDeclaration:
		if lexical {
			for _, b := range st.List {
				s.declareTarget(b.Target, b.Initializer, nil, false)
			}
		}
	case *ast.FunctionDeclaration:
		if lexical && st.Function != nil && st.Function.Name != nil {
			s.declare(string(st.Function.Name.Name), &binding{fn: st.Function, declAt: st.Function.Name})
		}
	case *ast.ClassDeclaration:
		if lexical && st.Class != nil && st.Class.Name != nil {
			s.declare(string(st.Class.Name.Name), &binding{fn: st.Class, declAt: st.Class.Name})
		}
	// var declarations nested in blocks belong to the function scope.
	case *ast.BlockStatement:
		hoistVars(s, st.List)
	case *ast.IfStatement:
		hoistVars(s, []ast.Statement{st.Consequent, st.Alternate})
	case *ast.ForStatement:
		if in, ok := st.Initializer.(*ast.ForLoopInitializerVarDeclList); ok {
			for _, b := range in.List {
				s.declareTarget(b.Target, nil, nil, true)
			}
		}
		hoistVars(s, []ast.Statement{st.Body})
	case *ast.ForInStatement:
		hoistForInto(s, st.Into)
		hoistVars(s, []ast.Statement{st.Body})
	case *ast.ForOfStatement:
		hoistForInto(s, st.Into)
		hoistVars(s, []ast.Statement{st.Body})
	case *ast.WhileStatement:
		hoistVars(s, []ast.Statement{st.Body})
	case *ast.DoWhileStatement:
		hoistVars(s, []ast.Statement{st.Body})
	case *ast.TryStatement:
		if st.Body != nil {
			hoistVars(s, st.Body.List)
		}
		if st.Catch != nil && st.Catch.Body != nil {
			hoistVars(s, st.Catch.Body.List)
		}
		if st.Finally != nil {
			hoistVars(s, st.Finally.List)
		}
	case *ast.SwitchStatement:
		for _, c := range st.Body {
			hoistVars(s, c.Consequent)
		}
	case *ast.LabelledStatement:
		hoistVars(s, []ast.Statement{st.Statement})
	}
}

func hoistVars(s *scope, stmts []ast.Statement) {
	for _, st := range stmts {
		if st != nil {
			hoistStatement(s, st, false)
		}
	}
}

func hoistForInto(s *scope, into ast.ForInto) {
	if v, ok := into.(*ast.ForIntoVar); ok && v.Binding != nil {
		s.declareTarget(v.Binding.Target, nil, nil, true)
	}
}

func itoa(i int) string {
	if i >= 0 && i < 10 {
		return string(rune('0' + i))
	}
	return formatInt(i)
}
