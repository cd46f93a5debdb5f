package exports

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"

	"rea/jsengine/jsparse"
)

// Extraction is what reading one module found for one export name.
type Extraction struct {
	Shape *Shape
	// Assignments counts the places the export is assigned; more than
	// one makes the selector ambiguous.
	Assignments int
	// Names are every export name the module assigns (the candidates when
	// the selected one is missing).
	Names []string
	// Reason explains a nil Shape.
	Reason string
}

// module is one parsed CommonJS module.
type module struct {
	lim      Limits
	bindings map[string]ast.Expression // single top-level bindings
	funcs    map[string]*ast.FunctionLiteral
	reassign map[string]bool
	whole    []ast.Expression            // module.exports = X
	named    map[string][]ast.Expression // exports.N = X / module.exports.N = X
	order    []string
}

// Extract parses src (never running it) and abstracts the export name:
// "default" (or "module.exports") names the whole module.exports value.
func Extract(src, name string, lim Limits) Extraction {
	prog, err := jsparse.Parse("module.js", src)
	if err != nil {
		msg := err.Error()
		if !errors.Is(err, jsparse.ErrTooDeep) && (strings.Contains(src, "export ") || strings.Contains(src, "import ")) {
			msg = "ES module syntax is not read here: export shapes are read from CommonJS exports (module.exports, exports.name)"
		}
		return Extraction{Reason: "the module does not parse as a script: " + msg}
	}
	m := &module{lim: lim, bindings: map[string]ast.Expression{}, funcs: map[string]*ast.FunctionLiteral{}, reassign: map[string]bool{}, named: map[string][]ast.Expression{}}
	m.scan(prog.Body)
	names := append([]string{}, m.order...)
	if len(m.whole) > 0 {
		if obj, ok := lastObject(m.whole); ok {
			for _, p := range obj.Value {
				if k, ok := propKey(p); ok && !contains(names, k) {
					names = append(names, k)
				}
			}
		}
		names = append([]string{"default"}, names...)
	}
	ex := Extraction{Names: names}
	switch {
	case name == "default" || name == "module.exports":
		ex.Assignments = len(m.whole)
		if len(m.whole) == 0 {
			if len(m.named) == 0 {
				ex.Reason = "the module assigns nothing to module.exports or exports"
				return ex
			}
			// The whole export is the object of named assignments.
			s := &Shape{Kind: KindObject, Props: map[string]*Shape{}}
			for _, n := range m.order {
				s.Keys = append(s.Keys, n)
				s.Props[n] = m.namedShape(n)
			}
			ex.Assignments, ex.Shape = 1, s
			return ex
		}
		ex.Shape = m.eval(m.whole[len(m.whole)-1], 0)
	case len(m.named[name]) > 0:
		ex.Assignments = len(m.named[name])
		ex.Shape = m.namedShape(name)
	case len(m.whole) > 0:
		obj, ok := lastObject(m.whole)
		if !ok {
			whole := m.eval(m.whole[len(m.whole)-1], 0)
			if whole.Kind == KindObject {
				if p, ok := whole.Props[name]; ok {
					ex.Assignments, ex.Shape = 1, p
					return ex
				}
			}
			ex.Reason = fmt.Sprintf("module.exports is not an object literal with a member %q", name)
			return ex
		}
		for _, p := range obj.Value {
			if k, ok := propKey(p); ok && k == name {
				ex.Assignments++
				ex.Shape = m.propValue(p, 0)
			}
		}
		if ex.Assignments == 0 {
			ex.Reason = fmt.Sprintf("the module exports no %q", name)
		}
	default:
		ex.Reason = fmt.Sprintf("the module exports no %q", name)
	}
	return ex
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (m *module) namedShape(n string) *Shape {
	exprs := m.named[n]
	var s *Shape
	for _, e := range exprs {
		s = Join(s, m.eval(e, 0), m.lim.MaxVariants)
	}
	return s
}

func lastObject(exprs []ast.Expression) (*ast.ObjectLiteral, bool) {
	o, ok := exprs[len(exprs)-1].(*ast.ObjectLiteral)
	return o, ok
}

// scan records top-level bindings and export assignments.
func (m *module) scan(body []ast.Statement) {
	bind := func(list []*ast.Binding) {
		for _, b := range list {
			if id, ok := b.Target.(*ast.Identifier); ok {
				n := string(id.Name)
				if _, dup := m.bindings[n]; dup {
					m.reassign[n] = true
				}
				m.bindings[n] = b.Initializer
			}
		}
	}
	for _, st := range body {
		switch s := st.(type) {
		case *ast.VariableStatement:
			bind(s.List)
		case *ast.LexicalDeclaration:
			bind(s.List)
		case *ast.FunctionDeclaration:
			if s.Function.Name != nil {
				m.funcs[string(s.Function.Name.Name)] = s.Function
			}
		case *ast.ExpressionStatement:
			m.assignments(s.Expression)
		}
	}
}

// assignments records export assignments, following a = b = c chains and
// comma sequences.
func (m *module) assignments(e ast.Expression) {
	switch x := e.(type) {
	case *ast.SequenceExpression:
		for _, y := range x.Sequence {
			m.assignments(y)
		}
	case *ast.AssignExpression:
		if x.Operator != token.ASSIGN {
			return
		}
		value := x.Right
		for {
			inner, ok := value.(*ast.AssignExpression)
			if !ok || inner.Operator != token.ASSIGN {
				break
			}
			m.assignments(inner)
			value = inner.Right
		}
		switch target := exportTarget(x.Left); {
		case target == "module.exports":
			m.whole = append(m.whole, value)
		case strings.HasPrefix(target, "."):
			n := target[1:]
			if len(m.named[n]) == 0 {
				m.order = append(m.order, n)
			}
			m.named[n] = append(m.named[n], value)
		default:
			if id, ok := x.Left.(*ast.Identifier); ok {
				m.reassign[string(id.Name)] = true
			}
		}
	}
}

// exportTarget names an assignment target: "module.exports", ".name"
// for exports.name / module.exports.name, or "".
func exportTarget(e ast.Expression) string {
	member := func(e ast.Expression) (ast.Expression, string, bool) {
		switch x := e.(type) {
		case *ast.DotExpression:
			return x.Left, string(x.Identifier.Name), true
		case *ast.BracketExpression:
			if s, ok := x.Member.(*ast.StringLiteral); ok {
				return x.Left, string(s.Value), true
			}
		}
		return nil, "", false
	}
	isIdent := func(e ast.Expression, n string) bool {
		id, ok := e.(*ast.Identifier)
		return ok && string(id.Name) == n
	}
	left, name, ok := member(e)
	if !ok {
		return ""
	}
	if isIdent(left, "module") && name == "exports" {
		return "module.exports"
	}
	if isIdent(left, "exports") {
		return "." + name
	}
	if l2, n2, ok := member(left); ok && isIdent(l2, "module") && n2 == "exports" {
		return "." + name
	}
	return ""
}

func propKey(p ast.Property) (string, bool) {
	switch x := p.(type) {
	case *ast.PropertyKeyed:
		if x.Computed {
			return "", false
		}
		switch k := x.Key.(type) {
		case *ast.StringLiteral:
			return string(k.Value), true
		case *ast.Identifier:
			return string(k.Name), true
		case *ast.NumberLiteral:
			return k.Literal, true
		}
	case *ast.PropertyShort:
		return string(x.Name.Name), true
	}
	return "", false
}

func (m *module) propValue(p ast.Property, depth int) *Shape {
	switch x := p.(type) {
	case *ast.PropertyKeyed:
		if x.Kind == ast.PropertyKindGet || x.Kind == ast.PropertyKindSet {
			return unknown("an accessor property")
		}
		return m.eval(x.Value, depth+1)
	case *ast.PropertyShort:
		return m.eval(&x.Name, depth+1)
	}
	return unknown("an unsupported property form")
}

// eval abstracts an expression. It folds literals and follows top-level
// bindings that are assigned once; everything else is unknown.
func (m *module) eval(e ast.Expression, depth int) *Shape {
	if depth > m.lim.MaxDepth {
		return unknown("deeper than limits.max_depth")
	}
	switch x := e.(type) {
	case nil:
		return &Shape{Kind: KindUndefined}
	case *ast.StringLiteral:
		return constant(KindString, string(x.Value))
	case *ast.NumberLiteral:
		switch v := x.Value.(type) {
		case int64:
			return constant(KindNumber, float64(v))
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return &Shape{Kind: KindNumber}
			}
			return constant(KindNumber, v)
		}
		return &Shape{Kind: KindNumber}
	case *ast.BooleanLiteral:
		return constant(KindBoolean, x.Value)
	case *ast.NullLiteral:
		return &Shape{Kind: KindNull}
	case *ast.TemplateLiteral:
		if x.Tag == nil && len(x.Expressions) == 0 && len(x.Elements) == 1 {
			return constant(KindString, string(x.Elements[0].Parsed))
		}
		if x.Tag == nil {
			return &Shape{Kind: KindString}
		}
		return unknown("a tagged template")
	case *ast.Identifier:
		n := string(x.Name)
		if n == "undefined" {
			return &Shape{Kind: KindUndefined}
		}
		if m.reassign[n] {
			return unknown(n + " is assigned more than once")
		}
		if f, ok := m.funcs[n]; ok {
			return m.function(f.ParameterList, f.Body, nil, f.Async, depth)
		}
		if b, ok := m.bindings[n]; ok {
			return m.eval(b, depth+1)
		}
		return unknown("the value of " + n + " is not known statically (a parameter, or not a top-level binding)")
	case *ast.ObjectLiteral:
		s := &Shape{Kind: KindObject, Props: map[string]*Shape{}}
		for _, p := range x.Value {
			k, ok := propKey(p)
			if !ok {
				s.Open = true
				continue
			}
			if len(s.Keys) >= m.lim.MaxProperties {
				s.Open = true
				continue
			}
			if _, dup := s.Props[k]; !dup {
				s.Keys = append(s.Keys, k)
			}
			s.Props[k] = m.propValue(p, depth)
		}
		return s
	case *ast.ArrayLiteral:
		s := &Shape{Kind: KindArray, Items: []*Shape{}}
		for _, it := range x.Value {
			if _, spread := it.(*ast.SpreadElement); spread {
				return unknown("an array with a spread")
			}
			if len(s.Items) >= m.lim.MaxProperties {
				return unknown("more array items than limits.max_properties")
			}
			s.Items = append(s.Items, m.eval(it, depth+1))
		}
		return s
	case *ast.FunctionLiteral:
		return m.function(x.ParameterList, x.Body, nil, x.Async, depth)
	case *ast.ArrowFunctionLiteral:
		if eb, ok := x.Body.(*ast.ExpressionBody); ok {
			return m.function(x.ParameterList, nil, eb.Expression, x.Async, depth)
		}
		if bs, ok := x.Body.(*ast.BlockStatement); ok {
			return m.function(x.ParameterList, bs, nil, x.Async, depth)
		}
		return unknown("an arrow function body")
	case *ast.UnaryExpression:
		v := m.eval(x.Operand, depth+1)
		switch x.Operator {
		case token.NOT:
			if v.HasConst {
				return constant(KindBoolean, !truthy(v))
			}
			return &Shape{Kind: KindBoolean}
		case token.MINUS:
			if v.Kind == KindNumber && v.HasConst {
				return constant(KindNumber, -v.Const.(float64))
			}
			return &Shape{Kind: KindNumber}
		case token.TYPEOF:
			return &Shape{Kind: KindString}
		case token.VOID:
			return &Shape{Kind: KindUndefined}
		}
		return unknown("a unary " + x.Operator.String())
	case *ast.BinaryExpression:
		l, r := m.eval(x.Left, depth+1), m.eval(x.Right, depth+1)
		if x.Comparison {
			return &Shape{Kind: KindBoolean}
		}
		if x.Operator == token.PLUS {
			switch {
			case l.Kind == KindString && r.Kind == KindString && l.HasConst && r.HasConst:
				return constant(KindString, l.Const.(string)+r.Const.(string))
			case l.Kind == KindNumber && r.Kind == KindNumber && l.HasConst && r.HasConst:
				return constant(KindNumber, l.Const.(float64)+r.Const.(float64))
			case l.Kind == KindString || r.Kind == KindString:
				return &Shape{Kind: KindString}
			case l.Kind == KindNumber && r.Kind == KindNumber:
				return &Shape{Kind: KindNumber}
			}
			return unknown("a + of operands of unknown type")
		}
		switch x.Operator {
		case token.MINUS, token.MULTIPLY, token.SLASH, token.REMAINDER:
			if l.Kind == KindNumber && r.Kind == KindNumber {
				return &Shape{Kind: KindNumber}
			}
		case token.LOGICAL_AND, token.LOGICAL_OR, token.COALESCE:
			return Join(l, r, m.lim.MaxVariants)
		}
		return unknown("a binary " + x.Operator.String())
	case *ast.ConditionalExpression:
		return Join(m.eval(x.Consequent, depth+1), m.eval(x.Alternate, depth+1), m.lim.MaxVariants)
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return m.eval(x.Sequence[len(x.Sequence)-1], depth+1)
		}
	case *ast.CallExpression:
		return unknown("the result of a call")
	case *ast.NewExpression:
		return unknown("a constructed object")
	case *ast.ClassLiteral:
		return &Shape{Kind: KindFunction, Returns: unknown("a class instance")}
	}
	return unknown(fmt.Sprintf("an expression the lattice does not model (%T)", e))
}

func truthy(s *Shape) bool {
	switch v := s.Const.(type) {
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	}
	return false
}

// function abstracts a function: its parameters and the join of its
// direct returns (nested functions are not entered).
func (m *module) function(params *ast.ParameterList, body *ast.BlockStatement, expr ast.Expression, async bool, depth int) *Shape {
	s := &Shape{Kind: KindFunction, Async: async}
	if params != nil {
		s.Params, s.Rest = len(params.List), params.Rest != nil
	}
	if expr != nil {
		s.Returns = m.eval(expr, depth+1)
		return s
	}
	var returns []ast.Expression
	falls := collectReturns(body.List, &returns)
	var r *Shape
	for _, e := range returns {
		r = Join(r, m.eval(e, depth+1), m.lim.MaxVariants)
	}
	if falls || len(returns) == 0 {
		r = Join(r, &Shape{Kind: KindUndefined}, m.lim.MaxVariants)
	}
	s.Returns = r
	return s
}

// collectReturns gathers the return statements of a body (not of nested
// functions) and says whether control may fall off its end.
func collectReturns(list []ast.Statement, out *[]ast.Expression) bool {
	for _, st := range list {
		if !collectStatement(st, out) {
			return false
		}
	}
	return true
}

// collectStatement reports whether control may continue after st.
func collectStatement(st ast.Statement, out *[]ast.Expression) bool {
	switch s := st.(type) {
	case *ast.ReturnStatement:
		*out = append(*out, s.Argument)
		return false
	case *ast.ThrowStatement:
		return false
	case *ast.BlockStatement:
		return collectReturns(s.List, out)
	case *ast.IfStatement:
		a := collectStatement(s.Consequent, out)
		b := true
		if s.Alternate != nil {
			b = collectStatement(s.Alternate, out)
		}
		return a || b
	case *ast.TryStatement:
		a := collectReturns(s.Body.List, out)
		if s.Catch != nil {
			a = collectReturns(s.Catch.Body.List, out) || a
		}
		if s.Finally != nil {
			return collectReturns(s.Finally.List, out) && a
		}
		return a
	case *ast.SwitchStatement:
		for _, c := range s.Body {
			collectReturns(c.Consequent, out)
		}
		return true
	case *ast.ForStatement:
		collectStatement(s.Body, out)
	case *ast.ForInStatement:
		collectStatement(s.Body, out)
	case *ast.ForOfStatement:
		collectStatement(s.Body, out)
	case *ast.WhileStatement:
		collectStatement(s.Body, out)
	case *ast.DoWhileStatement:
		collectStatement(s.Body, out)
	case *ast.LabelledStatement:
		return collectStatement(s.Statement, out)
	}
	return true
}
