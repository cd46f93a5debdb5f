package jsengine

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

// analyzeApp analyses files (a package.json is added when absent).
func analyzeApp(t *testing.T, files map[string]string) *Result {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	if _, ok := fsys["package.json"]; !ok {
		fsys["package.json"] = &fstest.MapFile{Data: []byte(`{"main":"main.js"}`)}
	}
	r, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// count counts the unsuppressed findings of rule.
func count(r *Result, rule string) int {
	n := 0
	for _, f := range r.Findings {
		if f.RuleID == rule && f.Suppressed == nil {
			n++
		}
	}
	return n
}

func pkg(electron string) string {
	if electron == "" {
		return `{"main":"main.js"}`
	}
	return `{"main":"main.js","devDependencies":{"electron":"` + electron + `"}}`
}

const req = "const { BrowserWindow, app, shell, session, ipcMain, ipcRenderer } = require('electron');\n"

// Each case says how many findings of rule a main.js gives, with the
// Electron version the package declares; the zero cases are the fixtures
// that must not fire.
func TestSecurityRules(t *testing.T) {
	cases := []struct {
		name, electron, src, rule string
		want                      int
	}{
		// Version-aware defaults.
		{"contextIsolation missing, version unknown", "", "new BrowserWindow({});", "context-isolation-disabled", 1},
		{"contextIsolation missing, Electron 11", "^11.0.0", "new BrowserWindow({});", "context-isolation-disabled", 1},
		{"contextIsolation missing, Electron 12", "^12.0.0", "new BrowserWindow({});", "context-isolation-disabled", 0},
		{"sandbox missing, Electron 19", "19.1.0", "new BrowserWindow({});", "sandbox-disabled", 1},
		{"sandbox missing, Electron 20", "20.0.0", "new BrowserWindow({});", "sandbox-disabled", 0},
		{"nodeIntegration missing, Electron 4", "4.2.0", "new BrowserWindow({});", "node-integration-enabled", 1},
		{"nodeIntegration missing, Electron 5", "5.0.0", "new BrowserWindow({});", "node-integration-enabled", 0},
		{"enableRemoteModule missing, Electron 9", "9.0.0", "new BrowserWindow({});", "remote-module-enabled", 1},
		{"enableRemoteModule missing, Electron 10", "10.0.0", "new BrowserWindow({});", "remote-module-enabled", 0},
		{"webSecurity missing is never insecure", "", "new BrowserWindow({});", "web-security-disabled", 0},
		{"undefined options take the defaults", "", "let o;\nnew BrowserWindow(o);", "context-isolation-disabled", 1},
		// Non-boolean and unresolved values.
		{"nodeIntegration 1, old Electron: ignored, default on", "4.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: 0 } });", "node-integration-enabled", 1},
		{"nodeIntegrationInWorker 1, old Electron: ignored, default off", "4.0.0", "new BrowserWindow({ webPreferences: { nodeIntegrationInWorker: 1 } });", "node-integration-in-worker-enabled", 0},
		{"nodeIntegrationInWorker 1, new Electron: truthy", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegrationInWorker: 1 } });", "node-integration-in-worker-enabled", 1},
		{"nodeIntegration 'yes', new Electron: truthy", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: 'yes' } });", "node-integration-enabled", 1},
		{"nodeIntegration !0", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: !0 } });", "node-integration-enabled", 1},
		{"nodeIntegration !1", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: !1 } });", "node-integration-enabled", 0},
		{"contextIsolation unresolved", "28.0.0", "new BrowserWindow({ webPreferences: { contextIsolation: process.env.X } });", "context-isolation-disabled", 1},
		// Legacy option names.
		{"legacy blinkFeatures", "28.0.0", "new BrowserWindow({ webPreferences: { blinkFeatures: 'CSSVariables' } });", "blink-features-enabled", 1},
		{"legacy experimentalCanvasFeatures", "28.0.0", "new BrowserWindow({ webPreferences: { experimentalCanvasFeatures: true } });", "experimental-features-enabled", 1},
		// False positives that must not fire.
		{"nodeIntegration moot under sandbox", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: true, sandbox: true } });", "node-integration-enabled", 0},
		{"… and says so", "28.0.0", "new BrowserWindow({ webPreferences: { nodeIntegration: true, sandbox: true } });", "node-integration-sandboxed", 1},
		{"NOT_AUXCLICK is not Auxclick", "28.0.0", "new BrowserWindow({ webPreferences: { disableBlinkFeatures: 'NOT_AUXCLICK' } });", "auxclick-not-disabled", 1},
		{"Auxclick disabled in a list", "28.0.0", "new BrowserWindow({ webPreferences: { disableBlinkFeatures: 'Foo, Auxclick' } });", "auxclick-not-disabled", 0},
		{"security warnings false", "", "process.env.ELECTRON_DISABLE_SECURITY_WARNINGS = false;", "security-warnings-disabled", 0},
		{"security warnings 0", "", "window.ELECTRON_DISABLE_SECURITY_WARNINGS = 0;", "security-warnings-disabled", 0},
		{"security warnings true", "", "process.env['ELECTRON_DISABLE_SECURITY_WARNINGS'] = 'true';", "security-warnings-disabled", 1},
		{"ipc channel from an allow-list", "", "const ALLOWED = ['a', 'b'];\nmodule.exports = (ch, f) => { if (!ALLOWED.includes(ch)) return; ipcRenderer.on(ch, f); };", "ipc-dynamic-channel", 0},
		{"ipc channels from a constant list", "", "for (const ch of ['a', 'b']) ipcMain.handle(ch, () => 1);", "ipc-dynamic-channel", 0},
		{"ipc channels from forEach over a list", "", "['a', 'b'].forEach((ch) => ipcMain.handle(ch, () => 1));", "ipc-dynamic-channel", 0},
		{"ipc channel unguarded", "", "module.exports = (ch, f) => ipcRenderer.on(ch, f);", "ipc-dynamic-channel", 1},
		{"string timer with a function", "", "function f(cb) { setTimeout(cb, 10); setTimeout(() => 1, 10); }", "dangerous-function", 0},
		{"string timer with a concatenation", "", "function f(a) { setTimeout('run(' + a + ')', 10); }", "dangerous-function", 1},
		{"string timer through a variable", "", "function f(a) { var s = `log(${a})`; window.setImmediate(s); }", "dangerous-function", 1},
		{"a method named setTimeout", "", "function f(a, b) { a.setTimeout('x' + b); }", "dangerous-function", 0},
		// New checks.
		{"preload review note", "28.0.0", "new BrowserWindow({ webPreferences: { preload: 'p.js' } });", "preload-script", 1},
		{"will-attach-webview enables node", "", "app.on('web-contents-created', (e, c) => c.on('will-attach-webview', (ev, prefs) => { prefs.nodeIntegration = true; }));", "webview-attach-node-integration", 1},
		{"will-attach-webview disables node", "", "app.on('web-contents-created', (e, c) => c.on('will-attach-webview', (ev, prefs) => { prefs.nodeIntegration = false; }));", "webview-attach-node-integration", 0},
		{"affinity shared", "28.0.0", "new BrowserWindow({ webPreferences: { affinity: 'x' } });\nnew BrowserWindow({ webPreferences: { affinity: 'x' } });", "affinity-shared", 1},
		{"affinity not shared", "28.0.0", "new BrowserWindow({ webPreferences: { affinity: 'x' } });\nnew BrowserWindow({ webPreferences: { affinity: 'y' } });", "affinity-shared", 0},
		{"CSP response header", "", "session.defaultSession.webRequest.onHeadersReceived((d, cb) => cb({ responseHeaders: { ...d.responseHeaders, 'Content-Security-Policy': [\"default-src 'none'\"] } }));", "csp-defined", 1},
		{"weak CSP response header", "", "session.defaultSession.webRequest.onHeadersReceived((d, cb) => { d.responseHeaders['content-security-policy'] = '*'; cb(d); });", "csp-weak", 1},
		{"importCertificate", "", "app.importCertificate({}, () => {});", "certificate-imported", 1},
		{"verify proc through webContents.session", "", "const w = new BrowserWindow();\nw.webContents.session.setCertificateVerifyProc((r, cb) => cb(0));", "certificate-verification-override", 1},
		{"switch with a value", "", "app.commandLine.appendSwitch('remote-debugging-port', '9222');", "dangerous-command-line-switch", 1},
		{"inspect-brk by substring", "", "app.commandLine.appendSwitch('inspect-brk');", "dangerous-command-line-switch", 1},
		{"harmless switch", "", "app.commandLine.appendSwitch('disable-http-cache');", "dangerous-command-line-switch", 0},
		{"loadURL template over http", "", "const w = new BrowserWindow();\nw.loadURL(`http://${host}/`);", "insecure-remote-content", 1},
		{"openExternal file:", "", "shell.openExternal('file:///Applications/Calculator.app');", "open-external-local", 1},
		{"openExternal https constant", "", "shell.openExternal('https://example.com');", "open-external-local", 0},
		{"navigation review notes", "", "const w = new BrowserWindow();\nw.webContents.on('will-navigate', (e) => e.preventDefault());\nw.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));", "navigation-handler", 2},
		{"navigation limited both ways", "", "const w = new BrowserWindow();\nw.webContents.on('will-navigate', (e) => e.preventDefault());\nw.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));", "navigation-unrestricted", 0},
		{"navigation only new windows limited", "", "const w = new BrowserWindow();\nw.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));", "navigation-unrestricted", 1},
		{"no Electron, no app-wide rules", "", "console.log(1);", "navigation-unrestricted", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := req + c.src
			if strings.HasPrefix(c.name, "no Electron") {
				src = c.src
			}
			r := analyzeApp(t, map[string]string{"package.json": pkg(c.electron), "main.js": src})
			if got := count(r, c.rule); got != c.want {
				t.Fatalf("%d %s findings, want %d:\n%s", got, c.rule, c.want, listFindings(r))
			}
		})
	}
}

func TestUnknownElectronVersionIsStatedAsAnAssumption(t *testing.T) {
	r := analyzeApp(t, map[string]string{"main.js": req + "new BrowserWindow({});"})
	var msg string
	for _, f := range r.Findings {
		if f.RuleID == "context-isolation-disabled" {
			msg = f.Message
			if f.Confidence != "inferred" {
				t.Errorf("a default-based finding is %s, want inferred", f.Confidence)
			}
		}
	}
	if !strings.Contains(msg, "no Electron version declared") || !strings.Contains(msg, "assumes") {
		t.Fatalf("message does not state the assumption: %q", msg)
	}
	found := false
	for _, l := range r.Limitations {
		found = found || strings.Contains(l, "no Electron version is declared")
	}
	if !found {
		t.Fatalf("limitations do not state the assumption: %v", r.Limitations)
	}
}

func TestElectronVersionComesFromTheOldestDeclaration(t *testing.T) {
	cases := map[string]map[string]string{
		"package-lock v3": {"package-lock.json": `{"packages":{"":{},"node_modules/electron":{"version":"11.5.0"}}}`},
		"package-lock v1": {"package-lock.json": `{"dependencies":{"electron":{"version":"11.5.0"}}}`},
		"yarn.lock":       {"yarn.lock": "# yarn lockfile v1\n\nelectron@^11.0.0:\n  version \"11.5.0\"\n  resolved \"x\"\n"},
		"installed":       {"node_modules/electron/package.json": `{"name":"electron","version":"11.5.0"}`},
		"older lock wins": {"package.json": pkg("^28.0.0"), "package-lock.json": `{"dependencies":{"electron":{"version":"11.5.0"}}}`},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			files["main.js"] = req + "new BrowserWindow({});"
			r := analyzeApp(t, files)
			if count(r, "context-isolation-disabled") != 1 {
				t.Fatalf("Electron 11's default not applied:\n%s", listFindings(r))
			}
			for _, f := range r.Findings {
				if f.RuleID == "context-isolation-disabled" && !strings.Contains(f.Message, "Electron 11.5.0") {
					t.Fatalf("message does not name the version: %q", f.Message)
				}
			}
		})
	}
}

func TestSuppressionComments(t *testing.T) {
	src := req + `new BrowserWindow({ webPreferences: {
  webSecurity: false, // rea-disable web-security-disabled -- test pages only
  allowRunningInsecureContent: true, /* eng-disable INSECURE_CONTENT_JS_CHECK */
  // rea-disable experimental-features-enabled,blink-features-enabled -- needed for the canvas demo
  experimentalFeatures: true,
  enableBlinkFeatures: 'X', // rea-disable sandbox-disabled -- names another rule
} });`
	r := analyzeApp(t, map[string]string{"package.json": pkg("28.0.0"), "main.js": src})
	want := map[string]struct {
		kind, reason string
	}{
		"web-security-disabled":         {"rea-disable", "test pages only"},
		"insecure-content-allowed":      {"eng-disable", "Electronegativity INSECURE_CONTENT_JS_CHECK disabled in the source"},
		"experimental-features-enabled": {"rea-disable", "needed for the canvas demo"},
	}
	for _, f := range r.Findings {
		w, suppressed := want[f.RuleID]
		switch {
		case suppressed && f.Suppressed == nil:
			t.Errorf("%s not suppressed", f.RuleID)
		case suppressed && (f.Suppressed.Kind != w.kind || f.Suppressed.Reason != w.reason || f.Suppressed.Location.File != "main.js"):
			t.Errorf("%s suppression %+v, want %s %q", f.RuleID, *f.Suppressed, w.kind, w.reason)
		case !suppressed && f.Suppressed != nil:
			t.Errorf("%s suppressed by %+v", f.RuleID, *f.Suppressed)
		}
		delete(want, f.RuleID)
	}
	if len(want) > 0 {
		t.Fatalf("findings missing from the result: %v\n%s", want, listFindings(r))
	}
	if count(r, "blink-features-enabled") != 1 {
		t.Fatalf("a comment naming another rule suppressed blink-features-enabled:\n%s", listFindings(r))
	}
	if got := r.Summary.FindingsBySeverity["high"]; got != 0 {
		t.Fatalf("suppressed high findings are counted: %d", got)
	}
}

func TestFindingsCarryTheirEquivalents(t *testing.T) {
	r := analyzeApp(t, map[string]string{"package.json": pkg("28.0.0"), "main.js": req + "new BrowserWindow({ webPreferences: { webSecurity: false } });",
		"index.html": `<webview src="https://x" disablewebsecurity></webview>`})
	got := map[string]string{}
	for _, f := range r.Findings {
		if f.RuleID != "web-security-disabled" {
			continue
		}
		var ids []string
		for _, e := range f.Equivalents {
			ids = append(ids, e.Kind+":"+e.ID)
		}
		got[f.Location.File] = strings.Join(ids, " ")
	}
	if got["main.js"] != "electronegativity:WEB_SECURITY_JS_CHECK electron-checklist:6" ||
		got["index.html"] != "electronegativity:WEB_SECURITY_HTML_CHECK electron-checklist:6" {
		t.Fatalf("equivalents %v", got)
	}
}

func TestEventSenderInARendererIsARendererSend(t *testing.T) {
	r := analyzeApp(t, map[string]string{"package.json": pkg("28.0.0"),
		"main.js":    req + "const w = new BrowserWindow({ webPreferences: { preload: require('path').join(__dirname, 'preload.js') } });",
		"preload.js": "const { ipcRenderer } = require('electron');\nipcRenderer.on('ping', (event) => { event.sender.send('pong'); });"})
	for _, op := range r.IPC {
		if op.Channel == "pong" && (op.API != "ipcRenderer.send" || op.Side != "renderer") {
			t.Fatalf("event.sender.send in the preload recorded as %s on the %s side", op.API, op.Side)
		}
	}
}

func TestWebviewAttributes(t *testing.T) {
	html := `<webview src="http://example.com" nodeintegration></webview>
<webview src="https://example.com" webpreferences="webSecurity=no, experimentalFeatures, allowRunningInsecureContent=1" enableblinkfeatures="X" disableblinkfeatures="Auxclick"></webview>
<webview src="https://example.com" webpreferences="webSecurity=   no" disableblinkfeatures="Auxclick"></webview>`
	r := analyzeApp(t, map[string]string{"package.json": pkg("28.0.0"), "main.js": req, "index.html": html})
	for rule, want := range map[string]int{"insecure-remote-content": 1, "node-integration-enabled": 1, "remote-content-privileged": 1,
		"web-security-disabled": 1, "experimental-features-enabled": 1, "insecure-content-allowed": 1, "blink-features-enabled": 1, "auxclick-not-disabled": 1} {
		if got := count(r, rule); got != want {
			t.Errorf("%s: %d, want %d", rule, got, want)
		}
	}
	if t.Failed() {
		t.Log(listFindings(r))
	}
}

func TestPackageJSONScriptsAndVersion(t *testing.T) {
	r := analyzeApp(t, map[string]string{"main.js": req, "package.json": `{"main":"main.js",
  "dependencies": {"electron": "4.0.4"},
  "scripts": {"start": "electron . --remote-debugging-port=9222", "dev": "ELECTRON_DISABLE_SECURITY_WARNINGS=true electron .", "ok": "ELECTRON_DISABLE_SECURITY_WARNINGS=false electron ."},
  "config": {"launch": "--ignore-certificate-errors"}}`})
	for rule, want := range map[string]int{"dangerous-command-line-switch": 2, "security-warnings-disabled": 1, "electron-version": 1, "electron-version-outdated": 1} {
		if got := count(r, rule); got != want {
			t.Errorf("%s: %d, want %d", rule, got, want)
		}
	}
	for _, f := range r.Findings {
		if f.RuleID == "dangerous-command-line-switch" && f.Location.File != "package.json" {
			t.Errorf("%s at %+v", f.RuleID, f.Location)
		}
	}
	if t.Failed() {
		t.Log(listFindings(r))
	}
}
