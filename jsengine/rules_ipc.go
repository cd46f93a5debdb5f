package jsengine

import (
	"strings"

	"github.com/dop251/goja/ast"
)

// ipcMethods are the IPC calls whose first argument is a channel.
var ipcMethods = map[string]bool{
	"send": true, "sendSync": true, "invoke": true, "postMessage": true, "sendToHost": true,
	"on": true, "once": true, "addListener": true, "handle": true, "handleOnce": true,
}

// ipcChannelGuard records, for an IPC call whose channel is a variable,
// what fixes the set of channels it can be: an allow-list check
// (ALLOWED.includes(ch), indexOf, has) in the enclosing function, or a
// loop over a constant list (for (const ch of LIST), LIST.forEach(ch =>
// …)). The record is an observation (kind ipc-channel-guard) at the
// channel argument; ipc-dynamic-channel is not reported there.
func (a *analyzer) ipcChannelGuard(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	id, ok := n.ArgumentList[0].(*ast.Identifier)
	if !ok {
		return
	}
	if !a.isIPCCallee(n.Callee) {
		return
	}
	if v := a.e.evaluate(a.m, a.cur(), id); v.kind == kString {
		return // a constant channel: nothing to guard
	}
	name := string(id.Name)
	fn, outer := a.enclosingFunctions()
	var scan ast.Node = a.m.pf.prog
	if fn != nil {
		scan = fn
	}
	g := &guardFinder{a: a, name: name, fn: fn}
	walk(g, scan)
	if g.found == "" && outer != nil && fn != nil {
		walk(g, outer) // LIST.forEach((ch) => ipcMain.handle(ch, …))
	}
	if g.found == "" {
		return
	}
	a.e.obs = append(a.e.obs, Observation{Kind: "ipc-channel-guard", API: calleeName(n.Callee), Argument: g.found, State: "known",
		Module: a.m.path, Location: a.loc(n.ArgumentList[0])})
}

// enclosingFunctions returns the innermost function around the current
// node and the one around it (nil when there is none).
func (a *analyzer) enclosingFunctions() (ast.Node, ast.Node) {
	var found []ast.Node
	for i := len(a.owners) - 1; i >= 0 && len(found) < 2; i-- {
		switch n := a.owners[i].(type) {
		case *ast.FunctionLiteral:
			found = append(found, n)
		case *ast.ArrowFunctionLiteral:
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], a.m.pf.prog
	}
	return found[0], found[1]
}

type guardFinder struct {
	a     *analyzer
	name  string
	fn    ast.Node
	found string
}

func (g *guardFinder) Enter(n any) bool {
	if g.found != "" {
		return false
	}
	switch n := n.(type) {
	case *ast.CallExpression:
		d, ok := n.Callee.(*ast.DotExpression)
		if !ok {
			return true
		}
		switch string(d.Identifier.Name) {
		case "includes", "indexOf", "has":
			if len(n.ArgumentList) > 0 && isIdent(n.ArgumentList[0], g.name) && g.constantList(d.Left) {
				g.found = "allow-list " + g.a.m.pf.text(d.Left, 80)
			}
		case "forEach", "map":
			if len(n.ArgumentList) > 0 && g.fn != nil && ast.Node(n.ArgumentList[0]) == g.fn {
				if ps := paramNames(g.fn); len(ps) > 0 && ps[0] == g.name && g.constantList(d.Left) {
					g.found = "constant list " + g.a.m.pf.text(d.Left, 80)
				}
			}
		}
	case *ast.ForOfStatement:
		if forIntoName(n.Into) == g.name && g.constantList(n.Source) {
			g.found = "constant list " + g.a.m.pf.text(n.Source, 80)
		}
	}
	return true
}

func (g *guardFinder) Leave(any) {}

// constantList reports whether x is an array (or new Set of an array) of
// string constants.
func (g *guardFinder) constantList(x ast.Expression) bool {
	if ne, ok := x.(*ast.NewExpression); ok && calleeName(ne.Callee) == "Set" && len(ne.ArgumentList) == 1 {
		x = ne.ArgumentList[0]
	}
	v := g.a.e.evaluate(g.a.m, g.a.cur(), x)
	if v.kind != kObject || !v.obj.isArray || len(v.obj.keys) == 0 || len(v.obj.unknownSpread) > 0 {
		return false
	}
	for _, k := range v.obj.keys {
		if v.obj.props[k].kind != kString {
			return false
		}
	}
	return true
}

func isIdent(x ast.Expression, name string) bool {
	id, ok := x.(*ast.Identifier)
	return ok && string(id.Name) == name
}

func forIntoName(in ast.ForInto) string {
	switch x := in.(type) {
	case *ast.ForDeclaration:
		if id, ok := x.Target.(*ast.Identifier); ok {
			return string(id.Name)
		}
	case *ast.ForIntoVar:
		if x.Binding != nil {
			if id, ok := x.Binding.Target.(*ast.Identifier); ok {
				return string(id.Name)
			}
		}
	case *ast.ForIntoExpression:
		if id, ok := x.Expression.(*ast.Identifier); ok {
			return string(id.Name)
		}
	}
	return ""
}

// isIPCCallee reports whether callee is a method of ipcMain, ipcRenderer or
// a webContents (the calls the analyzer records as IPC).
func (a *analyzer) isIPCCallee(callee ast.Expression) bool {
	v := a.e.evaluate(a.m, a.cur(), callee)
	switch {
	case v.kind == kExternal && v.ext == "electron" && len(v.path) == 2:
		return v.path[0] == "ipcMain" || v.path[0] == "ipcRenderer"
	case v.kind == kInstance:
		return len(v.path) >= 2 && v.path[len(v.path)-2] == "webContents"
	}
	if d, ok := callee.(*ast.DotExpression); ok {
		recv := a.m.pf.text(d.Left, 200)
		return webContentsText(recv)
	}
	return false
}

// rendererSenders corrects event.sender.send recognised by shape in a
// renderer or preload: there event.sender is the ipcRenderer that got the
// message, so the call is a renderer transmission, not webContents.send.
// A module counts as renderer-side when it is a preload or a page's
// script, or only has renderer IPC, and creates no window.
func (e *engine) rendererSenders(res *Result) {
	renderer := map[string]bool{}
	main := map[string]bool{}
	for _, w := range e.windowList {
		main[w.w.Module] = true
		if pl := w.w.Preload; pl != nil && pl.Module != "" {
			renderer[pl.Module] = true
		}
	}
	for _, d := range res.HTML {
		for _, s := range d.Scripts {
			if s.Resolved != "" {
				renderer[s.Resolved] = true
			}
		}
	}
	for _, op := range e.ipc {
		if strings.HasPrefix(op.API, "ipcRenderer.") {
			renderer[op.Module] = true
		}
		if strings.HasPrefix(op.API, "ipcMain.") {
			main[op.Module] = true
		}
	}
	for i := range e.ipc {
		op := &e.ipc[i]
		if !renderer[op.Module] || main[op.Module] || (op.API != "webContents.send" && op.API != "webContents.postMessage") {
			continue
		}
		line := e.snippetAt(op.Location)
		if !strings.Contains(line, "sender.send") && !strings.Contains(line, "sender.postMessage") {
			continue
		}
		op.Side, op.API = "renderer", "ipcRenderer."+strings.TrimPrefix(op.API, "webContents.")
	}
}
