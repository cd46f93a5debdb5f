package jsengine

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzAnalyzeJSFile feeds arbitrary bytes as the main file of an app (and
// as a TypeScript file, which takes the esbuild path): Analyze must never
// panic, never fail on content, and stay within its AST limit.
func FuzzAnalyzeJSFile(f *testing.F) {
	_ = filepath.WalkDir(fixtures, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && textKind(p) == "javascript" {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	for _, s := range []string{
		"new BrowserWindow({webPreferences: {...a, ...b}})",
		"const {x: {y}} = require('electron'); new y.BrowserWindow(f(f(f())))",
		"function f(a){return f(a)} new (require('electron').BrowserWindow)(f({}))",
		"var E; (function (E) { E[E['A'] = 0] = 'A'; })(E || (exports.E = E = {})); require('electron').ipcMain.handle(E.A)",
		"let a = b; let b = a; require('electron').ipcMain.on(a + b)",
		"(self.webpackChunk = self.webpackChunk || []).push([[1], {1: (m, e, r) => { r(1); }}])",
		"`${`${`${x}`}`}`",
		"import x from 'y'; export default await x;",
		"class A { #p = 1; static { this.q = new.target } }",
		// issue 18 shapes: cyclic classes, recursive wrappers, self-iterating loops
		"const {BrowserWindow: W, ipcRenderer: r} = require('electron'); class A extends B { constructor(o) { super(o) } } class B extends A {} new A({}); new B()",
		"const {ipcRenderer: r} = require('electron'); function s(c) { s(c); if (L.includes(c)) r.send(`x:${c}`) } const L = [L]; s('a'); L.forEach(s)",
		"let c = 'a'; c = c + c; for (const k of [c, c]) require('electron').ipcMain.handle(k, () => (c = k)); window.api.send(c)",
		// parameters read from their callers (paramflow.go): recursion, forwarding, private fields
		"const {BrowserWindow: W} = require('electron'); function f(p, ...r) { f(...r); return new W({webPreferences: {preload: p}}) } f(f); f(...f)",
		"class M { #p; constructor({o} = {}) { this.#p = o.p } w(x = this.#p) { return new (require('electron').BrowserWindow)(x) } } new M({o: new M().w()}).w()",
		"const K = {a: 'x', b: 'y'}; function s(t) { require('electron').ipcRenderer.send(K[t]) } s(K[K.a])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{
			"package.json": {Data: []byte(`{"main":"main.js"}`)},
			"main.js":      {Data: data},
			"src/view.tsx": {Data: data},
		}
		opts := Options{MaxASTNodes: 50_000, MaxParseMilliseconds: 5_000}
		r, err := Analyze(context.Background(), fsys, opts, nil)
		if err != nil {
			t.Fatalf("Analyze failed on content: %v", err)
		}
		if r.Statistics.VisitedASTNodes > opts.MaxASTNodes {
			t.Fatalf("visited %d nodes, limit %d", r.Statistics.VisitedASTNodes, opts.MaxASTNodes)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
		for _, f := range r.Findings {
			if !strings.HasPrefix(f.Location.File, "main.js") && !strings.HasPrefix(f.Location.File, "src/view.tsx") && f.Location.File != "package.json" {
				t.Fatalf("finding outside the input: %+v", f)
			}
		}
	})
}

// FuzzResolutionConfigs feeds arbitrary bytes as the files module
// resolution reads statically (tsconfig with extends, a vite config, a
// package.json with exports, pnpm-workspace.yaml, a shipped source map):
// Analyze must never panic nor fail on content, and never resolve outside
// the root.
func FuzzResolutionConfigs(f *testing.F) {
	for _, s := range []string{
		`{"extends":"./tsconfig.json","compilerOptions":{"baseUrl":"..","paths":{"*":["../*"],"@/*":["src/*"]}}}`,
		`{"name":"@x/y","exports":{".":{"require":"./a.js"},"./*":["./lib/*.js",{"node":"./n/*"}]},"workspaces":{"packages":["**"]}}`,
		`export default { resolve: { alias: [{ find: '@', replacement: fileURLToPath(new URL('../..', import.meta.url)) }], alias: { a: '/', b: __dirname + '/../x' } } }`,
		"packages:\n  - '**'\n  - ../*\n",
		`{"version":3,"sources":["webpack://x/../../etc/passwd"],"sourcesContent":[null],"mappings":"AAAA;;;AACA,CAAC"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{
			"package.json":            {Data: []byte(`{"main":"main.js","workspaces":["packages/*"]}`)},
			"tsconfig.json":           {Data: data},
			"vite.config.ts":          {Data: data},
			"pnpm-workspace.yaml":     {Data: data},
			"packages/p/package.json": {Data: data},
			"main.js": {Data: []byte("require('@/a'); require('@x/y'); require('@x/y/z'); require('./dist/b');\n" +
				"const { BrowserWindow } = require('electron'); new BrowserWindow({})\n//# sourceMappingURL=main.js.map\n")},
			"main.js.map": {Data: data},
		}
		r, err := Analyze(context.Background(), fsys, Options{MaxASTNodes: 50_000, MaxParseMilliseconds: 5_000}, nil)
		if err != nil {
			t.Fatalf("Analyze failed on content: %v", err)
		}
		for _, m := range r.Modules {
			for _, imp := range m.Imports {
				if strings.HasPrefix(imp.Resolved, "../") || strings.HasPrefix(imp.Resolved, "/") {
					t.Fatalf("resolved outside the root: %+v", imp)
				}
			}
		}
		if len(r.Windows) != 1 {
			t.Fatalf("a configuration changed the main file's facts: %d windows", len(r.Windows))
		}
	})
}
