package jsengine

import (
	"encoding/base64"
	"sort"

	"github.com/dop251/goja/ast"
)

// A preload may expose every export of a module under a key computed from
// its name, in a loop:
//
//	import * as exports from './index.js'
//	for (const key in exports) {
//	  if (Object.hasOwn(exports, key)) contextBridge.exposeInMainWorld(btoa(key), exports[key])
//	}
//
// (vite-electron-builder's template, which many apps start from). When the
// loop runs over an object or module whose keys are all known, the call
// is one API per key: the key expression and the value are evaluated with
// the loop's variable standing for that key. Only what a reader can check
// is unrolled: the loop's variable is const; the call is a statement of
// the loop's body, directly or
// under guards that only ask whether the key is the object's own (which a
// for-in over such an object always is); the key expression is the
// variable, a string constant, btoa of one, or a concatenation of them.
// Anything else stays one API with a dynamic key, as before.

// maxBridgeLoopKeys bounds the APIs one loop may expand to.
const maxBridgeLoopKeys = 256

// exposeEachKey reports whether the exposeInMainWorld call n, whose key
// did not evaluate to a string, was unrolled over its loop's keys.
func (a *analyzer) exposeEachKey(world string, keyX, apiX ast.Expression, n *ast.CallExpression) bool {
	loop, s := a.enclosingForIn()
	if loop == nil {
		return false
	}
	// A const loop variable: the body cannot change the key it stands for.
	decl, ok := loop.Into.(*ast.ForDeclaration)
	name := forIntoName(loop.Into)
	if !ok || !decl.IsConst || name == "" || !refersTo(keyX, name) || !a.unrollable(loop, name)[n] {
		return false
	}
	keys, ok := a.knownKeys(a.e.evaluate(a.m, s, loop.Source))
	if !ok || len(keys) == 0 || len(keys) > maxBridgeLoopKeys {
		return false
	}
	type unrolled struct {
		key string
		v   value
	}
	var apis []unrolled
	for _, k := range keys {
		key, ok := a.keyWith(keyX, name, k)
		if !ok {
			return false
		}
		apis = append(apis, unrolled{key, a.valueWith(apiX, name, k)})
	}
	sort.SliceStable(apis, func(i, j int) bool { return apis[i].key < apis[j].key })
	for _, u := range apis {
		a.exposeValue(world, u.key, "constant", u.v, n)
	}
	return true
}

// enclosingForIn is the innermost for-in loop around the current node in
// this function (a loop outside a nested function does not run the call
// per key), with the scope its source is evaluated in.
func (a *analyzer) enclosingForIn() (*ast.ForInStatement, *scope) {
	for i := len(a.owners) - 1; i >= 0; i-- {
		switch o := a.owners[i].(type) {
		case *ast.ForInStatement:
			s := a.stack[0]
			if i > 0 {
				s = a.stack[i-1]
			}
			return o, s
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			return nil, nil
		}
	}
	return nil, nil
}

// unrollable is the set of calls in loop's body that are statements of
// it under nothing but blocks and if-statements (without else) whose test
// only asks whether the loop's key is the object's own property; found
// once per loop, so a body of many calls is read once, not once a call.
func (a *analyzer) unrollable(loop *ast.ForInStatement, name string) map[*ast.CallExpression]bool {
	if calls, ok := a.loopCalls[loop]; ok {
		return calls
	}
	calls := map[*ast.CallExpression]bool{}
	var collect func(st ast.Statement)
	collect = func(st ast.Statement) {
		switch st := st.(type) {
		case *ast.ExpressionStatement:
			if c, ok := st.Expression.(*ast.CallExpression); ok {
				calls[c] = true
			}
		case *ast.BlockStatement:
			for _, s := range st.List {
				collect(s)
			}
		case *ast.IfStatement:
			if st.Alternate == nil && a.ownKeyTest(st.Test, name, 0) {
				collect(st.Consequent)
			}
		}
	}
	collect(loop.Body)
	if a.loopCalls == nil {
		a.loopCalls = map[*ast.ForInStatement]map[*ast.CallExpression]bool{}
	}
	a.loopCalls[loop] = calls
	return calls
}

// ownKeyTest reports whether x is Object.hasOwn(o, key),
// o.hasOwnProperty(key), Object.prototype.hasOwnProperty.call(o, key), or
// a call of a local arrow function of one parameter whose body is such a
// test of that parameter, applied to key.
func (a *analyzer) ownKeyTest(x ast.Expression, name string, depth int) bool {
	c, ok := x.(*ast.CallExpression)
	if !ok || depth > 2 {
		return false
	}
	args := c.ArgumentList
	switch callee := c.Callee.(type) {
	case *ast.DotExpression:
		method := string(callee.Identifier.Name)
		switch {
		case method == "hasOwn" && isIdent(callee.Left, "Object") && len(args) == 2:
			return isIdent(args[1], name)
		case method == "hasOwnProperty" && len(args) == 1:
			return isIdent(args[0], name)
		case method == "call" && len(args) == 2 && calleeName(callee.Left) == "hasOwnProperty":
			return isIdent(args[1], name)
		}
	case *ast.Identifier:
		if len(args) != 1 || !isIdent(args[0], name) {
			return false
		}
		b := a.cur().lookup(string(callee.Name))
		if b == nil || b.init == nil || len(b.path) > 0 {
			return false
		}
		fn, ok := b.init.(*ast.ArrowFunctionLiteral)
		if !ok || len(fn.ParameterList.List) != 1 {
			return false
		}
		param, ok := fn.ParameterList.List[0].Target.(*ast.Identifier)
		if !ok {
			return false
		}
		var test ast.Expression
		switch body := fn.Body.(type) {
		case *ast.ExpressionBody:
			test = body.Expression
		case *ast.BlockStatement:
			if len(body.List) == 1 {
				if r, ok := body.List[0].(*ast.ReturnStatement); ok {
					test = r.Argument
				}
			}
		}
		return test != nil && a.ownKeyTest(test, string(param.Name), depth+1)
	}
	return false
}

// knownKeys are the enumerable keys of an object or module whose keys are
// all known, sorted.
func (a *analyzer) knownKeys(v value) ([]string, bool) {
	switch v.kind {
	case kObject:
		if v.obj.isArray || len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
			return nil, false
		}
		return append([]string(nil), v.obj.keys...), true
	case kModule:
		seen := map[string]bool{}
		if !a.e.exportNames(v.mod, seen, map[*moduleInfo]bool{}, 0) {
			return nil, false
		}
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return keys, true
	}
	return nil, false
}

// exportNames adds the names mod exports to names; false when some are
// unknown (a re-export of an external module) or when a namespace of it
// may hold more than its exports: a CommonJS module's (module.exports = …)
// namespace also has "default" when imported with import * (esbuild's
// __toESM), so only ES modules (and esbuild's output of them) are listed.
func (e *engine) exportNames(mod *moduleInfo, names map[string]bool, visiting map[*moduleInfo]bool, depth int) bool {
	if mod.released || visiting[mod] || depth > 8 {
		e.retiredReached(mod)
		return false
	}
	visiting[mod] = true
	defer delete(visiting, mod)
	for _, d := range mod.exports {
		if d.name != "" {
			if d.name != "__esModule" {
				names[d.name] = true
			}
			continue
		}
		// module.exports = __toCommonJS(exports-object): esbuild's output
		// of an ES module, whose exports are the object's keys.
		c, ok := d.expr.(*ast.CallExpression)
		if !ok || calleeName(c.Callee) != "__toCommonJS" {
			return false
		}
		base := e.eval(mod, d.scope, d.expr, evalCtx{})
		switch {
		case base.kind == kModule && base.mod == mod:
		case base.kind == kObject && !base.obj.isArray && len(base.obj.unknownSpread) == 0 && base.obj.dynamicKeys == 0:
			for _, k := range base.obj.keys {
				if k != "__esModule" {
					names[k] = true
				}
			}
		default:
			return false
		}
	}
	for _, r := range mod.reExports {
		v := e.eval(mod, r.scope, r.expr, evalCtx{})
		if v.kind != kModule || v.mod == mod || !e.exportNames(v.mod, names, visiting, depth+1) {
			return false
		}
	}
	return true
}

// keyWith is the string keyX gives with the variable name standing for k.
func (a *analyzer) keyWith(x ast.Expression, name, k string) (string, bool) {
	switch x := x.(type) {
	case *ast.Identifier:
		if string(x.Name) == name {
			return k, true
		}
	case *ast.BinaryExpression:
		if x.Operator.String() != "+" {
			return "", false
		}
		l, ok := a.keyWith(x.Left, name, k)
		if !ok {
			return "", false
		}
		r, ok := a.keyWith(x.Right, name, k)
		return l + r, ok
	case *ast.CallExpression:
		if len(x.ArgumentList) == 1 && calleeName(x.Callee) == "btoa" && isGlobalBtoa(x.Callee) {
			s, ok := a.keyWith(x.ArgumentList[0], name, k)
			if !ok {
				return "", false
			}
			// btoa encodes each character as one byte and throws past
			// Latin-1.
			b := make([]byte, 0, len(s))
			for _, r := range s {
				if r > 0xff {
					return "", false
				}
				b = append(b, byte(r))
			}
			return base64.StdEncoding.EncodeToString(b), true
		}
		return "", false
	}
	if refersTo(x, name) {
		return "", false
	}
	v := a.e.evaluate(a.m, a.cur(), x)
	return v.str, v.kind == kString
}

// isGlobalBtoa reports whether callee is btoa, window.btoa or
// globalThis.btoa.
func isGlobalBtoa(callee ast.Expression) bool {
	switch c := callee.(type) {
	case *ast.Identifier:
		return true
	case *ast.DotExpression:
		return isIdent(c.Left, "window") || isIdent(c.Left, "globalThis") || isIdent(c.Left, "self")
	}
	return false
}

// valueWith is what apiX gives with the variable name standing for k:
// obj[name] is obj's property k; an expression without the variable is
// evaluated as it is; anything else is unknown.
func (a *analyzer) valueWith(x ast.Expression, name, k string) value {
	if b, ok := x.(*ast.BracketExpression); ok && isIdent(b.Member, name) && !refersTo(b.Left, name) {
		return a.e.member(a.e.evaluate(a.m, a.cur(), b.Left), k, evalCtx{}, a.m, b)
	}
	if refersTo(x, name) {
		return unknown(a.m.pf.text(x, 80))
	}
	return a.e.evaluate(a.m, a.cur(), x)
}

// refersTo reports whether the identifier name occurs in x.
func refersTo(x ast.Node, name string) bool {
	f := &identFinder{name: name}
	walk(f, x)
	return f.found
}

type identFinder struct {
	name  string
	found bool
}

func (f *identFinder) Enter(n any) bool {
	if id, ok := n.(*ast.Identifier); ok && string(id.Name) == f.name {
		f.found = true
	}
	return !f.found
}

func (f *identFinder) Leave(any) {}
