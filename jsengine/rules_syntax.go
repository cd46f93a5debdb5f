package jsengine

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// ruleWalker runs the analyzer and then the rules that look at one syntax
// node (rulesEnter), with the analyzer's scope stack in place.
type ruleWalker struct{ a *analyzer }

func (w ruleWalker) Enter(n any) bool {
	ok := w.a.Enter(n)
	w.a.rulesEnter(n)
	return ok
}

func (w ruleWalker) Leave(n any) { w.a.Leave(n) }

// rulesEnter holds the rules that judge a single call or assignment.
func (a *analyzer) rulesEnter(n any) {
	switch n := n.(type) {
	case *ast.CallExpression:
		a.ruleCall(n)
	case *ast.AssignExpression:
		a.ruleAssign(n)
	case *ast.ObjectLiteral:
		for _, p := range n.Value {
			if pk, ok := p.(*ast.PropertyKeyed); ok {
				if k, ok := staticKey(pk.Key, pk.Computed); ok && strings.EqualFold(k, "content-security-policy") {
					a.cspHeader(pk.Value, pk.Key)
				}
			}
		}
	}
}

// stringTimers run a string argument as code.
var stringTimers = map[string]bool{"setTimeout": true, "setInterval": true, "setImmediate": true, "Function": true}

// protocolMethods are Electronegativity's protocol-handler methods on app
// or protocol (registerStandardSchemes and registerServiceWorkerSchemes
// are the pre-5 names).
var protocolMethods = map[string]bool{
	"registerStandardSchemes": true, "registerServiceWorkerSchemes": true, "registerFileProtocol": true,
	"registerHttpProtocol": true, "registerStringProtocol": true, "registerBufferProtocol": true, "registerStreamProtocol": true,
}

func (a *analyzer) ruleCall(n *ast.CallExpression) {
	name := calleeName(n.Callee)
	args := n.ArgumentList
	if ipcMethods[name] {
		a.ipcChannelGuard(n)
	}
	switch {
	case stringTimers[name]:
		if len(args) == 0 {
			return
		}
		if name == "Function" {
			if _, ok := n.Callee.(*ast.Identifier); !ok || a.cur().lookup("Function") != nil {
				return
			}
		} else if !a.globalOrWindow(n.Callee, name) {
			return
		}
		if why := a.codeString(args[0]); why != "" {
			a.finding("dangerous-function", "low", "observed", fmt.Sprintf("%s() is given %s, which it runs as code.", name, why), a.loc(n),
				"Pass a function instead of a string.", nil)
		}
	case name == "insertCSS" || name == "executeJavascript":
		// executeJavaScript itself is the analyzer's; Electronegativity
		// also matches this misspelling.
		if len(args) == 0 {
			return
		}
		if _, lit := args[0].(*ast.StringLiteral); lit {
			return
		}
		if v := a.e.evaluate(a.m, a.cur(), args[0]); v.kind == kString {
			return
		}
		a.finding("dangerous-function", "low", "observed", name+" is given a value computed at run time, which it injects into a page.", a.loc(n),
			"Ship fixed CSS/script with the app and send data over IPC.", nil)
	case name == "on" || name == "once":
		if len(args) >= 2 {
			if v := a.e.evaluate(a.m, a.cur(), args[0]); v.kind == kString && v.str == "will-attach-webview" {
				a.willAttachWebview(args[1])
			}
		}
	case name == "importCertificate":
		if callee := a.e.evaluate(a.m, a.cur(), n.Callee); callee.isElectron("app", "importCertificate") {
			a.finding("certificate-imported", "medium", "observed", "app.importCertificate adds a certificate to the platform certificate store: verify which certificate and why.",
				a.loc(n), "Prefer certificate pinning in setCertificateVerifyProc with a reject-by-default policy over importing certificates.", nil)
		}
	case name == "setCertificateVerifyProc":
		// Reached through a window (win.webContents.session): the
		// analyzer handles electron's session and unknown receivers.
		if callee := a.e.evaluate(a.m, a.cur(), n.Callee); callee.kind == kInstance {
			a.certificate(n, callee.ext+"."+strings.Join(callee.path, "."))
		}
	case protocolMethods[name]:
		callee := a.e.evaluate(a.m, a.cur(), n.Callee)
		if callee.kind == kExternal && callee.ext == "electron" && len(callee.path) == 2 && callee.path[0] == "app" {
			a.finding("protocol-handler", "low", "observed", "app."+name+" registers a custom scheme handler (an API of old Electron versions); it serves content to renderers outside the file/https rules.",
				a.loc(n), "Validate every request path in the handler and never map it onto arbitrary files.", nil)
		}
		if callee.kind == kExternal && callee.ext == "electron" && len(callee.path) == 2 && callee.path[0] == "protocol" && (name == "registerStandardSchemes" || name == "registerServiceWorkerSchemes") {
			a.finding("protocol-handler", "low", "observed", "protocol."+name+" gives a custom scheme web privileges.",
				a.loc(n), "Grant a custom scheme only the privileges its pages need.", nil)
		}
	case name == "loadURL":
		a.httpTemplateLoad(n)
	case name == "openExternal":
		a.openExternalScheme(n)
	}
}

// globalOrWindow reports whether a timer call is the global one (setTimeout,
// window.setTimeout, globalThis.setTimeout), not a method of some object.
func (a *analyzer) globalOrWindow(callee ast.Expression, name string) bool {
	switch c := callee.(type) {
	case *ast.Identifier:
		return a.cur().lookup(name) == nil
	case *ast.DotExpression:
		recv := a.m.pf.text(c.Left, 40)
		return recv == "window" || recv == "globalThis" || recv == "self" || recv == "global"
	}
	return false
}

// codeString says why x is a string built at run time ("" when it is a
// function, a constant literal, or a value rea cannot tell is a string).
func (a *analyzer) codeString(x ast.Expression) string {
	switch x := x.(type) {
	case *ast.StringLiteral, *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
		return ""
	case *ast.BinaryExpression:
		if x.Operator == token.PLUS {
			return "a string concatenation"
		}
	case *ast.TemplateLiteral:
		if len(x.Expressions) > 0 {
			return "a template string"
		}
		return ""
	case *ast.Identifier:
		v := a.e.evaluate(a.m, a.cur(), x)
		switch v.kind {
		case kString:
			return "the string " + truncateUTF8(v.render(), 60)
		case kUnknown:
			// A variable whose initializer builds a string.
			if b := a.cur().lookup(string(x.Name)); b != nil && !b.opaque && b.fn == nil && len(b.path) == 0 {
				switch init := b.init.(type) {
				case *ast.BinaryExpression:
					if init.Operator == token.PLUS {
						return string(x.Name) + ", a string concatenation"
					}
				case *ast.TemplateLiteral:
					return string(x.Name) + ", a template string"
				}
			}
		}
	}
	return ""
}

// willAttachWebview reports a will-attach-webview handler that turns
// nodeIntegration on in the webview's preferences.
func (a *analyzer) willAttachWebview(handler ast.Expression) {
	var body ast.Node
	switch f := handler.(type) {
	case *ast.FunctionLiteral:
		body = f.Body
	case *ast.ArrowFunctionLiteral:
		body = f.Body
	default:
		return
	}
	params := paramNames(handler)
	prefs := "webPreferences"
	if len(params) >= 2 {
		prefs = params[1]
	}
	c := &assignCollector{}
	walk(c, body)
	for _, as := range c.assigns {
		d, ok := as.Left.(*ast.DotExpression)
		if !ok || string(d.Identifier.Name) != "nodeIntegration" {
			continue
		}
		if id, ok := d.Left.(*ast.Identifier); !ok || string(id.Name) != prefs {
			continue
		}
		if b, ok := as.Right.(*ast.BooleanLiteral); ok && b.Value {
			a.finding("webview-attach-node-integration", "high", "observed",
				"The will-attach-webview handler sets "+prefs+".nodeIntegration = true: the <webview> guest gets Node.js.", a.loc(as),
				"Delete webPreferences.preload and set webPreferences.nodeIntegration = false in will-attach-webview.", nil)
			return
		}
	}
}

type assignCollector struct{ assigns []*ast.AssignExpression }

func (c *assignCollector) Enter(n any) bool {
	if as, ok := n.(*ast.AssignExpression); ok && as.Operator == token.ASSIGN && len(c.assigns) < 256 {
		c.assigns = append(c.assigns, as)
	}
	return true
}

func (c *assignCollector) Leave(any) {}

// ruleAssign judges assignments: ELECTRON_DISABLE_SECURITY_WARNINGS set to a
// truthy value, and a Content-Security-Policy response header.
func (a *analyzer) ruleAssign(n *ast.AssignExpression) {
	if n.Operator != token.ASSIGN {
		return
	}
	member := ""
	switch l := n.Left.(type) {
	case *ast.DotExpression:
		member = string(l.Identifier.Name)
	case *ast.BracketExpression:
		if s, ok := l.Member.(*ast.StringLiteral); ok {
			member = string(s.Value)
		}
	}
	switch {
	case member == "ELECTRON_DISABLE_SECURITY_WARNINGS":
		v := a.e.evaluate(a.m, a.cur(), n.Right)
		conf := "observed"
		if t, known := v.truthy(); known && !t {
			return // false, 0, "" keep the warnings on
		} else if !known {
			conf = "inferred"
		}
		a.finding("security-warnings-disabled", "low", conf, "Electron security warnings are disabled with ELECTRON_DISABLE_SECURITY_WARNINGS = "+truncateUTF8(a.m.pf.text(n.Right, 60), 60)+".",
			a.loc(n.Left), "Keep the warnings on in development; they point at the insecure settings this report lists.", nil)
	case strings.EqualFold(member, "content-security-policy"):
		a.cspHeader(n.Right, n.Left)
	}
}

// cspHeader notes a Content-Security-Policy set in response headers, and
// judges its policy when it is known.
func (a *analyzer) cspHeader(x ast.Expression, at ast.Node) {
	v := a.e.evaluate(a.m, a.cur(), x)
	policy := ""
	switch {
	case v.kind == kString:
		policy = v.str
	case v.kind == kObject && v.obj.isArray && len(v.obj.keys) > 0:
		if s := v.obj.props[v.obj.keys[0]]; s.kind == kString {
			policy = s.str
		}
	}
	shown := policy
	if shown == "" {
		shown = a.m.pf.text(x, 120)
	}
	loc := a.loc(at)
	a.finding("csp-defined", "info", "observed", "A Content-Security-Policy response header is set: "+truncateUTF8(shown, 300), loc,
		"Keep script-src to the app's own origin; csp-weak lists weaknesses rea recognises.", nil)
	if policy != "" {
		if weak := cspWeaknesses(policy); len(weak) > 0 {
			a.finding("csp-weak", "medium", "observed", "The Content-Security-Policy header is weak: "+strings.Join(weak, "; "), loc,
				"Restrict script-src to 'self' without 'unsafe-inline' or 'unsafe-eval'.", nil)
		}
	}
}

// httpTemplateLoad reports loadURL of a URL built at run time whose text
// starts with http:// (a template or concatenation), or a constant with
// blanks or mixed case before it, which the analyzer's URL parse misses.
func (a *analyzer) httpTemplateLoad(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	x := n.ArgumentList[0]
	v := a.e.evaluate(a.m, a.cur(), x)
	prefix := ""
	switch {
	case v.kind == kString:
		if strings.TrimSpace(v.str) == v.str {
			return // the analyzer's load judged it
		}
		prefix = v.str
	default:
		switch t := x.(type) {
		case *ast.TemplateLiteral:
			if len(t.Elements) > 0 {
				prefix = string(t.Elements[0].Parsed)
			}
		case *ast.BinaryExpression:
			if s, ok := t.Left.(*ast.StringLiteral); ok && t.Operator == token.PLUS {
				prefix = string(s.Value)
			}
		}
	}
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(prefix)), "http://") {
		return
	}
	a.finding("insecure-remote-content", "high", "inferred", "loadURL loads a page over plain http ("+truncateUTF8(redactURLs(a.m.pf.text(x, 120)), 120)+"): anyone on the network can replace it.",
		a.loc(n), "Load remote content over https only, or ship the page with the application.", nil)
}

// openExternalScheme reports shell.openExternal of a known URL whose scheme
// launches local files or applications (file:, smb:, …) rather than a web
// page: the analyzer reports computed and plain-http URLs.
func (a *analyzer) openExternalScheme(n *ast.CallExpression) {
	if len(n.ArgumentList) == 0 {
		return
	}
	if callee := a.e.evaluate(a.m, a.cur(), n.Callee); !callee.isElectron("shell", "openExternal") {
		return
	}
	v := a.e.evaluate(a.m, a.cur(), n.ArgumentList[0])
	if v.kind != kString {
		return
	}
	scheme := strings.ToLower(strings.SplitN(strings.TrimSpace(v.str), ":", 2)[0])
	switch scheme {
	case "http", "https", "mailto", "tel", "sms":
		return
	}
	if !strings.Contains(v.str, ":") {
		return
	}
	a.finding("open-external-local", "medium", "observed", "shell.openExternal opens "+truncateUTF8(redactURLs(v.str), 120)+": a "+scheme+": URL opens local files or applications, not a web page.",
		a.loc(n), "Open only https: (and mailto:) URLs; use shell.openPath for the app's own files after validating them.", nil)
}
