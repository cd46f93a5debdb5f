package jsengine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// Channels through wrappers. Real applications rarely call ipcRenderer
// with a literal: they call send(channel, …) of a helper, a method of an
// IPC manager class, or window.api.send('x') of a function a preload
// exposes through contextBridge. A function whose parameter flows into an
// IPC call's channel is a wrapper; each call of it with a resolvable
// argument is an IPC operation on that channel, reported as inferred with
// the wrapper as a step of its chain.
//
// A wrapper is summarised once by evaluating its body with every
// parameter bound to a sentinel string: a channel argument that folds to
// a string holding one sentinel is prefix + argument i + suffix.

// wrapperOp is one IPC call inside a wrapper whose channel comes from the
// wrapper's arguments. It travels in shard facts (bridge functions).
type wrapperOp struct {
	API          string   `json:"api"`
	Side         string   `json:"side"`
	Role         string   `json:"role"`
	Param        int      `json:"param"`
	Prefix       string   `json:"prefix,omitempty"`
	Suffix       string   `json:"suffix,omitempty"`
	HandlerParam int      `json:"handler_param"`
	At           Location `json:"at"`
	// Guard is the allow-list the channel must be in (nil: no guard).
	Guard []string `json:"guard,omitempty"`
	// Recv, when set, says the IPC object is itself a parameter of the
	// wrapper (send(contents, channel) { contents.send(channel) }): API,
	// side, role and Param are settled at each call site from the
	// argument passed there (receivers.go).
	Recv *recvRef `json:"recv,omitempty"`
}

// bridgeFact is a function a preload exposes through contextBridge that
// wraps IPC: window.<Key>.<Member>(…) in a renderer is a call of it.
type bridgeFact struct {
	Key    string      `json:"key"`
	Member string      `json:"member"`
	Module string      `json:"module"`
	Ops    []wrapperOp `json:"ops"`
	// Alias, when set, says window.<Key>.<Member> is another global's
	// member (renderer code re-publishing the bridge: const { send } =
	// window.api; window.pre = { send }); it has no Ops of its own and
	// takes those of the facts it names once all are known.
	Alias *bridgeAlias `json:"alias,omitempty"`
	// aliasStep explains an expanded alias (not serialised: expansion
	// happens after the shards are joined).
	aliasStep *Step
}

// bridgeAlias names the global member an alias fact stands for, with the
// place the alias is written.
type bridgeAlias struct {
	Key    string   `json:"key"`
	Member string   `json:"member"`
	At     Location `json:"at"`
}

// bridgeCall is a renderer call window.<Key>.<Member>(args) whose first
// arguments resolve to strings, matched against bridgeFacts at the end.
type bridgeCall struct {
	Key    string      `json:"key"`
	Member string      `json:"member"`
	Module string      `json:"module"`
	Args   []bridgeArg `json:"args"`
}

type bridgeArg struct {
	Channels []bridgeChannel `json:"channels,omitempty"`
	Location Location        `json:"location"`
}

type bridgeChannel struct {
	Value string `json:"value"`
	State string `json:"state"`
	Via   []Step `json:"via,omitempty"`
}

const sentinelMark = "\x00rea-argument:"

func sentinel(i int) string { return sentinelMark + strconv.Itoa(i) + "\x00" }

// parseSentinel splits a folded channel into prefix, argument index and
// suffix when it holds exactly one sentinel.
func parseSentinel(s string) (string, int, string, bool) {
	i := strings.Index(s, sentinelMark)
	if i < 0 || strings.Count(s, sentinelMark) != 1 {
		return "", 0, "", false
	}
	rest := s[i+len(sentinelMark):]
	j := strings.IndexByte(rest, 0)
	if j < 0 {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil {
		return "", 0, "", false
	}
	return s[:i], n, rest[j+1:], true
}

// ipcChannelArgs are the IPC method names and which arguments may carry
// the channel (the first pass looks for parameters flowing there).
var ipcChannelArgs = map[string][]int{
	"send": {0}, "invoke": {0}, "sendSync": {0}, "on": {0}, "once": {0}, "handle": {0}, "handleOnce": {0},
	"addListener": {0}, "postMessage": {0}, "sendToHost": {0}, "reply": {0}, "answerMain": {0}, "callMain": {0},
	"callFocusedRenderer": {0}, "sendTo": {1}, "sendToFrame": {1}, "answerRenderer": {0, 1}, "callRenderer": {1},
}

func fnParts(n ast.Node) (*ast.ParameterList, []ast.Statement, ast.Expression) {
	switch f := n.(type) {
	case *ast.FunctionLiteral:
		if f.Body != nil {
			return f.ParameterList, f.Body.List, nil
		}
		return f.ParameterList, nil, nil
	case *ast.ArrowFunctionLiteral:
		switch b := f.Body.(type) {
		case *ast.BlockStatement:
			return f.ParameterList, b.List, nil
		case *ast.ExpressionBody:
			return f.ParameterList, nil, b.Expression
		}
		return f.ParameterList, nil, nil
	}
	return nil, nil, nil
}

// callCollector gathers the calls and allow-list tests inside a body.
type callCollector struct {
	calls []*ast.CallExpression
	tests []ast.Expression
	// opaque are the targets nested scopes declare without a value (loop
	// variables, inner functions' parameters, catch parameters); decls the
	// nested declarations with their initializers. A summary declares them
	// in its one scope, so that an inner `for (const window of all)` is
	// that variable, not the page's global window.
	opaque []any
	decls  []*ast.Binding
}

func (c *callCollector) Enter(n any) bool {
	switch n := n.(type) {
	case *ast.ForOfStatement:
		if d, ok := n.Into.(*ast.ForDeclaration); ok {
			c.opaque = append(c.opaque, d.Target)
		}
	case *ast.ForInStatement:
		if d, ok := n.Into.(*ast.ForDeclaration); ok {
			c.opaque = append(c.opaque, d.Target)
		}
	case *ast.CatchStatement:
		if n.Parameter != nil {
			c.opaque = append(c.opaque, n.Parameter)
		}
	case *ast.FunctionLiteral:
		c.params(n.ParameterList)
	case *ast.ArrowFunctionLiteral:
		c.params(n.ParameterList)
	case *ast.LexicalDeclaration:
		c.decls = append(c.decls, n.List...)
	case *ast.VariableStatement:
		c.decls = append(c.decls, n.List...)
	case *ast.CallExpression:
		if len(c.calls) < 64 {
			c.calls = append(c.calls, n)
		}
	case *ast.IfStatement:
		c.tests = append(c.tests, n.Test)
	case *ast.ConditionalExpression:
		c.tests = append(c.tests, n.Test)
	case *ast.BinaryExpression:
		c.tests = append(c.tests, n.Left)
	}
	return true
}

func (c *callCollector) Leave(any) {}

func (c *callCollector) params(pl *ast.ParameterList) {
	if pl == nil {
		return
	}
	for _, b := range pl.List {
		c.opaque = append(c.opaque, b.Target)
	}
	if pl.Rest != nil {
		c.opaque = append(c.opaque, pl.Rest)
	}
}

// declareNested declares in s the names nested scopes of a summarised body
// declare, where s does not already declare them.
func (c *callCollector) declareNested(s *scope) {
	inner := newScope(nil, s.mod)
	for _, t := range c.opaque {
		inner.declareTarget(t, nil, nil, true)
	}
	for _, b := range c.decls {
		inner.declareTarget(b.Target, b.Initializer, nil, false)
	}
	for _, b := range inner.vars {
		if s.get(b.name) == nil {
			s.declare(b.name, b)
		}
	}
}

// wrapperOps summarises fv: its IPC calls whose channel comes from its
// parameters, following wrappers it calls in turn (bounded depth).
func (e *engine) wrapperOps(fv *funcValue, depth int) []wrapperOp {
	if ops, ok := e.wrapperCache[fv.node]; ok {
		return ops
	}
	if e.wrapperCache == nil {
		e.wrapperCache = map[ast.Node][]wrapperOp{}
	}
	e.wrapperCache[fv.node] = nil // a recursive wrapper ends here
	pl, body, expr := fnParts(fv.node)
	if pl == nil {
		return nil
	}
	m := fv.mod
	fs := newScope(fv.scope, m)
	declareParams(fs, pl)
	hoist(fs, body, true)
	e.steps -= len(body)
	for i, p := range pl.List {
		if id, ok := p.Target.(*ast.Identifier); ok {
			if b := fs.get(string(id.Name)); b != nil {
				v := strVal(sentinel(i))
				b.more().preset = &v
			}
		}
	}
	if id, ok := pl.Rest.(*ast.Identifier); ok {
		o := newObject()
		o.isArray = true
		for k := 0; k < 4; k++ {
			o.set("["+strconv.Itoa(k)+"]", strVal(sentinel(len(pl.List)+k)))
		}
		if b := fs.get(string(id.Name)); b != nil {
			v := value{kind: kObject, obj: o}
			b.more().preset = &v
		}
	}
	cc := &callCollector{}
	for _, st := range body {
		walk(cc, st)
	}
	if expr != nil {
		walk(cc, expr)
	}
	cc.declareNested(fs)
	argOf := func(v value) (string, int, string, bool) {
		if v.kind != kString {
			return "", 0, "", false
		}
		return parseSentinel(v.str)
	}
	guards := map[int][]string{}
	for _, t := range cc.tests {
		list, id, _ := allowListTest(t)
		if list == nil {
			continue
		}
		if p, i, s, ok := argOf(e.evaluate(m, fs, id)); ok && p == "" && s == "" {
			els, ok := e.elements(e.evaluate(m, fs, list), false)
			if !ok {
				continue
			}
			for _, el := range els {
				if el.kind == kString {
					guards[i] = append(guards[i], el.str)
				}
			}
		}
	}
	var ops []wrapperOp
	for _, call := range cc.calls {
		name := calleeName(call.Callee)
		// A method of this or of a this-member (this.win?.send(ch) of a
		// window class kept on this) may be a wrapper too.
		if _, ipc := ipcChannelArgs[name]; !ipc && !mayBeWrapperCall(m, fs, call.Callee, name) && !thisRooted(call.Callee) {
			continue
		}
		callee := e.evaluate(m, fs, call.Callee)
		if callee.kind == kFunction && callee.fn.node != fv.node && depth < 2 {
			for _, in := range e.wrapperOps(callee.fn, depth+1) {
				if in.Recv != nil {
					var ok bool
					if in, ok = e.settleReceiver(m, fs, call, in, argOf); !ok {
						continue
					}
					if in.Recv != nil {
						ops = append(ops, in)
						continue
					}
				}
				if in.Param >= len(call.ArgumentList) {
					continue
				}
				p, i, s, ok := argOf(e.evaluate(m, fs, call.ArgumentList[in.Param]))
				if !ok {
					continue
				}
				out := in
				out.Param, out.Prefix, out.Suffix = i, in.Prefix+p, s+in.Suffix
				out.HandlerParam = -1
				if in.HandlerParam >= 0 && in.HandlerParam < len(call.ArgumentList) {
					if hp, hi, hs, ok := argOf(e.evaluate(m, fs, call.ArgumentList[in.HandlerParam])); ok && hp == "" && hs == "" {
						out.HandlerParam = hi
					}
				}
				if g, ok := guards[i]; ok && out.Guard == nil && p == "" && s == "" {
					out.Guard = g
				}
				ops = append(ops, out)
			}
			continue
		}
		api, side, role, chanArg, handlerArg, ok := classifyIPC(m, callee, call, name)
		if !ok || callee.kind == kUnknown {
			// An unknown receiver that is a parameter is settled by each
			// call site, not by its name here.
			if op, rok := e.receiverOp(m, fs, call, name, argOf); rok {
				if a0 := op.Recv.Args[0]; a0.Param >= 0 && a0.Prefix == "" && a0.Suffix == "" {
					op.Guard = guards[a0.Param]
				}
				ops = append(ops, op)
				continue
			}
		}
		if !ok || chanArg >= len(call.ArgumentList) {
			continue
		}
		cx := call.ArgumentList[chanArg]
		var cv value
		if sp, spread := cx.(*ast.SpreadElement); spread {
			if chanArg != 0 {
				continue
			}
			cv = e.member(e.evaluate(m, fs, sp.Expression), "[0]", evalCtx{}, m, sp)
		} else {
			cv = e.evaluate(m, fs, cx)
		}
		p, i, s, ok := argOf(cv)
		if !ok {
			continue
		}
		op := wrapperOp{API: api, Side: side, Role: role, Param: i, Prefix: p, Suffix: s, HandlerParam: -1, At: m.pf.loc(cx.Idx0())}
		if handlerArg >= 0 && handlerArg < len(call.ArgumentList) {
			if hp, hi, hs, ok := argOf(e.evaluate(m, fs, call.ArgumentList[handlerArg])); ok && hp == "" && hs == "" {
				op.HandlerParam = hi
			}
		}
		if g, ok := guards[i]; ok {
			op.Guard = g
		}
		ops = append(ops, op)
	}
	e.wrapperCache[fv.node] = ops
	return ops
}

// classifyIPC says which IPC operation a call inside a wrapper is.
func classifyIPC(m *moduleInfo, callee value, call *ast.CallExpression, name string) (api, side, role string, chanArg, handlerArg int, ok bool) {
	recv, isDot := "", false
	if d, dot := call.Callee.(*ast.DotExpression); dot {
		recv, isDot = m.pf.text(d.Left, 200), true
	}
	return classifyCallee(callee, len(call.ArgumentList), recv, isDot, name)
}

// classifyCallee says which IPC operation a call of callee with nargs
// arguments is; recv is the receiver's source text when the callee is a
// member expression (isDot), read only when the value is unknown.
func classifyCallee(callee value, nargs int, recv string, isDot bool, name string) (api, side, role string, chanArg, handlerArg int, ok bool) {
	switch {
	case callee.kind == kExternal && (callee.ext == "electron" || strings.HasPrefix(callee.ext, "electron-better-ipc")) && len(callee.path) == 2:
		p := strings.Join(callee.path, ".")
		switch p {
		case "ipcMain.handle", "ipcMain.handleOnce":
			return p, "main", "handler", 0, 1, true
		case "ipcMain.on", "ipcMain.once", "ipcMain.addListener":
			return p, "main", "listener", 0, 1, true
		case "ipcRenderer.invoke", "ipcRenderer.send", "ipcRenderer.sendSync", "ipcRenderer.sendToHost", "ipcRenderer.postMessage":
			return p, "renderer", "transmission", 0, -1, true
		case "ipcRenderer.sendTo":
			return p, "renderer", "transmission", 1, -1, true
		case "ipcRenderer.on", "ipcRenderer.once", "ipcRenderer.addListener":
			return p, "renderer", "listener", 0, -1, true
		case "ipcMain.answerRenderer":
			if nargs >= 3 {
				return p, "main", "handler", 1, 2, true
			}
			return p, "main", "handler", 0, 1, true
		case "ipcMain.callRenderer":
			return p, "main", "transmission", 1, -1, true
		case "ipcMain.callFocusedRenderer", "ipcRenderer.callMain":
			side := "main"
			if callee.path[0] == "ipcRenderer" {
				side = "renderer"
			}
			return p, side, "transmission", 0, -1, true
		case "ipcRenderer.answerMain":
			return p, "renderer", "handler", 0, -1, true
		}
	case callee.kind == kInstance && len(callee.path) >= 2:
		last, prev := callee.path[len(callee.path)-1], callee.path[len(callee.path)-2]
		switch {
		case prev == "webContents" && (last == "send" || last == "postMessage"):
			return "webContents." + last, "main", "transmission", 0, -1, true
		case prev == "webContents" && last == "sendToFrame":
			return "webContents.sendToFrame", "main", "transmission", 1, -1, true
		case prev == "ipc" && (last == "handle" || last == "handleOnce"):
			return "webContents.ipc." + last, "main", "handler", 0, 1, true
		case prev == "ipc" && (last == "on" || last == "once"):
			return "webContents.ipc." + last, "main", "listener", 0, 1, true
		}
	case callee.kind == kInstance && len(callee.path) == 1 && callee.path[0] == "send":
		return "BrowserWindow.send", "main", "transmission", 0, -1, true
	case callee.kind == kUnknown:
		if !isDot || !webContentsText(recv) {
			return
		}
		switch name {
		case "send", "postMessage":
			return "webContents." + name, "main", "transmission", 0, -1, true
		case "sendToFrame":
			return "webContents.sendToFrame", "main", "transmission", 1, -1, true
		}
	}
	return
}

// wrapperCall turns a call of a wrapper into the IPC operations it makes.
func (a *analyzer) wrapperCall(n *ast.CallExpression, fv *funcValue, name string) {
	for _, op := range a.e.wrapperOps(fv, 0) {
		settled := false
		if op.Recv != nil {
			var ok bool
			if op, ok = a.settleCallReceiver(n, op); !ok {
				continue
			}
			settled = true
		}
		if op.Param >= len(n.ArgumentList) {
			continue
		}
		x := n.ArgumentList[op.Param]
		if _, spread := x.(*ast.SpreadElement); spread {
			continue
		}
		step := Step{Description: fmt.Sprintf("passed to `%s`, which calls %s with it", name, op.API), Location: op.At}
		var handler *bool
		if op.Side == "main" && op.Role != "transmission" && op.HandlerParam >= 0 && op.HandlerParam < len(n.ArgumentList) {
			handler = a.senderValidated(n.ArgumentList[op.HandlerParam])
			// The listener a wrapper registers receives the event:
			// ipcMainOn('grpc.start', start) makes start's event.reply IPC.
			a.markEventParam(n.ArgumentList[op.HandlerParam])
		}
		for _, c := range a.channelsOf(x) {
			if c.state == "dynamic" {
				if settled {
					// The wrapper's own call has no known receiver, so
					// nothing else states this operation: it is reported
					// here with its channel unresolved.
					a.e.ipc = append(a.e.ipc, IPCOperation{Module: a.m.path, Side: op.Side, API: op.API, Role: op.Role,
						ChannelState: "dynamic", ChannelCandidates: c.candidates, ChannelVia: []Step{step}, SenderValidation: handler, Location: a.loc(x)})
				}
				continue
			}
			ch := op.Prefix + c.channel + op.Suffix
			if op.Guard != nil && !inList(op.Guard, ch) {
				continue // the wrapper's allow-list refuses it
			}
			via := append(append([]Step(nil), c.via...), step)
			if len(via) > maxChain {
				via = via[len(via)-maxChain:]
			}
			a.e.ipc = append(a.e.ipc, IPCOperation{Module: a.m.path, Side: op.Side, API: op.API, Role: op.Role, Channel: ch,
				ChannelState: "inferred", ChannelVia: via, SenderValidation: handler, Location: a.loc(x)})
		}
	}
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// thisMethod resolves this.name(…) inside a class to the class's method.
func (a *analyzer) thisMethod(name string, otherwise value) value {
	cl := a.classes[len(a.classes)-1]
	if v, ok := a.e.methodOf(&funcValue{node: cl, scope: a.cur(), mod: a.m}, name, false, 0); ok {
		return v
	}
	return otherwise
}

// mayBeWrapperCall decides, without evaluating, whether a call whose
// method name IPC does not use may still call a wrapper: a function of
// this module known (first pass) to pass a parameter on as a channel, or a
// member of an imported module or of a constructed object. The test looks
// only at the call's own module, so what it admits does not depend on the
// order modules are analysed in.
func mayBeWrapperCall(m *moduleInfo, s *scope, callee ast.Expression, name string) bool {
	if m.wrapperNames[name] {
		return true
	}
	root := rootIdent(callee)
	if root == nil {
		return false
	}
	b := s.lookup(string(root.Name))
	if b == nil {
		return false
	}
	for _, as := range b.assigned() {
		// esbuild's lowering of window.api?.send(…):
		// (_a = window.api) == null ? void 0 : _a.send(…)
		if r := rootIdent(as.expr); r != nil && (r.Name == "window" || r.Name == "globalThis") && as.scope.lookup(string(r.Name)) == nil {
			return true
		}
	}
	if b.init == nil {
		return false
	}
	if requireCall(b.init) != nil {
		return true
	}
	if r := rootIdent(b.init); r != nil && (r.Name == "window" || r.Name == "globalThis") && s.lookup(string(r.Name)) == nil {
		return true // const { api } = window
	}
	_, isNew := b.init.(*ast.NewExpression)
	return isNew
}

// rootIdent is the identifier a member chain starts from.
func rootIdent(x ast.Expression) *ast.Identifier {
	for i := 0; i < 16; i++ {
		switch c := x.(type) {
		case *ast.Identifier:
			return c
		case *ast.SequenceExpression: // (0, import_x.f)
			if len(c.Sequence) == 0 {
				return nil
			}
			x = c.Sequence[len(c.Sequence)-1]
		case *ast.DotExpression:
			x = c.Left
		case *ast.Optional: // a?.b
			x = c.Expression
		case *ast.OptionalChain:
			x = c.Expression
		default:
			return nil
		}
	}
	return nil
}

// globalPath returns the member names of window.a.b (or globalThis, self)
// when the chain starts at the free global object.
func (a *analyzer) globalPath(x ast.Expression) []string {
	var names []string
	for i := 0; i < 8; i++ {
		switch c := unwrapOptional(x).(type) { // window.api?.send(…)
		case *ast.DotExpression:
			names = append(names, string(c.Identifier.Name))
			x = c.Left
			continue
		case *ast.Identifier:
			switch c.Name {
			case "window", "globalThis", "self":
				if a.cur().lookup(string(c.Name)) != nil {
					return nil
				}
				for l, r := 0, len(names)-1; l < r; l, r = l+1, r-1 {
					names[l], names[r] = names[r], names[l]
				}
				return names
			}
		}
		return nil
	}
	return nil
}

// bridgeCallSite records window.<key>.<member>(args) whose first
// arguments resolve to strings, for matching with the functions preloads
// expose.
func (a *analyzer) bridgeCallSite(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	a.bridgeCallAt(n, a.globalPath(n.Callee))
}

// bridgeCallAt records the call n of window.<path>.
func (a *analyzer) bridgeCallAt(n *ast.CallExpression, path []string) {
	if len(path) < 2 || len(a.e.bridgeCalls) >= 10000 {
		return
	}
	bc := bridgeCall{Key: path[0], Member: strings.Join(path[1:], "."), Module: a.m.path}
	found := false
	for i, x := range n.ArgumentList {
		if i >= 3 {
			break
		}
		arg := bridgeArg{Location: a.loc(x)}
		if _, spread := x.(*ast.SpreadElement); !spread {
			for _, c := range a.channelsOf(x) {
				if c.state != "dynamic" {
					arg.Channels = append(arg.Channels, bridgeChannel{Value: c.channel, State: c.state, Via: c.via})
					found = true
				}
			}
		}
		bc.Args = append(bc.Args, arg)
	}
	if found {
		a.e.bridgeCalls = append(a.e.bridgeCalls, bc)
	}
}

// bridgeMember records an exposed function that wraps IPC, exposed at
// window.<key>.<member> (member "" for the API object itself).
func (a *analyzer) bridgeMember(key, member string, v value) {
	if v.kind == kExternal && v.ext == "@electron-toolkit/preload" {
		switch strings.Join(v.path, ".") {
		case "electronAPI":
			a.e.bridges = append(a.e.bridges, toolkitBridge(key, joinMember(member, "ipcRenderer"), a.m.path, a.loc0())...)
		case "electronAPI.ipcRenderer":
			a.e.bridges = append(a.e.bridges, toolkitBridge(key, member, a.m.path, a.loc0())...)
		}
		return
	}
	if v.kind != kFunction || member == "" {
		return
	}
	if ops := a.e.wrapperOps(v.fn, 0); len(ops) > 0 {
		a.e.bridges = append(a.e.bridges, bridgeFact{Key: key, Member: member, Module: a.m.path, Ops: ops})
	}
}

func joinMember(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func (a *analyzer) loc0() Location { return Location{File: a.m.path, Line: 1, Column: 1} }

// toolkitIPC are the ipcRenderer methods @electron-toolkit/preload's
// electronAPI exposes, with their IPC meaning.
var toolkitIPC = []wrapperOp{
	{API: "ipcRenderer.send", Side: "renderer", Role: "transmission"},
	{API: "ipcRenderer.sendSync", Side: "renderer", Role: "transmission"},
	{API: "ipcRenderer.invoke", Side: "renderer", Role: "transmission"},
	{API: "ipcRenderer.postMessage", Side: "renderer", Role: "transmission"},
	{API: "ipcRenderer.sendToHost", Side: "renderer", Role: "transmission"},
	{API: "ipcRenderer.sendTo", Side: "renderer", Role: "transmission", Param: 1},
	{API: "ipcRenderer.on", Side: "renderer", Role: "listener"},
	{API: "ipcRenderer.once", Side: "renderer", Role: "listener"},
}

// toolkitMembers are the member paths of electronAPI.
var toolkitMembers = []string{"ipcRenderer.invoke", "ipcRenderer.on", "ipcRenderer.once", "ipcRenderer.postMessage",
	"ipcRenderer.removeAllListeners", "ipcRenderer.removeListener", "ipcRenderer.send", "ipcRenderer.sendSync",
	"ipcRenderer.sendTo", "ipcRenderer.sendToHost", "process", "webFrame"}

// toolkitBridge gives the bridge functions of electronAPI's ipcRenderer
// exposed at window.<key>.<at>.
func toolkitBridge(key, at, module string, loc Location) []bridgeFact {
	out := make([]bridgeFact, 0, len(toolkitIPC))
	for _, op := range toolkitIPC {
		o := op
		o.HandlerParam, o.At = -1, loc
		out = append(out, bridgeFact{Key: key, Member: joinMember(at, strings.TrimPrefix(op.API, "ipcRenderer.")), Module: module, Ops: []wrapperOp{o}})
	}
	return out
}

// resolveBridgeCalls turns renderer calls of exposed bridge functions into
// the IPC operations the preload makes for them.
func (e *engine) resolveBridgeCalls() {
	byKey := map[string][]bridgeFact{}
	for _, f := range expandBridgeAliases(e.bridges) {
		byKey[f.Key+"\x00"+f.Member] = append(byKey[f.Key+"\x00"+f.Member], f)
	}
	for _, bc := range e.bridgeCalls {
		for _, f := range byKey[bc.Key+"\x00"+bc.Member] {
			for _, op := range f.Ops {
				if op.Recv != nil || op.Param < 0 || op.Param >= len(bc.Args) {
					continue
				}
				arg := bc.Args[op.Param]
				step := Step{Description: fmt.Sprintf("window.%s.%s is exposed by %s, which calls %s with this argument", bc.Key, bc.Member, f.Module, op.API),
					Location: op.At}
				if f.aliasStep != nil {
					step.Description = fmt.Sprintf("%s; %s calls %s with this argument", f.aliasStep.Description, f.Module, op.API)
				}
				for _, c := range arg.Channels {
					ch := op.Prefix + c.Value + op.Suffix
					if op.Guard != nil && !inList(op.Guard, ch) {
						continue
					}
					via := append(append([]Step(nil), c.Via...), step)
					if len(via) > maxChain {
						via = via[len(via)-maxChain:]
					}
					e.ipc = append(e.ipc, IPCOperation{Module: bc.Module, Side: op.Side, API: op.API, Role: op.Role, Channel: ch,
						ChannelState: "inferred", ChannelVia: via, Location: arg.Location})
				}
			}
		}
	}
}

// maxAliasDepth bounds chains of aliases (window.c = window.b = window.a).
const maxAliasDepth = 4

// expandBridgeAliases returns the bridge facts with each alias replaced by
// copies of the facts it names: window.<alias key>.<alias member + rest>
// for every fact at window.<key>.<member + rest>.
func expandBridgeAliases(facts []bridgeFact) []bridgeFact {
	var plain, aliases []bridgeFact
	for _, f := range facts {
		if f.Alias != nil {
			aliases = append(aliases, f)
		} else {
			plain = append(plain, f)
		}
	}
	if len(aliases) == 0 {
		return facts
	}
	out := plain
	known := plain
	seen := map[string]bool{}
	for depth := 0; depth < maxAliasDepth && len(known) > 0; depth++ {
		var added []bridgeFact
		for _, al := range aliases {
			for _, f := range known {
				if f.Key != al.Alias.Key {
					continue
				}
				rest, ok := memberRest(f.Member, al.Alias.Member)
				if !ok {
					continue
				}
				member := al.Member
				if rest != "" {
					member = joinMember(al.Member, rest)
				}
				if member == "" || (al.Key == f.Key && member == f.Member) {
					continue
				}
				id := al.Key + "\x00" + member + "\x00" + f.Module + "\x00" + f.Key + "\x00" + f.Member
				if seen[id] || len(out) >= 10000 {
					continue
				}
				seen[id] = true
				at := al.Alias.At
				added = append(added, bridgeFact{Key: al.Key, Member: member, Module: f.Module, Ops: f.Ops,
					aliasStep: &Step{Description: fmt.Sprintf("window.%s.%s is window.%s.%s (%s)", al.Key, member, f.Key, f.Member, al.Module), Location: at}})
			}
		}
		out = append(out, added...)
		known = added
	}
	return out
}

// memberRest is what is left of member below prefix ("" for the member
// itself); ok is false when member is not prefix or below it.
func memberRest(member, prefix string) (string, bool) {
	switch {
	case prefix == "":
		return member, true
	case member == prefix:
		return "", true
	case strings.HasPrefix(member, prefix+"."):
		return member[len(prefix)+1:], true
	}
	return "", false
}

// windowAssign records `window.api = {…}` (a preload without context
// isolation, or its fallback): its functions are bridge functions too.
func (a *analyzer) windowAssign(n *ast.AssignExpression) {
	if n.Operator != token.ASSIGN {
		return
	}
	path := a.globalPath(n.Left)
	if len(path) != 1 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.Right)
	var walk func(prefix string, v value, depth int)
	walk = func(prefix string, v value, depth int) {
		if v.kind == kExternal && v.ext == "window" && len(v.path) >= 1 && !(prefix == "" && len(v.path) == 1 && v.path[0] == path[0]) {
			// window.pre = { send } with const { send } = window.api
			// (or window.pre = window.api): an alias of the bridge.
			at := a.loc(n)
			if v.at != nil {
				at = *v.at
			}
			if len(a.e.bridges) < 10000 {
				a.e.bridges = append(a.e.bridges, bridgeFact{Key: path[0], Member: prefix, Module: a.m.path,
					Alias: &bridgeAlias{Key: v.path[0], Member: strings.Join(v.path[1:], "."), At: at}})
			}
			return
		}
		a.bridgeMember(path[0], prefix, v)
		if v.kind != kObject || depth > 4 {
			return
		}
		for _, k := range v.obj.keys {
			walk(joinMember(prefix, k), v.obj.props[k], depth+1)
		}
	}
	walk("", v, 0)
}
