package jsengine

import (
	"fmt"
	"path"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// Parameter values from callers. A window's options often arrive through
// a parameter: createWindow(preloadPath), or new Manager({preload}) whose
// constructor keeps opts.preload on this. When the evaluation of a
// window's options meets a parameter with no value, the value is what the
// function's call sites pass: every call whose callee names the function
// and is the function (a local binding evaluated to it, or a require of
// its module, named as it is declared), in the caller's scope. A caller
// that only spreads its own rest parameter on (`(...args) => new C(...args)`)
// is followed to its callers in turn.
//
// Callers are read from fresh parses of their files, never from the
// analysis' own trees, which are pruned or retired by the time a later
// module asks: the answer is the same whatever the order of analysis. The
// search is bounded (files, depth); a parameter whose callers were not
// all read stays unknown, and a value found is inferred, with a step
// naming each call site it came from.

const (
	// maxCallerFiles bounds the files re-parsed for one engine's
	// parameter questions; maxCallerBytes bounds their total size.
	maxCallerFiles = 32
	maxCallerBytes = 2 << 20
	// maxCallSites bounds the call sites one parameter combines.
	maxCallSites = 8
	// maxCallerScan bounds the bytes of text searched for callers over
	// one analysis (each question searches every file's text once), so
	// thousands of windows built by as many helpers cannot make the
	// search the analysis' main cost.
	maxCallerScan = 256 << 20
)

// fnTarget is a function whose parameters are asked about: the function
// literal, the module it is in, the name calls use and, for a class
// constructor, the class.
type fnTarget struct {
	fn    ast.Node // *ast.FunctionLiteral or *ast.ArrowFunctionLiteral
	mod   *moduleInfo
	name  string
	class *ast.ClassLiteral // the class fn constructs
	owner *ast.ClassLiteral // the class fn is a method (or arrow field) of
}

// paramFromCallers gives the value parameter binding b receives from the
// call sites of its function, when every step can be followed.
func (e *engine) paramFromCallers(b *binding, c evalCtx) (value, bool) {
	if c.callDepth >= maxCallDepth {
		return value{}, false
	}
	m := b.scope.mod
	fn := e.functionOf(b.scope)
	if fn == nil {
		return value{}, false
	}
	pl := paramList(fn)
	if pl == nil {
		return value{}, false
	}
	index := -1
	for i, p := range pl.List {
		if within(p.Target, b.declAt) {
			index = i
			break
		}
	}
	if index < 0 {
		return value{}, false // the rest parameter, or not a parameter
	}
	t, ok := e.targetOf(m, fn)
	if !ok {
		return value{}, false
	}
	v, ok := e.argumentOf(t, index, b.name, c)
	if !ok {
		return value{}, false
	}
	for _, k := range b.path {
		v = e.member(v, k, c, m, b.declAt)
	}
	return v, v.known() || len(v.alts) > 0
}

// argumentOf combines the argument at index of every call of t; expr is
// the parameter's text, what the value reads as when the calls disagree.
func (e *engine) argumentOf(t fnTarget, index int, expr string, c evalCtx) (value, bool) {
	key := fmt.Sprintf("%s\x00%d\x00%d", t.mod.path, t.fn.Idx0(), index)
	if v, ok := e.paramAnswers[key]; ok {
		return v, true
	}
	if e.paramBusy[key] {
		e.cuts++
		return value{}, false
	}
	if e.paramBusy == nil {
		e.paramBusy, e.paramAnswers = map[string]bool{}, map[string]value{}
	}
	e.paramBusy[key] = true
	defer delete(e.paramBusy, key)
	v, ok := e.combineCallers(t, index, expr, c)
	if ok {
		e.paramAnswers[key] = v
	}
	return v, ok
}

// combineCallers evaluates the argument at index of each call of t.
func (e *engine) combineCallers(t fnTarget, index int, expr string, c evalCtx) (value, bool) {
	c.callDepth++
	var found []alt
	for _, caller := range e.callerModules(t) {
		if caller == nil {
			return value{}, false // a candidate file could not be read: the answer would be partial
		}
		sites, handedOn := findCalls(caller, t.name)
		if handedOn {
			// The function is also passed on as a value (then(createWindow),
			// app.on('ready', createWindow)): whoever calls it there passes
			// arguments the call sites do not show.
			return value{}, false
		}
		for _, site := range sites {
			if !e.callsTarget(caller, site, t) {
				continue
			}
			v, ok := e.argumentAt(caller, site, index, expr, c)
			if !ok {
				return value{}, false
			}
			if v.kind == kUndefined {
				v = e.defaultParam(t, index, c)
			}
			l := caller.pf.loc(nameAt(site.callee))
			found = append(found, alt{v: v.withStep(Step{Description: fmt.Sprintf("the argument passed to `%s` at %s", t.name, locText(l)), Location: l}),
				cond: "when called at " + locText(l)})
			if len(found) > maxCallSites {
				return value{}, false
			}
		}
	}
	if len(found) == 0 {
		return value{}, false
	}
	acc := found[0].v
	for _, s := range found[1:] {
		j, ok := joinValues(acc, s.v)
		if !ok {
			return withAlts(expr, found), true
		}
		acc = j
	}
	acc.inferred = true
	return acc, true
}

// defaultParam is the value parameter index of t takes when a call passes
// none: its default, else undefined.
func (e *engine) defaultParam(t fnTarget, index int, c evalCtx) value {
	pl := paramList(t.fn)
	if pl == nil || index >= len(pl.List) || pl.List[index].Initializer == nil {
		return value{kind: kUndefined}
	}
	s, ok := t.mod.scopeOf(t.fn)
	if !ok {
		return unknown(t.mod.pf.text(pl.List[index].Initializer, 80))
	}
	return e.eval(t.mod, s, pl.List[index].Initializer, c)
}

// argumentAt evaluates the argument at index of one call site. A spread
// of the enclosing function's rest parameter asks that function's callers.
func (e *engine) argumentAt(m *moduleInfo, site callSite, index int, expr string, c evalCtx) (value, bool) {
	for j, a := range site.args {
		sp, ok := a.(*ast.SpreadElement)
		if !ok {
			if j == index {
				return e.eval(m, site.scope, a, c), true
			}
			continue
		}
		if j > index {
			break
		}
		id, ok := sp.Expression.(*ast.Identifier)
		if !ok {
			return value{}, false
		}
		rb := site.scope.lookup(string(id.Name))
		if rb == nil || !rb.opaque {
			return value{}, false
		}
		fn := e.functionOf(rb.scope)
		pl := paramList(fn)
		if pl == nil || pl.Rest == nil || !within(pl.Rest, rb.declAt) {
			return value{}, false
		}
		t, ok := e.targetOf(rb.scope.mod, fn)
		if !ok {
			return value{}, false
		}
		return e.argumentOf(t, len(pl.List)+index-j, expr, c)
	}
	if index >= len(site.args) {
		return value{kind: kUndefined}, true
	}
	return value{}, false
}

// functionOf finds the function whose parameters scope s holds.
func (e *engine) functionOf(s *scope) ast.Node {
	m := s.mod
	if m == nil || m.scopes == nil || m.pf == nil || m.pf.prog == nil {
		return nil
	}
	if e.scopeFns == nil {
		e.scopeFns = map[*scope]ast.Node{}
		e.scopeFnsRead = map[*moduleInfo]bool{}
	}
	if !e.scopeFnsRead[m] {
		e.scopeFnsRead[m] = true
		for n, sc := range m.scopes {
			switch n := n.(type) {
			case *ast.FunctionLiteral:
				e.scopeFns[sc] = n
			case *ast.ArrowFunctionLiteral:
				e.scopeFns[sc] = n
			}
		}
	}
	return e.scopeFns[s]
}

func paramList(fn ast.Node) *ast.ParameterList {
	switch f := fn.(type) {
	case *ast.FunctionLiteral:
		return f.ParameterList
	case *ast.ArrowFunctionLiteral:
		return f.ParameterList
	}
	return nil
}

// within reports whether node x lies within node outer.
func within(outer, x ast.Node) bool {
	if outer == nil || x == nil {
		return false
	}
	return outer.Idx0() <= x.Idx0() && x.Idx1() <= outer.Idx1()
}

// targetOf names fn as its callers call it: its own name, the variable,
// property, method or assignment it is bound to, or for a constructor its
// class's name.
func (e *engine) targetOf(m *moduleInfo, fn ast.Node) (fnTarget, bool) {
	t := fnTarget{fn: fn, mod: m}
	if f, ok := fn.(*ast.FunctionLiteral); ok && f.Name != nil {
		t.name = string(f.Name.Name)
		return t, true
	}
	pw := &parentWalker{target: fn}
	walk(pw, m.pf.prog)
	if pw.path == nil {
		return t, false
	}
	parent := pw.path[len(pw.path)-1]
	switch p := parent.(type) {
	case *ast.Binding:
		if id, ok := p.Target.(*ast.Identifier); ok {
			t.name = string(id.Name)
		}
	case *ast.PropertyKeyed:
		t.name, _ = staticKey(p.Key, p.Computed)
	case *ast.FieldDefinition:
		if len(pw.path) < 2 || p.Static {
			return t, false
		}
		t.owner, _ = pw.path[len(pw.path)-2].(*ast.ClassLiteral)
		t.name, _ = staticKey(p.Key, p.Computed)
	case *ast.AssignExpression:
		switch l := p.Left.(type) {
		case *ast.Identifier:
			t.name = string(l.Name)
		case *ast.DotExpression:
			t.name = string(l.Identifier.Name)
		}
	case *ast.MethodDefinition:
		if len(pw.path) < 2 {
			return t, false
		}
		cl, ok := pw.path[len(pw.path)-2].(*ast.ClassLiteral)
		if !ok {
			return t, false
		}
		key, _ := staticKey(p.Key, p.Computed)
		if p.Static {
			return t, false // called on the class, not followed
		}
		if key != "constructor" {
			t.name, t.owner = key, cl
			break
		}
		t.class = cl
		if cl.Name != nil {
			t.name = string(cl.Name.Name)
		} else if len(pw.path) >= 3 {
			if bd, ok := pw.path[len(pw.path)-3].(*ast.Binding); ok {
				if id, ok := bd.Target.(*ast.Identifier); ok {
					t.name = string(id.Name)
				}
			}
		}
	}
	return t, t.name != ""
}

// parentWalker records the ancestors of target.
type parentWalker struct {
	target ast.Node
	stack  []any
	path   []any
}

func (w *parentWalker) Enter(n any) bool {
	if w.path != nil {
		return false
	}
	if n == any(w.target) {
		w.path = append([]any(nil), w.stack...)
		return false
	}
	if nd, ok := n.(ast.Node); ok && !within(nd, w.target) {
		return false
	}
	w.stack = append(w.stack, n)
	return true
}

func (w *parentWalker) Leave(n any) {
	if k := len(w.stack) - 1; k >= 0 && w.stack[k] == n {
		w.stack = w.stack[:k]
	}
}

// callerModules are the modules that may call t: its own, and fresh
// parses of the other application files whose text names it and which
// import t's module, in queue order. A nil entry is a file the bounds
// left unread.
func (e *engine) callerModules(t fnTarget) []*moduleInfo {
	out := []*moduleInfo{t.mod}
	if e.queueBytes == 0 {
		for _, f := range e.queue {
			e.queueBytes += len(f.src)
		}
	}
	if e.callerScanned+e.queueBytes > maxCallerScan {
		return append(out, nil) // the search's budget is spent: no answer
	}
	e.callerScanned += e.queueBytes
	for _, f := range e.queue {
		if f.path == t.mod.path || strings.Contains("/"+f.path, "/node_modules/") || !strings.Contains(f.src, t.name) {
			continue
		}
		if !e.namesModule(f, t.mod.path) {
			continue
		}
		out = append(out, e.callerCopy(f))
	}
	return out
}

// namesModule reports whether f names a specifier that resolves to p.
func (e *engine) namesModule(f textFile, p string) bool {
	dir := path.Dir(f.path)
	for _, spec := range scanSpecifiers(bytesOf(f.src), maxScannedSpecifiers) {
		for _, r := range e.lexTargets(dir, spec) {
			if r == p {
				return true
			}
		}
	}
	return false
}

// callerCopy parses f afresh for a parameter question (cached).
func (e *engine) callerCopy(f textFile) *moduleInfo {
	if m, ok := e.callerCopies[f.path]; ok {
		return m
	}
	if e.callerCopies == nil {
		e.callerCopies = map[string]*moduleInfo{}
	}
	var m *moduleInfo
	if len(e.callerCopies) < maxCallerFiles && e.callerBytes+len(f.src) <= maxCallerBytes {
		e.callerBytes += len(f.src)
		if pf, err := parseJS(f.path, f.src); err == nil {
			cm := newModuleInfo(f.path, pf, f.sha, len(f.src))
			cm.copy = true
			if guard(func() { buildScopes(cm, e.opts.MaxASTNodes) }) == nil && !cm.truncated {
				m = cm
			}
		}
	}
	e.callerCopies[f.path] = m
	return m
}

// callSite is one call or new expression with the scope it is in.
type callSite struct {
	node   ast.Expression // *ast.CallExpression or *ast.NewExpression
	callee ast.Expression
	args   []ast.Expression
	scope  *scope
}

// findCalls lists the calls in m whose callee's last name is name, and
// reports whether m also passes something of that name to a call as an
// argument (the function handed on as a value).
func findCalls(m *moduleInfo, name string) ([]callSite, bool) {
	if m.pf.prog == nil {
		return nil, false
	}
	cf := &callFinder{scopeTrail: scopeTrail{m: m}, name: name}
	walk(cf, m.pf.prog)
	return cf.sites, cf.handedOn
}

// scopeTrail follows the scopes a walk of a module is in.
type scopeTrail struct {
	m      *moduleInfo
	stack  []*scope
	owners []any
}

func (t *scopeTrail) enter(n any) {
	if s, ok := t.m.scopeOf(n); ok {
		t.stack = append(t.stack, s)
		t.owners = append(t.owners, n)
	}
}

func (t *scopeTrail) leave(n any) {
	if k := len(t.owners) - 1; k >= 0 && t.owners[k] == n {
		t.stack, t.owners = t.stack[:k], t.owners[:k]
	}
}

// cur is the innermost scope, nil before the program's.
func (t *scopeTrail) cur() *scope {
	if len(t.stack) == 0 {
		return nil
	}
	return t.stack[len(t.stack)-1]
}

type callFinder struct {
	scopeTrail
	name  string
	sites []callSite
	// handedOn is set when an argument of some call names the function.
	handedOn bool
}

func (f *callFinder) Enter(n any) bool {
	f.enter(n)
	var callee ast.Expression
	var args []ast.Expression
	switch n := n.(type) {
	case *ast.CallExpression:
		callee, args = n.Callee, n.ArgumentList
	case *ast.NewExpression:
		callee, args = n.Callee, n.ArgumentList
	default:
		return true
	}
	for _, a := range args {
		if lastName(a) == f.name {
			f.handedOn = true
		}
	}
	if lastName(callee) == f.name && f.cur() != nil {
		f.sites = append(f.sites, callSite{node: n.(ast.Expression), callee: callee, args: args, scope: f.cur()})
	}
	return true
}

func (f *callFinder) Leave(n any) { f.leave(n) }

// lastName is the name a callee ends in: f, a.b.f, (0, a.f).
func lastName(x ast.Expression) string {
	switch x := x.(type) {
	case *ast.Identifier:
		return string(x.Name)
	case *ast.DotExpression:
		return string(x.Identifier.Name)
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return lastName(x.Sequence[len(x.Sequence)-1])
		}
	}
	return ""
}

// nameAt is where a callee's last name is written: the position a
// source map surely maps (esbuild's `(0, m.f)(…)` has no original for its
// parenthesis).
func nameAt(x ast.Expression) file.Idx {
	switch x := x.(type) {
	case *ast.DotExpression:
		return x.Identifier.Idx
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return nameAt(x.Sequence[len(x.Sequence)-1])
		}
	}
	return x.Idx0()
}

// callsTarget reports whether site calls t: a local name bound to t, or
// t's name read from a require of t's module.
func (e *engine) callsTarget(m *moduleInfo, site callSite, t fnTarget) bool {
	_, isNew := site.node.(*ast.NewExpression)
	if (t.class != nil) != isNew {
		return false
	}
	callee := site.callee
	if sq, ok := callee.(*ast.SequenceExpression); ok && len(sq.Sequence) > 0 {
		callee = sq.Sequence[len(sq.Sequence)-1]
	}
	switch x := callee.(type) {
	case *ast.Identifier:
		b := site.scope.lookup(string(x.Name))
		if b == nil {
			return false
		}
		if m.path == t.mod.path {
			return sameFunction(b, t)
		}
		return len(b.path) == 1 && b.path[0] == t.name && e.requires(m, b.init, t.mod.path)
	case *ast.DotExpression:
		if t.owner != nil {
			return m.path == t.mod.path && e.receiverIs(site, x.Left, t.owner)
		}
		id, ok := x.Left.(*ast.Identifier)
		if !ok {
			return false
		}
		b := site.scope.lookup(string(id.Name))
		return b != nil && len(b.path) == 0 && e.requires(m, b.init, t.mod.path)
	}
	return false
}

// receiverIs reports whether x, the receiver of a method call in the
// class's own module, is an instance of class cl: this inside cl's body,
// or a name bound to new C(…) where C is bound to cl. Any other receiver's
// class is not followed.
func (e *engine) receiverIs(site callSite, x ast.Expression, cl *ast.ClassLiteral) bool {
	switch x := x.(type) {
	case *ast.ThisExpression:
		return within(cl, site.node)
	case *ast.Identifier:
		b := site.scope.lookup(string(x.Name))
		if b == nil || len(b.path) != 0 || len(b.assigned()) > 0 {
			return false
		}
		n, ok := b.init.(*ast.NewExpression)
		if !ok {
			return false
		}
		id, ok := n.Callee.(*ast.Identifier)
		if !ok {
			return false
		}
		cb := site.scope.lookup(string(id.Name))
		return cb != nil && cb.fn == cl
	}
	return false
}

// sameFunction reports whether the local binding b holds t's function or
// class (declared, or a function or class expression it is bound to).
func sameFunction(b *binding, t fnTarget) bool {
	want := t.fn
	if t.class != nil {
		want = t.class
	}
	if b.fn != nil {
		return b.fn == want
	}
	if len(b.path) == 0 && b.init != nil {
		return b.init == want
	}
	return false
}

// requires reports whether x is require(spec) (through esbuild's interop
// helpers) of the module at p.
func (e *engine) requires(m *moduleInfo, x ast.Expression, p string) bool {
	call, ok := x.(*ast.CallExpression)
	if !ok {
		return false
	}
	if id, ok := call.Callee.(*ast.Identifier); ok && interopHelpers[string(id.Name)] && len(call.ArgumentList) >= 1 {
		return e.requires(m, call.ArgumentList[0], p)
	}
	id, ok := call.Callee.(*ast.Identifier)
	if !ok || id.Name != "require" || len(call.ArgumentList) != 1 {
		return false
	}
	lit, ok := call.ArgumentList[0].(*ast.StringLiteral)
	if !ok {
		return false
	}
	for _, r := range e.lexTargets(path.Dir(m.path), string(lit.Value)) {
		if r == p {
			return true
		}
	}
	return false
}
