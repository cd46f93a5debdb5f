package jsengine

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// ipcList renders the IPC operations as "side role api channel state
// pairing" lines, sorted, for comparisons.
func ipcList(r *Result) []string {
	var out []string
	for _, op := range r.IPC {
		out = append(out, fmt.Sprintf("%s %s %s %s %s %s %s", op.Module, op.Side, op.Role, op.API, op.Channel, op.ChannelState, op.Pairing))
	}
	sort.Strings(out)
	return out
}

// mustHaveIPC fails the test for each wanted IPC line the result lacks,
// listing what it has.
func mustHaveIPC(t *testing.T, r *Result, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !hasIPC(r, want) {
			t.Errorf("missing %q in\n%s", want, strings.Join(ipcList(r), "\n"))
		}
	}
}

func hasIPC(r *Result, want string) bool {
	for _, l := range ipcList(r) {
		if l == want {
			return true
		}
	}
	return false
}

func TestWrapperFunctionCallSitesAreIPCOperations(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
const { send, handle } = require('./ipc');
handle('get-user', async () => 1);
handle(`+"`db:${'query'}`"+`, async () => 1);
send('tick');
`, map[string]string{"ipc.js": `const { BrowserWindow, ipcMain } = require('electron');
function handle(channel, fn) { ipcMain.handle(channel, fn); }
function send(channel, ...args) { BrowserWindow.getAllWindows()[0].webContents.send(channel, ...args); }
module.exports = { send, handle };
`})
	mustHaveIPC(t, r,
		"main.js main handler ipcMain.handle get-user inferred ",
		"main.js main handler ipcMain.handle db:query inferred ",
		"main.js main transmission webContents.send tick inferred unpaired",
	)
}

func TestClassMethodWrappersAndThisCalls(t *testing.T) {
	r := analyzeSource(t, `const { ipcRenderer } = require('electron');
class IpcService {
  send(channel, data) { return ipcRenderer.invoke(channel, data); }
  user() { return this.send('user:get'); }
}
const service = new IpcService();
service.send('settings:get');
`, nil)
	mustHaveIPC(t, r,
		"main.js renderer transmission ipcRenderer.invoke settings:get inferred unpaired",
		"main.js renderer transmission ipcRenderer.invoke user:get inferred unpaired",
	)
}

func TestBridgeFunctionsCalledFromTheRendererAreIPC(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
ipcMain.on('toMain', () => {});
ipcMain.handle('load', () => {});
`, map[string]string{
		"preload.js": `const { contextBridge, ipcRenderer } = require('electron');
const validChannels = ['toMain', 'other'];
contextBridge.exposeInMainWorld('api', {
  send: (channel, data) => { if (validChannels.includes(channel)) { ipcRenderer.send(channel, data); } },
  invoke(...args) { const [channel, ...rest] = args; return ipcRenderer.invoke(channel, ...rest); },
});
`,
		"renderer.js": `window.api.send('toMain', 1);
window.api.send('blocked', 1);
window.api.invoke('load');
`})
	mustHaveIPC(t, r,
		"renderer.js renderer transmission ipcRenderer.send toMain inferred paired",
		"renderer.js renderer transmission ipcRenderer.invoke load inferred paired",
		"preload.js renderer transmission ipcRenderer.send toMain inferred paired",
		// 'other' is allowed but no call sends it: a dynamic channel
		// whose candidate it is, not a transmission of its own.
		"preload.js renderer transmission ipcRenderer.send  dynamic dynamic",
	)
	folded := false
	for _, op := range r.IPC {
		if op.Module == "preload.js" && op.API == "ipcRenderer.send" && op.ChannelState == "dynamic" {
			folded = strings.Join(op.ChannelCandidates, ",") == "other" && len(op.ChannelVia) == 1 &&
				strings.HasPrefix(op.ChannelVia[0].Description, "allowed by ")
		}
	}
	if !folded {
		t.Errorf("the allowed, never-sent channel is not a candidate of the preload's send: %+v", r.IPC)
	}
	for _, l := range ipcList(r) {
		if strings.Contains(l, "blocked") {
			t.Errorf("a channel the allow-list refuses is reported: %s", l)
		}
	}
}

func TestChannelListsFromConstantCollections(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
const CHANNELS = ['a', 'b'];
CHANNELS.forEach((ch) => ipcMain.handle(ch, () => 1));
const MAP = { save: 'file:save', open: 'file:open' };
for (const ch of Object.values(MAP)) ipcMain.on(ch, () => {});
for (const name of ['x', 'y']) ipcMain.handle(`+"`db:${name}`"+`, () => 1);
`, nil)
	for _, ch := range []string{"ipcMain.handle a", "ipcMain.handle b", "ipcMain.on file:save", "ipcMain.on file:open", "ipcMain.handle db:x", "ipcMain.handle db:y"} {
		api, c, _ := strings.Cut(ch, " ")
		var found bool
		for _, op := range r.IPC {
			if op.API == api && op.Channel == c && op.ChannelState == "inferred" && len(op.ChannelVia) > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("missing %s in\n%s", ch, strings.Join(ipcList(r), "\n"))
		}
	}
	ids := map[string]bool{}
	for _, op := range r.IPC {
		if ids[op.ID] {
			t.Errorf("duplicate id %s", op.ID)
		}
		ids[op.ID] = true
	}
}

func TestMoreIPCForms(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain, BrowserWindow, MessageChannelMain } = require('electron');
const win = new BrowserWindow({});
ipcMain.on('ping', (event) => { event.reply('pong'); });
win.webContents.ipc.handle('scoped', () => 1);
win.webContents.ipc.on('scoped-msg', () => {});
const { port1 } = new MessageChannelMain();
win.webContents.postMessage('port', null, [port1]);
`, map[string]string{"renderer.js": `const { ipcRenderer } = require('electron');
ipcRenderer.on('pong', () => {});
ipcRenderer.invoke('scoped');
ipcRenderer.send('scoped-msg');
ipcRenderer.sendTo(1, 'peer');
`})
	mustHaveIPC(t, r,
		"main.js main transmission event.reply pong literal paired",
		"main.js main handler webContents.ipc.handle scoped literal ",
		"main.js main listener webContents.ipc.on scoped-msg literal ",
		"renderer.js renderer transmission ipcRenderer.invoke scoped literal paired",
		"renderer.js renderer transmission ipcRenderer.send scoped-msg literal paired",
		"renderer.js renderer transmission ipcRenderer.sendTo peer literal unpaired",
	)
	var mc bool
	for _, o := range r.Observations {
		mc = mc || o.Kind == "message-channel"
	}
	if !mc {
		t.Errorf("MessageChannelMain not observed: %+v", r.Observations)
	}
}

func TestIPCWrapperLibraries(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain: ipc } = require('electron-better-ipc');
ipc.answerRenderer('get-config', async () => ({}));
ipc.callRenderer(win, 'config-changed', {});
`, map[string]string{
		"renderer.js": `import { ipcRenderer } from 'electron-better-ipc';
ipcRenderer.answerMain('config-changed', () => {});
ipcRenderer.callMain('get-config');
`,
		"preload.js": `import { contextBridge } from 'electron';
import { electronAPI } from '@electron-toolkit/preload';
contextBridge.exposeInMainWorld('electron', electronAPI);
`,
		"app.js": `window.electron.ipcRenderer.invoke('get-config');
window.electron.ipcRenderer.send('toolkit-ping');
`,
		"node_modules/electron-better-ipc/package.json": `{"main":"index.js"}`,
		"node_modules/electron-better-ipc/index.js":     `module.exports = require('./source');`,
	})
	mustHaveIPC(t, r,
		"main.js main handler ipcMain.answerRenderer get-config literal ",
		"main.js main transmission ipcMain.callRenderer config-changed literal paired",
		"renderer.js renderer handler ipcRenderer.answerMain config-changed literal ",
		"renderer.js renderer transmission ipcRenderer.callMain get-config literal paired",
		"app.js renderer transmission ipcRenderer.invoke get-config inferred unpaired",
		"app.js renderer transmission ipcRenderer.send toolkit-ping inferred unpaired",
	)
	for _, a := range r.ContextBridge {
		if a.Key == "electron" && !strings.Contains(strings.Join(a.Members, ","), "ipcRenderer.invoke") {
			t.Errorf("electronAPI members %v", a.Members)
		}
	}
}

func TestReassignedVariablesAreUnknownWithTheirCandidates(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain, BrowserWindow } = require('electron');
let sandboxed = true;
ipcMain.on('unsafe', () => { sandboxed = false; });
let win = null;
win = new BrowserWindow({ webPreferences: { sandbox: sandboxed } });
win.loadURL('https://example.com');
`, nil)
	if len(r.Windows) != 1 {
		t.Fatalf("windows %+v", r.Windows)
	}
	w := r.Windows[0]
	v := w.WebPreferences["sandbox"]
	if v.State != "unknown" || len(v.Alternatives) != 2 || v.Alternatives[0].Value != true || v.Alternatives[1].Value != false {
		t.Errorf("sandbox %+v", v)
	}
	if len(w.Loads) != 1 {
		t.Errorf("the load of the reassigned window is not tied to it: %+v", w.Loads)
	}
}

func TestPreloadAlternativesListEveryBranchWithItsCondition(t *testing.T) {
	r := analyzeSource(t, `const { app, BrowserWindow } = require('electron');
const path = require('path');
const isDev = process.env.NODE_ENV === 'development';
function preloadPath(name) { return path.join(app.getAppPath(), 'dist', name + '.js'); }
new BrowserWindow({ webPreferences: { preload: isDev ? path.join(__dirname, 'dev-preload.js') : preloadPath('preload') } });
`, map[string]string{"dev-preload.js": "", "dist/preload.js": ""})
	p := r.Windows[0].Preload
	if p == nil || len(p.Alternatives) != 2 {
		t.Fatalf("preload %+v", p)
	}
	a, b := p.Alternatives[0], p.Alternatives[1]
	if a.Module != "dev-preload.js" || a.Condition != "isDev" || b.Module != "dist/preload.js" || b.Condition != "!(isDev)" {
		t.Errorf("alternatives %+v", p.Alternatives)
	}
}

func TestSubclassWindowsMergeCallAndConstructorOptions(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
class AppWindow extends BrowserWindow {
  constructor(opts) {
    super({ ...opts, webPreferences: { ...opts.webPreferences, contextIsolation: true } });
  }
}
class Settings extends AppWindow {}
new AppWindow({ width: 800, webPreferences: { nodeIntegration: true } });
new Settings({ webPreferences: { sandbox: false } });
`, nil)
	if len(r.Windows) != 2 {
		t.Fatalf("windows %+v", r.Windows)
	}
	a, b := r.Windows[0], r.Windows[1]
	if a.WebPreferences["nodeIntegration"].Value != true || a.WebPreferences["contextIsolation"].Value != true || a.Class != "AppWindow" {
		t.Errorf("AppWindow %+v", a)
	}
	if b.WebPreferences["sandbox"].Value != false || b.WebPreferences["contextIsolation"].Value != true || b.Class != "Settings" {
		t.Errorf("Settings %+v", b)
	}
}

func TestWindowOpenHandlerOverridesAreChildWindows(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const win = new BrowserWindow({});
win.webContents.setWindowOpenHandler(({ url }) => {
  if (url.startsWith('https://app')) {
    return { action: 'allow', overrideBrowserWindowOptions: { webPreferences: { nodeIntegration: true } } };
  }
  return { action: 'deny' };
});
`, nil)
	var child *Window
	for i := range r.Windows {
		if r.Windows[i].Origin == "window-open-handler" {
			child = &r.Windows[i]
		}
	}
	if len(r.Windows) != 2 || child == nil || child.WebPreferences["nodeIntegration"].Value != true {
		t.Fatalf("windows %+v", r.Windows)
	}
}

func TestWindowAssignedAPIsOfAPreloadAreBridgesToo(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
ipcMain.handle('theme:get', () => 'dark');
`, map[string]string{
		"preload.js":  "const { ipcRenderer } = require('electron');\nwindow.api = { request: (ch) => ipcRenderer.invoke(ch) };\n",
		"renderer.js": "window.api.request('theme:get');\n",
	})
	if !hasIPC(r, "renderer.js renderer transmission ipcRenderer.invoke theme:get inferred paired") {
		t.Fatalf("%s", strings.Join(ipcList(r), "\n"))
	}
}

func TestUnrelatedCallsWithStringsAreNotIPC(t *testing.T) {
	// Same method names, no IPC underneath: nothing may be reported.
	r := analyzeSource(t, `const emitter = new (require('events'))();
function send(channel, msg) { console.log(channel, msg); }
send('not-ipc', 1);
emitter.on('ready', () => {});
window.analytics.send('page-view');
class Queue { send(name) { this.items.push(name); } }
new Queue().send('job');
`, nil)
	if len(r.IPC) != 0 {
		t.Fatalf("%s", strings.Join(ipcList(r), "\n"))
	}
}

func TestLoadsOfEnvironmentDependentTargetsListEachWithItsCondition(t *testing.T) {
	r := analyzeSource(t, `const { app, BrowserWindow } = require('electron');
const path = require('path');
const win = new BrowserWindow({});
win.loadURL(app.isPackaged ? `+"`file://${path.join(__dirname, 'index.html')}`"+` : 'http://localhost:3000');
`, map[string]string{"index.html": "<html></html>"})
	l := r.Windows[0].Loads
	if len(l) != 2 || l[0].Resolved != "index.html" || l[0].Condition != "app.isPackaged" || l[1].Target != "http://localhost:3000" || l[1].Remote {
		t.Fatalf("loads %+v", l)
	}
}

func TestAliasesOfTheExposedAPIAreBridgeCalls(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
ipcMain.handle('user:get', () => 1);
ipcMain.on('log', () => {});
`, map[string]string{
		"preload.js": `const { contextBridge, ipcRenderer } = require('electron');
contextBridge.exposeInMainWorld('api', { request: (ch, ...a) => ipcRenderer.invoke(ch, ...a) });
contextBridge.exposeInMainWorld('electron', { ipcRenderer: { send: (ch) => ipcRenderer.send(ch) } });
`,
		"renderer.js": `const { api } = window;
const { ipcRenderer } = window.electron;
api.request('user:get', 1);
ipcRenderer.send('log');
window.api.request('user:get');
`,
	})
	for _, want := range []string{
		"renderer.js renderer transmission ipcRenderer.invoke user:get inferred paired",
		"renderer.js renderer transmission ipcRenderer.send log inferred paired",
	} {
		n := 0
		for _, l := range ipcList(r) {
			if l == want {
				n++
			}
		}
		if (strings.Contains(want, "user:get") && n != 2) || (strings.Contains(want, "log") && n != 1) {
			t.Errorf("%q %d times in\n%s", want, n, strings.Join(ipcList(r), "\n"))
		}
	}
}

func TestLoadsInASubclassConstructorBelongToItsWindows(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const path = require('path');
class MainWindow extends BrowserWindow {
  constructor(url) {
    super({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
    this.loadURL(url);
  }
}
new MainWindow('https://app.example.com');
`, nil)
	if len(r.Windows) != 1 || len(r.Windows[0].Loads) != 1 || r.Windows[0].Loads[0].Target != "https://app.example.com" || !r.Windows[0].Loads[0].Remote {
		t.Fatalf("windows %+v", r.Windows)
	}
	for _, o := range r.Observations {
		if o.Kind == "load" {
			t.Errorf("the constructor's load is also an unattached observation: %+v", o)
		}
	}
	if !hasFinding(r, wantFinding{"remote-content-privileged", "main.js", 6, 5, "observed"}) {
		t.Errorf("%s", listFindings(r))
	}
}

func TestAnAllowListWithoutAnalysedCallersListsEveryAllowedChannel(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
ipcMain.on('toMain', () => {});
`, map[string]string{
		"preload.js": `const { contextBridge, ipcRenderer } = require('electron');
const validChannels = ['toMain', 'other'];
contextBridge.exposeInMainWorld('api', {
  send: (channel, data) => { if (validChannels.includes(channel)) { ipcRenderer.send(channel, data); } },
});
`})
	mustHaveIPC(t, r,
		"preload.js renderer transmission ipcRenderer.send toMain inferred paired",
		"preload.js renderer transmission ipcRenderer.send other inferred unpaired",
	)
}

func TestALookupWithAnUnknownKeyInAConstantMapIsEachOfItsValues(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const EVENT_NAME = { dir: 'update-tree', file: 'update-file' };
const MIXED = { a: 'one', b: 2 };
function notify(win, type) {
  win.webContents.send(EVENT_NAME[type], {});
  win.webContents.send(MIXED[type], {});
}
module.exports = { notify };
`, nil)
	mustHaveIPC(t, r,
		"main.js main transmission webContents.send update-tree inferred unpaired",
		"main.js main transmission webContents.send update-file inferred unpaired",
		"main.js main transmission webContents.send  dynamic dynamic", // MIXED[type]: a value is not a string
	)
	if n := len(r.IPC); n != 3 {
		t.Errorf("%d operations, want 3:\n%s", n, strings.Join(ipcList(r), "\n"))
	}
}

func TestWrapperMethodsOfAWindowClassKeptOnThis(t *testing.T) {
	// A window class kept on this by another class (MainWindow.win is a
	// BaseWindow), both wrapping webContents.send, in JavaScript and in
	// TypeScript (class fields and ?. as esbuild leaves them).
	base := `class BaseWindow {
  constructor() { this.win = new BrowserWindow({}); this.ready = false }
  sendToRenderer = (channel, ...args) => { this.sendToRendererWithRetry(3, channel, ...args) }
  sendToRendererWithRetry = (maxRetries, channel, ...args) => {
    if (!this.ready) { setTimeout(() => { this.sendToRendererWithRetry(maxRetries - 1, channel, ...args) }, 1000); return }
    this.win.webContents.send(channel, ...args)
  }
  direct = (channel) => { this.win.webContents.send(channel) }
}
`
	mainWindow := `class MainWindow {
  init = () => { this.win = new BaseWindow() }
  sendToRenderer = (channel, ...args) => { this.win?.sendToRenderer(channel, ...args) }
  sendDirect = (channel) => { this.win?.direct(channel) }
  added = () => { this.sendToRenderer('self') }
}
`
	main := `MainWindow.init();
MainWindow.sendToRenderer('two-hops');
MainWindow.sendDirect('one-hop');
`
	for _, ext := range []string{"js", "ts"} {
		t.Run(ext, func(t *testing.T) {
			files := map[string]string{
				"package.json":      `{"main": "main.` + ext + `"}`,
				"baseWindow." + ext: "import { BrowserWindow } from 'electron'\nexport " + base,
				"mainWindow." + ext: "import { BaseWindow } from './baseWindow'\n" + mainWindow + "export default new MainWindow()\n",
				"main." + ext:       "import MainWindow from './mainWindow'\n" + main,
			}
			if ext == "ts" {
				files["baseWindow.ts"] = strings.Replace(files["baseWindow.ts"], "class BaseWindow {", "class BaseWindow {\n  private win?: BrowserWindow; private ready = false;", 1)
			}
			r := analyzeMap(t, files)
			mustHaveIPC(t, r,
				"main."+ext+" main transmission webContents.send two-hops inferred unpaired",
				"main."+ext+" main transmission webContents.send one-hop inferred unpaired",
				"mainWindow."+ext+" main transmission webContents.send self inferred unpaired",
			)
		})
	}
}

func TestAThisMemberThatReadsItselfIsNotADescentToTheBound(t *testing.T) {
	r := analyzeSource(t, `const { ipcMain } = require('electron');
class Upgrade {
  constructor() { this.destroy = this.destroy.bind(this); ipcMain.on('stop', this.destroy) }
  destroy() { this.destroy() }
}
new Upgrade();
`, nil)
	for _, l := range r.Limitations {
		if strings.Contains(l, "bound") {
			t.Errorf("limitation %q", l)
		}
	}
	mustHaveIPC(t, r, "main.js main listener ipcMain.on stop literal ")
}

func TestWindowRequireIsRequire(t *testing.T) {
	r := analyzeSource(t, `const { ipcRenderer } = window.require('electron');
ipcRenderer.send('ready');
globalThis.require('electron').ipcRenderer.on('go', () => {});
`, nil)
	mustHaveIPC(t, r,
		"main.js renderer transmission ipcRenderer.send ready literal unpaired",
		"main.js renderer listener ipcRenderer.on go literal ",
	)
}

func TestChannelsThroughMapSpreadAndUseMemo(t *testing.T) {
	// lossless-cut's shape: handlers in a useMemo object, turned into
	// entries, spread beside literal pairs, mapped twice, then registered.
	r := analyzeSource(t, `const { ipcRenderer } = window.require('electron');
const { useMemo } = require('react');
const mainActions = useMemo(() => ({ play: () => 1, pause: () => 2 }), []);
const all = [['openFiles', () => 0], ...Object.entries(mainActions).map(([key, fn]) => [key, async () => { fn() }])];
const withCatch = all.map(([key, fn]) => [key, (...args) => fn(...args)]);
withCatch.forEach(([key, action]) => ipcRenderer.on(key, action));
`, nil)
	mustHaveIPC(t, r,
		"main.js renderer listener ipcRenderer.on openFiles inferred ",
		"main.js renderer listener ipcRenderer.on play inferred ",
		"main.js renderer listener ipcRenderer.on pause inferred ",
	)
	if n := len(r.IPC); n != 3 {
		t.Errorf("%d operations, want 3:\n%s", n, strings.Join(ipcList(r), "\n"))
	}
}

func TestAnArrayLongerThanTheEvaluatorKeepsIsNotKnownWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("const { ipcMain } = require('electron');\nconst L = [")
	for i := range maxObjectKeys + 1 {
		fmt.Fprintf(&b, "'c%d',", i)
	}
	b.WriteString("];\nL.forEach((ch) => ipcMain.handle(ch, () => 1));\n")
	r := analyzeSource(t, b.String(), nil)
	if len(r.IPC) != 1 || r.IPC[0].ChannelState != "dynamic" {
		t.Errorf("%d operations (first %+v), want one dynamic: 512 of 513 channels must not look like all of them", len(r.IPC), r.IPC[0])
	}
}

func TestAWrapperLoopingOverWindowsNamedWindow(t *testing.T) {
	// Zettlr's broadcastIPCMessage: a loop variable named window is that
	// variable inside the wrapper's summary, not the page's global.
	r := analyzeMap(t, map[string]string{
		"package.json": `{"main": "main.ts"}`,
		"broadcast.ts": `import { BrowserWindow } from 'electron'
export default function broadcastIPCMessage (channel: string, ...args: any[]): void {
  const allWindows = BrowserWindow.getAllWindows()
  for (const window of allWindows) {
    window.webContents.send(channel, ...args)
  }
}`,
		"main.ts": "import broadcastIpcMessage from './broadcast'\nbroadcastIpcMessage('config-provider', { command: 'update' })\n",
	})
	mustHaveIPC(t, r, "main.ts main transmission webContents.send config-provider inferred unpaired")
}

func TestGettersAreMembers(t *testing.T) {
	// mattermost: MainWindow.window?.sendToRenderer(…) through a getter,
	// and this.webContents?.send(…) through a private getter that returns
	// undefined once destroyed.
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
class Base {
  constructor() { this.win = new BrowserWindow({}) }
  sendToRenderer(channel) { this.win.webContents.send(channel) }
}
class Main {
  init() { this._win = new Base() }
  get window() { return this._win }
}
class View {
  constructor(win) { this.view = win }
  get webContents() { if (this.destroyed) { return undefined } return this.view.webContents }
  update() { this.webContents?.send('history-updated') }
}
const main = new Main();
main.window?.sendToRenderer('tab-added');
`, nil)
	mustHaveIPC(t, r,
		"main.js main transmission webContents.send tab-added inferred unpaired",
		"main.js main transmission webContents.send history-updated literal unpaired",
	)
}

func TestAWrapperMethodReachedThroughAnOptionalMemberOfAnImport(t *testing.T) {
	r := analyzeSource(t, `const MainWindow = require('./mainWindow');
MainWindow.window?.sendToRenderer('tab-order-updated');
`, map[string]string{"base.js": `const { BrowserWindow } = require('electron');
class Base {
  constructor() { this.win = new BrowserWindow({}) }
  sendToRenderer(channel) { this.win.webContents.send(channel) }
}
module.exports = { Base };
`, "mainWindow.js": `const { Base } = require('./base');
class Main {
  init() { this.win = new Base() }
  get window() { return this.win }
}
module.exports = new Main();
`})
	mustHaveIPC(t, r, "main.js main transmission webContents.send tab-order-updated inferred unpaired")
}

func TestAKeyAnUnknownSpreadMayReplaceIsNotKnown(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow, shell } = require('electron');
function open(input) {
  const c = Object.assign({}, { link: 'https://safe.example/' }, input);
  shell.openExternal(c.link);
  const d = { ...input, link: 'https://fixed.example/' };
  shell.openExternal(d.link);
  return new BrowserWindow({ webPreferences: { contextIsolation: true, ...input } });
}
module.exports = { open };
`, nil)
	var got []string
	for _, o := range r.Observations {
		if o.Kind == "open-external" {
			got = append(got, o.Argument+" "+o.State)
		}
	}
	if strings.Join(got, "|") != "c.link dynamic|https://fixed.example/ known" {
		t.Errorf("openExternal arguments %q: a key written before an unknown source must not read as known, one written after it must", got)
	}
	// A window's options read as written; its coverage says partial and
	// names the spread.
	if len(r.Windows) != 1 {
		t.Fatalf("windows %+v", r.Windows)
	}
	w := r.Windows[0]
	if v := w.WebPreferences["contextIsolation"]; v.Value != true || w.Coverage != "partial" || len(w.Unknowns) == 0 {
		t.Errorf("window %+v / %+v", v, w)
	}
}

func TestRepliesOfANamedListenerDefinedBeforeItsRegistration(t *testing.T) {
	// drawio: function exportDiagram(event, …) { … event.reply(…) }, an
	// event handed on to exportVsdx(event, …), and only then
	// ipcMain.on('export', exportDiagram).
	r := analyzeSource(t, `const { ipcMain } = require('electron');
function exportVsdx(event, args) { event.reply('export-vsdx-finished', args) }
function exportDiagram(event, args) {
  if (args.format === 'vsdx') { exportVsdx(event, args); return }
  event.reply('export-success', args)
}
function notAListener(event) { event.reply('not-ipc') }
ipcMain.on('export', exportDiagram);
`, nil)
	mustHaveIPC(t, r,
		"main.js main transmission event.reply export-success literal unpaired",
		"main.js main transmission event.reply export-vsdx-finished literal unpaired",
	)
	if hasIPC(r, "main.js main transmission event.reply not-ipc literal unpaired") {
		t.Errorf("a function never registered as a listener is not one:\n%s", strings.Join(ipcList(r), "\n"))
	}
}

func TestRepliesOfAListenerRegisteredThroughAWrapper(t *testing.T) {
	// insomnia: ipcMainOn('grpc.start', start), a typed wrapper over
	// ipcMain.on, with start's event.reply calls further down the file.
	r := analyzeSource(t, `const { ipcMain } = require('electron');
const ipcMainOn = (channel, listener) => ipcMain.on(channel, listener);
function register() { ipcMainOn('grpc.start', start) }
const start = (event, { request }) => { event.reply('grpc.status', request) };
register();
`, nil)
	mustHaveIPC(t, r,
		"main.js main listener ipcMain.on grpc.start inferred ",
		"main.js main transmission event.reply grpc.status literal unpaired",
	)
}

func TestWindowsFromTheElectronRegistry(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
for (const window of BrowserWindow.getAllWindows()) { window.send('show-notification', {}) }
BrowserWindow.getAllWindows().forEach((w) => w.webContents.send('each'));
BrowserWindow.getFocusedWindow()?.send('focused');
`, nil)
	mustHaveIPC(t, r,
		"main.js main transmission BrowserWindow.send show-notification literal unpaired",
		"main.js main transmission webContents.send each literal unpaired",
		"main.js main transmission BrowserWindow.send focused literal unpaired",
	)
}
