package jsengine

import "github.com/dop251/goja/ast"

// visitor receives every node of a syntax tree in source order. Enter
// returning false skips the node's children (Leave is still called).
type visitor interface {
	Enter(n any) bool
	Leave(n any)
}

// walk visits n and its descendants. It is a hand-written type switch rather
// than reflection: the walk runs over every byte of an application, and a
// switch is several times faster.
func walk(v visitor, n any) {
	if isNil(n) {
		return
	}
	if !v.Enter(n) {
		v.Leave(n)
		return
	}
	switch n := n.(type) {
	case *ast.Program:
		walkStatements(v, n.Body)
	case *ast.Binding:
		walk(v, n.Target)
		walkExpr(v, n.Initializer)
	case *ast.YieldExpression:
		walkExpr(v, n.Argument)
	case *ast.AwaitExpression:
		walkExpr(v, n.Argument)
	case *ast.ArrayLiteral:
		walkExprs(v, n.Value)
	case *ast.ArrayPattern:
		walkExprs(v, n.Elements)
		walkExpr(v, n.Rest)
	case *ast.AssignExpression:
		walkExpr(v, n.Left)
		walkExpr(v, n.Right)
	case *ast.BinaryExpression:
		walkExpr(v, n.Left)
		walkExpr(v, n.Right)
	case *ast.BracketExpression:
		walkExpr(v, n.Left)
		walkExpr(v, n.Member)
	case *ast.CallExpression:
		walkExpr(v, n.Callee)
		walkExprs(v, n.ArgumentList)
	case *ast.ConditionalExpression:
		walkExpr(v, n.Test)
		walkExpr(v, n.Consequent)
		walkExpr(v, n.Alternate)
	case *ast.DotExpression:
		walkExpr(v, n.Left)
	case *ast.PrivateDotExpression:
		walkExpr(v, n.Left)
	case *ast.OptionalChain:
		walkExpr(v, n.Expression)
	case *ast.Optional:
		walkExpr(v, n.Expression)
	case *ast.FunctionLiteral:
		if n.ParameterList != nil {
			walk(v, n.ParameterList)
		}
		if n.Body != nil {
			walk(v, n.Body)
		}
	case *ast.ClassLiteral:
		walkExpr(v, n.SuperClass)
		for _, el := range n.Body {
			walk(v, el)
		}
	case *ast.ArrowFunctionLiteral:
		if n.ParameterList != nil {
			walk(v, n.ParameterList)
		}
		walk(v, n.Body)
	case *ast.ExpressionBody:
		walkExpr(v, n.Expression)
	case *ast.NewExpression:
		walkExpr(v, n.Callee)
		walkExprs(v, n.ArgumentList)
	case *ast.ObjectLiteral:
		for _, p := range n.Value {
			walk(v, p)
		}
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			walk(v, p)
		}
		walkExpr(v, n.Rest)
	case *ast.ParameterList:
		for _, b := range n.List {
			walk(v, b)
		}
		walkExpr(v, n.Rest)
	case *ast.PropertyShort:
		walkExpr(v, n.Initializer)
	case *ast.PropertyKeyed:
		if n.Computed {
			walkExpr(v, n.Key)
		}
		walkExpr(v, n.Value)
	case *ast.SpreadElement:
		walkExpr(v, n.Expression)
	case *ast.SequenceExpression:
		walkExprs(v, n.Sequence)
	case *ast.TemplateLiteral:
		walkExpr(v, n.Tag)
		walkExprs(v, n.Expressions)
	case *ast.UnaryExpression:
		walkExpr(v, n.Operand)
	case *ast.BlockStatement:
		walkStatements(v, n.List)
	case *ast.CaseStatement:
		walkExpr(v, n.Test)
		walkStatements(v, n.Consequent)
	case *ast.CatchStatement:
		walkExpr(v, n.Parameter)
		if n.Body != nil {
			walk(v, n.Body)
		}
	case *ast.DoWhileStatement:
		walk(v, n.Body)
		walkExpr(v, n.Test)
	case *ast.ExpressionStatement:
		walkExpr(v, n.Expression)
	case *ast.ForInStatement:
		walk(v, n.Into)
		walkExpr(v, n.Source)
		walk(v, n.Body)
	case *ast.ForOfStatement:
		walk(v, n.Into)
		walkExpr(v, n.Source)
		walk(v, n.Body)
	case *ast.ForStatement:
		walk(v, n.Initializer)
		walkExpr(v, n.Test)
		walkExpr(v, n.Update)
		walk(v, n.Body)
	case *ast.IfStatement:
		walkExpr(v, n.Test)
		walk(v, n.Consequent)
		walk(v, n.Alternate)
	case *ast.LabelledStatement:
		walk(v, n.Statement)
	case *ast.ReturnStatement:
		walkExpr(v, n.Argument)
	case *ast.SwitchStatement:
		walkExpr(v, n.Discriminant)
		for _, c := range n.Body {
			walk(v, c)
		}
	case *ast.ThrowStatement:
		walkExpr(v, n.Argument)
	case *ast.TryStatement:
		if n.Body != nil {
			walk(v, n.Body)
		}
		if n.Catch != nil {
			walk(v, n.Catch)
		}
		if n.Finally != nil {
			walk(v, n.Finally)
		}
	case *ast.VariableStatement:
		for _, b := range n.List {
			walk(v, b)
		}
	case *ast.LexicalDeclaration:
		for _, b := range n.List {
			walk(v, b)
		}
	case *ast.WhileStatement:
		walkExpr(v, n.Test)
		walk(v, n.Body)
	case *ast.WithStatement:
		walkExpr(v, n.Object)
		walk(v, n.Body)
	case *ast.FunctionDeclaration:
		if n.Function != nil {
			walk(v, n.Function)
		}
	case *ast.ClassDeclaration:
		if n.Class != nil {
			walk(v, n.Class)
		}
	case *ast.FieldDefinition:
		if n.Computed {
			walkExpr(v, n.Key)
		}
		walkExpr(v, n.Initializer)
	case *ast.MethodDefinition:
		if n.Computed {
			walkExpr(v, n.Key)
		}
		if n.Body != nil {
			walk(v, n.Body)
		}
	case *ast.ClassStaticBlock:
		if n.Block != nil {
			walk(v, n.Block)
		}
	case *ast.ForLoopInitializerExpression:
		walkExpr(v, n.Expression)
	case *ast.ForLoopInitializerVarDeclList:
		for _, b := range n.List {
			walk(v, b)
		}
	case *ast.ForLoopInitializerLexicalDecl:
		for _, b := range n.LexicalDeclaration.List {
			walk(v, b)
		}
	case *ast.ForIntoVar:
		if n.Binding != nil {
			walk(v, n.Binding)
		}
	case *ast.ForDeclaration:
		walkExpr(v, n.Target)
	case *ast.ForIntoExpression:
		walkExpr(v, n.Expression)
	}
	v.Leave(n)
}

func walkExpr(v visitor, e ast.Expression) {
	if e != nil {
		walk(v, e)
	}
}

func walkExprs(v visitor, es []ast.Expression) {
	for _, e := range es {
		if e != nil {
			walk(v, e)
		}
	}
}

func walkStatements(v visitor, ss []ast.Statement) {
	for _, s := range ss {
		if s != nil {
			walk(v, s)
		}
	}
}

// isNil reports whether an interface holds nothing or a typed nil pointer,
// which the parser leaves in optional fields.
func isNil(n any) bool {
	if n == nil {
		return true
	}
	switch p := n.(type) {
	case *ast.BlockStatement:
		return p == nil
	case *ast.Identifier:
		return p == nil
	case *ast.FunctionLiteral:
		return p == nil
	case *ast.ClassLiteral:
		return p == nil
	case *ast.ParameterList:
		return p == nil
	case *ast.Binding:
		return p == nil
	case *ast.CatchStatement:
		return p == nil
	case *ast.ObjectLiteral:
		return p == nil
	}
	return false
}
