package jsengine

import (
	"github.com/dop251/goja/ast"
)

// First-pass facts for the value alternatives and IPC wrappers: which
// collection a loop variable runs over, which allow-list guards a
// parameter, and which functions pass a parameter on as an IPC channel
// (their names let the second pass evaluate only the calls that may be
// wrapper calls).

// iterationMethods call their callback with each element of the receiver.
var iterationMethods = map[string]bool{"forEach": true, "map": true, "flatMap": true, "some": true, "every": true, "filter": true}

// enterFunction gives the first parameter of a forEach-like callback the
// receiver's elements, and names a named function expression.
func (b *scopeBuilder) enterFunction(n ast.Node, s *scope, pl *ast.ParameterList) {
	if f, ok := n.(*ast.FunctionLiteral); ok && f.Name != nil {
		b.setName(n, string(f.Name.Name))
	}
	it, ok := b.iters[n]
	if !ok || pl == nil || len(pl.List) == 0 {
		return
	}
	delete(b.iters, n)
	first := pl.List[0]
	lo, hi := first.Idx0(), first.Idx1()
	for _, v := range s.vars {
		if v.declAt != nil && v.declAt.Idx0() >= lo && v.declAt.Idx0() < hi {
			it := it
			v.more().iter = &it
		}
	}
}

// noteIteration remembers ARR.forEach(cb): cb's first parameter runs over
// ARR (Object.keys/values/entries(X) fold to arrays).
func (b *scopeBuilder) noteIteration(n *ast.CallExpression) {
	d, ok := n.Callee.(*ast.DotExpression)
	if !ok || len(n.ArgumentList) == 0 || !iterationMethods[string(d.Identifier.Name)] {
		return
	}
	switch n.ArgumentList[0].(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
	default:
		return
	}
	if b.iters == nil {
		b.iters = map[ast.Node]iteration{}
	}
	b.iters[n.ArgumentList[0]] = iteration{expr: d.Left, scope: b.cur()}
}

// loopVars gives for…of / for…in variables their collection.
func (b *scopeBuilder) loopVars(n ast.Node, s *scope) {
	var it iteration
	switch n := n.(type) {
	case *ast.ForOfStatement:
		it = iteration{expr: n.Source, scope: b.cur()}
	case *ast.ForInStatement:
		it = iteration{expr: n.Source, scope: b.cur(), keys: true}
	default:
		return
	}
	for _, v := range s.vars {
		it := it
		v.more().iter = &it
	}
}

// noteGuard records an allow-list test on a parameter.
func (b *scopeBuilder) noteGuard(test ast.Expression) {
	list, id, _ := allowListTest(test)
	if list == nil {
		return
	}
	bd := b.cur().lookup(string(id.Name))
	if bd == nil || !bd.opaque || bd.extra != nil && len(bd.extra.guards) >= 4 {
		return
	}
	bd.more().guards = append(bd.more().guards, allowGuard{list: list, scope: b.cur(), test: test})
}

func (b *scopeBuilder) setName(n any, name string) {
	if b.fnNames == nil {
		b.fnNames = map[any]string{}
	}
	if _, ok := b.fnNames[n]; !ok {
		b.fnNames[n] = name
	}
}

func isFunctionNode(x ast.Expression) bool {
	switch x.(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		return true
	}
	return false
}

// nameFunction names a function bound as a method, property, field or
// variable.
func (b *scopeBuilder) nameFunction(n any) {
	switch n := n.(type) {
	case *ast.MethodDefinition:
		if k, ok := staticKey(n.Key, n.Computed); ok && n.Body != nil {
			b.setName(n.Body, k)
		}
	case *ast.PropertyKeyed:
		if k, ok := staticKey(n.Key, n.Computed); ok && isFunctionNode(n.Value) {
			b.setName(n.Value, k)
		}
	case *ast.FieldDefinition:
		if k, ok := staticKey(n.Key, n.Computed); ok && isFunctionNode(n.Initializer) {
			b.setName(n.Initializer, k)
		}
	case *ast.Binding:
		if id, ok := n.Target.(*ast.Identifier); ok && isFunctionNode(n.Initializer) {
			b.setName(n.Initializer, string(id.Name))
		}
	}
}

// nameAssigned names a function assigned to a name or member.
func (b *scopeBuilder) nameAssigned(n *ast.AssignExpression) {
	if !isFunctionNode(n.Right) {
		return
	}
	switch l := n.Left.(type) {
	case *ast.Identifier:
		b.setName(n.Right, string(l.Name))
	case *ast.DotExpression:
		b.setName(n.Right, string(l.Identifier.Name))
	}
}

// paramRoot returns the parameter binding a channel expression is built
// from: the parameter itself, an element destructured from a rest
// parameter, a template or concatenation around it, or a spread of it.
func paramRoot(x ast.Expression, s *scope) *binding {
	switch x := x.(type) {
	case *ast.Identifier:
		bd := s.lookup(string(x.Name))
		if bd == nil {
			return nil
		}
		if bd.opaque {
			return bd
		}
		if id, ok := bd.init.(*ast.Identifier); ok && len(bd.path) > 0 {
			if r := s.lookup(string(id.Name)); r != nil && r.opaque {
				return r
			}
		}
	case *ast.TemplateLiteral:
		for _, e := range x.Expressions {
			if r := paramRoot(e, s); r != nil {
				return r
			}
		}
	case *ast.BinaryExpression:
		if r := paramRoot(x.Left, s); r != nil {
			return r
		}
		return paramRoot(x.Right, s)
	case *ast.SpreadElement:
		return paramRoot(x.Expression, s)
	}
	return nil
}

// noteWrapper names the function whose parameter is the channel of an IPC
// method call (or of a call to a function of the same module already
// known to be a wrapper).
func (b *scopeBuilder) noteWrapper(n *ast.CallExpression) {
	name := calleeName(n.Callee)
	idx, ok := ipcChannelArgs[name]
	if _, dot := n.Callee.(*ast.DotExpression); !ok || !dot {
		// A parameter passed on to another function of the application
		// may reach a channel there (sendAction(ch) → send(win.webContents,
		// ch)): the function is a possible wrapper, settled when its body
		// is summarised.
		if !b.forwardingCallee(n.Callee) {
			return
		}
		idx = forwardedArgs
	}
	for _, i := range idx {
		if i >= len(n.ArgumentList) {
			continue
		}
		r := paramRoot(n.ArgumentList[i], b.cur())
		if r == nil {
			continue
		}
		for k := len(b.stack) - 1; k >= 0; k-- {
			if b.stack[k] != r.scope {
				continue
			}
			if fname, ok := b.fnNames[b.owners[k]]; ok {
				if b.m.wrapperNames == nil {
					b.m.wrapperNames = map[string]bool{}
				}
				b.m.wrapperNames[fname] = true
			}
			break
		}
	}
}

// forwardedArgs are the argument positions a forwarded channel is looked
// for in.
var forwardedArgs = []int{0, 1, 2}

// forwardingCallee reports whether a call's callee may be a function of the
// application: a plain name, esbuild's `(0, import_x.f)`, or a member of a
// required module.
func (b *scopeBuilder) forwardingCallee(x ast.Expression) bool {
	switch c := x.(type) {
	case *ast.Identifier:
		return true
	case *ast.SequenceExpression:
		return len(c.Sequence) > 0
	case *ast.DotExpression:
		if thisRooted(c) {
			return true // this.send(ch), this.win?.sendToRenderer(ch): methods of the application's classes
		}
		root := rootIdent(c)
		if root == nil {
			return false
		}
		bd := b.cur().lookup(string(root.Name))
		return bd != nil && bd.init != nil && requireCall(bd.init) != nil
	}
	return false
}

// thisRooted reports whether a member chain starts at this
// (this.a.b, this.a?.b).
func thisRooted(x ast.Expression) bool {
	for i := 0; i < 16; i++ {
		switch c := unwrapOptional(x).(type) {
		case *ast.ThisExpression:
			return true
		case *ast.DotExpression:
			x = c.Left
		default:
			return false
		}
	}
	return false
}
