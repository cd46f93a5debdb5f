package jsengine

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// An unknown value may still be known to be one of a few values: a
// ternary whose test depends on the environment, a variable reassigned by
// an IPC handler, a loop variable over a constant array, a parameter an
// allow-list guards. Such a value stays unknown (it is never reported as
// one observed value) and carries its alternatives, each with the
// condition under which it holds, so that channels become a concrete list
// and preloads list every file they may name.

// alt is one value an unknown value may take, and when.
type alt struct {
	v    value
	cond string
}

// maxAlts bounds the alternatives of one value; a value with more is a
// plain unknown rather than a truncated list that would look complete.
const maxAlts = 256

// withAlts returns the unknown value rendered as expr that may take each
// of alts (nested alternatives are flattened, duplicates dropped).
func withAlts(expr string, alts []alt) value {
	out := unknown(expr)
	seen := map[string]bool{}
	add := func(a alt) bool {
		k := a.v.render() + "\x00" + a.cond
		if seen[k] {
			return true
		}
		seen[k] = true
		if len(out.alts) >= maxAlts {
			return false
		}
		out.alts = append(out.alts, a)
		return true
	}
	for _, a := range alts {
		if len(a.v.alts) > 0 {
			for _, inner := range a.v.alts {
				if !add(alt{v: inner.v, cond: joinCond(a.cond, inner.cond)}) {
					return unknown(expr)
				}
			}
			continue
		}
		if !add(a) {
			return unknown(expr)
		}
	}
	return out
}

func joinCond(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " and " + b
}

// altsOf lists what v may be: its alternatives, itself when known, nil
// when nothing is known.
func altsOf(v value) []alt {
	if len(v.alts) > 0 {
		return v.alts
	}
	if v.known() {
		return []alt{{v: v}}
	}
	return nil
}

// lift applies f to every combination of the alternatives of parts; ok is
// false when no part has alternatives or one part is a plain unknown.
func lift(expr string, parts []value, f func([]value) value) (value, bool) {
	any := false
	for _, p := range parts {
		if len(p.alts) > 0 {
			any = true
		} else if !p.known() {
			return value{}, false
		}
	}
	if !any {
		return value{}, false
	}
	combos := []alt{{}}
	vals := [][]value{{}}
	for _, p := range parts {
		as := altsOf(p)
		if len(combos)*len(as) > maxAlts {
			return value{}, false
		}
		var nc []alt
		var nv [][]value
		for i, c := range combos {
			for _, a := range as {
				vs := append(append([]value(nil), vals[i]...), a.v)
				nv = append(nv, vs)
				nc = append(nc, alt{cond: joinCond(c.cond, a.cond)})
			}
		}
		combos, vals = nc, nv
	}
	out := make([]alt, len(combos))
	for i := range combos {
		out[i] = alt{v: f(vals[i]), cond: combos[i].cond}
	}
	return withAlts(expr, out), true
}

// condText renders a test for a condition, negated or not.
func condText(m *moduleInfo, test ast.Expression, negate bool) string {
	t := m.pf.text(test, 80)
	if !negate {
		return t
	}
	if u, ok := test.(*ast.UnaryExpression); ok && u.Operator == token.NOT {
		return m.pf.text(u.Operand, 80)
	}
	return "!(" + t + ")"
}

// reassigned evaluates a binding declared with a value and assigned again
// elsewhere: every value it may hold, as alternatives (or the one value
// all of them agree on).
func (e *engine) reassigned(b *binding, c evalCtx, use ast.Node) value {
	m := b.scope.mod
	as := b.assigned()
	if len(as) > 8 {
		return unknown(b.name)
	}
	first := e.eval(m, b.scope, b.init, c)
	for _, k := range b.path {
		first = e.member(first, k, c, m, b.init)
	}
	alts := []alt{{v: first, cond: "as declared at " + locText(m.pf.loc(b.declAt.Idx0()))}}
	joined, agree := first, true
	for _, a := range as {
		v := e.eval(m, a.scope, a.expr, c)
		l := m.pf.loc(a.expr.Idx0())
		v = v.withStep(Step{Description: fmt.Sprintf("`%s` is assigned %s", b.name, m.pf.text(a.expr, 80)), Location: l})
		alts = append(alts, alt{v: v, cond: "after the assignment at " + locText(l)})
		if agree {
			if j, ok := joinValues(joined, v); ok && j.kind != kObject {
				joined = j
			} else {
				agree = false
			}
		}
	}
	if agree {
		joined.inferred = true
		return joined
	}
	return withAlts(b.name, alts)
}

func locText(l Location) string { return fmt.Sprintf("%s:%d", l.File, l.Line) }

// memberOfAlts reads key of every alternative that can have members (null
// and undefined cannot: reading from them throws, so a receiver that was
// null until assigned is the assigned value).
func (e *engine) memberOfAlts(v value, key string, c evalCtx, m *moduleInfo, at ast.Node) value {
	var live []alt
	for _, a := range v.alts {
		if a.v.kind == kNull || a.v.kind == kUndefined {
			continue
		}
		live = append(live, a)
	}
	switch len(live) {
	case 0:
		return unknown(m.pf.text(at, 80))
	case 1:
		r := e.member(live[0].v, key, c, m, at)
		r.inferred = true
		return r
	}
	out := make([]alt, len(live))
	joined, agree := value{}, true
	for i, a := range live {
		out[i] = alt{v: e.member(a.v, key, c, m, at), cond: a.cond}
		if i == 0 {
			joined = out[i].v
		} else if agree {
			joined, agree = joinValues(joined, out[i].v)
		}
	}
	if agree && joined.kind != kObject && joined.known() {
		// Every branch reads the same thing (interop: m.__esModule ? m : {default: m}).
		return joined
	}
	return withAlts(m.pf.text(at, 80), out)
}

// iteration is where a loop variable's values come from: the collection of
// a for…of / for…in or of a forEach-like callback.
type iteration struct {
	expr  ast.Expression
	scope *scope
	keys  bool // for…in: the collection's keys
}

// guard is an allow-list test on a parameter: if (!LIST.includes(p)) return.
type allowGuard struct {
	list  ast.Expression
	scope *scope
	test  ast.Expression
}

// elements lists the values a collection holds: an array's elements, or
// an object's keys when keys is set.
func (e *engine) elements(v value, keys bool) ([]value, bool) {
	if v.kind != kObject || len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
		return nil, false
	}
	if keys {
		if v.obj.isArray {
			return nil, false
		}
		out := make([]value, len(v.obj.keys))
		for i, k := range v.obj.keys {
			s := strVal(k)
			s.at = v.obj.props[k].at
			out[i] = s
		}
		return out, true
	}
	if !v.obj.isArray {
		return nil, false
	}
	out := make([]value, 0, len(v.obj.keys))
	for _, k := range v.obj.keys {
		out = append(out, v.obj.props[k])
	}
	return out, true
}

// evalIteration gives a loop variable the elements of its collection as
// alternatives, each with the collection as a step of its chain.
func (e *engine) evalIteration(b *binding, it *iteration, c evalCtx) value {
	m := b.scope.mod
	src := e.eval(m, it.scope, it.expr, c)
	if w, ok := e.allWindows(m, it, c); ok && !it.keys {
		// for (const win of BrowserWindow.getAllWindows()): each is a window.
		for _, k := range b.path {
			w = e.member(w, k, c, m, it.expr)
		}
		return w.withStep(Step{Description: fmt.Sprintf("`%s` is each of %s", b.name, m.pf.text(it.expr, 80)), Location: m.pf.loc(it.expr.Idx0())})
	}
	els, ok := e.elements(src, it.keys)
	if !ok || len(els) == 0 {
		return unknown(b.name)
	}
	what := "element"
	if it.keys {
		what = "key"
	}
	step := Step{Description: fmt.Sprintf("`%s` iterates over %s", b.name, m.pf.text(it.expr, 80)), Location: m.pf.loc(it.expr.Idx0())}
	alts := make([]alt, 0, len(els))
	for _, el := range els {
		v := el
		for _, k := range b.path {
			v = e.member(v, k, c, m, it.expr)
		}
		v.inferred = true
		v = v.withStep(step)
		alts = append(alts, alt{v: v, cond: what + " of " + m.pf.text(it.expr, 60)})
	}
	return withAlts(b.name, alts)
}

// allWindows recognises an iteration over BrowserWindow.getAllWindows()
// (or BaseWindow's): its elements are windows of the application, whose
// identity the analysis does not know.
func (e *engine) allWindows(m *moduleInfo, it *iteration, c evalCtx) (value, bool) {
	call, ok := it.expr.(*ast.CallExpression)
	if !ok {
		return value{}, false
	}
	callee := e.eval(m, it.scope, call.Callee, c)
	if callee.kind != kExternal || callee.ext != "electron" || len(callee.path) != 2 || callee.path[1] != "getAllWindows" {
		return value{}, false
	}
	if k := callee.path[0]; k == "BrowserWindow" || k == "BaseWindow" {
		return value{kind: kInstance, ext: k, inferred: true, at: e.locp(m, call.Idx0())}, true
	}
	return value{}, false
}

// evalGuarded gives a parameter that an allow-list guards the list's
// elements as alternatives.
func (e *engine) evalGuarded(b *binding, gs []allowGuard, c evalCtx) value {
	m := b.scope.mod
	var alts []alt
	for _, g := range gs {
		els, ok := e.elements(e.eval(m, g.scope, g.list, c), false)
		if !ok {
			return unknown(b.name)
		}
		step := Step{Description: "allowed by " + m.pf.text(g.test, 80), Location: m.pf.loc(g.test.Idx0())}
		for _, el := range els {
			if el.kind != kString {
				return unknown(b.name)
			}
			v := el
			v.inferred = true
			alts = append(alts, alt{v: v.withStep(step), cond: "allowed by " + m.pf.text(g.list, 60)})
		}
	}
	if len(alts) == 0 {
		return unknown(b.name)
	}
	return withAlts(b.name, alts)
}

// allowListTest recognises an allow-list test on an identifier:
// LIST.includes(id), LIST.indexOf(id) !== -1 (or > -1, >= 0), LIST.has(id)
// and their negations; negated says the test passes when id is not listed.
func allowListTest(test ast.Expression) (list ast.Expression, id *ast.Identifier, negated bool) {
	if u, ok := test.(*ast.UnaryExpression); ok && u.Operator == token.NOT {
		l, i, n := allowListTest(u.Operand)
		return l, i, !n
	}
	if bin, ok := test.(*ast.BinaryExpression); ok {
		call, ok := bin.Left.(*ast.CallExpression)
		if !ok {
			return nil, nil, false
		}
		d, ok := call.Callee.(*ast.DotExpression)
		if !ok || d.Identifier.Name != "indexOf" || len(call.ArgumentList) != 1 {
			return nil, nil, false
		}
		arg, ok := call.ArgumentList[0].(*ast.Identifier)
		if !ok {
			return nil, nil, false
		}
		r := strings.TrimSpace(renderNumber(bin.Right))
		switch {
		case (bin.Operator == token.STRICT_NOT_EQUAL || bin.Operator == token.NOT_EQUAL || bin.Operator == token.GREATER) && r == "-1",
			bin.Operator == token.GREATER_OR_EQUAL && r == "0":
			return d.Left, arg, false
		case (bin.Operator == token.STRICT_EQUAL || bin.Operator == token.EQUAL) && r == "-1", bin.Operator == token.LESS && r == "0":
			return d.Left, arg, true
		}
		return nil, nil, false
	}
	call, ok := test.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 1 {
		return nil, nil, false
	}
	d, ok := call.Callee.(*ast.DotExpression)
	if !ok || (d.Identifier.Name != "includes" && d.Identifier.Name != "has") {
		return nil, nil, false
	}
	arg, ok := call.ArgumentList[0].(*ast.Identifier)
	if !ok {
		return nil, nil, false
	}
	return d.Left, arg, false
}

// renderNumber renders a numeric literal or its negation.
func renderNumber(x ast.Expression) string {
	switch n := x.(type) {
	case *ast.NumberLiteral:
		return n.Literal
	case *ast.UnaryExpression:
		if n.Operator == token.MINUS {
			return "-" + renderNumber(n.Operand)
		}
	}
	return ""
}

// joinCondValues merges the two branches of a condition: equal primitives
// stay, objects merge property-wise and a property the branches disagree
// on becomes an unknown with both values as alternatives.
func joinCondValues(a, b value, ca, cb string) (value, bool) {
	if a.kind != kObject || b.kind != kObject {
		if a.kind == kObject || b.kind == kObject {
			return value{}, false
		}
		return joinValues(a, b)
	}
	o := newObject()
	prop := func(v value, k string) value {
		if p, ok := v.obj.get(k); ok {
			return p
		}
		return value{kind: kUndefined}
	}
	for _, k := range a.obj.keys {
		pa, pb := a.obj.props[k], prop(b, k)
		if j, ok := joinCondValues(pa, pb, ca, cb); ok {
			o.set(k, j)
			continue
		}
		o.set(k, withAlts(k+" differs between branches", []alt{{v: pa, cond: ca}, {v: pb, cond: cb}}))
	}
	for _, k := range b.obj.keys {
		if _, ok := a.obj.get(k); !ok {
			o.set(k, withAlts(k+" differs between branches", []alt{{v: value{kind: kUndefined}, cond: ca}, {v: b.obj.props[k], cond: cb}}))
		}
	}
	o.unknownSpread = append(append(o.unknownSpread, a.obj.unknownSpread...), b.obj.unknownSpread...)
	o.dynamicKeys = a.obj.dynamicKeys + b.obj.dynamicKeys
	return value{kind: kObject, obj: o, at: a.at, via: a.via, inferred: true}, true
}

// logicalAlts evaluates a || b, a && b and a ?? b whose left side is not
// known: the result is one side or the other.
func (e *engine) logicalAlts(m *moduleInfo, s *scope, x *ast.BinaryExpression, l value, c evalCtx) value {
	r := e.eval(m, s, x.Right, c)
	lt := m.pf.text(x.Left, 60)
	var cl, cr string
	switch x.Operator {
	case token.LOGICAL_OR:
		cl, cr = lt+" is truthy", lt+" is falsy"
	case token.LOGICAL_AND:
		cl, cr = lt+" is falsy", lt+" is truthy"
	default:
		cl, cr = lt+" is set", lt+" is null or undefined"
	}
	return withAlts(m.pf.text(x, 80), []alt{{v: l, cond: cl}, {v: r, cond: cr}})
}

// templateAlts folds a template literal one of whose parts has
// alternatives into the alternatives of the whole string.
func (e *engine) templateAlts(m *moduleInfo, s *scope, x *ast.TemplateLiteral, c evalCtx) value {
	parts := make([]value, len(x.Expressions))
	for i, ex := range x.Expressions {
		parts[i] = e.eval(m, s, ex, c)
	}
	at := e.locp(m, x.OpenQuote)
	v, ok := lift(m.pf.text(x, 80), parts, func(vs []value) value {
		var sb strings.Builder
		var via []Step
		fs, inferred := false, false
		for i, el := range x.Elements {
			sb.WriteString(string(el.Parsed))
			if i < len(vs) {
				str, ok := vs[i].toString()
				if !ok {
					return unknown(m.pf.text(x, 80))
				}
				sb.WriteString(str)
				fs = fs || vs[i].fsPath
				inferred = inferred || vs[i].inferred
				via = append(via, vs[i].via...)
			}
		}
		out := strVal(sb.String())
		out.fsPath, out.inferred, out.at = fs, inferred, at
		if len(via) > maxChain {
			via = via[:maxChain]
		}
		out.via = via
		return out
	})
	if !ok {
		return unknown(m.pf.text(x, 80))
	}
	return v
}

// concat is JavaScript's + over two known values (unknown when it is not
// a string or number result).
func concat(l, r value) value {
	if l.kind == kNumber && r.kind == kNumber {
		return value{kind: kNumber, num: l.num + r.num}
	}
	ls, ok1 := l.toString()
	rs, ok2 := r.toString()
	if !ok1 || !ok2 || (l.kind != kString && r.kind != kString) || len(ls)+len(rs) > maxFoldedString {
		return unknown(l.render() + " + " + r.render())
	}
	v := strVal(ls + rs)
	v.fsPath = l.fsPath || r.fsPath
	v.inferred = l.inferred || r.inferred
	v.at = l.at
	v.via = append(append([]Step(nil), l.via...), r.via...)
	if len(v.via) > maxChain {
		v.via = v.via[:maxChain]
	}
	return v
}

// objectListing folds Object.keys/values/entries of a known object into an
// array.
func objectListing(v value, fn string, at *Location) value {
	if v.kind != kObject || v.obj.isArray || len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
		return unknown("Object." + fn + "(" + v.render() + ")")
	}
	o := newObject()
	o.isArray = true
	for i, k := range v.obj.keys {
		pv := v.obj.props[k]
		kv := strVal(k)
		kv.at = pv.at
		var el value
		switch fn {
		case "keys":
			el = kv
		case "values":
			el = pv
		default:
			pair := newObject()
			pair.isArray = true
			pair.set("[0]", kv)
			pair.set("[1]", pv)
			el = value{kind: kObject, obj: pair, at: pv.at}
		}
		if v.inferred {
			el.inferred = true
		}
		o.set("["+itoa(i)+"]", el)
	}
	return value{kind: kObject, obj: o, at: at, via: v.via, inferred: v.inferred}
}
