package jsengine

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

func analyzeMap(t *testing.T, files map[string]string) *Result {
	t.Helper()
	r, err := Analyze(context.Background(), mapFS(files), Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// handlers lists the main-process IPC channels of r.
func handlers(r *Result) []string {
	var out []string
	for _, op := range r.IPC {
		if op.Side == "main" {
			out = append(out, op.Channel)
		}
	}
	return out
}

func importOf(r *Result, module, spec string) *Import {
	for _, m := range r.Modules {
		if m.Path != module {
			continue
		}
		for i := range m.Imports {
			if m.Imports[i].Specifier == spec {
				return &m.Imports[i]
			}
		}
	}
	return nil
}

const mainUsing = `import { app, BrowserWindow, ipcMain } from '%s'
app.whenReady().then(() => { new BrowserWindow({ webPreferences: { sandbox: true } }); ipcMain.handle('ping', () => 1) })
`

func TestResolvesSpecifiersAsTheAppsBuildDoes(t *testing.T) {
	cases := []struct {
		name     string
		files    map[string]string
		spec     string
		resolved string
	}{
		{"tsconfig paths through extends", map[string]string{
			"tsconfig.base.json": `{ // comment
			  "compilerOptions": { "baseUrl": ".", "paths": { "@shared/*": ["src/shared/*"], }, },
			}`,
			"tsconfig.json":          `{"extends": "./tsconfig.base.json"}`,
			"src/shared/electron.ts": `export * from 'electron'`,
		}, "@shared/electron", "src/shared/electron.ts"},
		{"tsconfig baseUrl", map[string]string{
			"jsconfig.json":       `{"compilerOptions":{"baseUrl":"src"}}`,
			"src/lib/electron.js": `module.exports = require('electron')`,
		}, "lib/electron", "src/lib/electron.js"},
		{"electron-vite alias object", map[string]string{
			"electron.vite.config.ts": `import { resolve } from 'path'
import { defineConfig } from 'electron-vite'
export default defineConfig({ main: { resolve: { alias: { '@main': resolve('src/main') } } } })`,
			"src/main/electron/index.ts": `export { app, BrowserWindow, ipcMain } from 'electron'`,
		}, "@main/electron", "src/main/electron/index.ts"},
		{"webpack alias with __dirname in a config folder", map[string]string{
			"config/webpack.main.config.js": `const path = require('path')
module.exports = { resolve: { alias: { shell$: path.resolve(__dirname, '../src/shell.js') } } }`,
			"src/shell.js": `module.exports = require('electron')`,
		}, "shell", "src/shell.js"},
		{"vite alias array", map[string]string{
			"vite.config.mjs": `import { fileURLToPath } from 'node:url'
export default { resolve: { alias: [{ find: '~e', replacement: fileURLToPath(new URL('./src/e', import.meta.url)) }] } }`,
			"src/e/index.mjs": `export * from 'electron'`,
		}, "~e", "src/e/index.mjs"},
		{"vite alias to another module specifier (zulip-desktop)", map[string]string{
			"electron.vite.config.ts": `export default { main: { resolve: { alias: { "zulip:remote": "electron/main" } } } }`,
		}, "zulip:remote", ""},
		{"vite alias to a root-relative path", map[string]string{
			"vite.config.ts": `export default { resolve: { alias: { "@": "/src" } } }`,
			"src/e.ts":       `export * from 'electron'`,
		}, "@/e", "src/e.ts"},
		{"package exports with conditions", map[string]string{
			"node_modules/@acme/shell/package.json":   `{"name":"@acme/shell","main":"wrong.js","exports":{".":{"types":"./x.d.ts","require":"./dist/index.cjs","import":"./dist/index.mjs"}}}`,
			"node_modules/@acme/shell/dist/index.cjs": `module.exports = require('electron')`,
		}, "@acme/shell", "node_modules/@acme/shell/dist/index.cjs"},
		{"yarn workspace package without node_modules", map[string]string{
			"packages/shell/package.json": `{"name":"@mono/shell","main":"src/index.ts"}`,
			"packages/shell/src/index.ts": `import * as electron from 'electron'; export const { app, BrowserWindow, ipcMain } = electron`,
		}, "@mono/shell", "packages/shell/src/index.ts"},
		{"workspace exports into an unbuilt dist, through its types condition", map[string]string{
			"packages/shell/package.json": `{"name":"@mono/shell","exports":{".":{"types":"./src/index.ts","default":"./dist/index.js"}}}`,
			"packages/shell/src/index.ts": `import * as electron from 'electron'; export const { app, BrowserWindow, ipcMain } = electron`,
		}, "@mono/shell", "packages/shell/src/index.ts"},
		{"workspace subpath export into an unbuilt dist, from src", map[string]string{
			"packages/shell/package.json":    `{"name":"@mono/shell","exports":{"./electron.mjs":{"types":"./src/electron.d.ts","default":"./dist/electron.mjs"}}}`,
			"packages/shell/src/electron.ts": `import * as electron from 'electron'; export const { app, BrowserWindow, ipcMain } = electron`,
		}, "@mono/shell/electron.mjs", "packages/shell/src/electron.ts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{
				"package.json": `{"name":"x","main":"src/main.ts","workspaces":["packages/*"]}`,
				"src/main.ts":  strings.Replace(mainUsing, "%s", c.spec, 1),
			}
			for k, v := range c.files {
				files[k] = v
			}
			r := analyzeMap(t, files)
			imp := importOf(r, "src/main.ts", c.spec)
			if c.resolved == "" { // an alias of Electron itself
				if imp == nil || imp.Resolved != "" || !imp.External {
					t.Fatalf("import %q = %+v, want Electron (external)", c.spec, imp)
				}
			} else if imp == nil || imp.Resolved != c.resolved || imp.External {
				t.Fatalf("import %q = %+v, want resolved to %s", c.spec, imp, c.resolved)
			}
			if len(r.Windows) != 1 || strings.Join(handlers(r), ",") != "ping" {
				t.Fatalf("through %s: windows %d, handlers %v; want 1 and [ping]", c.spec, len(r.Windows), handlers(r))
			}
			if r.Coverage.Status != "complete" {
				t.Fatalf("coverage %s: %v", r.Coverage.Status, r.Limitations)
			}
		})
	}
}

// Re-exports of Electron are followed to any depth.
func TestReExportedElectronIsFollowedToAnyDepth(t *testing.T) {
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main":"main.js"}`,
		"main.js":      strings.Replace(mainUsing, "%s", "./a", 1),
		"a.js":         `export * from './b'`,
		"b.ts":         `export { app, ipcMain } from './c'; export { BrowserWindow } from 'electron'`,
		"c.cjs":        `module.exports = require('./d')`,
		"d.js":         `module.exports = require('electron')`,
	})
	if len(r.Windows) != 1 || strings.Join(handlers(r), ",") != "ping" {
		t.Fatalf("windows %d, handlers %v", len(r.Windows), handlers(r))
	}
}

func TestCoverageIsPartialForEachBlindSpot(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string // a limitation containing this
	}{
		{"syntax error", map[string]string{"bad.js": "const x = {;"}, "not analysed, could not be parsed: bad.js"},
		{"missing relative import", map[string]string{}, `import "./gone" at main.js:1 resolves to nothing in the root (no gone)`},
		{"import leaving the root", map[string]string{"main.js": "require('../shared/electron')\n" + strings.Replace(mainUsing, "%s", "electron", 1)},
			`leaves the analysed root (it points to ../shared/electron); analyse the directory 1 level(s) above`},
		{"Electron re-export package absent", map[string]string{"main.js": "require('@theia/electron/shared/electron')\nrequire('@theia/electron/shared/fix-path')\n" + strings.Replace(mainUsing, "%s", "electron", 1)},
			`import "@theia/electron/shared/electron" at main.js:1 names a package that is not in the root and looks like a re-export of Electron; the windows and IPC reached through it are missed: analyse a root that includes node_modules/@theia/electron`},
		{"alias to nothing", map[string]string{"tsconfig.json": `{"compilerOptions":{"paths":{"@/*":["src/*"]}}}`,
			"main.js": "require('@/missing')\n" + strings.Replace(mainUsing, "%s", "electron", 1)}, `import "@/missing" at main.js:1 names application code`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"package.json": `{"main":"main.js"}`,
				"main.js": "require('./gone')\n" + strings.Replace(mainUsing, "%s", "electron", 1)}
			if c.name != "missing relative import" {
				files["main.js"] = strings.Replace(mainUsing, "%s", "electron", 1)
			}
			for k, v := range c.files {
				files[k] = v
			}
			r := analyzeMap(t, files)
			if r.Coverage.Status != "partial" {
				t.Fatalf("coverage %s, want partial; limitations %v", r.Coverage.Status, r.Limitations)
			}
			found := false
			for _, l := range r.Limitations {
				found = found || strings.Contains(l, c.want)
			}
			if !found {
				t.Fatalf("no limitation with %q in %v", c.want, r.Limitations)
			}
			if len(r.Windows) != 1 {
				t.Fatalf("the blind spot hid the main process's window: %d", len(r.Windows))
			}
		})
	}
	// Styles, images and data imports that are missing hide no code.
	ra := analyzeMap(t, map[string]string{"package.json": `{"main":"main.js"}`,
		"main.js": "require('./styles/app.css?inline'); require('./img/logo.svg'); require('./locales/en.json')\n" + strings.Replace(mainUsing, "%s", "electron", 1)})
	if ra.Coverage.Status != "complete" {
		t.Fatalf("asset imports: coverage %s %v", ra.Coverage.Status, ra.Limitations)
	}
	// A catch-all tsconfig pattern does not turn npm packages into app code.
	r0 := analyzeMap(t, map[string]string{"package.json": `{"main":"main.js"}`,
		"tsconfig.json": `{"compilerOptions":{"baseUrl":".","paths":{"*":["types/*"]}}}`,
		"main.js":       "require('lodash')\n" + strings.Replace(mainUsing, "%s", "electron", 1)})
	if imp := importOf(r0, "main.js", "lodash"); r0.Coverage.Status != "complete" || imp == nil || !imp.External {
		t.Fatalf("catch-all paths: coverage %s %v, lodash %+v", r0.Coverage.Status, r0.Limitations, imp)
	}
	// The baseline is complete: the partial verdicts above come from each case.
	r := analyzeMap(t, map[string]string{"package.json": `{"main":"main.js"}`, "main.js": strings.Replace(mainUsing, "%s", "electron", 1)})
	if r.Coverage.Status != "complete" {
		t.Fatalf("baseline coverage %s: %v", r.Coverage.Status, r.Limitations)
	}
}

// One invalid byte in the main file no longer hides its facts.
func TestInvalidUTF8InTheMainFileKeepsItsFacts(t *testing.T) {
	r := analyzeMap(t, map[string]string{"package.json": `{"main":"main.js"}`,
		"main.js": "// caf\xe9\n" + strings.Replace(mainUsing, "%s", "electron", 1)})
	if len(r.Windows) != 1 || r.Coverage.Status != "partial" || r.Statistics.InvalidUTF8Files != 1 {
		t.Fatalf("windows %d, coverage %s, invalid %d", len(r.Windows), r.Coverage.Status, r.Statistics.InvalidUTF8Files)
	}
	if !strings.Contains(strings.Join(r.Limitations, "\n"), "not valid UTF-8: main.js (first bad byte at offset 6)") {
		t.Fatalf("limitations %v", r.Limitations)
	}
	if r.Windows[0].Location.Line != 3 {
		t.Fatalf("window at %+v, want line 3", r.Windows[0].Location)
	}
}

func TestSyntaxRealAppsShip(t *testing.T) {
	cases := map[string]string{
		"main.mjs": `import { app, BrowserWindow, ipcMain } from 'electron'
await app.whenReady()
for await (const x of []) {}
class Store { static #one; static { Store.#one = 1 } #d = 1; static has(o) { return #d in o } }
new BrowserWindow({ webPreferences: { sandbox: true } }); ipcMain.handle('ping', () => 1)`,
		"main.tsx": `import { app, BrowserWindow, ipcMain } from 'electron'
const el = <div className="x">{String(1 as number)}</div>
app.whenReady().then(() => { new BrowserWindow({ webPreferences: { sandbox: true } }); ipcMain.handle('ping', () => 1) })`,
		"main.vue": `<template><p>{{ a }}</p></template>
<script setup lang="ts">
import { app, BrowserWindow, ipcMain } from 'electron'
const a: number = 1
new BrowserWindow({ webPreferences: { sandbox: true } }); ipcMain.handle('ping', () => 1)
</script>`,
		"main.svelte": `<script lang="ts">
import { app, BrowserWindow, ipcMain } from 'electron'
let n: number = 0
new BrowserWindow({ webPreferences: { sandbox: true } }); ipcMain.handle('ping', () => 1)
</script>
<p>{n}</p>`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			r := analyzeMap(t, map[string]string{"package.json": `{"main":"` + name + `"}`, name: src})
			if r.Statistics.ParseFailures != 0 || len(r.Windows) != 1 || strings.Join(handlers(r), ",") != "ping" {
				t.Fatalf("parse failures %d (%v), windows %d, handlers %v", r.Statistics.ParseFailures, r.Limitations, len(r.Windows), handlers(r))
			}
			if r.Windows[0].Location.Line < 4 && name != "main.tsx" {
				t.Fatalf("window reported at %+v, not at its line in %s", r.Windows[0].Location, name)
			}
		})
	}
}

func TestMatchGlobAndPnpmWorkspace(t *testing.T) {
	for _, c := range []struct {
		glob, dir string
		want      bool
	}{{"packages/*", "packages/a", true}, {"packages/*", "packages/a/b", false}, {"apps/**", "apps/x/y", true}, {"dev-packages/*", "packages/a", false}} {
		if got := matchGlob(c.glob, c.dir); got != c.want {
			t.Errorf("matchGlob(%q, %q) = %v", c.glob, c.dir, got)
		}
	}
	got := pnpmPackages("packages:\n  - 'packages/*'\n  - \"apps/*\"\n  - '!**/test/**'\nother: 1\n  - nope\n")
	if strings.Join(got, ",") != "packages/*,apps/*" {
		t.Fatalf("pnpm packages %v", got)
	}
}
