package jsengine

import (
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
)

// securityPreferences are the webPreferences keys reported per window.
var securityPreferences = map[string]bool{
	"nodeIntegration": true, "nodeIntegrationInWorker": true, "nodeIntegrationInSubFrames": true,
	"contextIsolation": true, "sandbox": true, "webSecurity": true, "allowRunningInsecureContent": true,
	"experimentalFeatures": true, "enableBlinkFeatures": true, "disableBlinkFeatures": true,
	"webviewTag": true, "enableRemoteModule": true, "preload": true, "javascript": true,
	"plugins": true, "safeDialogs": true, "navigateOnDragDrop": true, "partition": true,
	// legacy names and options the rules judge (rules_window.go)
	"blinkFeatures": true, "experimentalCanvasFeatures": true, "affinity": true,
}

// windowFor returns the record of a window creation, evaluating its options
// once.
func (e *engine) windowFor(m *moduleInfo, s *scope, n *ast.NewExpression, kind string) *windowRec {
	return e.windowAt(m, s, n, n.ArgumentList, kind)
}

// fromRemote marks a window a renderer constructs through @electron/remote:
// it is a main-process window, but its module is not the main process.
func (w *windowRec) fromRemote(callee value) *windowRec {
	if strings.HasPrefix(callee.ext, "@electron/remote") {
		w.w.Origin = "electron-remote"
	}
	return w
}

// windowAt records a window created at node n (a new expression, or the
// super(...) call of a BrowserWindow subclass) with constructor args.
func (e *engine) windowAt(m *moduleInfo, s *scope, n ast.Node, args []ast.Expression, kind string) *windowRec {
	if w, ok := e.windows[n]; ok {
		return w
	}
	w := &windowRec{node: n, mod: m}
	e.windows[n] = w
	if !m.copy { // a caller parsed afresh (paramflow.go) reports nothing
		e.windowList = append(e.windowList, w)
	}
	w.w = Window{Kind: kind, Module: m.path, Location: m.pf.loc(n.Idx0()), WebPreferences: map[string]Value{}, Coverage: "complete"}
	if len(args) == 0 {
		return w
	}
	opts := e.evaluateOptions(m, s, args[0])
	if opts.kind == kUndefined || uninitialised(s, args[0]) {
		return w // new BrowserWindow(undefined): every option at its default
	}
	if opts.kind != kObject {
		if e.optionsThroughCall(w, m, s, args[0]) {
			return w
		}
	}
	e.applyOptions(w, opts, m, n)
	return w
}

// optionsThroughCall handles options handed through a call the analysis
// cannot follow (new BrowserWindow(decorate(opts)), a plugin hook, a
// library merge) when exactly one argument of that call is an options
// object that writes webPreferences: the window gets the preferences as
// written there, each inferred with a step naming the call (which may
// change them), and its coverage is partial.
func (e *engine) optionsThroughCall(w *windowRec, m *moduleInfo, s *scope, x ast.Expression) bool {
	call, ok := unwrapOptional(x).(*ast.CallExpression)
	if !ok {
		return false
	}
	var found *value
	for _, a := range call.ArgumentList {
		if _, spread := a.(*ast.SpreadElement); spread {
			return false
		}
		v := e.evaluate(m, s, a)
		if v.kind != kObject {
			continue
		}
		if _, has := v.obj.get("webPreferences"); !has {
			continue
		}
		if found != nil {
			return false // two candidate objects: which wins is the callee's business
		}
		found = &v
	}
	if found == nil {
		return false
	}
	callee := m.pf.text(call.Callee, 80)
	e.applyOptions(w, *found, m, call)
	step := Step{Description: "the options pass through " + callee + "(…), which may change them; the value is the one written before the call",
		Location: m.pf.loc(call.Idx0())}
	for k, v := range w.w.WebPreferences {
		if v.State == "observed" {
			v.State = "inferred"
		}
		if len(v.Via) < maxChain {
			v.Via = append([]Step{step}, v.Via...)
		}
		w.w.WebPreferences[k] = v
	}
	w.w.Coverage = "partial"
	w.w.Unknowns = append(w.w.Unknowns, "options: passed through "+callee+"(…)")
	return true
}

// applyOptions records a window's evaluated constructor options.
func (e *engine) applyOptions(w *windowRec, opts value, m *moduleInfo, n ast.Node) {
	if opts.kind != kObject {
		w.w.Coverage = "none"
		w.w.Unknowns = append(w.w.Unknowns, "options: "+opts.render())
		return
	}
	for _, sp := range opts.obj.unknownSpread {
		w.w.Coverage = "partial"
		w.w.Unknowns = append(w.w.Unknowns, "options spread: "+sp)
	}
	if opts.obj.dynamicKeys > 0 {
		w.w.Coverage = "partial"
		w.w.Unknowns = append(w.w.Unknowns, "options with computed keys")
	}
	if _, has := opts.obj.get("webPreferences"); !has {
		return
	}
	w.w.ExplicitWebPreferences = true
	// Keys are read as written: an unknown spread beside them already makes
	// the window's coverage partial and is named among its unknowns.
	wp := e.member(opts, "webPreferences", evalCtx{asWritten: true}, m, n)
	if wp.kind != kObject {
		w.w.Coverage = "partial"
		w.w.Unknowns = append(w.w.Unknowns, "webPreferences: "+wp.render())
		return
	}
	for _, sp := range wp.obj.unknownSpread {
		w.w.Coverage = "partial"
		w.w.Unknowns = append(w.w.Unknowns, "webPreferences spread: "+sp)
	}
	if wp.obj.dynamicKeys > 0 {
		w.w.Coverage = "partial"
		w.w.Unknowns = append(w.w.Unknowns, "webPreferences with computed keys")
	}
	for _, k := range wp.obj.keys {
		if !securityPreferences[k] {
			continue
		}
		pv := e.member(wp, k, evalCtx{asWritten: true}, m, n)
		w.w.WebPreferences[k] = toValue(pv)
		if k == "preload" {
			w.w.Preload = e.preloadOf(m, pv)
		}
	}
}

// toValue converts an abstract value into its reported form.
func toValue(v value) Value {
	out := Value{Location: v.at, Via: v.via}
	if j, ok := v.jsonValue(); ok {
		out.Value = j
		out.State = "observed"
		if v.inferred || len(v.via) > 0 {
			out.State = "inferred"
		}
		return out
	}
	out.Value = v.render()
	out.State = "unknown"
	for _, a := range v.alts {
		alt := Alternative{Condition: a.cond, Location: a.v.at, State: "unknown"}
		if j, ok := a.v.jsonValue(); ok {
			alt.Value, alt.State = j, "inferred"
		} else {
			alt.Value = a.v.render()
		}
		out.Alternatives = append(out.Alternatives, alt)
	}
	return out
}

func (e *engine) preloadOf(m *moduleInfo, v value) *Preload {
	p := &Preload{Expression: v.render(), State: "unknown"}
	if v.at != nil {
		p.Location = *v.at
	}
	if v.kind != kString {
		for _, a := range v.alts {
			pa := PreloadAlt{Expression: a.v.render(), State: "unknown", Condition: a.cond, Location: a.v.at}
			if a.v.kind == kString {
				alt := e.preloadOf(m, a.v)
				pa.Path, pa.Module, pa.State = alt.Path, alt.Module, "inferred"
			}
			p.Alternatives = append(p.Alternatives, pa)
		}
		return p
	}
	p.Path = path.Clean(v.str)
	p.State = "observed"
	if v.inferred || len(v.via) > 0 {
		p.State = "inferred"
	}
	if r := e.resolveFile(p.Path); r != "" {
		p.Module = r
	} else if r := e.bundleEntry(p.Path); r != "" {
		p.Module, p.State = r, "inferred" // out/preload/renderer.cjs is the entry "renderer" of the build
	} else if r := e.uniqueBasename(p.Path); r != "" {
		// A compiled app computes dist/preload.js from __dirname while the
		// root holds src/preload.ts: match the only file with that stem.
		p.Module = r
		p.State = "inferred"
	} else if r := e.uniqueDirStem(p.Path); r != "" {
		p.Module, p.State = r, "inferred" // out/preload/index.js built from src/preload/index.ts
	}
	return p
}

// uniqueBasename finds the one script file of the application (outside
// node_modules) whose stem equals p's.
func (e *engine) uniqueBasename(p string) string {
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	found := ""
	for mp := range e.files {
		if textKind(mp) == "javascript" && strings.TrimSuffix(path.Base(mp), path.Ext(mp)) == stem && !strings.Contains("/"+mp, "/node_modules/") {
			if found != "" {
				return ""
			}
			found = mp
		}
	}
	return found
}

// analyzer is the second pass over one module: it records imports and every
// Electron boundary operation.
type analyzer struct {
	e             *engine
	m             *moduleInfo
	stack         []*scope
	owners        []any // the nodes that opened stack's scopes
	dynRequire    map[*ast.CallExpression]bool
	staticRequire map[*ast.CallExpression]bool
	nativeMembers map[*ast.CallExpression][]string
	storageSeen   map[string]bool
	classes       []*ast.ClassLiteral // enclosing classes, innermost last
	// events are the first parameters of main-process IPC listeners (the
	// IpcMainEvent whose reply and sender answer the renderer).
	events map[*binding]bool
	// eventsAhead says markEventsAhead has run for this module.
	eventsAhead bool
	// loopCalls memoises unrollable (bridgeloop.go) per for-in loop.
	loopCalls map[*ast.ForInStatement]map[*ast.CallExpression]bool
}

func (a *analyzer) cur() *scope { return a.stack[len(a.stack)-1] }

func (a *analyzer) Enter(n any) bool {
	if s, ok := a.m.scopeOf(n); ok {
		a.stack = append(a.stack, s)
		a.owners = append(a.owners, n)
	}
	switch n := n.(type) {
	case *ast.ClassLiteral:
		a.classes = append(a.classes, n)
	case *ast.Binding:
		a.binding(n)
	case *ast.CallExpression:
		a.call(n)
	case *ast.NewExpression:
		a.newExpr(n)
	case *ast.DotExpression:
		a.storageAccess(n)
	case *ast.AssignExpression:
		a.windowAssign(n) // ELECTRON_DISABLE_SECURITY_WARNINGS: rules_syntax.go
	}
	return true
}

func (a *analyzer) Leave(n any) {
	if _, ok := n.(*ast.ClassLiteral); ok && len(a.classes) > 0 {
		a.classes = a.classes[:len(a.classes)-1]
	}
	if k := len(a.owners) - 1; k >= 0 && a.owners[k] == n {
		a.stack, a.owners = a.stack[:k], a.owners[:k]
	}
}

func (a *analyzer) loc(n ast.Node) Location { return a.m.pf.loc(n.Idx0()) }

func (a *analyzer) finding(rule, sev, conf, msg string, l Location, fix string, ev []Step) {
	a.e.addFinding(Finding{RuleID: rule, Severity: sev, Confidence: conf, Message: msg, Location: l,
		Snippet: a.e.snippetAt(l), Remediation: fix, Evidence: ev})
}

// requireCall returns the require(...) call inside e (through interop
// helpers), or nil.
// isWindowRequire reports whether x is window.require (or globalThis's):
// a renderer with nodeIntegration reaching Node's require past a bundler
// that would otherwise rewrite it (window.require('electron')).
func isWindowRequire(x ast.Expression) bool {
	d, ok := x.(*ast.DotExpression)
	if !ok || d.Identifier.Name != "require" {
		return false
	}
	id, ok := d.Left.(*ast.Identifier)
	return ok && (id.Name == "window" || id.Name == "globalThis")
}

func requireCall(x ast.Expression) *ast.CallExpression {
	for i := 0; i < 3; i++ {
		c, ok := x.(*ast.CallExpression)
		if !ok {
			return nil
		}
		if isWindowRequire(c.Callee) && len(c.ArgumentList) == 1 {
			return c
		}
		id, ok := c.Callee.(*ast.Identifier)
		if !ok {
			return nil
		}
		if id.Name == "require" && len(c.ArgumentList) == 1 {
			return c
		}
		if !interopHelpers[string(id.Name)] || len(c.ArgumentList) == 0 {
			return nil
		}
		x = c.ArgumentList[0]
	}
	return nil
}

func (a *analyzer) binding(n *ast.Binding) {
	rc := requireCall(n.Initializer)
	if rc == nil {
		return
	}
	// esbuild turns every ESM import into a top-level require binding.
	if a.m.pf.smap != nil && a.cur() == a.m.top {
		a.staticRequire[rc] = true
	}
	if op, ok := n.Target.(*ast.ObjectPattern); ok {
		var names []string
		for _, p := range op.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				names = append(names, string(p.Name.Name))
			case *ast.PropertyKeyed:
				if k, ok := staticKey(p.Key, p.Computed); ok {
					names = append(names, k)
				}
			}
		}
		a.nativeMembers[rc] = names
	}
}

// calleeName is the last identifier of a callee (f, a.b.f, a["f"]).
func calleeName(x ast.Expression) string {
	switch c := x.(type) {
	case *ast.Identifier:
		return string(c.Name)
	case *ast.DotExpression:
		return string(c.Identifier.Name)
	case *ast.BracketExpression:
		if s, ok := c.Member.(*ast.StringLiteral); ok {
			return string(s.Value)
		}
	case *ast.SequenceExpression: // (0, x.f)(…) from tsc/esbuild
		if len(c.Sequence) > 0 {
			return calleeName(c.Sequence[len(c.Sequence)-1])
		}
	}
	return ""
}

// interestingCalls are method names worth evaluating the callee of.
var interestingCalls = map[string]bool{
	"handle": true, "handleOnce": true, "on": true, "once": true, "addListener": true,
	"invoke": true, "send": true, "sendSync": true, "sendToHost": true, "postMessage": true,
	"exposeInMainWorld": true, "exposeInIsolatedWorld": true, "openExternal": true, "openPath": true,
	"fork": true, "appendSwitch": true, "appendArgument": true, "setAsDefaultProtocolClient": true,
	"registerFileProtocol": true, "registerHttpProtocol": true, "registerStringProtocol": true,
	"registerBufferProtocol": true, "registerStreamProtocol": true, "registerSchemesAsPrivileged": true,
	"interceptFileProtocol": true, "interceptHttpProtocol": true, "interceptStringProtocol": true, "interceptBufferProtocol": true,
	"setPermissionRequestHandler": true, "setPermissionCheckHandler": true, "setCertificateVerifyProc": true,
	"setWindowOpenHandler": true, "loadURL": true, "loadFile": true, "exec": true, "execSync": true,
	"spawn": true, "spawnSync": true, "execFile": true, "execFileSync": true, "executeJavaScript": true,
	"setDevicePermissionHandler": true,
	// IPC forms of ipcforms.go
	"reply": true, "sendTo": true, "sendToFrame": true, "answerMain": true, "answerRenderer": true,
	"callMain": true, "callRenderer": true, "callFocusedRenderer": true,
}

func (a *analyzer) call(n *ast.CallExpression) {
	name := calleeName(n.Callee)
	s := a.cur()
	if _, ok := n.Callee.(*ast.SuperExpression); ok && len(a.classes) > 0 {
		// class MainWindow extends BrowserWindow { constructor() { super({…}) } }
		if cl := a.classes[len(a.classes)-1]; cl.SuperClass != nil {
			if k := windowClass(a.e.evaluate(a.m, s, cl.SuperClass)); k != "" {
				w := a.e.windowAt(a.m, s, n, n.ArgumentList, k)
				w.w.Class = className(&funcValue{node: cl})
				if ctor := constructorOf(cl); ctor != nil && ctor.Body != nil && len(w.w.Loads) == 0 {
					a.e.constructorLoads(w, a.m, s, ctor.Body.List)
				}
			}
		}
		return
	}
	switch name {
	case "require":
		if _, ok := n.Callee.(*ast.Identifier); ok && s.lookup("require") == nil && len(n.ArgumentList) == 1 {
			a.requireImport(n)
		}
		return
	case "then":
		a.markDynamicImport(n)
		return
	case "eval":
		if _, ok := n.Callee.(*ast.Identifier); ok && s.lookup("eval") == nil && len(n.ArgumentList) > 0 {
			if _, lit := n.ArgumentList[0].(*ast.StringLiteral); !lit {
				a.finding("dangerous-function", "low", "observed", "eval() runs a computed string as code.", a.loc(n),
					"Remove eval; parse data with JSON.parse and dispatch on known values.", nil)
			}
		}
		return
	case "register":
		if strings.HasSuffix(a.m.pf.text(n.Callee, 200), "serviceWorker.register") && len(n.ArgumentList) > 0 {
			a.addImport("service-worker", n.ArgumentList[0], n)
		}
		return
	}
	if httpMethods[name] || name == "fetch" || name == "axios" || name == "open" {
		a.endpointCall(n, name)
	}
	a.bridgeCallSite(n)
	if !interestingCalls[name] && !mayBeWrapperCall(a.m, s, n.Callee, name) {
		return
	}
	callee := a.e.evaluate(a.m, s, n.Callee)
	if callee.kind == kUnknown && len(a.classes) > 0 {
		if d, ok := n.Callee.(*ast.DotExpression); ok {
			if _, this := d.Left.(*ast.ThisExpression); this {
				callee = a.thisMethod(name, callee)
			}
		}
	}
	switch {
	case callee.kind == kExternal && callee.ext == "electron":
		a.electronCall(n, callee)
	case callee.kind == kInstance:
		a.instanceCall(n, callee)
	case callee.kind == kExternal && callee.ext == "child_process":
		a.childProcess(n, name)
	case callee.kind == kExternal && callee.ext == "window":
		if a.globalPath(n.Callee) == nil { // an alias: const { api } = window
			a.bridgeCallAt(n, callee.path)
		}
	case callee.kind == kExternal && a.libraryCall(n, callee):
	case callee.kind == kFunction:
		a.wrapperCall(n, callee.fn, name)
	default:
		a.syntacticCall(n, name)
	}
}

// markDynamicImport recognises esbuild's lowering of import(x):
// Promise.resolve().then(() => __toESM(require(x))).
func (a *analyzer) markDynamicImport(n *ast.CallExpression) {
	d, ok := n.Callee.(*ast.DotExpression)
	if !ok || len(n.ArgumentList) != 1 {
		return
	}
	if !strings.HasPrefix(a.m.pf.text(d.Left, 40), "Promise.resolve(") {
		return
	}
	arrow, ok := n.ArgumentList[0].(*ast.ArrowFunctionLiteral)
	if !ok {
		return
	}
	body, ok := arrow.Body.(*ast.ExpressionBody)
	if !ok {
		return
	}
	if rc := requireCall(body.Expression); rc != nil {
		a.dynRequire[rc] = true
	}
}

func (a *analyzer) requireImport(n *ast.CallExpression) {
	kind := "require"
	if a.dynRequire[n] {
		kind = "dynamic"
	} else if a.staticRequire[n] {
		kind = "static"
	}
	imp := a.addImport(kind, n.ArgumentList[0], n)
	if strings.HasSuffix(imp.Specifier, ".node") {
		resolved := imp.Resolved != ""
		st := "unresolved"
		if resolved {
			st = "resolved"
		}
		a.e.obs = append(a.e.obs, Observation{Kind: "native-addon", API: "require", Argument: imp.Specifier, State: st,
			Members: a.nativeMembers[n], Module: a.m.path, Location: a.loc(n)})
	}
}

// addImport records an import whose specifier is expression x.
func (a *analyzer) addImport(kind string, x ast.Expression, at ast.Node) Import {
	imp := Import{Kind: kind, Location: a.loc(at)}
	v := a.e.evaluate(a.m, a.cur(), x)
	_, literal := x.(*ast.StringLiteral)
	switch {
	case v.kind == kString && literal:
		imp.Specifier, imp.SpecifierKind = v.str, "module-specifier"
	case v.kind == kString && v.fsPath:
		imp.Specifier, imp.SpecifierKind = v.str, "filesystem-expression"
	case v.kind == kString:
		imp.Specifier, imp.SpecifierKind = v.str, "module-specifier"
	default:
		imp.Specifier, imp.SpecifierKind = a.m.pf.text(x, 120), "dynamic"
	}
	if imp.SpecifierKind != "dynamic" {
		spec := strings.TrimPrefix(imp.Specifier, "node:")
		var r string
		if imp.SpecifierKind == "filesystem-expression" {
			r = a.e.resolveFile(path.Clean(spec))
		} else if kind == "worker" || kind == "service-worker" || kind == "utility-process" {
			r = a.e.resolveFile(path.Join(a.m.dir, spec))
		} else {
			r = a.e.resolve(a.m.dir, spec)
		}
		if r != "" {
			imp.Resolved = r
		} else if !strings.HasPrefix(spec, ".") && !strings.HasPrefix(spec, "/") {
			imp.External = !a.e.appInternal(a.m.dir, spec)
		}
	}
	a.m.imports = append(a.m.imports, imp)
	return imp
}

func (a *analyzer) newExpr(n *ast.NewExpression) {
	name := calleeName(n.Callee)
	switch name {
	case "BrowserWindow", "BrowserView", "WebContentsView":
		callee := a.e.evaluate(a.m, a.cur(), n.Callee)
		if k := windowClass(callee); k != "" {
			a.e.windowFor(a.m, a.cur(), n, k).fromRemote(callee)
		}
	case "MessageChannelMain":
		a.messageChannel(n, a.e.evaluate(a.m, a.cur(), n.Callee))
	case "WebSocket", "EventSource":
		if len(n.ArgumentList) > 0 {
			a.endpoint("new "+name, n.ArgumentList[0], n)
		}
	case "Worker", "SharedWorker":
		if len(n.ArgumentList) > 0 {
			a.addImport("worker", n.ArgumentList[0], n)
		}
	case "Function":
		if _, ok := n.Callee.(*ast.Identifier); ok && a.cur().lookup("Function") == nil && len(n.ArgumentList) > 0 {
			a.finding("dangerous-function", "low", "observed", "new Function() compiles a string into code.", a.loc(n),
				"Replace the generated function with code shipped in the application.", nil)
		}
	default:
		// new MainWindow(opts) of a class that extends BrowserWindow.
		if root := rootIdent(n.Callee); root != nil && a.cur().lookup(string(root.Name)) != nil {
			if callee := a.e.evaluate(a.m, a.cur(), n.Callee); callee.kind == kClass {
				if k := a.e.windowSuper(callee.fn, 0); k != "" {
					a.e.subclassWindow(a.m, a.cur(), n, callee.fn, k)
				}
			}
		}
	}
}

// channelOf resolves an IPC channel argument (the first alternative when
// it has several; ipcOps reports each).
func (a *analyzer) channelOf(x ast.Expression) (string, string, []Step) {
	cs := a.channelsOf(x)
	return cs[0].channel, cs[0].state, cs[0].via
}

// channelRes is one channel an IPC call may use.
type channelRes struct {
	channel, state string
	via            []Step
	candidates     []string // on a dynamic channel: the values it is known to take
}

// channelsOf resolves an IPC channel argument into every channel it may
// be: one for a literal or constant, one per alternative (each inferred,
// with the path that produced it) when the value is one of a known set,
// or one dynamic channel.
func (a *analyzer) channelsOf(x ast.Expression) []channelRes {
	return channelsFrom(a.e.evaluate(a.m, a.cur(), x), isLiteral(x))
}

func isLiteral(x ast.Expression) bool {
	_, ok := x.(*ast.StringLiteral)
	return ok
}

func channelsFrom(v value, literal bool) []channelRes {
	if v.kind == kString {
		switch {
		case literal:
			return []channelRes{{channel: v.str, state: "literal"}}
		case v.inferred:
			return []channelRes{{channel: v.str, state: "inferred", via: v.via}}
		default:
			return []channelRes{{channel: v.str, state: "constant", via: v.via}}
		}
	}
	if len(v.alts) == 0 {
		return []channelRes{{state: "dynamic"}}
	}
	var out []channelRes
	var cands []string
	all := true
	for _, al := range v.alts {
		if al.v.kind != kString {
			all = false
			continue
		}
		cands = append(cands, al.v.str)
		out = append(out, channelRes{channel: al.v.str, state: "inferred", via: al.v.via})
	}
	if !all {
		return []channelRes{{state: "dynamic", candidates: cands}}
	}
	return out
}

func (a *analyzer) electronCall(n *ast.CallExpression, callee value) {
	p := strings.Join(callee.path, ".")
	args := n.ArgumentList
	switch p {
	case "ipcMain.handle", "ipcMain.handleOnce", "ipcMain.on", "ipcMain.once", "ipcMain.addListener":
		role := "listener"
		if strings.HasPrefix(callee.path[1], "handle") {
			role = "handler"
		}
		a.addIPC("main", p, role, n, 0, 1)
		if len(args) > 1 {
			a.markEventParam(args[1])
		}
	case "ipcRenderer.invoke", "ipcRenderer.send", "ipcRenderer.sendSync", "ipcRenderer.sendToHost", "ipcRenderer.postMessage":
		a.addIPC("renderer", p, "transmission", n, 0, -1)
	case "ipcRenderer.sendTo":
		a.addIPC("renderer", p, "transmission", n, 1, -1)
	case "ipcRenderer.on", "ipcRenderer.once", "ipcRenderer.addListener":
		a.addIPC("renderer", p, "listener", n, 0, -1)
	case "contextBridge.exposeInMainWorld":
		if len(args) >= 2 {
			a.expose("main", args[0], args[1], n)
		}
	case "contextBridge.exposeInIsolatedWorld":
		if len(args) >= 3 {
			a.expose("isolated", args[1], args[2], n)
		}
	case "shell.openExternal", "shell.openPath":
		a.openExternal(n, p)
	case "utilityProcess.fork":
		if len(args) > 0 {
			imp := a.addImport("utility-process", args[0], n)
			st := "unresolved"
			if imp.Resolved != "" {
				st = "resolved"
				a.e.entry = append(a.e.entry, Entrypoint{Kind: "utility-process", Path: imp.Resolved, Source: a.m.path})
			}
			a.e.obs = append(a.e.obs, Observation{Kind: "utility-process", API: p, Argument: imp.Specifier, State: st, Module: a.m.path, Location: a.loc(n)})
		}
	case "app.commandLine.appendSwitch", "app.commandLine.appendArgument":
		a.commandLine(n, p)
	case "app.on", "app.once":
		a.appEvent(n, p)
	case "app.setAsDefaultProtocolClient":
		a.observe("protocol-client", p, n)
		a.finding("protocol-client-registered", "low", "observed", "The app registers itself as a protocol client: deep links reach it with arguments chosen by any web page.",
			a.loc(n), "Treat the URL received in open-url / second-instance as untrusted input and validate it.", nil)
	case "session.defaultSession.setPermissionRequestHandler", "session.defaultSession.setPermissionCheckHandler",
		"session.defaultSession.setDevicePermissionHandler":
		a.e.permissionHandlers++
		a.observe("permission-handler", p, n)
	case "session.defaultSession.setCertificateVerifyProc":
		a.certificate(n, p)
	default:
		last := callee.path[len(callee.path)-1]
		switch {
		case len(callee.path) == 2 && callee.path[0] == "protocol":
			a.observe("protocol-handler", p, n)
			if last != "registerSchemesAsPrivileged" {
				a.finding("protocol-handler", "low", "observed", "A custom protocol handler is registered ("+p+"); it serves content to renderers outside the file/https rules.",
					a.loc(n), "Validate every request path in the handler and never map it onto arbitrary files.", nil)
			}
		case strings.HasPrefix(last, "setPermission"):
			a.e.permissionHandlers++
			a.observe("permission-handler", p, n)
		case last == "setCertificateVerifyProc":
			a.certificate(n, p)
		}
	}
}

// instanceCall handles methods on window objects and their webContents.
func (a *analyzer) instanceCall(n *ast.CallExpression, callee value) {
	last := callee.path[len(callee.path)-1]
	p := callee.ext + "." + strings.Join(callee.path, ".")
	switch last {
	case "loadURL", "loadFile":
		a.load(n, last, callee.win)
	case "send", "postMessage", "sendToFrame":
		chanArg := 0
		if last == "sendToFrame" {
			chanArg = 1
		}
		switch {
		case len(callee.path) >= 2 && callee.path[len(callee.path)-2] == "webContents":
			a.addIPC("main", "webContents."+last, "transmission", n, chanArg, -1)
		case len(callee.path) == 1 && last == "send" && callee.ext == "BrowserWindow":
			a.addIPC("main", "BrowserWindow.send", "transmission", n, 0, -1)
		}
	case "handle", "handleOnce", "removeHandler":
		if len(callee.path) >= 2 && callee.path[len(callee.path)-2] == "ipc" && last != "removeHandler" {
			a.addIPC("main", "webContents.ipc."+last, "handler", n, 0, 1)
		}
	case "setWindowOpenHandler":
		a.e.navigationLimits++
		a.observe("navigation-limit", p, n)
		a.windowOpenHandler(n)
	case "on", "once", "addListener":
		if len(callee.path) >= 2 && callee.path[len(callee.path)-2] == "ipc" {
			a.addIPC("main", "webContents.ipc."+last, "listener", n, 0, 1)
			if len(n.ArgumentList) > 1 {
				a.markEventParam(n.ArgumentList[1])
			}
			return
		}
		a.webContentsEvent(n, p)
	case "setPermissionRequestHandler", "setPermissionCheckHandler":
		a.e.permissionHandlers++
		a.observe("permission-handler", p, n)
	case "executeJavaScript":
		a.executeJavaScript(n)
	}
}

// syntacticCall handles calls whose receiver is not statically known (for
// example this.window.webContents.send inside a class, or event.sender):
// they are recognised by shape and reported as inferred.
func (a *analyzer) syntacticCall(n *ast.CallExpression, name string) {
	d, ok := n.Callee.(*ast.DotExpression)
	if !ok {
		return
	}
	recv := a.m.pf.text(d.Left, 200)
	if (name == "send" || name == "postMessage" || name == "sendToFrame") && !webContentsText(recv) {
		if r, ok := a.thisMemberText(d.Left); ok {
			recv = r // this.wc.send(…) with get wc() { return this.win.webContents }
		}
	}
	switch name {
	case "send", "postMessage":
		if webContentsText(recv) {
			a.addIPC("main", "webContents."+name, "transmission", n, 0, -1)
		}
	case "sendToFrame":
		if webContentsText(recv) {
			a.addIPC("main", "webContents.sendToFrame", "transmission", n, 1, -1)
		}
	case "reply":
		if a.isEventParam(d.Left) || a.markEventsAhead() && a.isEventParam(d.Left) {
			a.addIPC("main", "event.reply", "transmission", n, 0, -1)
		}
	case "handle", "handleOnce":
		if strings.HasSuffix(recv, "webContents.ipc") {
			a.addIPC("main", "webContents.ipc."+name, "handler", n, 0, 1)
		}
	case "loadURL", "loadFile":
		if recv == "this" && a.inWindowSubclass() {
			return // a load of the windows the class constructs (constructorLoads)
		}
		a.load(n, name, nil)
	case "setWindowOpenHandler":
		a.e.navigationLimits++
		a.observe("navigation-limit", recv+"."+name, n)
		a.windowOpenHandler(n)
	case "setPermissionRequestHandler", "setPermissionCheckHandler", "setDevicePermissionHandler":
		a.e.permissionHandlers++
		a.observe("permission-handler", recv+"."+name, n)
	case "on", "once":
		if strings.HasSuffix(recv, "webContents.ipc") {
			a.addIPC("main", "webContents.ipc."+name, "listener", n, 0, 1)
			if len(n.ArgumentList) > 1 {
				a.markEventParam(n.ArgumentList[1])
			}
			return
		}
		if strings.HasSuffix(recv, "webContents") || strings.HasSuffix(recv, "contents") {
			a.webContentsEvent(n, recv+"."+name)
		}
	case "setCertificateVerifyProc":
		a.certificate(n, recv+"."+name)
	case "executeJavaScript":
		a.executeJavaScript(n)
	}
}

func (a *analyzer) observe(kind, api string, n *ast.CallExpression) {
	o := Observation{Kind: kind, API: api, Module: a.m.path, Location: a.loc(n)}
	if len(n.ArgumentList) > 0 {
		v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
		if v.kind == kString {
			o.Argument, o.State = v.str, "known"
		} else {
			o.Argument, o.State = a.m.pf.text(n.ArgumentList[0], 120), "dynamic"
		}
	}
	a.e.obs = append(a.e.obs, o)
}

func (a *analyzer) ipcOp(side, api, role string, n *ast.CallExpression) IPCOperation {
	return a.ipcOps(side, api, role, n, 0)[0]
}

// ipcOps builds the operations of an IPC call whose channel is argument
// chanArg: one per channel the argument may be.
func (a *analyzer) ipcOps(side, api, role string, n *ast.CallExpression, chanArg int) []IPCOperation {
	args := n.ArgumentList
	op := IPCOperation{Module: a.m.path, Side: side, API: api, Role: role, Location: a.loc(n)}
	if len(args) <= chanArg {
		op.ChannelState = "dynamic"
		return []IPCOperation{op}
	}
	op.Location = a.loc(args[chanArg])
	cs := a.channelsOf(args[chanArg])
	out := make([]IPCOperation, len(cs))
	for i, c := range cs {
		o := op
		o.Channel, o.ChannelState, o.ChannelVia, o.ChannelCandidates = c.channel, c.state, c.via, c.candidates
		out[i] = o
	}
	return out
}

// addIPC records the operations of an IPC call; a handler or listener
// argument at handlerArg (-1: none) is checked for sender validation.
func (a *analyzer) addIPC(side, api, role string, n *ast.CallExpression, chanArg, handlerArg int) {
	ops := a.ipcOps(side, api, role, n, chanArg)
	if side == "main" && role != "transmission" && handlerArg >= 0 && handlerArg < len(n.ArgumentList) {
		b := a.senderValidated(n.ArgumentList[handlerArg])
		for i := range ops {
			ops[i].SenderValidation = b
		}
	}
	a.e.ipc = append(a.e.ipc, ops...)
}

// senderValidated reports whether an IPC handler looks at who sent the
// message (senderFrame, sender URL, origin). nil when the handler is not
// statically known.
func (a *analyzer) senderValidated(x ast.Expression) *bool {
	v := a.e.evaluate(a.m, a.cur(), x)
	if v.kind != kFunction {
		return nil
	}
	ok := checksSender(v.fn.mod.pf.raw(v.fn.node))
	if !ok {
		// One level of helpers: ipcMain.handle(ch, (e) => { assertTrusted(e); … })
		c := &calleeCollector{}
		walk(c, v.fn.node)
		scope := v.fn.scope
		if own := v.fn.mod.scopes[v.fn.node]; own != nil {
			scope = own
		}
		for _, callee := range c.callees {
			hv := a.e.evaluate(v.fn.mod, scope, callee)
			if hv.kind == kFunction && hv.fn.node != v.fn.node && checksSender(hv.fn.mod.pf.raw(hv.fn.node)) {
				ok = true
				break
			}
		}
	}
	return &ok
}

func checksSender(text string) bool {
	return strings.Contains(text, "senderFrame") || strings.Contains(text, "getURL(") ||
		strings.Contains(text, "sender.url") || strings.Contains(text, ".origin")
}

// calleeCollector gathers identifiers called by name inside a function.
type calleeCollector struct{ callees []*ast.Identifier }

func (c *calleeCollector) Enter(n any) bool {
	if call, ok := n.(*ast.CallExpression); ok && len(c.callees) < 32 {
		if id, ok := call.Callee.(*ast.Identifier); ok {
			c.callees = append(c.callees, id)
		}
	}
	return true
}

func (c *calleeCollector) Leave(any) {}

// expose records a contextBridge API and its member paths.
func (a *analyzer) expose(world string, keyX, apiX ast.Expression, n *ast.CallExpression) {
	kv := a.e.evaluate(a.m, a.cur(), keyX)
	switch {
	case kv.kind == kString:
		state := "literal"
		if _, lit := keyX.(*ast.StringLiteral); !lit {
			state = "constant"
		}
		a.exposeValue(world, kv.str, state, a.e.evaluate(a.m, a.cur(), apiX), n)
	case a.exposeEachKey(world, keyX, apiX, n): // bridgeloop.go
	default:
		a.exposeValue(world, a.m.pf.text(keyX, 80), "dynamic", a.e.evaluate(a.m, a.cur(), apiX), n)
	}
}

// exposeValue records one exposed API: its key (with its state) and the
// members of the value v.
func (a *analyzer) exposeValue(world, key, keyState string, v value, n *ast.CallExpression) {
	a.m.roles["electron-preload"] = true
	api := ExposedAPI{Module: a.m.path, World: world, Location: a.loc(n), Coverage: "complete", Members: []string{}}
	api.Key, api.KeyState = key, keyState
	if keyState == "dynamic" {
		api.Coverage = "partial"
	}
	var members func(prefix string, v value, depth int)
	members = func(prefix string, v value, depth int) {
		if api.KeyState != "dynamic" {
			a.bridgeMember(api.Key, prefix, v)
		}
		if v.kind == kExternal && v.ext == "@electron-toolkit/preload" && strings.Join(v.path, ".") == "electronAPI" {
			for _, k := range toolkitMembers {
				api.Members = append(api.Members, joinMember(prefix, k))
			}
			return
		}
		if v.kind == kExternal && v.ext == "electron" && len(v.path) >= 1 && v.path[0] == "ipcRenderer" {
			label := prefix
			if label == "" {
				label = "(the API object itself)"
			}
			api.RawIPCRenderer = append(api.RawIPCRenderer, label)
		}
		if v.kind != kObject || depth > 4 {
			if prefix != "" && len(api.Members) < 256 {
				api.Members = append(api.Members, prefix)
			}
			return
		}
		if len(v.obj.unknownSpread) > 0 || v.obj.dynamicKeys > 0 {
			api.Coverage = "partial"
		}
		for _, k := range v.obj.keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			members(p, v.obj.props[k], depth+1)
		}
	}
	if v.kind == kUnknown {
		api.Coverage = "partial"
	}
	members("", v, 0)
	sort.Strings(api.Members)
	a.e.exposed = append(a.e.exposed, api)
	for _, raw := range api.RawIPCRenderer {
		a.finding("context-bridge-raw-ipc-renderer", "high", "observed",
			fmt.Sprintf("contextBridge API %q exposes ipcRenderer itself at %s: any page script can send on every channel.", api.Key, raw),
			api.Location, "Expose one function per allowed channel that calls ipcRenderer with a fixed channel name.", nil)
	}
}

func (a *analyzer) openExternal(n *ast.CallExpression, api string) {
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	o := Observation{Kind: "open-external", API: api, Module: a.m.path, Location: a.loc(n)}
	if v.kind == kString {
		o.Argument, o.State = v.str, "known"
		if strings.HasPrefix(v.str, "http:") {
			a.finding("open-external-insecure", "low", "observed", api+" opens a plain-http URL.", a.loc(n),
				"Use https URLs.", nil)
		}
	} else {
		o.Argument, o.State = a.m.pf.text(n.ArgumentList[0], 120), "dynamic"
		a.finding("open-external-dynamic", "medium", "observed", api+" is called with a value computed at run time; a page that controls it can launch arbitrary protocol handlers.",
			a.loc(n), "Parse the URL and allow only https: (and mailto: if needed) to a list of known hosts before calling "+api+".", nil)
	}
	a.e.obs = append(a.e.obs, o)
}

func (a *analyzer) commandLine(n *ast.CallExpression, api string) {
	a.observe("command-line-switch", api, n)
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	if v.kind == kString && dangerousSwitch(v.str) != "" {
		a.finding("dangerous-command-line-switch", "medium", "observed", fmt.Sprintf("%s(%q) weakens Chromium's security.", api, v.str),
			a.loc(n), "Remove the switch from production builds.", nil)
	}
}

func (a *analyzer) appEvent(n *ast.CallExpression, api string) {
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	if v.kind != kString {
		return
	}
	switch v.str {
	case "certificate-error":
		a.certificate(n, api+"(\"certificate-error\")")
	case "web-contents-created":
		a.observe("app-event", api, n)
	}
}

func (a *analyzer) certificate(n *ast.CallExpression, api string) {
	a.observe("certificate-handling", api, n)
	a.finding("certificate-verification-override", "medium", "observed", api+" overrides TLS certificate verification; a mistake here accepts forged certificates.",
		a.loc(n), "Let Chromium verify certificates; if pinning is needed, reject by default and accept only known fingerprints.", nil)
}

func (a *analyzer) webContentsEvent(n *ast.CallExpression, api string) {
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	if v.kind != kString {
		return
	}
	switch v.str {
	case "will-navigate", "new-window", "will-redirect", "will-frame-navigate":
		a.e.navigationLimits++
		a.observe("navigation-limit", api, n)
	case "will-attach-webview":
		a.observe("webview-attach", api, n)
	case "certificate-error":
		a.certificate(n, api+"(\"certificate-error\")")
	}
}

func (a *analyzer) executeJavaScript(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	if v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0]); v.kind != kString {
		a.finding("dangerous-function", "low", "observed", "executeJavaScript runs a string computed at run time in a page.", a.loc(n),
			"Send data over IPC instead of building script text.", nil)
	}
}

func (a *analyzer) childProcess(n *ast.CallExpression, name string) {
	a.observe("child-process", "child_process."+name, n)
}

// load records loadURL/loadFile on a window (nil when the window is not
// statically known).
func (a *analyzer) load(n *ast.CallExpression, method string, w *windowRec) {
	if len(n.ArgumentList) == 0 {
		return
	}
	v := a.e.evaluateOptions(a.m, a.cur(), n.ArgumentList[0])
	if v.kind != kString && w != nil && len(v.alts) > 0 {
		// isDev ? 'http://localhost:3000' : `file://…`: one load per value.
		all := true
		for _, al := range v.alts {
			all = all && al.v.kind == kString
		}
		if all {
			for _, al := range v.alts {
				l := a.loadOf(n, method, al.v, "inferred")
				l.Condition = al.cond
				w.w.Loads = append(w.w.Loads, l)
			}
			return
		}
	}
	l := a.loadOf(n, method, v, "observed")
	if w != nil {
		w.w.Loads = append(w.w.Loads, l)
		return
	}
	a.e.obs = append(a.e.obs, Observation{Kind: "load", API: method, Argument: l.Target, State: l.State, Module: a.m.path, Location: l.Location})
}

// loadOf describes loading v; confidence is that of its findings.
func (a *analyzer) loadOf(n *ast.CallExpression, method string, v value, confidence string) Load {
	l := Load{Method: method, Location: a.loc(n), State: "dynamic"}
	if v.kind == kString {
		l.Target, l.State = v.str, "known"
		if method == "loadFile" {
			p := v.str
			if !v.fsPath {
				p = path.Join(a.m.dir, p)
			}
			if r := a.e.resolveFile(path.Clean(p)); r != "" {
				l.Resolved = r
			} else if r := a.e.resolveFile(path.Clean(v.str)); r != "" {
				l.Resolved = r
			}
		} else if u, err := url.Parse(v.str); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			l.Remote = u.Hostname() != "localhost" && u.Hostname() != "127.0.0.1"
			if u.Scheme == "http" && l.Remote {
				a.finding("insecure-remote-content", "high", confidence, "A window loads "+redactURL(u)+" over plain http: anyone on the network can replace the page.",
					a.loc(n), "Load remote content over https only, or ship the page with the application.", nil)
			}
		} else if err == nil && u.Scheme == "file" {
			l.Resolved = a.e.resolveFile(strings.TrimPrefix(path.Clean(u.Path), "/"))
			if l.Resolved == "" && v.fsPath {
				// `file://${path.join(__dirname, 'index.html')}`: __dirname is
				// absolute at run time, relative to the root here.
				l.Resolved = a.e.resolveFile(path.Clean(strings.TrimPrefix(v.str, "file://")))
			}
		}
	} else {
		l.Target = a.m.pf.text(n.ArgumentList[0], 120)
	}
	return l
}

// redactURL drops credentials, query and fragment.
func redactURL(u *url.URL) string {
	c := *u
	c.User, c.RawQuery, c.Fragment = nil, "", ""
	return c.String()
}
