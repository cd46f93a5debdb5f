package jsengine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// preloadsOf renders each window's preload as "module state" (the value
// where it names no analysed file), and the alternatives of an unknown one,
// for comparisons.
func preloadsOf(r *Result) []string {
	var out []string
	for _, w := range r.Windows {
		v, ok := w.WebPreferences["preload"]
		if !ok {
			out = append(out, "none")
			continue
		}
		var shown any = v.Value
		if w.Preload != nil && w.Preload.Module != "" {
			shown = w.Preload.Module // the analysed file the value names
		}
		s := fmt.Sprintf("%v %s", shown, v.State)
		for _, a := range v.Alternatives {
			s += fmt.Sprintf(" | %v", a.Value)
		}
		out = append(out, s)
	}
	return out
}

func TestParametersTakeTheValuesTheirCallersPass(t *testing.T) {
	const preload = "require('electron').contextBridge.exposeInMainWorld('api', {})\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string // each window's preload, in order
	}{
		{"a helper's parameter", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
function createWindow(preloadPath) { return new BrowserWindow({ webPreferences: { preload: preloadPath } }) }
app.whenReady().then(() => createWindow(path.join(__dirname, 'preload.js')))`,
			"preload.js": preload,
		}, []string{"preload.js inferred"}},
		{"a default parameter value", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
const open = (preload = path.join(__dirname, 'preload.js')) => new BrowserWindow({ webPreferences: { preload } })
app.whenReady().then(() => open())`,
			"preload.js": preload,
		}, []string{"preload.js inferred"}},
		{"a constructor option kept on this", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
class Manager {
  constructor(opts) { this.pre = opts.preload }
  open() { return new BrowserWindow({ webPreferences: { preload: this.pre } }) }
}
app.whenReady().then(() => new Manager({ preload: path.join(__dirname, 'preload.js') }).open())`,
			"preload.js": preload,
		}, []string{"preload.js inferred"}},
		{"a private field, a rest-spread forwarder and an imported caller", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"windows.js": `const { BrowserWindow } = require('electron')
class Windows {
  #preload
  constructor({ config, devTools = false }) { this.#preload = config.preload }
  create() { return new BrowserWindow({ webPreferences: { preload: this.#preload.path, sandbox: true } }) }
}
function windowsModule(...args) { return new Windows(...args) }
module.exports = { windowsModule }`,
			"main.js": `const { app } = require('electron'); const path = require('path')
const { windowsModule } = require('./windows')
function start(config) { app.whenReady().then(() => windowsModule({ config }).create()) }
start({ preload: { path: path.join(__dirname, 'preload.js') } })`,
			"preload.js": preload,
		}, []string{"preload.js inferred"}},
		{"import.meta.resolve of a workspace export, handed to a TypeScript package", map[string]string{
			"package.json": `{"main": "packages/entry.mjs", "type": "module", "workspaces": ["packages/*"]}`,
			"packages/entry.mjs": `import { initApp } from '@mono/main'
import { fileURLToPath } from 'node:url'
initApp({ preload: { path: fileURLToPath(import.meta.resolve('@mono/preload/exposed.mjs')) } })`,
			"packages/main/package.json": `{"name": "@mono/main", "exports": {".": {"types": "./src/index.ts", "default": "./dist/index.js"}}}`,
			"packages/main/src/index.ts": `import { app, BrowserWindow } from 'electron'
export async function initApp(initConfig: { preload: { path: string } }) {
  await app.whenReady()
  new BrowserWindow({ webPreferences: { preload: initConfig.preload.path } })
}`,
			"packages/preload/package.json":   `{"name": "@mono/preload", "exports": {"./exposed.mjs": {"default": "./dist/exposed.mjs"}}}`,
			"packages/preload/src/exposed.ts": preload,
		}, []string{"packages/preload/src/exposed.ts inferred"}},
		{"class field initializers are this-members", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
class Shell {
  #dir = __dirname
  preloadPath = path.join(this.#dir, 'preload.js')
  open() { return new BrowserWindow({ webPreferences: { preload: this.preloadPath } }) }
}
app.whenReady().then(() => new Shell().open())`,
			"preload.js": preload,
		}, []string{"preload.js inferred"}},
		{"an ESM preload named by new URL(…, import.meta.url)", map[string]string{
			"package.json": `{"main": "src/main/index.ts"}`,
			"src/main/index.ts": `import { app, BrowserWindow } from 'electron'
import { fileURLToPath } from 'node:url'
app.whenReady().then(() => new BrowserWindow({ webPreferences: { preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)) } }))`,
			"src/preload/index.ts": preload,
		}, []string{"src/preload/index.ts observed"}},
		{"callers that disagree give alternatives", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
function createWindow(p) { return new BrowserWindow({ webPreferences: { preload: p } }) }
app.whenReady().then(() => { createWindow(path.join(__dirname, 'a.js')); createWindow(path.join(__dirname, 'b.js')) })`,
			"a.js": preload, "b.js": preload,
		}, []string{"p unknown | a.js | b.js"}},
		{"a function nobody calls keeps its parameter unknown", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { BrowserWindow } = require('electron')
module.exports = function createWindow(p) { return new BrowserWindow({ webPreferences: { preload: p } }) }`,
		}, []string{"p unknown"}},
		{"a method called on this and on an instance", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
class Windows {
  main() { return this.create({ preload: path.join(__dirname, 'preload.js') }) }
  create(opts) { return new BrowserWindow({ webPreferences: { preload: opts.preload } }) }
  open = (file) => new BrowserWindow({ webPreferences: { preload: file } })
}
const windows = new Windows()
app.whenReady().then(() => { windows.main(); windows.open(path.join(__dirname, 'preload.js')) })`,
			"preload.js": preload,
		}, []string{"preload.js inferred", "preload.js inferred"}},
		{"a class method is not what a module's export of the same name calls", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"win.js": `const { BrowserWindow } = require('electron')
class W { create(p) { return new BrowserWindow({ webPreferences: { preload: p } }) } }
exports.W = W
exports.create = (p) => p`,
			"main.js": `const path = require('path'); const win = require('./win')
win.create(path.join(__dirname, 'preload.js'))`,
			"preload.js": preload,
		}, []string{"p unknown"}},
		{"a function also handed on as a callback keeps its parameter unknown", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
function createWindow(p) { return new BrowserWindow({ webPreferences: { preload: p } }) }
createWindow(path.join(__dirname, 'preload.js'))
app.on('activate', createWindow)`,
			"preload.js": preload,
		}, []string{"p unknown"}},
		{"a method called on an object is not guessed at", map[string]string{
			"package.json": `{"main": "main.js"}`,
			"main.js": `const { app, BrowserWindow } = require('electron'); const path = require('path')
const factory = { make(p) { return new BrowserWindow({ webPreferences: { preload: p } }) } }
const other = { make(p) { return p } }
app.whenReady().then(() => other.make(path.join(__dirname, 'preload.js')))`,
			"preload.js": preload,
		}, []string{"p unknown"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, opts := range []Options{{}, {KeepAnalysed: true, FullParse: true}} {
				r, err := Analyze(context.Background(), mapFS(tc.files), opts, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := preloadsOf(r); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("%+v: preloads\n%s\nwant\n%s", opts, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			}
		})
	}
}

func TestAParameterValueNamesEveryCallSiteItCameThrough(t *testing.T) {
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "main.js"}`,
		"win.js": `const { BrowserWindow } = require('electron')
exports.createWindow = function createWindow(preloadPath) {
  return new BrowserWindow({ webPreferences: { preload: preloadPath } })
}`,
		"main.js": `const { app } = require('electron'); const path = require('path')
const { createWindow } = require('./win')
function boot(p) { createWindow(p) }
app.whenReady().then(() => boot(path.join(__dirname, 'preload.js')))`,
		"preload.js": "",
	})
	if len(r.Windows) != 1 || r.Windows[0].Preload == nil || r.Windows[0].Preload.Module != "preload.js" {
		t.Fatalf("windows %+v", r.Windows)
	}
	v := r.Windows[0].WebPreferences["preload"]
	var steps []string
	for _, s := range v.Via {
		steps = append(steps, fmt.Sprintf("%s@%d", s.Description, s.Location.Line))
	}
	want := []string{"the argument passed to `createWindow` at main.js:3@3", "the argument passed to `boot` at main.js:4@4"}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps\n%s\nwant\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"))
	}
}

func TestALoadReadFromAParameterTakesTheCallersArgument(t *testing.T) {
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "main.js"}`,
		"main.js": `const { app, BrowserWindow } = require('electron')
function open(page) { const w = new BrowserWindow({ webPreferences: { sandbox: true } }); w.loadFile(page); return w }
app.whenReady().then(() => open('index.html'))`,
		"index.html": "<!doctype html><title>x</title>",
	})
	if len(r.Windows) != 1 || len(r.Windows[0].Loads) != 1 {
		t.Fatalf("windows %+v", r.Windows)
	}
	if l := r.Windows[0].Loads[0]; l.Target != "index.html" || l.State != "known" || l.Resolved != "index.html" {
		t.Errorf("load %+v, want index.html known and resolved", l)
	}
}

func TestACallersArgumentIsNotASecondWindow(t *testing.T) {
	// child.js, the entry, is analysed first: its window's parent is read
	// from boot.js's call, whose argument is boot.js's own window.
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "child.js"}`,
		"child.js": `const { BrowserWindow } = require('electron')
exports.createChild = function createChild(parent) {
  return new BrowserWindow({ parent, webPreferences: { sandbox: true, preload: parent.preloadPath } })
}
require('./boot')`,
		"boot.js": `const { app, BrowserWindow } = require('electron')
const { createChild } = require('./child')
app.whenReady().then(() => createChild(new BrowserWindow({ webPreferences: { sandbox: true } })))`,
	})
	var at []string
	for _, w := range r.Windows {
		at = append(at, fmt.Sprintf("%s:%d", w.Location.File, w.Location.Line))
	}
	if strings.Join(at, " ") != "boot.js:3 child.js:3" {
		t.Errorf("windows at %v, want child.js:3 and boot.js:3 once each", at)
	}
}

func TestTheSearchForCallersHasABudget(t *testing.T) {
	// 300 helpers, each building a window from its parameter and called
	// once, beside 1 MiB of other text: each question searches every
	// file, so only maxCallerScan / (the text's size) are answered.
	var main strings.Builder
	main.WriteString("const { BrowserWindow } = require('electron')\n")
	const helpers = 300
	for i := range helpers {
		fmt.Fprintf(&main, "function w%d(p) { return new BrowserWindow({ webPreferences: { preload: p } }) }\nw%d('preload.js')\n", i, i)
	}
	files := map[string]string{
		"package.json": `{"main": "main.js"}`,
		"main.js":      main.String(),
		"pad.js":       "//" + strings.Repeat("x", 1<<20) + "\n",
		"preload.js":   "",
	}
	r := analyzeMap(t, files)
	size := 0
	for k, v := range files {
		if strings.HasSuffix(k, ".js") {
			size += len(v)
		}
	}
	known := 0
	for _, w := range r.Windows {
		if w.WebPreferences["preload"].State == "inferred" {
			known++
		}
	}
	if len(r.Windows) != helpers || known != maxCallerScan/size {
		t.Errorf("%d windows, %d preloads known; want %d and %d", len(r.Windows), known, helpers, maxCallerScan/size)
	}
}

func TestAMemberAssignedBelowAThisMember(t *testing.T) {
	// mattermost's MattermostWebContentsView: this.options = Object.assign({},
	// options); this.options.webPreferences = { preload, … }; then
	// new WebContentsView(this.options).
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "main.js"}`,
		"main.js": `const { app, WebContentsView } = require('electron'); const path = require('path')
class View {
  constructor(options) {
    const preload = path.join(__dirname, 'preload.js')
    this.options = Object.assign({}, options)
    this.options.webPreferences = { preload, sandbox: true }
    this.view = new WebContentsView(this.options)
  }
}
app.whenReady().then(() => new View({}))`,
		"preload.js": "",
	})
	if got := preloadsOf(r); strings.Join(got, "|") != "preload.js inferred" {
		t.Errorf("preloads %v", got)
	}
}
