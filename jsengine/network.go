package jsengine

import (
	"net/url"
	"strings"

	"github.com/dop251/goja/ast"
)

// httpClients are receivers whose get/post/request calls take a URL first.
var httpClients = map[string]bool{"axios": true, "http": true, "https": true, "net": true, "got": true, "superagent": true, "request": true}

var httpMethods = map[string]bool{"get": true, "post": true, "put": true, "delete": true, "patch": true, "head": true, "request": true}

// endpointCall records network endpoints named by fetch, axios, http(s),
// electron.net, XMLHttpRequest.open and WebSocket/EventSource.
func (a *analyzer) endpointCall(n *ast.CallExpression, name string) {
	var arg ast.Expression
	switch c := n.Callee.(type) {
	case *ast.Identifier:
		if (name == "fetch" || name == "axios") && a.cur().lookup(name) == nil && len(n.ArgumentList) > 0 {
			arg = n.ArgumentList[0]
		}
	case *ast.DotExpression:
		recv := a.m.pf.text(c.Left, 60)
		switch {
		case httpMethods[name] && httpClients[recv] && len(n.ArgumentList) > 0:
			arg = n.ArgumentList[0]
		case name == "open" && len(n.ArgumentList) >= 2 && strings.Contains(strings.ToLower(recv), "xhr"):
			arg = n.ArgumentList[1]
		}
	}
	if arg != nil {
		a.endpoint(name, arg, n)
	}
}

func (a *analyzer) endpoint(api string, arg ast.Expression, at ast.Node) {
	v := a.e.evaluate(a.m, a.cur(), arg)
	if v.kind != kString {
		return
	}
	target, ok := redactEndpoint(v.str)
	if !ok {
		return
	}
	a.e.obs = append(a.e.obs, Observation{Kind: "endpoint", API: api, Argument: target, State: "known", Module: a.m.path, Location: a.loc(at)})
}

// redactEndpoint keeps scheme, host, port and path; credentials, query and
// fragment are dropped. Relative paths ("/api/items") are kept as routes.
func redactEndpoint(s string) (string, bool) {
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
		return s, true
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", false
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
		return redactURL(u), true
	}
	return "", false
}

// storageGlobals are browser storage APIs recorded once per module.
var storageGlobals = map[string]string{
	"localStorage": "local-storage", "sessionStorage": "session-storage", "indexedDB": "indexed-db", "caches": "cache-storage",
}

// storageAccess records the first use of each browser storage API in a module.
func (a *analyzer) storageAccess(d *ast.DotExpression) {
	var name string
	switch l := d.Left.(type) {
	case *ast.Identifier:
		name = string(l.Name)
		if a.cur().lookup(name) != nil {
			return
		}
	case *ast.DotExpression:
		if id, ok := l.Left.(*ast.Identifier); ok && (id.Name == "window" || id.Name == "globalThis" || id.Name == "self") {
			name = string(l.Identifier.Name)
		}
	}
	kind, ok := storageGlobals[name]
	if !ok || a.storageSeen[kind] {
		return
	}
	a.storageSeen[kind] = true
	a.e.obs = append(a.e.obs, Observation{Kind: "storage", API: name, Argument: kind, State: "known", Module: a.m.path, Location: a.loc(d)})
}
