package main_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"rea/jsengine/report"
)

// Issue 18: the code shapes real Electron apps use, each in a fixture app
// under testdata/electron analysed by the built binary.

// analysedApplication runs `rea analyze APP --format json` (the command
// users type) and returns the application facts, the exit status and stderr.
func analysedApplication(t *testing.T, fixture string, args ...string) (report.Result, result) {
	t.Helper()
	r := reaWithModules(t, append([]string{"analyze", electronFixture(t, fixture), "--format", "json"}, args...)...)
	if r.code == 1 {
		t.Fatalf("rea analyze %s: exit 1: %s", fixture, r.stderr)
	}
	var rec struct {
		NormalizedResult struct {
			Application report.Result `json:"application"`
			Coverage    string        `json:"coverage"`
		} `json:"normalized_result"`
	}
	decode(t, r.stdout, &rec)
	if rec.NormalizedResult.Coverage != rec.NormalizedResult.Application.Coverage.Status {
		t.Fatalf("record coverage %q, application coverage %q", rec.NormalizedResult.Coverage, rec.NormalizedResult.Application.Coverage.Status)
	}
	return rec.NormalizedResult.Application, r
}

// channels lists side:api:channel of every IPC operation, sorted.
func channels(a report.Result) []string {
	var out []string
	for _, op := range a.IPC {
		out = append(out, op.Side+":"+op.API+":"+op.Channel)
	}
	sort.Strings(out)
	return out
}

func importIn(a report.Result, module, spec string) *report.Import {
	for _, m := range a.Modules {
		for i, imp := range m.Imports {
			if m.Path == module && imp.Specifier == spec {
				return &m.Imports[i]
			}
		}
	}
	return nil
}

func wantImports(t *testing.T, a report.Result, module string, specToFile map[string]string) {
	t.Helper()
	for spec, file := range specToFile {
		imp := importIn(a, module, spec)
		if imp == nil || imp.Resolved != file || imp.External {
			t.Errorf("import %q in %s = %+v, want app code %s", spec, module, imp, file)
		}
	}
}

// electron-vite layout: resolve.alias in electron.vite.config.ts, tsconfig
// paths reached through "extends", Electron re-exported by an aliased
// module, index-file probing, ES2022 (top-level await, static blocks,
// #private in) and <script setup lang="ts"> components.
func TestAnalyzeResolvesAnElectronViteAppsAliases(t *testing.T) {
	a, r := analysedApplication(t, "vite-aliases")
	if r.code != 0 || a.Coverage.Status != "complete" || a.Statistics.ParseFailures != 0 {
		t.Fatalf("exit %d, coverage %s, parse failures %d, limitations %v; stderr %s", r.code, a.Coverage.Status, a.Statistics.ParseFailures, a.Limitations, r.stderr)
	}
	wantImports(t, a, "src/main/index.ts", map[string]string{
		"@main/electron": "src/main/electron.ts", "@main/window": "src/main/window/index.ts", "@shared/ipc": "src/shared/ipc.ts", "./settings": "src/main/settings.ts"})
	wantImports(t, a, "src/renderer/src/App.vue", map[string]string{
		"@shared/ipc": "src/shared/ipc.ts", "@renderer/components/Greeting.vue": "src/renderer/src/components/Greeting.vue"})
	wantImports(t, a, "src/renderer/src/main.ts", map[string]string{"./App.vue": "src/renderer/src/App.vue", "@renderer/assets/main.css": "src/renderer/src/assets/main.css"})
	if len(a.Windows) != 1 {
		t.Fatalf("windows %d, want the one created through @main/electron", len(a.Windows))
	}
	w := a.Windows[0]
	if w.Location.File != "src/main/window/index.ts" || w.Location.Line != 5 || w.Preload == nil || w.Preload.Module != "src/preload/index.ts" {
		t.Errorf("window at %+v, preload %+v", w.Location, w.Preload)
	}
	if v, ok := w.WebPreferences["sandbox"]; !ok || v.Value != false {
		t.Errorf("sandbox %+v", w.WebPreferences["sandbox"])
	}
	want := []string{"main:ipcMain.handle:settings:get", "main:ipcMain.on:settings:set", "renderer:ipcRenderer.invoke:settings:get", "renderer:ipcRenderer.send:settings:set"}
	if got := channels(a); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ipc %v, want %v", got, want)
	}
}

// A monorepo: workspace packages (package.json workspaces and
// pnpm-workspace.yaml) resolved inside the root without node_modules,
// package.json exports with conditions and subpaths, and a wrapper package
// that re-exports Electron (module.exports = require('electron'),
// export { ipcMain } from 'electron', export * from …).
func TestAnalyzeFollowsWorkspacePackagesAndAnElectronWrapperPackage(t *testing.T) {
	a, r := analysedApplication(t, "monorepo")
	if r.code != 0 || a.Coverage.Status != "complete" {
		t.Fatalf("exit %d, coverage %s, limitations %v", r.code, a.Coverage.Status, a.Limitations)
	}
	wantImports(t, a, "apps/desktop/src/main.ts", map[string]string{
		"@mono/electron-shell":     "packages/electron-shell/lib/index.js",
		"@mono/electron-shell/ipc": "packages/electron-shell/lib/ipc.js",
		"@mono/core":               "packages/core/src/index.ts"})
	if len(a.Windows) != 1 {
		t.Fatalf("windows %d, want 1 through the wrapper package", len(a.Windows))
	}
	w := a.Windows[0]
	for k, want := range map[string]any{"contextIsolation": true, "nodeIntegration": false, "sandbox": true} {
		if v, ok := w.WebPreferences[k]; !ok || v.Value != want {
			t.Errorf("%s = %+v, want %v from @mono/core's secureDefaults", k, w.WebPreferences[k], want)
		}
	}
	if len(w.Loads) != 1 || w.Loads[0].Resolved != "apps/desktop/static/index.html" {
		t.Errorf("loads %+v", w.Loads)
	}
	want := []string{"main:ipcMain.handle:workspace:open-file", "main:ipcMain.handle:workspace:save-file"}
	if got := channels(a); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("ipc %v, want %v (enum members of a workspace package)", got, want)
	}
}

// A shipped bundle with a linked and an inline source map: every location
// also names the original source, and snippets quote it.
func TestAnalyzeGivesOriginalLocationsFromShippedSourceMaps(t *testing.T) {
	a, r := analysedApplication(t, "sourcemapped")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if len(a.Windows) != 1 {
		t.Fatalf("windows %d", len(a.Windows))
	}
	w := a.Windows[0]
	if w.Location.File != "dist/main.js" || w.Location.Original != (report.SourcePosition{File: "src/main.ts", Line: 9, Column: 15}) {
		t.Errorf("window at %+v, want dist/main.js beside src/main.ts:9:15", w.Location)
	}
	if sb := w.WebPreferences["sandbox"]; sb.Location == nil || sb.Location.Original.File != "src/main.ts" || sb.Location.Original.Line != 11 {
		t.Errorf("sandbox preference at %+v, want src/main.ts:11", sb.Location)
	}
	var handle, invoke *report.IPCOperation
	for i, op := range a.IPC {
		switch op.API {
		case "ipcMain.handle":
			handle = &a.IPC[i]
		case "ipcRenderer.invoke":
			invoke = &a.IPC[i]
		}
	}
	if handle == nil || handle.Channel != "doc:save" || handle.Location.Original.File != "src/main.ts" || handle.Location.Original.Line != 16 {
		t.Errorf("handler %+v, want doc:save at src/main.ts:16", handle)
	}
	if invoke == nil || invoke.Location.File != "dist/preload.js" || invoke.Location.Original.File != "src/preload.ts" || invoke.Location.Original.Line != 4 {
		t.Errorf("invoke %+v, want at src/preload.ts:4 through the inline map", invoke)
	}
	sandboxOff := false
	for _, f := range a.Findings {
		if f.Location.Original.File == "" || f.Location.File != "dist/main.js" {
			continue
		}
		if f.Location.Original == w.Location.Original {
			sandboxOff = true
			if f.Snippet != "const win = new BrowserWindow({" {
				t.Errorf("finding %s quotes %q, want the original line of src/main.ts", f.RuleID, f.Snippet)
			}
		}
	}
	if !sandboxOff {
		t.Errorf("no finding at the window's original position: %+v", a.Findings)
	}
}

// What the analysis could not cover makes it partial, each cause named;
// the facts of the rest survive; --fail-on exits 2; SARIF notes the file.
func TestAnalyzeBlindSpotsMakeCoveragePartialAndFailOnExit2(t *testing.T) {
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	a, r := analysedApplication(t, "blindspots", "--fail-on", "high", "--sarif", sarif)
	if r.code != 2 || a.Coverage.Status != "partial" || !strings.Contains(r.stderr, "coverage: partial") {
		t.Fatalf("exit %d, coverage %s; stderr %s", r.code, a.Coverage.Status, r.stderr)
	}
	for _, want := range []string{
		"not analysed, could not be parsed: menu.js: Line 3:3 Unexpected token return",
		`import "./settings-store" at main.js:5 resolves to nothing in the root (no settings-store)`,
		`import "../shared/electron-helpers" at main.js:6 leaves the analysed root (it points to ../shared/electron-helpers); analyse the directory 1 level(s) above this root`,
		"not valid UTF-8: main.js (first bad byte at offset 6)",
	} {
		if !strings.Contains(strings.Join(a.Limitations, "\n"), want) {
			t.Errorf("no limitation %q in %v", want, a.Limitations)
		}
	}
	// The invalid byte and the unparsable helper no longer hide main.js.
	if len(a.Windows) != 1 || a.Windows[0].Location.Line != 9 || strings.Join(channels(a), " ") != "main:ipcMain.handle:settings:read renderer:ipcRenderer.invoke:settings:read" {
		t.Fatalf("windows %+v, ipc %v", a.Windows, channels(a))
	}
	b, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				Notes []struct {
					Level     string `json:"level"`
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
						}
					}
				} `json:"toolExecutionNotifications"`
			}
		}
	}
	decode(t, string(b), &log)
	if len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 || len(log.Runs[0].Invocations[0].Notes) != 1 {
		t.Fatalf("SARIF invocations %+v, want one notification (menu.js)", log.Runs)
	}
	n := log.Runs[0].Invocations[0].Notes[0]
	if n.Level != "warning" || len(n.Locations) != 1 || n.Locations[0].PhysicalLocation.ArtifactLocation.URI != "menu.js" || !strings.Contains(n.Message.Text, "Unexpected token return") {
		t.Errorf("notification %+v", n)
	}
	// The same application without --fail-on still exits 2 (partial).
	if _, r := analysedApplication(t, "blindspots"); r.code != 2 {
		t.Errorf("without --fail-on: exit %d, want 2", r.code)
	}
}
