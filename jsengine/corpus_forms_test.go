package jsengine

import (
	"strings"
	"testing"
)

// Code shapes found on the session-8 accuracy apps (simplenote-electron,
// hyper, electerm), each reduced to a small fixture.

// Renderer code that re-publishes the bridge under another global
// (electerm: const { ipcOnEvent } = window.api; window.pre = { ipcOnEvent })
// and calls it as window.pre.ipcOnEvent('x') or destructured.
func TestBridgeFunctionsRepublishedUnderAnotherGlobal(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const win = new BrowserWindow({ webPreferences: { preload: __dirname + '/preload.js' } });
win.webContents.send('focused');
win.webContents.send('zoomin');
win.webContents.send('whole');
win.webContents.send('deep');
`, map[string]string{
		"preload.js": `const { contextBridge, ipcRenderer } = require('electron');
contextBridge.exposeInMainWorld('api', {
  ipcOnEvent: (event, cb) => { ipcRenderer.on(event, cb) },
  nested: { listen: (ch, cb) => ipcRenderer.on(ch, cb) },
});
`,
		"pre.js": `const { ipcOnEvent } = window.api;
window.pre = { ipcOnEvent, other: () => 1 };
window.all = window.api;
window.deeper = window.pre;
`,
		"a.js": "window.pre.ipcOnEvent('focused', () => {});\n",
		"b.js": "const { ipcOnEvent } = window.pre;\nipcOnEvent('zoomin', () => {});\n",
		"c.js": "window.all.nested.listen('whole', () => {});\nwindow.deeper.ipcOnEvent('deep', () => {});\nwindow.pre.other('not-a-channel');\n",
	})
	mustHaveIPC(t, r,
		"a.js renderer listener ipcRenderer.on focused inferred ",
		"b.js renderer listener ipcRenderer.on zoomin inferred ",
		"c.js renderer listener ipcRenderer.on whole inferred ",
		"c.js renderer listener ipcRenderer.on deep inferred ",
		"main.js main transmission webContents.send focused literal paired",
		"main.js main transmission webContents.send zoomin literal paired",
	)
	for _, l := range ipcList(r) {
		if strings.Contains(l, "not-a-channel") {
			t.Errorf("a non-IPC member of the alias object is IPC: %s", l)
		}
	}
	for _, op := range r.IPC {
		if op.Module == "a.js" && op.Channel == "focused" {
			if len(op.ChannelVia) == 0 || !strings.Contains(op.ChannelVia[len(op.ChannelVia)-1].Description, "window.pre.ipcOnEvent is window.api.ipcOnEvent") {
				t.Errorf("the alias is not named in the chain: %+v", op.ChannelVia)
			}
		}
	}
}

// A class whose webContents is reached through a getter (hyper's RPC
// server: get wc() { return this.win.webContents }; this.wc.send('init')),
// or through a field assigned once (this.contents = win.webContents).
func TestSendsThroughAClassGetterOrFieldAreWebContentsSends(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
class Server {
  constructor(win) {
    this.win = win;
    this.contents = win.webContents;
    this.logger = { send() {} };
  }
  get wc() { return this.win.webContents; }
  get log() { return this.logger; }
  ready() { this.wc.send('init', 1); }
  poke() { this.contents.send('poke'); }
  note() { this.log.send('not-ipc'); }
}
class Sub extends Server { again() { this.wc.send('again'); } }
module.exports = { Server, Sub };
`, nil)
	mustHaveIPC(t, r,
		"main.js main transmission webContents.send init literal unpaired",
		"main.js main transmission webContents.send poke literal unpaired",
		"main.js main transmission webContents.send again literal unpaired",
	)
	for _, l := range ipcList(r) {
		if strings.Contains(l, "not-ipc") {
			t.Errorf("a getter returning no webContents made IPC: %s", l)
		}
	}
}

// Window options handed through a call the analysis cannot follow (hyper:
// new BrowserWindow(app.plugins.getDecoratedBrowserOptions(winOpts))) keep
// the preferences written before the call, as inferred, with the call in
// their chain and the window's coverage partial.
func TestWindowOptionsPassedThroughAnUnknownCall(t *testing.T) {
	r := analyzeSource(t, `const { app, BrowserWindow } = require('electron');
const decorate = require('some-plugin-host');
const winOpts = { width: 800, webPreferences: { nodeIntegration: true, contextIsolation: false } };
new BrowserWindow(app.plugins.getDecoratedBrowserOptions(winOpts));
new BrowserWindow(decorate.merge({ webPreferences: { sandbox: true } }, { webPreferences: { sandbox: false } }));
new BrowserWindow(decorate.size(800, 600));
`, nil)
	if len(r.Windows) != 3 {
		t.Fatalf("windows %+v", r.Windows)
	}
	w := r.Windows[0]
	ni, ci := w.WebPreferences["nodeIntegration"], w.WebPreferences["contextIsolation"]
	if ni.Value != true || ni.State != "inferred" || ci.Value != false || ci.State != "inferred" {
		t.Errorf("decorated window preferences %+v", w.WebPreferences)
	}
	if len(ni.Via) == 0 || !strings.Contains(ni.Via[0].Description, "app.plugins.getDecoratedBrowserOptions") {
		t.Errorf("the call is not in the chain: %+v", ni.Via)
	}
	if w.Coverage != "partial" {
		t.Errorf("coverage %q, want partial", w.Coverage)
	}
	// Two candidate objects: which one wins is the callee's business.
	if v, ok := r.Windows[1].WebPreferences["sandbox"]; ok && v.State != "unknown" {
		t.Errorf("merge of two option objects claims sandbox %+v", v)
	}
	if r.Windows[1].Coverage == "complete" || r.Windows[2].Coverage == "complete" {
		t.Errorf("options from an unknown call are complete: %+v %+v", r.Windows[1], r.Windows[2])
	}
}
