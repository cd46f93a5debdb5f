package jsengine

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"

	"rea/jsengine/bundleform"
)

// Constant folding is done here, in Go, rather than with goja's runtime: the
// evaluator must never run analysed code, and the values rea needs (strings,
// booleans, object literals, paths) fold with a few rules whose cost is
// bounded by maxEvalDepth, maxCallDepth and the per-analysis step budget.
const (
	maxEvalDepth  = 64
	maxCallDepth  = 6
	maxObjectKeys = 512
	// maxFoldedString stops `a = b + b` chains from doubling memory.
	maxFoldedString = 64 << 10
)

// evalCtx carries the bounds of one top-level evaluation.
type evalCtx struct {
	depth     int
	callDepth int
	// callers lets a parameter with no value take the value its
	// function's call sites pass (paramflow.go): set for a window's options.
	callers bool
	// asWritten reads an object's key as written even where an unknown
	// spread after it may replace it: a window's options, whose coverage
	// already says partial and names the spread.
	asWritten bool
}

func (e *engine) evaluate(m *moduleInfo, s *scope, x ast.Expression) value {
	if e.nested == 0 { // a window's options evaluated inside an evaluation share its budget
		e.localSteps = maxStepsPerEvaluation
		e.evalGen++
	}
	e.nested++
	defer func() { e.nested-- }()
	return e.eval(m, s, x, evalCtx{})
}

// evaluateOptions evaluates a window's options or what it loads,
// following parameters to their callers' arguments.
func (e *engine) evaluateOptions(m *moduleInfo, s *scope, x ast.Expression) value {
	if e.nested == 0 {
		e.localSteps = maxStepsPerEvaluation
		e.evalGen++
	}
	e.nested++
	defer func() { e.nested-- }()
	return e.eval(m, s, x, evalCtx{callers: true})
}

// maxStepsPerEvaluation keeps one pathological expression (a = b + b
// chains) from spending the whole analysis' budget.
const maxStepsPerEvaluation = 100_000

func (e *engine) eval(m *moduleInfo, s *scope, x ast.Expression, c evalCtx) value {
	if x == nil {
		return value{kind: kUndefined}
	}
	if c.depth > maxEvalDepth || e.steps <= 0 || e.localSteps <= 0 {
		e.cuts++
		e.boundReached = true
		if e.steps <= 0 {
			e.refused++
		}
		return unknown(m.pf.text(x, 80))
	}
	e.steps--
	e.localSteps--
	c.depth++
	switch x := x.(type) {
	case *ast.StringLiteral:
		v := strVal(string(x.Value))
		v.at = e.locp(m, x.Idx)
		return v
	case *ast.NumberLiteral:
		v := value{kind: kNumber, at: e.locp(m, x.Idx)}
		switch n := x.Value.(type) {
		case int64:
			v.num = float64(n)
		case float64:
			v.num = n
		default:
			return unknown(x.Literal)
		}
		return v
	case *ast.BooleanLiteral:
		return value{kind: kBool, b: x.Value, at: e.locp(m, x.Idx)}
	case *ast.NullLiteral:
		return value{kind: kNull, at: e.locp(m, x.Idx)}
	case *ast.Identifier:
		return e.evalIdent(m, s, x, c)
	case *ast.TemplateLiteral:
		if x.Tag != nil {
			return unknown(m.pf.text(x, 80))
		}
		var sb strings.Builder
		fs := false
		for i, el := range x.Elements {
			sb.WriteString(string(el.Parsed))
			if i < len(x.Expressions) {
				v := e.eval(m, s, x.Expressions[i], c)
				str, ok := v.toString()
				if !ok {
					if len(v.alts) > 0 {
						return e.templateAlts(m, s, x, c)
					}
					return unknown(m.pf.text(x, 80))
				}
				fs = fs || v.fsPath
				if sb.Len()+len(str) > maxFoldedString {
					return unknown(m.pf.text(x, 80))
				}
				sb.WriteString(str)
			}
		}
		v := strVal(sb.String())
		v.fsPath = fs
		v.at = e.locp(m, x.OpenQuote)
		return v
	case *ast.BinaryExpression:
		return e.evalBinary(m, s, x, c)
	case *ast.UnaryExpression:
		v := e.eval(m, s, x.Operand, c)
		switch x.Operator {
		case token.NOT:
			if t, ok := v.truthy(); ok {
				return value{kind: kBool, b: !t, at: e.locp(m, x.Idx), inferred: v.inferred, via: v.via}
			}
			// !x is a boolean whatever x is: false when x holds, true otherwise.
			at := e.locp(m, x.Idx)
			return withAlts(m.pf.text(x, 80), []alt{{v: value{kind: kBool, b: false, at: at}, cond: condText(m, x.Operand, false)},
				{v: value{kind: kBool, b: true, at: at}, cond: condText(m, x.Operand, true)}})
		case token.MINUS:
			if v.kind == kNumber {
				v.num = -v.num
				return v
			}
		case token.VOID:
			return value{kind: kUndefined}
		}
		return unknown(m.pf.text(x, 80))
	case *ast.ConditionalExpression:
		t := e.eval(m, s, x.Test, c)
		if b, ok := t.truthy(); ok {
			if b {
				return e.eval(m, s, x.Consequent, c)
			}
			return e.eval(m, s, x.Alternate, c)
		}
		a, b := e.eval(m, s, x.Consequent, c), e.eval(m, s, x.Alternate, c)
		if j, ok := joinCondValues(a, b, condText(m, x.Test, false), condText(m, x.Test, true)); ok {
			return j
		}
		return withAlts(m.pf.text(x, 80), []alt{{v: a, cond: condText(m, x.Test, false)}, {v: b, cond: condText(m, x.Test, true)}})
	case *ast.ObjectLiteral:
		return e.evalObject(m, s, x, c)
	case *ast.ArrayLiteral:
		o := newObject()
		o.isArray = true
		n := 0 // the next element's index
		for _, el := range x.Value {
			if n >= maxObjectKeys {
				// More elements than are kept: the array is not known whole.
				e.cuts++
				e.boundReached = true
				o.dynamicKeys++
				break
			}
			if el == nil {
				n++ // a hole
				continue
			}
			if sp, ok := el.(*ast.SpreadElement); ok {
				// [...known, x]: the spread array's elements, in place.
				els, ok := e.elements(e.eval(m, s, sp.Expression, c), false)
				if !ok || n+len(els) > maxObjectKeys {
					o.unknownSpread = append(o.unknownSpread, m.pf.text(sp, 80))
					continue
				}
				for _, v := range els {
					o.set("["+strconv.Itoa(n)+"]", v)
					n++
				}
				continue
			}
			o.set("["+strconv.Itoa(n)+"]", e.eval(m, s, el, c))
			n++
		}
		return value{kind: kObject, obj: o, at: e.locp(m, x.LeftBracket)}
	case *ast.FunctionLiteral:
		return value{kind: kFunction, fn: &funcValue{node: x, scope: s, mod: m}, at: e.locp(m, x.Idx0())}
	case *ast.ArrowFunctionLiteral:
		return value{kind: kFunction, fn: &funcValue{node: x, scope: s, mod: m}, at: e.locp(m, x.Idx0())}
	case *ast.DotExpression:
		if id, ok := x.Left.(*ast.Identifier); ok && id.Name == "module" && x.Identifier.Name == "exports" && s.lookup("module") == nil {
			return value{kind: kModule, mod: m}
		}
		if _, ok := x.Left.(*ast.ThisExpression); ok {
			return e.evalThisMember(m, string(x.Identifier.Name), c, x)
		}
		if v, ok := e.importMeta(m, s, x); ok {
			return v
		}
		left := e.eval(m, s, x.Left, c)
		return e.member(left, string(x.Identifier.Name), c, m, x)
	case *ast.PrivateDotExpression:
		if _, ok := x.Left.(*ast.ThisExpression); ok {
			return e.evalThisMember(m, "#"+string(x.Identifier.Name), c, x)
		}
		return unknown(m.pf.text(x, 80))
	case *ast.BracketExpression:
		left := e.eval(m, s, x.Left, c)
		k := e.eval(m, s, x.Member, c)
		key, ok := k.toString()
		if !ok {
			return lookupAny(left, m.pf.text(x, 80), m.pf.text(x.Member, 40))
		}
		return e.member(left, key, c, m, x)
	case *ast.CallExpression:
		return e.evalCall(m, s, x, c)
	case *ast.NewExpression:
		if id, ok := x.Callee.(*ast.Identifier); ok && id.Name == "Set" && len(x.ArgumentList) == 1 && s.lookup("Set") == nil {
			return e.eval(m, s, x.ArgumentList[0], c) // new Set([...]): its elements
		}
		if v, ok := e.urlFromImportMeta(m, s, x, c); ok {
			return v
		}
		callee := e.eval(m, s, x.Callee, c)
		if k := windowClass(callee); k != "" {
			w := e.windowFor(m, s, x, k).fromRemote(callee)
			return value{kind: kInstance, ext: k, win: w, at: e.locp(m, x.New)}
		}
		if callee.kind == kClass {
			if k := e.windowSuper(callee.fn, 0); k != "" {
				w := e.subclassWindow(m, s, x, callee.fn, k)
				return value{kind: kInstance, ext: k, win: w, at: e.locp(m, x.New)}
			}
			return value{kind: kObjectOf, fn: callee.fn, at: e.locp(m, x.New), inferred: true}
		}
		return unknown(m.pf.text(x, 80))
	case *ast.ClassLiteral:
		return e.classValue(x, s, m)
	case *ast.SequenceExpression:
		if len(x.Sequence) == 0 {
			return value{kind: kUndefined}
		}
		return e.eval(m, s, x.Sequence[len(x.Sequence)-1], c)
	case *ast.AssignExpression:
		if x.Operator != token.ASSIGN {
			return unknown(m.pf.text(x, 80))
		}
		if id, ok := x.Left.(*ast.Identifier); ok {
			if b := s.lookup(string(id.Name)); b != nil && len(b.populators()) > 0 {
				return e.evalIdent(m, s, id, c)
			}
		}
		return e.eval(m, s, x.Right, c)
	case *ast.AwaitExpression:
		return e.eval(m, s, x.Argument, c)
	case *ast.OptionalChain:
		return e.eval(m, s, x.Expression, c)
	case *ast.Optional:
		return e.eval(m, s, x.Expression, c)
	}
	return unknown(m.pf.text(x, 80))
}

func (e *engine) evalIdent(m *moduleInfo, s *scope, x *ast.Identifier, c evalCtx) value {
	name := string(x.Name)
	b := s.lookup(name)
	if b == nil {
		switch name {
		case "undefined":
			return value{kind: kUndefined}
		case "__dirname":
			return value{kind: kString, str: m.dir, fsPath: true, at: e.locp(m, x.Idx)}
		case "__filename":
			return value{kind: kString, str: m.path, fsPath: true, at: e.locp(m, x.Idx)}
		case "exports":
			return value{kind: kModule, mod: m}
		case "NaN":
			return value{kind: kNumber, num: math.NaN()}
		case "Object":
			return value{kind: kExternal, ext: "Object"}
		case "window", "globalThis":
			// The page's global object: what preloads expose lives below it.
			return value{kind: kExternal, ext: "window"}
		}
		if v, ok := e.forgePreload(m, x); ok {
			return v
		}
		return unknown(name)
	}
	return e.evalBinding(b, c, x)
}

func (e *engine) evalBinding(b *binding, c evalCtx, use ast.Node) value {
	if p := b.preset(); p != nil {
		return *p
	}
	if e.busy[b] {
		e.cuts++
		return unknown(b.name)
	}
	e.busy[b] = true
	defer delete(e.busy, b)
	m := b.scope.mod
	switch {
	case b.fn != nil:
		switch f := b.fn.(type) {
		case *ast.FunctionLiteral:
			return value{kind: kFunction, fn: &funcValue{node: f, scope: b.scope, mod: m}, at: e.locp(m, f.Idx0())}
		case *ast.ClassLiteral:
			return e.classValue(f, b.scope, m)
		}
		return unknown(b.name)
	case b.opaque:
		if x := b.extra; x != nil && x.iter != nil {
			return e.evalIteration(b, x.iter, c)
		}
		if x := b.extra; x != nil && len(x.guards) > 0 {
			return e.evalGuarded(b, x.guards, c)
		}
		if c.callers {
			if v, ok := e.paramFromCallers(b, c); ok {
				return v
			}
		}
		return unknown(b.name)
	case b.init != nil && len(b.assigned()) > 0:
		return e.reassigned(b, c, use)
	case b.init != nil:
		v := e.evalInit(b, c)
		for _, k := range b.path {
			v = e.member(v, k, c, m, b.init)
		}
		if !isTrivialStep(b, v) {
			v = v.withStep(Step{Description: fmt.Sprintf("`%s` is bound to %s", b.name, m.pf.text(b.init, 80)), Location: m.pf.loc(b.declAt.Idx0())})
		}
		if v.kind == kObject && len(b.members()) > 0 && len(b.path) == 0 {
			v = e.applyMembers(m, b, v, c)
		}
		return v
	case len(b.populators()) > 0:
		o := newObject()
		for _, p := range b.populators() {
			e.populateEnum(m, b.scope, p, o, c)
		}
		return value{kind: kObject, obj: o, at: e.locp(m, b.populators()[0].Idx0())}
	case len(b.assigned()) == 1:
		a := b.assigned()[0]
		v := e.eval(m, a.scope, a.expr, c)
		return v.withStep(Step{Description: fmt.Sprintf("`%s` is assigned %s", b.name, m.pf.text(a.expr, 80)), Location: m.pf.loc(a.expr.Idx0())})
	case len(b.assigned()) > 1:
		var acc value
		alts := make([]alt, 0, len(b.assigned()))
		agree := true
		for i, a := range b.assigned() {
			v := e.eval(m, a.scope, a.expr, c)
			l := m.pf.loc(a.expr.Idx0())
			alts = append(alts, alt{v: v.withStep(Step{Description: fmt.Sprintf("`%s` is assigned %s", b.name, m.pf.text(a.expr, 80)), Location: l}),
				cond: "after the assignment at " + locText(l)})
			if i == 0 {
				acc = v
				continue
			}
			if agree {
				j, ok := joinValues(acc, v)
				agree = ok
				acc = j
			}
		}
		if agree {
			return acc
		}
		if len(alts) > 8 {
			return unknown(b.name)
		}
		return withAlts(b.name, alts)
	}
	return unknown(b.name)
}

// initMemo is one initializer's value in the top-level evaluation gen.
type initMemo struct {
	gen   int
	scope *scope
	v     value
}

// evalInit evaluates b's initializer; the names one destructuring of a
// call declares (const { a, b, … } = useSettings()) share theirs, evaluated
// once per top-level evaluation rather than once per name and per use. A
// value is kept only when no cut (a cycle or a bound) shaped it, so that
// the memo gives what evaluating again would. Entries are stamped with the
// evaluation they belong to rather than cleared between evaluations.
func (e *engine) evalInit(b *binding, c evalCtx) value {
	if call, ok := b.init.(*ast.CallExpression); !ok || len(b.path) == 0 || requireCall(call) != nil {
		// Only a destructuring shares its initializer, and only a call of
		// the application's own is worth keeping.
		return e.eval(b.scope.mod, b.scope, b.init, c)
	}
	if me, ok := e.initMemo[b.init]; ok && me.gen == e.evalGen && me.scope == b.scope {
		return me.v
	}
	cuts := e.cuts
	v := e.eval(b.scope.mod, b.scope, b.init, c)
	if e.cuts == cuts {
		if e.initMemo == nil {
			e.initMemo = map[ast.Expression]initMemo{}
		}
		e.initMemo[b.init] = initMemo{gen: e.evalGen, scope: b.scope, v: v}
	}
	return v
}

// isTrivialStep avoids chain steps for require bindings and functions.
func isTrivialStep(b *binding, v value) bool {
	return v.kind == kExternal || v.kind == kModule || v.kind == kFunction
}

func (e *engine) evalThisMember(m *moduleInfo, name string, c evalCtx, x ast.Node) value {
	as := m.thisAssign[name]
	if len(as) == 0 {
		return unknown("this." + name)
	}
	// this.destroy = this.destroy.bind(this) reads itself: unknown, not a
	// descent to the depth bound.
	key := thisKey{m, name}
	if e.thisBusy[key] {
		e.cuts++
		return unknown("this." + name)
	}
	if e.thisBusy == nil {
		e.thisBusy = map[thisKey]bool{}
	}
	e.thisBusy[key] = true
	defer delete(e.thisBusy, key)
	var acc value
	for i, a := range as {
		v := e.eval(m, a.scope, a.expr, c)
		if i == 0 {
			acc = v
			continue
		}
		j, ok := joinValues(acc, v)
		if !ok {
			return unknown("this." + name)
		}
		acc = j
	}
	if mas := m.thisMembers[name]; len(mas) > 0 && acc.kind == kObject {
		acc = e.applyMemberAssignments(m, "this."+name, mas, acc, c)
	}
	acc.inferred = true
	return acc
}

// thisKey names a this-member of a module being evaluated.
type thisKey struct {
	m    *moduleInfo
	name string
}

func (e *engine) evalBinary(m *moduleInfo, s *scope, x *ast.BinaryExpression, c evalCtx) value {
	switch x.Operator {
	case token.LOGICAL_OR, token.LOGICAL_AND, token.COALESCE:
		l := e.eval(m, s, x.Left, c)
		t, ok := l.truthy()
		if !ok {
			return e.logicalAlts(m, s, x, l, c)
		}
		switch x.Operator {
		case token.LOGICAL_OR:
			if t {
				return l
			}
		case token.LOGICAL_AND:
			if !t {
				return l
			}
		case token.COALESCE:
			if l.kind != kNull && l.kind != kUndefined {
				return l
			}
		}
		return e.eval(m, s, x.Right, c)
	case token.PLUS:
		l, r := e.eval(m, s, x.Left, c), e.eval(m, s, x.Right, c)
		if len(l.alts) > 0 || len(r.alts) > 0 {
			if v, ok := lift(m.pf.text(x, 80), []value{l, r}, func(vs []value) value { return concat(vs[0], vs[1]) }); ok {
				return v
			}
		}
		if l.kind == kNumber && r.kind == kNumber {
			return value{kind: kNumber, num: l.num + r.num}
		}
		if l.kind == kString || r.kind == kString {
			ls, ok1 := l.toString()
			rs, ok2 := r.toString()
			if ok1 && ok2 && len(ls)+len(rs) <= maxFoldedString {
				v := strVal(ls + rs)
				v.fsPath = l.fsPath || r.fsPath
				v.inferred = l.inferred || r.inferred
				v.at = l.at
				return v
			}
		}
	case token.STRICT_EQUAL, token.STRICT_NOT_EQUAL, token.EQUAL, token.NOT_EQUAL:
		l, r := e.eval(m, s, x.Left, c), e.eval(m, s, x.Right, c)
		la, ok1 := l.jsonValue()
		ra, ok2 := r.jsonValue()
		if ok1 && ok2 && l.kind == r.kind {
			eq := la == ra
			if x.Operator == token.STRICT_NOT_EQUAL || x.Operator == token.NOT_EQUAL {
				eq = !eq
			}
			return value{kind: kBool, b: eq}
		}
	}
	return unknown(m.pf.text(x, 80))
}

func (e *engine) evalObject(m *moduleInfo, s *scope, x *ast.ObjectLiteral, c evalCtx) value {
	o := newObject()
	v := value{kind: kObject, obj: o, at: e.locp(m, x.LeftBrace)}
	for _, p := range x.Value {
		if len(o.keys) >= maxObjectKeys {
			// More properties than are kept: the object is not known whole.
			e.cuts++
			e.boundReached = true
			o.dynamicKeys++
			break
		}
		switch p := p.(type) {
		case *ast.PropertyKeyed:
			key, ok := staticKey(p.Key, p.Computed)
			if !ok {
				k, ok2 := e.eval(m, s, p.Key, c).toString()
				if !ok2 {
					o.mayOverride("[" + m.pf.text(p.Key, 60) + "]")
					o.dynamicKeys++
					continue
				}
				key = k
			}
			pv := e.eval(m, s, p.Value, c)
			if pv.at == nil {
				pv.at = e.locp(m, p.Idx0())
			}
			o.set(key, pv)
		case *ast.PropertyShort:
			var pv value
			if p.Initializer != nil {
				pv = e.eval(m, s, p.Initializer, c)
			} else {
				pv = e.eval(m, s, &p.Name, c)
			}
			if pv.at == nil {
				pv.at = e.locp(m, p.Name.Idx)
			}
			o.set(string(p.Name.Name), pv)
		case *ast.SpreadElement:
			sv := e.eval(m, s, p.Expression, c)
			if sv.kind != kObject {
				o.mayOverride("..." + m.pf.text(p.Expression, 60))
				o.unknownSpread = append(o.unknownSpread, m.pf.text(p.Expression, 80))
				continue
			}
			if len(sv.obj.unknownSpread) > 0 || sv.obj.dynamicKeys > 0 {
				o.mayOverride("..." + m.pf.text(p.Expression, 60))
			}
			step := Step{Description: "spread of " + m.pf.text(p.Expression, 80), Location: m.pf.loc(p.Idx0())}
			for _, k := range sv.obj.keys {
				pv := sv.obj.props[k]
				pv.inferred = true
				via := make([]Step, 0, 1+len(sv.via)+len(pv.via))
				via = append(append(append(via, step), sv.via...), pv.via...)
				if len(via) > maxChain {
					via = via[:maxChain]
				}
				pv.via = via
				o.set(k, pv)
			}
			o.keepOverridable(sv.obj)
			o.unknownSpread = append(o.unknownSpread, sv.obj.unknownSpread...)
			o.dynamicKeys += sv.obj.dynamicKeys
		}
	}
	return v
}

// maxLookupValues bounds the values a lookup with an unknown key may take.
const maxLookupValues = 16

// lookupAny is map[key] with a key the analysis does not know: on an
// object or array written whole (no unknown spread, no computed key) whose
// every value is a string, one of those strings, each an alternative
// under the key that selects it (`EVENT_NAME[type]` over a constant map of
// channels); anything else stays unknown.
func lookupAny(v value, expr, keyText string) value {
	if v.kind != kObject || len(v.alts) > 0 || len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 ||
		len(v.obj.keys) == 0 || len(v.obj.keys) > maxLookupValues {
		return unknown(expr)
	}
	alts := make([]alt, 0, len(v.obj.keys))
	for _, k := range v.obj.keys {
		pv := v.obj.props[k]
		if pv.kind != kString {
			return unknown(expr)
		}
		pv.inferred = true
		alts = append(alts, alt{v: pv, cond: "when " + keyText + " is " + strconv.Quote(strings.Trim(k, "[]"))})
	}
	return withAlts(expr, alts)
}

// member reads property key of v.
func (e *engine) member(v value, key string, c evalCtx, m *moduleInfo, at ast.Node) value {
	if len(v.alts) > 0 {
		return e.memberOfAlts(v, key, c, m, at)
	}
	switch v.kind {
	case kObjectOf, kClass:
		return e.classMember(v, key, m, at)
	case kObject:
		if pv, ok := v.obj.get(key); ok {
			if v.inferred {
				pv.inferred = true
			}
			for i := len(v.via) - 1; i >= 0; i-- {
				pv = pv.withStep(v.via[i])
			}
			if by, ok := v.obj.overridable[key]; ok && !c.asWritten {
				// Something unknown written after it may replace it.
				expr := key
				switch at.(type) {
				case *ast.DotExpression, *ast.BracketExpression:
					expr = m.pf.text(at, 80)
				}
				return withAlts(expr, []alt{{v: pv, cond: "unless " + by + " sets " + key}})
			}
			return pv
		}
		if len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
			return unknown(m.pf.text(at, 80))
		}
		if v.obj.isArray && key == "length" {
			return value{kind: kNumber, num: float64(len(v.obj.keys))}
		}
		return value{kind: kUndefined}
	case kModule:
		return e.exportOf(v.mod, key, c, m, at)
	case kExternal:
		if key == "default" && len(v.path) == 0 {
			return v // default import of a CommonJS or built-in module
		}
		p := make([]string, len(v.path), len(v.path)+1)
		copy(p, v.path)
		return value{kind: kExternal, ext: v.ext, path: append(p, key), inferred: v.inferred}
	case kInstance:
		p := make([]string, len(v.path), len(v.path)+1)
		copy(p, v.path)
		return value{kind: kInstance, ext: v.ext, win: v.win, path: append(p, key), inferred: v.inferred}
	case kString:
		if key == "length" {
			return value{kind: kNumber, num: float64(len(v.str))}
		}
	}
	return unknown(m.pf.text(at, 80))
}

// exportOf resolves a named export of an analysed module, following
// module.exports objects, esbuild/tsc export helpers and re-exports.
func (e *engine) exportOf(mod *moduleInfo, key string, c evalCtx, from *moduleInfo, at ast.Node) value {
	if mod.released {
		e.retiredReached(mod)
		return unknown(from.pf.text(at, 80))
	}
	if v, ok := mod.exportCache[key]; ok {
		return v
	}
	if mod.exportBusy[key] {
		e.cuts++
		return unknown(from.pf.text(at, 80))
	}
	mod.exportBusy[key] = true
	defer delete(mod.exportBusy, key)
	v, found := e.findExport(mod, key, c)
	if !found {
		if key == "default" {
			v = value{kind: kModule, mod: mod}
		} else {
			v = unknown(from.pf.text(at, 80))
		}
	}
	if v.kind != kModule {
		v.inferred = true
		v = v.withStep(Step{Description: fmt.Sprintf("exported as `%s` by %s", key, mod.path), Location: e.exportLoc(mod, key)})
	}
	mod.exportCache[key] = v
	return v
}

func (e *engine) findExport(mod *moduleInfo, key string, c evalCtx) (value, bool) {
	for i := len(mod.exports) - 1; i >= 0; i-- {
		d := mod.exports[i]
		if d.name == key {
			return e.eval(mod, d.scope, d.expr, c), true
		}
	}
	for i := len(mod.exports) - 1; i >= 0; i-- {
		d := mod.exports[i]
		if d.name != "" {
			continue
		}
		base := e.eval(mod, d.scope, d.expr, c)
		if base.kind == kModule && base.mod == mod {
			continue // module.exports = __toCommonJS(exports-object)
		}
		if base.kind == kObject {
			if pv, ok := base.obj.get(key); ok {
				return pv, true
			}
			if key == "default" {
				return base, true
			}
			continue
		}
		if key == "default" {
			return base, true
		}
		return e.member(base, key, c, mod, d.expr), true
	}
	var electron *value
	for _, r := range mod.reExports {
		v := e.eval(mod, r.scope, r.expr, c)
		if v.kind == kModule && v.mod != mod {
			if pv, ok := e.findExport(v.mod, key, c); ok {
				return pv, true
			}
		}
		if v.kind == kExternal && v.isElectron() && electron == nil {
			electron = &v // export * from 'electron': every other name is Electron's
		}
	}
	if electron != nil && key != "default" && key != "__esModule" {
		return e.member(*electron, key, c, mod, nil), true
	}
	return value{}, false
}

func (e *engine) exportLoc(mod *moduleInfo, key string) Location {
	for i := len(mod.exports) - 1; i >= 0; i-- {
		if mod.exports[i].name == key {
			return mod.pf.loc(mod.exports[i].expr.Idx0())
		}
	}
	return Location{File: mod.path, Line: 1, Column: 1}
}

// interop helpers emitted by esbuild, tsc and babel that return their
// argument's module object.
var interopHelpers = map[string]bool{
	"__toESM": true, "__toCommonJS": true, "__importDefault": true, "__importStar": true,
	"_interopRequireDefault": true, "_interopRequireWildcard": true, "_interopNamespace": true,
	"__require": true,
}

func (e *engine) evalCall(m *moduleInfo, s *scope, x *ast.CallExpression, c evalCtx) value {
	if id, ok := x.Callee.(*ast.Identifier); ok {
		name := string(id.Name)
		if name == "require" && len(x.ArgumentList) == 1 && s.lookup(name) == nil {
			spec, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
			if !ok {
				return unknown(m.pf.text(x, 80))
			}
			return e.requireValue(m, spec)
		}
		// Bundler helpers are declared in the module itself, so they are
		// recognised by name, not by being free.
		if interopHelpers[name] && len(x.ArgumentList) >= 1 {
			return e.eval(m, s, x.ArgumentList[0], c)
		}
		if spreadHelpers[name] {
			return e.mergeObjects(m, s, x, c)
		}
		if tbl := e.factoryTables[m]; tbl != nil && len(x.ArgumentList) == 1 && isWebpackRequire(s.lookup(name), name) {
			key, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
			if target := tbl[key]; ok && target != nil {
				return e.factoryExports(target, c)
			}
		}
		if b := s.lookup(name); b != nil && b.opaque && len(x.ArgumentList) == 1 {
			if fi := e.factoryByScope[b.scope]; fi != nil && fi.reqName == name {
				key, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
				if target := fi.table[key]; ok && target != nil {
					return e.factoryExports(target, c)
				}
				return unknown(m.pf.text(x, 80))
			}
		}
	}
	if isWindowRequire(x.Callee) && len(x.ArgumentList) == 1 && s.lookup("window") == nil && s.lookup("globalThis") == nil {
		spec, ok := e.eval(m, s, x.ArgumentList[0], c).toString()
		if !ok {
			return unknown(m.pf.text(x, 80))
		}
		return e.requireValue(m, spec)
	}
	// Immediately invoked function: enum populator or plain IIFE.
	switch fn := x.Callee.(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		if len(x.ArgumentList) == 1 {
			if or, ok := x.ArgumentList[0].(*ast.BinaryExpression); ok && or.Operator == token.LOGICAL_OR {
				o := newObject()
				e.populateEnum(m, s, x, o, c)
				return value{kind: kObject, obj: o, at: e.locp(m, x.Idx0())}
			}
		}
		return e.callFunction(&funcValue{node: fn, scope: s, mod: m}, m, s, x.ArgumentList, c)
	}
	if v, ok := e.importMetaResolve(m, s, x, c); ok {
		return v
	}
	if d, ok := x.Callee.(*ast.DotExpression); ok && d.Identifier.Name == "map" && len(x.ArgumentList) == 1 {
		if v, ok := e.mapArray(m, s, d.Left, x.ArgumentList[0], c); ok {
			return v
		}
	}
	callee := e.eval(m, s, x.Callee, c)
	switch callee.kind {
	case kFunction:
		return e.callFunction(callee.fn, m, s, x.ArgumentList, c)
	case kExternal:
		return e.callExternal(m, s, callee, x, c)
	}
	return unknown(m.pf.text(x, 80))
}

func (e *engine) callExternal(m *moduleInfo, s *scope, callee value, x *ast.CallExpression, c evalCtx) value {
	if callee.ext == "path" && len(callee.path) == 1 {
		args := make([]string, 0, len(x.ArgumentList))
		fs := false
		for _, a := range x.ArgumentList {
			v := e.eval(m, s, a, c)
			str, ok := v.toString()
			if !ok {
				return unknown(m.pf.text(x, 80))
			}
			fs = fs || v.fsPath
			args = append(args, str)
		}
		var out string
		switch callee.path[0] {
		case "join", "resolve":
			out = joinAppPath(callee.path[0] == "resolve", args)
		case "normalize":
			if len(args) == 1 {
				out = path.Clean(args[0])
			}
		case "dirname":
			if len(args) == 1 {
				out = path.Dir(args[0])
			}
		default:
			return unknown(m.pf.text(x, 80))
		}
		return value{kind: kString, str: out, fsPath: true, at: e.locp(m, x.Idx0())}
	}
	if callee.ext == "url" && len(callee.path) == 1 && callee.path[0] == "fileURLToPath" && len(x.ArgumentList) == 1 {
		// ESM's __dirname idiom: path.dirname(fileURLToPath(import.meta.url)),
		// which esbuild lowers to import_meta.url.
		if t := m.pf.text(x.ArgumentList[0], 40); t == "import_meta.url" || t == "import.meta.url" {
			return value{kind: kString, str: m.path, fsPath: true, at: e.locp(m, x.Idx0())}
		}
		// fileURLToPath(import.meta.resolve(spec)): the path it resolved.
		if v := e.eval(m, s, x.ArgumentList[0], c); v.kind == kString && v.fsPath {
			return v
		}
	}
	if n := len(callee.path); n > 0 && len(x.ArgumentList) >= 1 {
		switch callee.path[n-1] {
		case "useMemo": // React: the value its function computes
			if fn := e.eval(m, s, x.ArgumentList[0], c); fn.kind == kFunction {
				return e.callFunction(fn.fn, m, s, nil, c)
			}
		case "useCallback": // React: the function itself
			return e.eval(m, s, x.ArgumentList[0], c)
		}
	}
	if callee.ext == "Object" {
		switch strings.Join(callee.path, ".") {
		case "assign":
			return e.mergeObjects(m, s, x, c)
		case "freeze":
			if len(x.ArgumentList) == 1 {
				return e.eval(m, s, x.ArgumentList[0], c)
			}
		case "keys", "values", "entries":
			if len(x.ArgumentList) == 1 {
				return objectListing(e.eval(m, s, x.ArgumentList[0], c), callee.path[0], e.locp(m, x.Idx0()))
			}
		}
	}
	if len(callee.path) == 2 && callee.ext == "electron" && (callee.path[0] == "BrowserWindow" || callee.path[0] == "BaseWindow") {
		switch callee.path[1] {
		case "getFocusedWindow", "fromWebContents", "fromId", "fromBrowserView":
			// One of the application's windows (or none): its methods are
			// a window's (win.send(ch) forwards to webContents.send).
			return value{kind: kInstance, ext: callee.path[0], inferred: true, at: e.locp(m, x.Idx0())}
		}
	}
	if callee.isElectron("app", "getAppPath") {
		// The application's root is the analysed root (the asar, or the
		// folder holding package.json).
		v := value{kind: kString, str: ".", fsPath: true, inferred: true, at: e.locp(m, x.Idx0())}
		return v.withStep(Step{Description: "app.getAppPath() is the application root", Location: m.pf.loc(x.Idx0())})
	}
	return unknown(m.pf.text(x, 80))
}

// spreadHelpers are esbuild's lowering of object spread for ES2017:
// {...a, b: 1} becomes __spreadProps(__spreadValues({}, a), {b: 1}).
var spreadHelpers = map[string]bool{"__spreadValues": true, "__spreadProps": true, "_objectSpread": true, "_objectSpread2": true, "__assign": true, "_extends": true}

// mergeObjects folds Object.assign-like calls: later arguments win; sources
// that are not known objects become unknown spreads.
func (e *engine) mergeObjects(m *moduleInfo, s *scope, x *ast.CallExpression, c evalCtx) value {
	o := newObject()
	for i, a := range x.ArgumentList {
		v := e.eval(m, s, a, c)
		if i > 0 && (v.kind == kUndefined || v.kind == kNull) {
			continue // Object.assign skips null and undefined sources
		}
		if v.kind != kObject {
			o.mayOverride(m.pf.text(a, 60))
			o.unknownSpread = append(o.unknownSpread, m.pf.text(a, 80))
			continue
		}
		if len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
			o.mayOverride(m.pf.text(a, 60))
		}
		_, literal := a.(*ast.ObjectLiteral)
		for _, k := range v.obj.keys {
			pv := v.obj.props[k]
			if i > 0 && !literal || len(v.via) > 0 {
				pv.inferred = true
				via := make([]Step, 0, 1+len(v.via)+len(pv.via))
				via = append(append(append(via, Step{Description: "spread of " + m.pf.text(a, 80), Location: m.pf.loc(a.Idx0())}), v.via...), pv.via...)
				if len(via) > maxChain {
					via = via[:maxChain]
				}
				pv.via = via
			}
			o.set(k, pv)
		}
		o.keepOverridable(v.obj)
		o.unknownSpread = append(o.unknownSpread, v.obj.unknownSpread...)
		o.dynamicKeys += v.obj.dynamicKeys
	}
	return value{kind: kObject, obj: o, at: e.locp(m, x.Idx0())}
}

// joinAppPath joins path segments the way path.join/resolve would, with
// application paths relative to the analysed root.
func joinAppPath(resolve bool, args []string) string {
	if resolve {
		for i := len(args) - 1; i >= 0; i-- {
			if strings.HasPrefix(args[i], "/") {
				args = args[i:]
				break
			}
		}
	}
	return path.Clean(path.Join(args...))
}

// callFunction evaluates a helper's return value with its parameters bound
// to the argument values: the common `function prefs() { return {...} }`.
func (e *engine) callFunction(fv *funcValue, m *moduleInfo, s *scope, args []ast.Expression, c evalCtx) value {
	return e.callWith(fv, func(i int) (value, bool) {
		if i < len(args) {
			return e.eval(m, s, args[i], c), true
		}
		return value{}, false
	}, c)
}

// callWith evaluates fv's return value with argument i given by arg (false:
// not passed); parameters that destructure (([key, fn]) =>) bind each name
// to its part of the argument.
func (e *engine) callWith(fv *funcValue, arg func(int) (value, bool), c evalCtx) value {
	if c.callDepth >= maxCallDepth {
		e.cuts++
		e.boundReached = true
		return unknown("call depth")
	}
	c.callDepth++
	fm := fv.mod
	fs := newScope(fv.scope, fm)
	var pl *ast.ParameterList
	var returns []ast.Expression
	var bodyList []ast.Statement
	name := "anonymous function"
	switch f := fv.node.(type) {
	case *ast.FunctionLiteral:
		pl = f.ParameterList
		if f.Body != nil {
			bodyList = f.Body.List
		}
		if f.Name != nil {
			name = "`" + string(f.Name.Name) + "`"
		}
	case *ast.ArrowFunctionLiteral:
		pl = f.ParameterList
		switch b := f.Body.(type) {
		case *ast.ExpressionBody:
			returns = []ast.Expression{b.Expression}
		case *ast.BlockStatement:
			bodyList = b.List
		}
	default:
		return unknown("function")
	}
	// Hoisting costs as much as the body is long: charge it to the budget.
	e.steps -= len(bodyList)
	declareParams(fs, pl)
	hoist(fs, bodyList, true)
	if pl != nil {
		for i, p := range pl.List {
			id, ok := p.Target.(*ast.Identifier)
			if !ok {
				e.bindPattern(fs, p.Target, arg, i, c)
				continue
			}
			av, passed := arg(i)
			switch {
			case passed:
			case p.Initializer != nil:
				av = e.eval(fm, fs, p.Initializer, c)
			default:
				av = value{kind: kUndefined}
			}
			if b := fs.get(string(id.Name)); b != nil {
				b.more().preset = &av
			}
		}
	}
	if returns == nil {
		collectReturns(bodyList, &returns)
	}
	if len(returns) == 0 {
		return value{kind: kUndefined}
	}
	var acc value
	alts := make([]alt, 0, len(returns))
	agree := true
	for i, r := range returns {
		v := e.eval(fm, fs, r, c)
		alts = append(alts, alt{v: v, cond: "returned at " + locText(fm.pf.loc(r.Idx0()))})
		if i == 0 {
			acc = v
			continue
		}
		if agree {
			acc, agree = joinValues(acc, v)
		}
	}
	if !agree {
		return withAlts(name+" has several return values", alts)
	}
	acc.inferred = true
	return acc.withStep(Step{Description: "returned by " + name, Location: fm.pf.loc(returns[0].Idx0())})
}

// mapArray evaluates list.map(fn) over a list known whole: the array of
// fn's return value for each element (element, index, list). Anything else
// is not handled here.
func (e *engine) mapArray(m *moduleInfo, s *scope, list, fnx ast.Expression, c evalCtx) (value, bool) {
	lv := e.eval(m, s, list, c)
	els, ok := e.elements(lv, false)
	if !ok {
		return value{}, false
	}
	fn := e.eval(m, s, fnx, c)
	if fn.kind != kFunction {
		return value{}, false
	}
	o := newObject()
	o.isArray = true
	for i, el := range els {
		r := e.callWith(fn.fn, func(k int) (value, bool) {
			switch k {
			case 0:
				return el, true
			case 1:
				return value{kind: kNumber, num: float64(i)}, true
			case 2:
				return lv, true
			}
			return value{}, false
		}, c)
		o.set("["+strconv.Itoa(i)+"]", r)
	}
	return value{kind: kObject, obj: o, at: e.locp(m, list.Idx0()), inferred: true}, true
}

// bindPattern binds the names a destructuring parameter declares to the
// parts of argument i they name (an argument not passed leaves them as
// they are: unknown).
func (e *engine) bindPattern(fs *scope, target ast.BindingTarget, arg func(int) (value, bool), i int, c evalCtx) {
	av, passed := arg(i)
	if !passed {
		return
	}
	parts := newScope(nil, fs.mod)
	parts.declareTarget(target, nil, nil, true)
	for _, pb := range parts.vars {
		b := fs.get(pb.name)
		if b == nil || len(pb.path) == 0 {
			continue
		}
		v := av
		for _, k := range pb.path {
			v = e.member(v, k, c, fs.mod, target)
		}
		b.more().preset = &v
	}
}

// collectReturns gathers return expressions, not entering nested functions.
func collectReturns(stmts []ast.Statement, out *[]ast.Expression) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ReturnStatement:
			if st.Argument != nil {
				*out = append(*out, st.Argument)
			}
		case *ast.BlockStatement:
			collectReturns(st.List, out)
		case *ast.IfStatement:
			collectReturns([]ast.Statement{st.Consequent}, out)
			if st.Alternate != nil {
				collectReturns([]ast.Statement{st.Alternate}, out)
			}
		case *ast.TryStatement:
			if st.Body != nil {
				collectReturns(st.Body.List, out)
			}
			if st.Catch != nil && st.Catch.Body != nil {
				collectReturns(st.Catch.Body.List, out)
			}
		case *ast.SwitchStatement:
			for _, cs := range st.Body {
				collectReturns(cs.Consequent, out)
			}
		}
	}
}

// populateEnum folds a TypeScript enum IIFE: assignments P["K"] = v (and
// the numeric reverse mapping P[P["K"] = 0] = "K") into o.
func (e *engine) populateEnum(m *moduleInfo, s *scope, call *ast.CallExpression, o *objValue, c evalCtx) {
	var pl *ast.ParameterList
	var body []ast.Statement
	switch f := call.Callee.(type) {
	case *ast.FunctionLiteral:
		pl = f.ParameterList
		if f.Body != nil {
			body = f.Body.List
		}
	case *ast.ArrowFunctionLiteral:
		pl = f.ParameterList
		if b, ok := f.Body.(*ast.BlockStatement); ok {
			body = b.List
		}
	}
	if pl == nil || len(pl.List) == 0 {
		return
	}
	param, ok := pl.List[0].Target.(*ast.Identifier)
	if !ok {
		return
	}
	fs := s
	if sc := m.scopes[call.Callee]; sc != nil {
		fs = sc
	}
	var assign func(a *ast.AssignExpression) (string, bool)
	assign = func(a *ast.AssignExpression) (string, bool) {
		br, ok := a.Left.(*ast.BracketExpression)
		if !ok {
			if d, ok := a.Left.(*ast.DotExpression); ok {
				if id, ok := d.Left.(*ast.Identifier); ok && id.Name == param.Name {
					o.set(string(d.Identifier.Name), e.eval(m, fs, a.Right, c))
					return string(d.Identifier.Name), true
				}
			}
			return "", false
		}
		if id, ok := br.Left.(*ast.Identifier); !ok || id.Name != param.Name {
			return "", false
		}
		var key string
		if inner, ok := br.Member.(*ast.AssignExpression); ok {
			k, ok := assign(inner)
			if !ok {
				return "", false
			}
			v, _ := o.get(k)
			key, _ = v.toString()
		} else {
			k, ok := e.eval(m, fs, br.Member, c).toString()
			if !ok {
				return "", false
			}
			key = k
		}
		v := e.eval(m, fs, a.Right, c)
		o.set(key, v)
		return key, true
	}
	for _, st := range body {
		if es, ok := st.(*ast.ExpressionStatement); ok {
			if a, ok := es.Expression.(*ast.AssignExpression); ok {
				assign(a)
			}
		}
	}
}

// joinValues merges two possible values: equal primitives stay, objects
// merge property-wise (differing properties become unknown).
func joinValues(a, b value) (value, bool) {
	if a.kind != b.kind {
		return value{}, false
	}
	switch a.kind {
	case kString, kNumber, kBool, kNull, kUndefined:
		av, _ := a.jsonValue()
		bv, _ := b.jsonValue()
		if av == bv {
			return a, true
		}
	case kObject:
		o := newObject()
		for _, k := range a.obj.keys {
			pa := a.obj.props[k]
			if pb, ok := b.obj.get(k); ok {
				if j, ok := joinValues(pa, pb); ok {
					o.set(k, j)
					continue
				}
			}
			o.set(k, unknown(k+" differs between branches"))
		}
		for _, k := range b.obj.keys {
			if _, ok := a.obj.get(k); !ok {
				o.set(k, unknown(k+" differs between branches"))
			}
		}
		o.unknownSpread = append(append(o.unknownSpread, a.obj.unknownSpread...), b.obj.unknownSpread...)
		return value{kind: kObject, obj: o, at: a.at, via: a.via, inferred: true}, true
	case kInstance:
		if a.win == b.win && strings.Join(a.path, ".") == strings.Join(b.path, ".") {
			return a, true
		}
	case kExternal:
		if a.ext == b.ext && strings.Join(a.path, ".") == strings.Join(b.path, ".") {
			return a, true
		}
	case kModule:
		if a.mod == b.mod {
			return a, true
		}
	case kFunction:
		if a.fn.node == b.fn.node {
			return a, true
		}
	}
	return value{}, false
}

// windowClass names the Electron constructor v refers to, if any.
func windowClass(v value) string {
	// @electron/remote hands a renderer the main process's modules: a
	// window it constructs is a main-process window like any other.
	remote := v.ext == "@electron/remote" || v.ext == "@electron/remote/renderer"
	if v.kind != kExternal || v.ext != "electron" && !remote || len(v.path) == 0 {
		return ""
	}
	switch last := v.path[len(v.path)-1]; last {
	case "BrowserWindow", "BrowserView", "WebContentsView":
		return last
	}
	return ""
}

func formatInt(i int) string { return strconv.Itoa(i) }

// isWebpackRequire recognises the bundle runtime's require function, by
// name or (minified) as a declared function that indexes a module table.
func isWebpackRequire(b *binding, name string) bool {
	if b == nil || b.fn == nil {
		return false
	}
	if name == "__webpack_require__" {
		return true
	}
	f, ok := b.fn.(*ast.FunctionLiteral)
	if !ok || !strings.Contains(f.Source, ".exports") {
		return false
	}
	if strings.Contains(f.Source, ".call(") {
		return true
	}
	// webpack 5's minified loader: e[r](n, n.exports, t).
	tables, _ := bundleform.Runtime(f.Source)
	return len(tables) > 0
}

// applyMembers returns obj with the binding's member assignments applied in
// source order. An assignment may be conditional, so the values it brings
// are reported as inferred, with the assignment as a step.
func (e *engine) applyMembers(m *moduleInfo, b *binding, obj value, c evalCtx) value {
	return e.applyMemberAssignments(m, b.name, b.members(), obj, c)
}

// applyMemberAssignments applies later member assignments (name.a.b = v)
// to a copy of obj.
func (e *engine) applyMemberAssignments(m *moduleInfo, name string, mas []memberAssignment, obj value, c evalCtx) value {
	root := copyObject(obj)
	for _, ma := range mas {
		v := e.eval(m, ma.scope, ma.expr, c)
		v.inferred = true
		v = v.withStep(Step{Description: fmt.Sprintf("`%s.%s` is assigned %s", name, strings.Join(ma.path, "."), m.pf.text(ma.expr, 80)),
			Location: m.pf.loc(ma.expr.Idx0())})
		cur := root
		for i, k := range ma.path {
			if i == len(ma.path)-1 {
				cur.obj.set(k, v)
				break
			}
			next, ok := cur.obj.get(k)
			if !ok || next.kind != kObject {
				break // assignment below an unknown property: ignored
			}
			next = copyObject(next)
			cur.obj.set(k, next)
			cur = next
		}
	}
	return root
}

// copyObject copies one level of an object value so it can be changed
// without touching cached values.
func copyObject(v value) value {
	o := newObject()
	for _, k := range v.obj.keys {
		o.set(k, v.obj.props[k])
	}
	o.unknownSpread = append([]string(nil), v.obj.unknownSpread...)
	o.dynamicKeys, o.isArray = v.obj.dynamicKeys, v.obj.isArray
	o.keepOverridable(v.obj)
	v.obj = o
	return v
}
