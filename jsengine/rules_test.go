package jsengine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// analyzeSource analyses one main.js (plus optional extra files).
func analyzeSource(t *testing.T, src string, extra map[string]string) *Result {
	t.Helper()
	fsys := fstest.MapFS{"package.json": {Data: []byte(`{"main":"main.js"}`)}, "main.js": {Data: []byte(src)}}
	for p, s := range extra {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	r, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWindowCreationIsRecognisedWhateverTheCalleeForm(t *testing.T) {
	cases := map[string]string{
		"destructured":    "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true } });",
		"namespace":       "const electron = require('electron');\nnew electron.BrowserWindow({ webPreferences: { nodeIntegration: true } });",
		"tsc output":      "const electron_1 = require(\"electron\");\nnew electron_1.BrowserWindow({ webPreferences: { nodeIntegration: true } });",
		"minified":        "var e=require(\"electron\");\nnew e.BrowserWindow({webPreferences:{nodeIntegration:!0}});",
		"inline require":  "\nnew (require('electron').BrowserWindow)({ webPreferences: { nodeIntegration: true } });",
		"browser view":    "const { BrowserView } = require('electron/main');\nnew BrowserView({ webPreferences: { nodeIntegration: true } });",
		"assign options":  "const { BrowserWindow } = require('electron');\nnew BrowserWindow(Object.assign({}, { webPreferences: { nodeIntegration: true } }));",
		"esm via esbuild": "import { BrowserWindow as W } from 'electron';\nnew W({ webPreferences: { nodeIntegration: true } });\nexport {};",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			file := "main.js"
			r := analyzeSource(t, src, nil)
			if len(r.Windows) != 1 {
				t.Fatalf("%d windows", len(r.Windows))
			}
			v := r.Windows[0].WebPreferences["nodeIntegration"]
			if v.Value != true || v.Location == nil || v.Location.File != file || v.Location.Line != 2 {
				t.Fatalf("nodeIntegration = %+v", v)
			}
		})
	}
}

func TestConditionalOptionsKeepOnlyWhatBothBranchesAgreeOn(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const dev = process.env.DEV;
new BrowserWindow({ webPreferences: dev ? { sandbox: true, webSecurity: false } : { sandbox: true, webSecurity: true } });
`, nil)
	w := r.Windows[0]
	if w.WebPreferences["sandbox"].Value != true || w.WebPreferences["webSecurity"].State != "unknown" {
		t.Fatalf("prefs %+v", w.WebPreferences)
	}
}

func TestRulesOverSingleCalls(t *testing.T) {
	cases := []struct {
		name, src, rule string
		line, col       int
	}{
		{"security warnings", "process.env.ELECTRON_DISABLE_SECURITY_WARNINGS = 'true';", "security-warnings-disabled", 1, 1},
		{"security warnings bracket", "process.env['ELECTRON_DISABLE_SECURITY_WARNINGS'] = true;", "security-warnings-disabled", 1, 1},
		{"eval", "const s = location.hash;\neval(s);", "dangerous-function", 2, 1},
		{"new Function", "new Function('a', body);", "dangerous-function", 1, 1},
		{"certificate-error", "const { app } = require('electron');\napp.on('certificate-error', (e) => e.preventDefault());", "certificate-verification-override", 2, 1},
		{"verify proc", "const { session } = require('electron');\nsession.defaultSession.setCertificateVerifyProc((r, cb) => cb(0));", "certificate-verification-override", 2, 1},
		{"protocol", "const { protocol } = require('electron');\nprotocol.registerFileProtocol('app', (req, cb) => cb(req.url));", "protocol-handler", 2, 1},
		{"insecure switch", "const { app } = require('electron');\nconst SW = 'disable-web-security';\napp.commandLine.appendSwitch(SW);", "dangerous-command-line-switch", 3, 1},
		{"raw ipcRenderer method", "const { contextBridge, ipcRenderer } = require('electron');\ncontextBridge.exposeInMainWorld('x', { send: ipcRenderer.send });", "context-bridge-raw-ipc-renderer", 2, 1},
		{"isolated world raw", "const e = require('electron');\ne.contextBridge.exposeInIsolatedWorld(1, 'x', e.ipcRenderer);", "context-bridge-raw-ipc-renderer", 2, 1},
		{"dynamic openExternal", "const { shell } = require('electron');\nmodule.exports = (u) => shell.openExternal(u);", "open-external-dynamic", 2, 25},
		{"executeJavaScript", "function run(wc, code) { wc.webContents.executeJavaScript(code); }", "dangerous-function", 1, 26},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := analyzeSource(t, c.src, nil)
			if !hasFinding(r, wantFinding{c.rule, "main.js", c.line, c.col, "observed"}) {
				t.Fatalf("want %s at %d:%d, got:\n%s", c.rule, c.line, c.col, listFindings(r))
			}
		})
	}
}

func TestObservationsOfProcessesAddonsAndHandlers(t *testing.T) {
	r := analyzeSource(t, `const { utilityProcess, session, app } = require('electron');
const path = require('path');
const { exec } = require('child_process');
const { hash, verify } = require('./native/crypto.node');
utilityProcess.fork(path.join(__dirname, 'worker.js'));
session.defaultSession.setPermissionRequestHandler(() => {});
exec('ls -la');
`, map[string]string{"worker.js": "process.parentPort.on('message', () => {});", "native/crypto.node": "\x7fELF"})
	got := map[string]Observation{}
	for _, o := range r.Observations {
		got[o.Kind] = o
	}
	if o := got["utility-process"]; o.State != "resolved" || o.Argument != "worker.js" {
		t.Errorf("utility process %+v", o)
	}
	if o := got["native-addon"]; o.State != "resolved" || len(o.Members) != 2 || o.Members[0] != "hash" || o.Members[1] != "verify" {
		t.Errorf("native addon %+v", o)
	}
	if o := got["child-process"]; o.Argument != "ls -la" || o.Location.Line != 7 {
		t.Errorf("child process %+v", o)
	}
	if _, ok := got["permission-handler"]; !ok {
		t.Error("permission handler not observed")
	}
	s := r.Summary
	if s.UtilityProcesses != 1 || s.ResolvedUtilityEntrypoints != 1 || s.NativeAddonBindings != 1 || s.ResolvedNativeAddonBindings != 1 {
		t.Errorf("summary %+v", s)
	}
}

func TestExposedAPIsListMemberPathsAndMarkDynamicKeys(t *testing.T) {
	r := analyzeSource(t, `const { contextBridge, ipcRenderer } = require('electron');
const name = window.location.search;
contextBridge.exposeInMainWorld('api', { files: { read: (p) => ipcRenderer.invoke('fs:read', p), list() {} }, version: '1' });
contextBridge.exposeInMainWorld(name, {});
`, nil)
	if len(r.ContextBridge) != 2 {
		t.Fatalf("%+v", r.ContextBridge)
	}
	a, d := r.ContextBridge[0], r.ContextBridge[1]
	if a.Key != "api" || len(a.Members) != 3 || a.Members[0] != "files.list" || a.Members[1] != "files.read" || a.Members[2] != "version" || a.Coverage != "complete" {
		t.Errorf("api %+v", a)
	}
	if d.KeyState != "dynamic" || d.Coverage != "partial" {
		t.Errorf("dynamic key %+v", d)
	}
}

func TestReplyThroughEventSenderIsAMainTransmission(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
ipcMain.on('ping', (event) => { event.sender.send('pong'); });
`, nil)
	var found bool
	for _, op := range r.IPC {
		if op.API == "webContents.send" && op.Channel == "pong" && op.Side == "main" {
			found = true
		}
	}
	if !found {
		t.Fatalf("ipc %+v", r.IPC)
	}
}

func TestEndpointsAreRecordedWithoutCredentialsOrQuery(t *testing.T) {
	r := analyzeSource(t, `const axios = require('axios');
const API = 'https://user:pw@api.example.com:8443/v1/items?token=abc#x';
fetch(API);
axios.post('/api/save?draft=1', {});
new WebSocket('wss://push.example.com/socket');
localStorage.setItem('k', 'v');
window.indexedDB.open('db');
localStorage.getItem('k');
`, nil)
	var endpoints, storage []string
	for _, o := range r.Observations {
		switch o.Kind {
		case "endpoint":
			endpoints = append(endpoints, o.Argument)
		case "storage":
			storage = append(storage, o.Argument)
		}
	}
	want := []string{"https://api.example.com:8443/v1/items", "/api/save", "wss://push.example.com/socket"}
	if len(endpoints) != len(want) {
		t.Fatalf("endpoints %v, want %v", endpoints, want)
	}
	for i := range want {
		if endpoints[i] != want[i] {
			t.Errorf("endpoint %d = %q, want %q", i, endpoints[i], want[i])
		}
	}
	if len(storage) != 2 || storage[0] != "local-storage" || storage[1] != "indexed-db" {
		t.Errorf("storage %v", storage)
	}
}

func TestNonFiniteNumbersStayOutOfTheJSON(t *testing.T) {
	r := analyzeSource(t, "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { sandbox: NaN, zoomFactor: 1e999, webSecurity: 1e999 } });\n", nil)
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
	if r.Windows[0].WebPreferences["sandbox"].State != "unknown" {
		t.Fatalf("%+v", r.Windows[0].WebPreferences)
	}
}

func TestSenderValidationThroughAHelperCounts(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
function assertTrusted(event) {
  if (new URL(event.senderFrame.url).protocol !== 'app:') throw new Error('denied');
}
ipcMain.handle('a', (event) => { assertTrusted(event); return 1; });
ipcMain.handle('b', (event) => 2);
`, nil)
	got := map[string]bool{}
	for _, op := range r.IPC {
		got[op.Channel] = op.SenderValidation != nil && *op.SenderValidation
	}
	if !got["a"] || got["b"] {
		t.Fatalf("sender validation a=%v b=%v, want true false", got["a"], got["b"])
	}
}

func TestInlineScriptsOfPagesAreAnalysedInPlace(t *testing.T) {
	r := analyzeSource(t, "", map[string]string{
		"index.html": "<html>\n<script type=\"application/json\">{\"a\": 1}</script>\n<script>\n  const { ipcRenderer } = require('electron');\n  ipcRenderer.send('page:ready');\n</script>\n</html>\n",
	})
	var op *IPCOperation
	for i := range r.IPC {
		op = &r.IPC[i]
	}
	if op == nil || op.Module != "index.html" || op.Channel != "page:ready" || op.Location != (Location{File: "index.html", Line: 5, Column: 20}) {
		t.Fatalf("ipc %+v", r.IPC)
	}
}

func TestRemoteContentInAPrivilegedWindowIsHigh(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow, app } = require('electron');
const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, disableBlinkFeatures: 'Auxclick' } });
w.loadURL('https://app.example.com/');
app.setAsDefaultProtocolClient('myapp');
`, nil)
	for _, want := range []wantFinding{
		{"remote-content-privileged", "main.js", 3, 1, "observed"},
		{"protocol-client-registered", "main.js", 4, 1, "observed"},
	} {
		if !hasFinding(r, want) {
			t.Errorf("missing %s:\n%s", want.rule, listFindings(r))
		}
	}
	for _, f := range r.Findings {
		if f.RuleID == "auxclick-not-disabled" {
			t.Error("auxclick reported although disableBlinkFeatures names it")
		}
	}
}

func TestWorkspacePackagesResolveThroughTheirPackageMain(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
const { CHANNELS } = require('@app/shared');
ipcMain.handle(CHANNELS.save, () => 1);
`, map[string]string{
		"node_modules/@app/shared/package.json":  `{"name":"@app/shared","main":"./dist/index.js"}`,
		"node_modules/@app/shared/dist/index.js": `exports.CHANNELS = { save: 'shared:save' };`,
	})
	if len(r.IPC) != 1 || r.IPC[0].Channel != "shared:save" || r.IPC[0].ChannelState != "inferred" {
		t.Fatalf("ipc %+v", r.IPC)
	}
}

func TestOptionsCompletedByMemberAssignmentsAreSeen(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const options = { width: 800, webPreferences: { sandbox: true } };
if (process.env.DEBUG) {
  options.webPreferences.webSecurity = false;
}
options.webPreferences['sandbox'] = false;
new BrowserWindow(options);
`, nil)
	if !hasFinding(r, wantFinding{"web-security-disabled", "main.js", 4, 40, "inferred"}) || !hasFinding(r, wantFinding{"sandbox-disabled", "main.js", 6, 37, "inferred"}) {
		t.Fatalf("member assignments not applied:\n%s", listFindings(r))
	}
}

func TestOutdatedElectronPointsAtTheDependencyEntry(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte("{\n  \"keywords\": [\"electron\"],\n  \"devDependencies\": {\n    \"electron\": \"^25.7.0\"\n  }\n}\n")},
	}
	r, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !hasFinding(r, wantFinding{"electron-version-outdated", "package.json", 4, 5, "observed"}) {
		t.Fatalf("%s", listFindings(r))
	}
}

func TestExhaustedEvaluationBudgetMakesCoveragePartial(t *testing.T) {
	var src strings.Builder
	src.WriteString("const { ipcMain } = require('electron');\nconst a0 = 'x';\n")
	for i := 1; i < 400; i++ {
		fmt.Fprintf(&src, "const a%d = a%d + a%d;\n", i, i-1, i-1)
	}
	src.WriteString("ipcMain.handle(a399, () => 1);\n")
	r, err := Analyze(context.Background(), fstest.MapFS{"main.js": {Data: []byte(src.String())}}, Options{MaxASTNodes: 5000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Coverage.Status != "partial" || r.Coverage.LimitsReached[0].Limit != "evaluation_steps" || r.IPC[0].ChannelState != "dynamic" {
		t.Fatalf("coverage %+v ipc %+v", r.Coverage, r.IPC)
	}
}

func TestOnePathologicalExpressionDoesNotStarveTheRest(t *testing.T) {
	var src strings.Builder
	src.WriteString("const { ipcMain } = require('electron');\nconst a0 = 'x';\n")
	for i := 1; i < 400; i++ {
		fmt.Fprintf(&src, "const a%d = a%d + a%d;\n", i, i-1, i-1)
	}
	src.WriteString("ipcMain.handle(a399, () => 1);\nipcMain.handle('after', () => 1);\n")
	r, err := Analyze(context.Background(), fstest.MapFS{"main.js": {Data: []byte(src.String())}}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.IPC) != 2 || r.IPC[0].ChannelState != "dynamic" || r.IPC[1].Channel != "after" || r.Coverage.Status != "complete" {
		t.Fatalf("coverage %+v ipc %+v", r.Coverage, r.IPC)
	}
}

func TestSubclassedBrowserWindowsAreWindows(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
class MainWindow extends BrowserWindow {
  constructor() {
    super({ webPreferences: { contextIsolation: false } });
  }
}
new MainWindow();
`, nil)
	// The window is the `new MainWindow()`, built by the super(…) call.
	if len(r.Windows) != 1 || r.Windows[0].Location != (Location{File: "main.js", Line: 7, Column: 1}) || r.Windows[0].Class != "MainWindow" ||
		r.Windows[0].ConstructedAt == nil || *r.Windows[0].ConstructedAt != (Location{File: "main.js", Line: 4, Column: 5}) {
		t.Fatalf("windows %+v", r.Windows)
	}
	if !hasFinding(r, wantFinding{"context-isolation-disabled", "main.js", 4, 49, "observed"}) {
		t.Fatalf("%s", listFindings(r))
	}
}

func TestAWindowConstructedThroughElectronRemote(t *testing.T) {
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "main.js"}`,
		"main.js":      `require('@electron/remote/main').initialize()`,
		"renderer.ts": `import { BrowserWindow } from '@electron/remote'
export function authenticate(url: string) {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: false, webSecurity: false, sandbox: true } })
  win.loadURL(url)
}`,
	})
	if len(r.Windows) != 1 || r.Windows[0].Module != "renderer.ts" {
		t.Fatalf("windows %+v", r.Windows)
	}
	if v := r.Windows[0].WebPreferences["webSecurity"]; v.Value != false || v.State != "observed" {
		t.Errorf("webSecurity %+v", v)
	}
	if r.Windows[0].Origin != "electron-remote" {
		t.Errorf("origin %q, want electron-remote", r.Windows[0].Origin)
	}
	for _, m := range r.Modules {
		if m.Path == "renderer.ts" && contains(m.Roles, "electron-main") {
			t.Errorf("renderer.ts roles %v: a renderer constructing a window through @electron/remote is not the main process", m.Roles)
		}
	}
}
