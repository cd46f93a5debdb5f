package jsengine

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// Classes of the application are values too: an IPC manager whose methods
// wrap ipcRenderer (manager.send(channel)), and subclasses of BrowserWindow
// whose every `new Subclass(opts)` is a window. A class evaluates to
// kClass, `new C()` of a class that does not extend a window to kObjectOf;
// their members are the class's methods (static ones for the class),
// looked up through application superclasses.

const maxClassDepth = 4

func className(fv *funcValue) string {
	if fv == nil {
		return "anonymous class"
	}
	if cl, ok := fv.node.(*ast.ClassLiteral); ok && cl.Name != nil {
		return string(cl.Name.Name)
	}
	return "anonymous class"
}

func (e *engine) classValue(cl *ast.ClassLiteral, s *scope, m *moduleInfo) value {
	return value{kind: kClass, fn: &funcValue{node: cl, scope: s, mod: m}, at: e.locp(m, cl.Class)}
}

// classMember reads a method of a class instance (kObjectOf) or a static
// method of a class (kClass).
func (e *engine) classMember(v value, key string, m *moduleInfo, at ast.Node) value {
	if mv, ok := e.methodOf(v.fn, key, v.kind == kClass, 0); ok {
		mv.inferred = true
		return mv
	}
	if v.kind == kObjectOf {
		// A getter: what it returns (its this-members are the class's).
		if r, gm, ok := e.getterReturn(v.fn, key, 0); ok {
			gv := e.evaluate(gm, v.fn.scope, r)
			gv.inferred = true
			return gv
		}
	}
	return unknown(m.pf.text(at, 80))
}

// methodOf finds method key of the class fv (static or not), in the class
// itself, its arrow-function fields, then its application superclasses.
func (e *engine) methodOf(fv *funcValue, key string, static bool, depth int) (value, bool) {
	cl, ok := fv.node.(*ast.ClassLiteral)
	if !ok {
		return value{}, false
	}
	for _, el := range cl.Body {
		switch el := el.(type) {
		case *ast.MethodDefinition:
			if el.Static != static || el.Kind != ast.PropertyKindMethod || el.Body == nil {
				continue
			}
			if k, ok := staticKey(el.Key, el.Computed); ok && k == key {
				return value{kind: kFunction, fn: &funcValue{node: el.Body, scope: fv.scope, mod: fv.mod}, at: e.locp(fv.mod, el.Idx)}, true
			}
		case *ast.FieldDefinition:
			if el.Static != static || el.Initializer == nil {
				continue
			}
			if k, ok := staticKey(el.Key, el.Computed); ok && k == key {
				switch f := el.Initializer.(type) {
				case *ast.ArrowFunctionLiteral, *ast.FunctionLiteral:
					return value{kind: kFunction, fn: &funcValue{node: f, scope: fv.scope, mod: fv.mod}, at: e.locp(fv.mod, el.Idx)}, true
				}
			}
		}
	}
	if !static {
		if v, ok := e.constructorMethod(fv, cl, key); ok {
			return v, true
		}
	}
	if cl.SuperClass == nil || depth >= maxClassDepth {
		return value{}, false
	}
	if sup := e.evaluate(fv.mod, fv.scope, cl.SuperClass); sup.kind == kClass {
		return e.methodOf(sup.fn, key, static, depth+1)
	}
	return value{}, false
}

// constructorMethod finds `this.key = function or arrow` among the
// constructor's top-level statements: TypeScript's arrow-function fields
// (send = (ch) => …) compile to exactly that, and older JavaScript binds
// handlers the same way.
func (e *engine) constructorMethod(fv *funcValue, cl *ast.ClassLiteral, key string) (value, bool) {
	ctor := constructorOf(cl)
	if ctor == nil || ctor.Body == nil {
		return value{}, false
	}
	for _, st := range ctor.Body.List {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok {
			continue
		}
		as, ok := es.Expression.(*ast.AssignExpression)
		if !ok || as.Operator != token.ASSIGN || !isFunctionNode(as.Right) {
			continue
		}
		d, ok := as.Left.(*ast.DotExpression)
		if !ok || string(d.Identifier.Name) != key {
			continue
		}
		if _, this := d.Left.(*ast.ThisExpression); !this {
			continue
		}
		sc := fv.scope
		if s, ok := fv.mod.scopeOf(ctor); ok {
			sc = s // the constructor's parameters are in reach
		}
		return value{kind: kFunction, fn: &funcValue{node: as.Right, scope: sc, mod: fv.mod}, at: e.locp(fv.mod, as.Right.Idx0())}, true
	}
	return value{}, false
}

// windowSuper names the Electron window class fv extends, directly or
// through application classes.
func (e *engine) windowSuper(fv *funcValue, depth int) string {
	cl, ok := fv.node.(*ast.ClassLiteral)
	if !ok || cl.SuperClass == nil || depth >= maxClassDepth {
		return ""
	}
	sup := e.evaluate(fv.mod, fv.scope, cl.SuperClass)
	if k := windowClass(sup); k != "" {
		return k
	}
	if sup.kind == kClass {
		return e.windowSuper(sup.fn, depth+1)
	}
	return ""
}

// constructorOf returns the class's constructor method, or nil.
func constructorOf(cl *ast.ClassLiteral) *ast.FunctionLiteral {
	for _, el := range cl.Body {
		if md, ok := el.(*ast.MethodDefinition); ok && !md.Static && md.Body != nil {
			if k, ok := staticKey(md.Key, md.Computed); ok && k == "constructor" {
				return md.Body
			}
		}
	}
	return nil
}

// superCall finds the super(…) call among the statements of a constructor
// (directly, or inside a block or an if).
func superCall(stmts []ast.Statement) *ast.CallExpression {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ExpressionStatement:
			if c, ok := st.Expression.(*ast.CallExpression); ok {
				if _, ok := c.Callee.(*ast.SuperExpression); ok {
					return c
				}
			}
		case *ast.BlockStatement:
			if c := superCall(st.List); c != nil {
				return c
			}
		}
	}
	return nil
}

// superOptions follows the constructor arguments of `new C(args)` through
// the constructors of C and its application superclasses to the options
// the window class receives; at is the super(…) call that passes them (nil
// for an implicit constructor).
func (e *engine) superOptions(fv *funcValue, args []value, c evalCtx, depth int) (value, *Location) {
	return e.superOptionsSeen(fv, args, c, depth, nil)
}

// superOptionsSeen is superOptions; seen, when not nil, receives each
// constructor body with the scope its parameters are bound in.
func (e *engine) superOptionsSeen(fv *funcValue, args []value, c evalCtx, depth int, seen func(*moduleInfo, *scope, []ast.Statement)) (value, *Location) {
	cl := fv.node.(*ast.ClassLiteral)
	next := func(args []value) (value, *Location) {
		sup := e.eval(fv.mod, fv.scope, cl.SuperClass, c)
		if windowClass(sup) != "" {
			if len(args) == 0 {
				return value{kind: kUndefined}, nil
			}
			return args[0], nil
		}
		if sup.kind == kClass && depth < maxClassDepth {
			return e.superOptionsSeen(sup.fn, args, c, depth+1, seen)
		}
		return unknown("superclass"), nil
	}
	ctor := constructorOf(cl)
	if ctor == nil || ctor.Body == nil {
		return next(args) // constructor(...args) { super(...args) }
	}
	call := superCall(ctor.Body.List)
	if call == nil {
		return unknown("constructor of " + className(fv)), nil
	}
	fs := newScope(fv.scope, fv.mod)
	declareParams(fs, ctor.ParameterList)
	hoist(fs, ctor.Body.List, true)
	e.steps -= len(ctor.Body.List)
	if pl := ctor.ParameterList; pl != nil {
		for i, p := range pl.List {
			id, ok := p.Target.(*ast.Identifier)
			if !ok {
				continue
			}
			var av value
			switch {
			case i < len(args):
				av = args[i]
			case p.Initializer != nil:
				av = e.eval(fv.mod, fs, p.Initializer, c)
			default:
				av = value{kind: kUndefined}
			}
			if b := fs.get(string(id.Name)); b != nil {
				b.more().preset = &av
			}
		}
	}
	sargs := make([]value, len(call.ArgumentList))
	for i, a := range call.ArgumentList {
		sargs[i] = e.eval(fv.mod, fs, a, c)
	}
	if seen != nil {
		seen(fv.mod, fs, ctor.Body.List)
	}
	v, at := next(sargs)
	if at == nil {
		l := fv.mod.pf.loc(call.Idx0())
		at = &l
	}
	return v, at
}

// subclassWindow records `new Subclass(args)` of a BrowserWindow subclass
// as a window whose options are what the constructors pass to super.
func (e *engine) subclassWindow(m *moduleInfo, s *scope, n *ast.NewExpression, fv *funcValue, kind string) *windowRec {
	if w, ok := e.windows[n]; ok {
		return w
	}
	w := &windowRec{node: n, mod: m}
	e.windows[n] = w
	if !m.copy { // a caller parsed afresh (paramflow.go) reports nothing
		e.windowList = append(e.windowList, w)
	}
	w.w = Window{Kind: kind, Module: m.path, Location: m.pf.loc(n.Idx0()), WebPreferences: map[string]Value{}, Coverage: "complete",
		Class: className(fv)}
	if e.nested == 0 {
		e.localSteps = maxStepsPerEvaluation
	}
	e.nested++
	defer func() { e.nested-- }()
	args := make([]value, len(n.ArgumentList))
	for i, a := range n.ArgumentList {
		args[i] = e.eval(m, s, a, evalCtx{})
	}
	type ctorBody struct {
		m     *moduleInfo
		s     *scope
		stmts []ast.Statement
	}
	var bodies []ctorBody
	opts, at := e.superOptionsSeen(fv, args, evalCtx{}, 0, func(m *moduleInfo, s *scope, stmts []ast.Statement) {
		bodies = append(bodies, ctorBody{m, s, stmts})
	})
	w.w.ConstructedAt = at
	for _, b := range bodies {
		e.constructorLoads(w, b.m, b.s, b.stmts)
	}
	if opts.kind == kUndefined {
		return w
	}
	e.applyOptions(w, opts, m, n)
	return w
}

// windowOpenHandler records the child windows a setWindowOpenHandler
// allows: each returned { action: 'allow', overrideBrowserWindowOptions }
// is a window created with those options when the page calls
// window.open.
func (a *analyzer) windowOpenHandler(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	if v.kind != kFunction {
		return
	}
	pl, body, expr := fnParts(v.fn.node)
	var returns []ast.Expression
	if expr != nil {
		returns = []ast.Expression{expr}
	} else {
		collectReturns(body, &returns)
	}
	fm := v.fn.mod
	fs := newScope(v.fn.scope, fm)
	declareParams(fs, pl)
	hoist(fs, body, true)
	for _, r := range returns {
		rv := a.e.evaluate(fm, fs, r)
		if rv.kind != kObject {
			continue
		}
		ov, ok := rv.obj.get("overrideBrowserWindowOptions")
		if !ok {
			continue
		}
		if act, ok := rv.obj.get("action"); ok && act.kind == kString && act.str != "allow" {
			continue
		}
		if _, seen := a.e.windows[r]; seen {
			continue
		}
		at := fm.pf.loc(r.Idx0())
		if ov.at != nil {
			at = *ov.at
		}
		w := &windowRec{node: r, mod: fm}
		a.e.windows[r] = w
		a.e.windowList = append(a.e.windowList, w)
		w.w = Window{Kind: "BrowserWindow", Module: fm.path, Location: at, WebPreferences: map[string]Value{}, Coverage: "complete",
			Origin: "window-open-handler"}
		a.e.applyOptions(w, ov, fm, r)
	}
}

// constructorLoads attaches this.loadURL(…)/this.loadFile(…) calls of a
// window subclass's constructor to the window being constructed.
func (e *engine) constructorLoads(w *windowRec, m *moduleInfo, s *scope, stmts []ast.Statement) {
	cc := &callCollector{}
	for _, st := range stmts {
		walk(cc, st)
	}
	a := &analyzer{e: e, m: m, stack: []*scope{s}}
	for _, call := range cc.calls {
		d, ok := call.Callee.(*ast.DotExpression)
		if !ok || len(call.ArgumentList) == 0 {
			continue
		}
		if _, this := d.Left.(*ast.ThisExpression); !this {
			continue
		}
		if name := string(d.Identifier.Name); name == "loadURL" || name == "loadFile" {
			a.load(call, name, w)
		}
	}
}

// inWindowSubclass reports whether the analyser is inside a class that
// extends a window class (its this.loadURL calls belong to its windows).
func (a *analyzer) inWindowSubclass() bool {
	if len(a.classes) == 0 {
		return false
	}
	cl := a.classes[len(a.classes)-1]
	if cl.SuperClass == nil {
		return false
	}
	sup := a.e.evaluate(a.m, a.cur(), cl.SuperClass)
	return windowClass(sup) != "" || sup.kind == kClass && a.e.windowSuper(sup.fn, 0) != ""
}

// thisMemberText gives the source text this.<name> stands for inside a
// class: the expression a getter `get name() { return … }` of the class
// (or an application superclass) returns, else the one expression the
// module assigns to this.<name>. The text lets a call on it be recognised
// by shape (this.wc.send(…) where wc returns this.win.webContents).
func (a *analyzer) thisMemberText(x ast.Expression) (string, bool) {
	d, ok := unwrapOptional(x).(*ast.DotExpression)
	if !ok || len(a.classes) == 0 {
		return "", false
	}
	if _, this := d.Left.(*ast.ThisExpression); !this {
		return "", false
	}
	name := string(d.Identifier.Name)
	fv := &funcValue{node: a.classes[len(a.classes)-1], scope: a.cur(), mod: a.m}
	if r, m, ok := a.e.getterReturn(fv, name, 0); ok {
		return m.pf.text(r, 200), true
	}
	if as := a.m.thisAssign[name]; len(as) == 1 {
		return a.m.pf.text(as[0].expr, 200), true
	}
	return "", false
}

// getterReturn finds `get key() { return X }` (one return statement) in
// the class fv or its application superclasses and gives X with its
// module.
func (e *engine) getterReturn(fv *funcValue, key string, depth int) (ast.Expression, *moduleInfo, bool) {
	cl, ok := fv.node.(*ast.ClassLiteral)
	if !ok {
		return nil, nil, false
	}
	for _, el := range cl.Body {
		md, ok := el.(*ast.MethodDefinition)
		if !ok || md.Static || md.Kind != ast.PropertyKindGet || md.Body == nil || md.Body.Body == nil {
			continue
		}
		if k, ok := staticKey(md.Key, md.Computed); !ok || k != key {
			continue
		}
		var returns []ast.Expression
		collectReturns(md.Body.Body.List, &returns)
		var found ast.Expression
		for _, r := range returns {
			if r == nil || isNothing(r) {
				continue // no receiver under ?., not another value
			}
			if found != nil {
				return nil, nil, false
			}
			found = r
		}
		if found != nil {
			return found, fv.mod, true
		}
		return nil, nil, false
	}
	if cl.SuperClass == nil || depth >= maxClassDepth {
		return nil, nil, false
	}
	if sup := e.evaluate(fv.mod, fv.scope, cl.SuperClass); sup.kind == kClass {
		return e.getterReturn(sup.fn, key, depth+1)
	}
	return nil, nil, false
}
