package jsengine

import (
	"strings"

	"github.com/dop251/goja/ast"
)

// Wrappers whose IPC object is a parameter. Real main processes send
// through helpers that take the target as well as the channel:
//
//	export function send(contents, channel, ...args) { contents.send(channel, ...args) }
//	send(win.webContents, "focus")
//
// Inside the helper `contents` is nothing the evaluator knows, so the
// helper is summarised with a receiver reference (which parameter, which
// members below it, which method, which parameters reach the call's
// arguments) and each call site settles it from the argument it passes:
// a window or its webContents, ipcMain or ipcRenderer, or an expression
// whose text names a webContents (`mainContents`, `event.sender`). A call
// whose receiver settles to nothing IPC-like is no IPC operation.

// recvRef is the receiver of an IPC-named call inside a wrapper when that
// receiver is (a member path below) one of the wrapper's parameters.
type recvRef struct {
	Param  int      `json:"param"`
	Path   []string `json:"path,omitempty"`
	Method string   `json:"method"`
	NArgs  int      `json:"nargs"`
	// Args are the call's first arguments in terms of the wrapper's
	// parameters (Param -1: not built from one).
	Args []argRef `json:"args"`
}

type argRef struct {
	Param  int    `json:"param"`
	Prefix string `json:"prefix,omitempty"`
	Suffix string `json:"suffix,omitempty"`
}

// webContentsText reports whether a receiver's source text names a
// webContents: `….webContents`, `contents`, `mainContents`, or an IPC
// event's `sender`.
func webContentsText(recv string) bool {
	if strings.HasSuffix(recv, ".sender") || recv == "sender" {
		return true
	}
	last := recv[strings.LastIndexByte(recv, '.')+1:]
	return strings.HasSuffix(last, "Contents") || strings.HasSuffix(last, "contents")
}

// unwrapOptional strips `?.` wrappers from a callee or receiver.
func unwrapOptional(x ast.Expression) ast.Expression {
	for i := 0; i < 8; i++ {
		switch c := x.(type) {
		case *ast.OptionalChain:
			x = c.Expression
		case *ast.Optional:
			x = c.Expression
		default:
			return x
		}
	}
	return x
}

// receiverOp summarises call (an IPC-named method call inside a wrapper
// being summarised in scope fs) when its receiver is a parameter of the
// wrapper and at least one of its arguments comes from a parameter.
func (e *engine) receiverOp(m *moduleInfo, fs *scope, call *ast.CallExpression, name string,
	argOf func(value) (string, int, string, bool)) (wrapperOp, bool) {
	if _, ipc := ipcChannelArgs[name]; !ipc {
		return wrapperOp{}, false
	}
	d, ok := unwrapOptional(call.Callee).(*ast.DotExpression)
	if !ok {
		return wrapperOp{}, false
	}
	var path []string
	x := unwrapOptional(d.Left)
	for i := 0; i < 4; i++ {
		dx, ok := x.(*ast.DotExpression)
		if !ok {
			break
		}
		path = append([]string{string(dx.Identifier.Name)}, path...)
		x = unwrapOptional(dx.Left)
	}
	id, ok := x.(*ast.Identifier)
	if !ok {
		return wrapperOp{}, false
	}
	p, recvParam, sfx, ok := argOf(e.evaluate(m, fs, id))
	if !ok || p != "" || sfx != "" {
		return wrapperOp{}, false
	}
	r := &recvRef{Param: recvParam, Path: path, Method: name, NArgs: len(call.ArgumentList)}
	any := false
	for k, ax := range call.ArgumentList {
		if k >= 3 {
			break
		}
		ref := argRef{Param: -1}
		var v value
		if sp, spread := ax.(*ast.SpreadElement); spread {
			if k == 0 {
				v = e.member(e.evaluate(m, fs, sp.Expression), "[0]", evalCtx{}, m, sp)
			}
		} else {
			v = e.evaluate(m, fs, ax)
		}
		if pre, i, suf, ok := argOf(v); ok && i != recvParam {
			ref = argRef{Param: i, Prefix: pre, Suffix: suf}
			any = true
		}
		r.Args = append(r.Args, ref)
		if _, spread := ax.(*ast.SpreadElement); spread {
			break // later arguments are not at fixed positions
		}
	}
	if !any {
		return wrapperOp{}, false
	}
	at := m.pf.loc(call.Idx0())
	if len(call.ArgumentList) > 0 {
		at = m.pf.loc(call.ArgumentList[0].Idx0())
	}
	return wrapperOp{Param: -1, HandlerParam: -1, At: at, Recv: r}, true
}

// classifyReceiver settles a receiver reference for the receiver value rv
// (source text text): the IPC operation the wrapper's call then is, in
// terms of the wrapper's parameters.
func (e *engine) classifyReceiver(m *moduleInfo, rv value, text string, in wrapperOp, at ast.Node) (wrapperOp, bool) {
	r := in.Recv
	cv := rv
	for _, p := range r.Path {
		cv = e.memberOrUnknown(cv, p, m, at)
	}
	cv = e.memberOrUnknown(cv, r.Method, m, at)
	if len(r.Path) > 0 {
		text += "." + strings.Join(r.Path, ".")
	}
	api, side, role, chanArg, handlerArg, ok := classifyCallee(cv, r.NArgs, text, text != "", r.Method)
	if !ok || chanArg >= len(r.Args) || r.Args[chanArg].Param < 0 {
		return wrapperOp{}, false
	}
	ch := r.Args[chanArg]
	out := wrapperOp{API: api, Side: side, Role: role, Param: ch.Param, Prefix: ch.Prefix, Suffix: ch.Suffix,
		HandlerParam: -1, At: in.At, Guard: in.Guard}
	if handlerArg >= 0 && handlerArg < len(r.Args) {
		if h := r.Args[handlerArg]; h.Param >= 0 && h.Prefix == "" && h.Suffix == "" {
			out.HandlerParam = h.Param
		}
	}
	return out, true
}

// memberOrUnknown reads a member of the values whose members mean
// something to IPC (Electron objects, windows); anything else is unknown.
func (e *engine) memberOrUnknown(v value, key string, m *moduleInfo, at ast.Node) value {
	switch v.kind {
	case kExternal, kInstance:
		return e.member(v, key, evalCtx{}, m, at)
	}
	return unknown("")
}

// settleReceiver handles a call, inside wrapper scope s, of an inner
// wrapper whose op in has a receiver reference. The receiver passed may be
// a parameter of the outer wrapper (the reference is carried up, its
// arguments renumbered) or a value that settles it (the op is returned in
// the inner wrapper's parameter terms, without Recv). ok is false when the
// receiver is no IPC object.
func (e *engine) settleReceiver(m *moduleInfo, s *scope, call *ast.CallExpression, in wrapperOp,
	argOf func(value) (string, int, string, bool)) (wrapperOp, bool) {
	r := in.Recv
	if r.Param >= len(call.ArgumentList) {
		return wrapperOp{}, false
	}
	rx := call.ArgumentList[r.Param]
	if _, spread := rx.(*ast.SpreadElement); spread {
		return wrapperOp{}, false
	}
	rv := e.evaluate(m, s, rx)
	if p, i, sfx, ok := argOf(rv); ok {
		if p != "" || sfx != "" {
			return wrapperOp{}, false
		}
		nr := *r
		nr.Param = i
		nr.Args = make([]argRef, len(r.Args))
		any := false
		for k, a := range r.Args {
			nr.Args[k] = argRef{Param: -1}
			if a.Param < 0 || a.Param >= len(call.ArgumentList) {
				continue
			}
			if _, spread := call.ArgumentList[a.Param].(*ast.SpreadElement); spread {
				continue
			}
			if pre, j, suf, ok := argOf(e.evaluate(m, s, call.ArgumentList[a.Param])); ok {
				nr.Args[k] = argRef{Param: j, Prefix: pre + a.Prefix, Suffix: a.Suffix + suf}
				any = true
			}
		}
		if !any {
			return wrapperOp{}, false
		}
		out := in
		out.Recv = &nr
		return out, true
	}
	return e.classifyReceiver(m, rv, m.pf.text(unwrapOptional(rx), 200), in, rx)
}

// settleCallReceiver settles op's receiver reference at the call n of its
// wrapper in the analysed code.
func (a *analyzer) settleCallReceiver(n *ast.CallExpression, op wrapperOp) (wrapperOp, bool) {
	r := op.Recv
	if r.Param >= len(n.ArgumentList) {
		return wrapperOp{}, false
	}
	rx := n.ArgumentList[r.Param]
	if _, spread := rx.(*ast.SpreadElement); spread {
		return wrapperOp{}, false
	}
	rv := a.e.evaluate(a.m, a.cur(), rx)
	return a.e.classifyReceiver(a.m, rv, a.m.pf.text(unwrapOptional(rx), 200), op, rx)
}
