package jsengine

import (
	"strings"

	"github.com/dop251/goja/ast"
)

// IPC forms beyond ipcMain/ipcRenderer themselves: the event a listener
// receives (event.reply), ports (MessageChannelMain), and the wrapper
// libraries real applications use instead of the raw modules.

// ipcLibraries are packages whose exports are IPC APIs of known meaning:
// they stay external even when their code is in the root, so that the
// calls are recognised by name rather than by following the library's
// internals.
var ipcLibraries = map[string]bool{
	"electron-better-ipc":       true,
	"electron-better-ipc-extra": true,
	"@electron-toolkit/preload": true,
}

// markEventParam remembers the first parameter of a main-process listener
// so that event.reply(…) in its body is recognised.
func (a *analyzer) markEventParam(x ast.Expression) { a.markEventParamIn(x, a.cur()) }

func (a *analyzer) markEventParamIn(x ast.Expression, s *scope) {
	v := a.e.evaluate(a.m, s, x)
	if v.kind == kFunction && v.fn.mod == a.m {
		a.markParam(v.fn.node, 0)
	}
}

// markParam marks parameter i of fn, a function of the module, as an event.
func (a *analyzer) markParam(fn ast.Node, i int) {
	pl := paramList(fn)
	if pl == nil || i >= len(pl.List) {
		return
	}
	id, ok := pl.List[i].Target.(*ast.Identifier)
	if !ok {
		return
	}
	if sc := a.m.scopes[fn]; sc != nil {
		if b := sc.get(string(id.Name)); b != nil {
			if a.events == nil {
				a.events = map[*binding]bool{}
			}
			a.events[b] = true
		}
	}
}

// markEventsAhead marks, once per module, the event parameters of every
// listener the module registers with ipcMain (or webContents.ipc), for the
// replies met before their registration: drawio defines
// function exportDiagram(event, …) { … event.reply(…) } and only later
// writes ipcMain.on('export', exportDiagram). An event handed on to a
// function of the module (exportVsdx(event, …)) marks that parameter too.
// It reports whether it ran now.
func (a *analyzer) markEventsAhead() bool {
	if a.eventsAhead || a.m.pf.prog == nil {
		return false
	}
	a.eventsAhead = true
	lf := &listenerFinder{scopeTrail: scopeTrail{m: a.m}, a: a}
	walk(lf, a.m.pf.prog)
	for _, h := range lf.handlers {
		a.markEventParamIn(h.expr, h.scope)
	}
	// Events handed on: a few rounds over the functions marked so far.
	for round := 0; round < 3; round++ {
		before := len(a.events)
		for b := range a.events {
			a.markHandedOn(b)
		}
		if len(a.events) == before {
			break
		}
	}
	return true
}

// markHandedOn marks the parameter of a module function that event
// binding b is passed to (f(b, …) inside b's function).
func (a *analyzer) markHandedOn(b *binding) {
	fn := a.e.functionOf(b.scope)
	if fn == nil {
		return
	}
	cc := &callCollector{}
	walk(cc, fn)
	for _, call := range cc.calls {
		for i, arg := range call.ArgumentList {
			id, ok := arg.(*ast.Identifier)
			if !ok || string(id.Name) != b.name {
				continue
			}
			if callee := a.e.evaluate(a.m, b.scope, call.Callee); callee.kind == kFunction && callee.fn.mod == a.m {
				a.markParam(callee.fn.node, i)
			}
		}
	}
}

// listenerFinder collects the handlers of ipcMain.on/once/handle/… and
// webContents.ipc.on/… calls of a module, with the scope they are in.
type listenerFinder struct {
	scopeTrail
	a        *analyzer
	handlers []scopedExpr
}

type scopedExpr struct {
	expr  ast.Expression
	scope *scope
}

func (f *listenerFinder) Enter(n any) bool {
	f.enter(n)
	call, ok := n.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) < 2 || f.cur() == nil {
		return true
	}
	d, ok := call.Callee.(*ast.DotExpression)
	if !ok {
		return true
	}
	switch d.Identifier.Name {
	case "on", "once", "addListener", "handle", "handleOnce":
	default:
		return true
	}
	recv := f.a.m.pf.text(d.Left, 200)
	if strings.HasSuffix(recv, "ipcMain") || strings.HasSuffix(recv, "webContents.ipc") {
		v := f.a.e.evaluate(f.a.m, f.cur(), d.Left)
		if v.isElectron("ipcMain") || strings.HasSuffix(recv, "webContents.ipc") {
			f.handlers = append(f.handlers, scopedExpr{call.ArgumentList[1], f.cur()})
		}
	}
	return true
}

func (f *listenerFinder) Leave(n any) { f.leave(n) }

func (a *analyzer) isEventParam(x ast.Expression) bool {
	id, ok := x.(*ast.Identifier)
	if !ok || a.events == nil {
		return false
	}
	return a.events[a.cur().lookup(string(id.Name))]
}

// libraryCall handles the IPC wrapper libraries: electron-better-ipc's
// answerRenderer/callRenderer (main) and answerMain/callMain (renderer);
// the electron modules they re-export keep their own meaning.
func (a *analyzer) libraryCall(n *ast.CallExpression, callee value) bool {
	if !strings.HasPrefix(callee.ext, "electron-better-ipc") || len(callee.path) != 2 {
		return false
	}
	args := n.ArgumentList
	p := strings.Join(callee.path, ".")
	// answerRenderer and callRenderer take a window first when given one.
	chanArg := 0
	if len(args) >= 3 {
		chanArg = 1
	}
	switch p {
	case "ipcMain.answerRenderer":
		a.addIPC("main", p, "handler", n, chanArg, chanArg+1)
	case "ipcMain.callRenderer":
		a.addIPC("main", p, "transmission", n, 1, -1)
	case "ipcMain.callFocusedRenderer":
		a.addIPC("main", p, "transmission", n, 0, -1)
	case "ipcRenderer.answerMain":
		a.addIPC("renderer", p, "handler", n, 0, -1)
	case "ipcRenderer.callMain":
		a.addIPC("renderer", p, "transmission", n, 0, -1)
	default:
		// ipcMain.handle, ipcRenderer.invoke, …: the electron objects.
		a.electronCall(n, value{kind: kExternal, ext: "electron", path: callee.path})
	}
	return true
}

// messageChannel observes `new MessageChannelMain()`: its ports carry
// messages outside the channel names IPC pairing sees.
func (a *analyzer) messageChannel(n *ast.NewExpression, callee value) {
	if !callee.isElectron("MessageChannelMain") {
		return
	}
	a.e.obs = append(a.e.obs, Observation{Kind: "message-channel", API: "MessageChannelMain", Module: a.m.path, Location: a.loc(n)})
}

// ipcReceivers says which operations receive what op transmits (nil: op
// is not a transmission IPC pairs).
func ipcReceivers(op IPCOperation) func(IPCOperation) bool {
	switch op.API {
	case "ipcRenderer.invoke":
		return func(h IPCOperation) bool {
			switch h.API {
			case "ipcMain.handle", "ipcMain.handleOnce", "webContents.ipc.handle", "webContents.ipc.handleOnce":
				return true
			}
			return false
		}
	case "ipcRenderer.send", "ipcRenderer.sendSync", "ipcRenderer.postMessage":
		return func(h IPCOperation) bool { return h.Side == "main" && h.Role == "listener" }
	case "webContents.send", "webContents.postMessage", "webContents.sendToFrame", "BrowserWindow.send", "event.reply", "ipcRenderer.sendTo":
		return func(h IPCOperation) bool { return h.Side == "renderer" && h.Role == "listener" }
	case "ipcRenderer.callMain":
		return func(h IPCOperation) bool { return h.API == "ipcMain.answerRenderer" }
	case "ipcMain.callRenderer", "ipcMain.callFocusedRenderer":
		return func(h IPCOperation) bool { return h.API == "ipcRenderer.answerMain" }
	}
	return nil
}

// dedupIPC drops an operation recorded twice (the same call reached as a
// wrapper call and through its bridge); ops is sorted.
func dedupIPC(ops []IPCOperation) []IPCOperation {
	out := ops[:0]
	for i, op := range ops {
		if i > 0 {
			p := ops[i-1]
			if p.Location == op.Location && p.API == op.API && p.Channel == op.Channel && p.ChannelState == op.ChannelState && p.Role == op.Role {
				continue
			}
		}
		out = append(out, op)
	}
	return out
}

// dropSuperSites removes the window recorded at a BrowserWindow
// subclass's super(…) call when `new Subclass(…)` windows stand for it:
// each of those is the window, with the call's options merged in.
func (e *engine) dropSuperSites() {
	used := map[Location]bool{}
	for _, w := range e.windowList {
		if w.w.ConstructedAt != nil {
			used[*w.w.ConstructedAt] = true
		}
	}
	if len(used) == 0 {
		return
	}
	keep := e.windowList[:0]
	for _, w := range e.windowList {
		if w.w.ConstructedAt == nil && w.w.Class != "" && used[w.w.Location] {
			continue
		}
		keep = append(keep, w)
	}
	e.windowList = keep
}

// receiverIDs lists the operations that receive op's channel. A listener
// an allow-list implies (the wrapper's own call, one per listed channel)
// and the calls of that wrapper that name the channel are one receiver:
// the implied ones count only when no call names the channel.
func receiverIDs(ops []IPCOperation, op IPCOperation, match func(IPCOperation) bool) []string {
	var named, implied []string
	for _, h := range ops {
		if h.ChannelState == "dynamic" || h.Channel != op.Channel || !match(h) {
			continue
		}
		if allowListed(h) {
			implied = append(implied, h.ID)
		} else {
			named = append(named, h.ID)
		}
	}
	if len(named) > 0 {
		return named
	}
	return implied
}

// allowListed reports whether op's channel comes from an allow-list guard.
func allowListed(op IPCOperation) bool {
	for _, s := range op.ChannelVia {
		if strings.HasPrefix(s.Description, "allowed by ") {
			return true
		}
	}
	return false
}
