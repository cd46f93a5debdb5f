package jsengine

import (
	"strings"
	"testing"
)

// A helper whose IPC object is a parameter: each call site settles the
// receiver from the argument it passes.
func TestWrappersWhoseReceiverIsAParameter(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // ipcList lines of main.js
		absent    string   // a channel that must not be reported
	}{
		{name: "webContents of a window",
			src: `const { BrowserWindow } = require('electron');
function send(contents, channel, ...args) { contents.send(channel, ...args); }
const win = new BrowserWindow({});
send(win.webContents, 'focus');`,
			want: []string{"main.js main transmission webContents.send focus inferred unpaired"}},
		{name: "a parameter named like a webContents",
			src: `function send(target, channel) { target.send(channel); }
function ding(mainContents) { send(mainContents, 'ding'); }`,
			want: []string{"main.js main transmission webContents.send ding inferred unpaired"}},
		{name: "through a second helper",
			src: `const { BrowserWindow } = require('electron');
function send(contents, channel) { contents.send(channel); }
function sendAction(channel) { const win = BrowserWindow.getAllWindows()[0]; send(win.webContents, channel); }
sendAction('zoom-in');`,
			want: []string{"main.js main transmission webContents.send zoom-in inferred unpaired"}},
		{name: "the window itself and a member path below the parameter",
			src: `const { BrowserWindow } = require('electron');
function tell(w, channel) { w.webContents.send(channel); }
function poke(w, channel) { w.send(channel); }
const win = new BrowserWindow({});
tell(win, 'a'); poke(win, 'b');`,
			want: []string{"main.js main transmission BrowserWindow.send b inferred unpaired", "main.js main transmission webContents.send a inferred unpaired"}},
		{name: "ipcMain passed in",
			src: `const { ipcMain } = require('electron');
function listen(target, channel, fn) { target.on(channel, fn); }
listen(ipcMain, 'ping', () => {});`,
			want: []string{"main.js main listener ipcMain.on ping inferred "}},
		{name: "an object that is no IPC object",
			src: `function send(contents, channel) { contents.send(channel); }
const logger = { send(m) { console.log(m); } };
send(logger, 'not-ipc');`,
			absent: "not-ipc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := analyzeSource(t, c.src, nil)
			got := ipcList(r)
			for _, w := range c.want {
				if !hasIPC(r, w) {
					t.Errorf("missing %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
			if c.absent != "" {
				for _, l := range got {
					if strings.Contains(l, c.absent) {
						t.Errorf("reported %s", l)
					}
				}
			}
		})
	}
}

func TestPreloadsNamedByBundlerEntries(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const path = require('path');
new BrowserWindow({ webPreferences: { preload: path.join(__dirname, '../preload/bridge.cjs') } });
new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js') } });
`, map[string]string{
		"webpack.config.js": `module.exports = { entry: { bridge: { import: './src/expose.ts' }, other: './src/other.ts' } };`,
		"src/expose.ts":     `export {};`,
		"src/other.ts":      `export {};`,
		"src/preload.ts":    `export {};`,
	})
	if len(r.Windows) != 2 {
		t.Fatalf("windows %+v", r.Windows)
	}
	if p := r.Windows[0].Preload; p == nil || p.Module != "src/expose.ts" || p.State != "inferred" {
		t.Errorf("entry-named preload %+v", p)
	}
	if p := r.Windows[1].Preload; p == nil || p.Module != "src/preload.ts" {
		t.Errorf("stem-named preload %+v", p) // no entry of that name: the stem still decides
	}
}

func TestImportMetaDirnameIsTheModulesDirectory(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
const path = require('path');
const import_meta = {};
new BrowserWindow({ webPreferences: { preload: path.join(import_meta.dirname, 'pre.js'), sandbox: import_meta.env } });
`, map[string]string{"pre.js": ``})
	if len(r.Windows) != 1 {
		t.Fatalf("windows %+v", r.Windows)
	}
	w := r.Windows[0]
	if w.Preload == nil || w.Preload.Module != "pre.js" {
		t.Errorf("preload %+v", w.Preload)
	}
	if v := w.WebPreferences["sandbox"]; v.State != "unknown" {
		t.Errorf("another member of esbuild's empty import_meta reads as %+v, want unknown", v)
	}
}

func TestElectronForgeWebpackPreloadGlobals(t *testing.T) {
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
new BrowserWindow({ webPreferences: { preload: process.env.VITEST ? 'x/preload.js' : MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY } });
new BrowserWindow({ webPreferences: { preload: OTHER_PRELOAD_WEBPACK_ENTRY } });
`, map[string]string{
		"forge.config.js": `const path = require('path');
const root = process.cwd();
module.exports = { plugins: [{ name: '@electron-forge/plugin-webpack', config: { renderer: { entryPoints: [
  { html: './static/index.html', js: './src/renderer.ts', name: 'main_window', preload: { js: path.join(root, 'src/preload/preload.ts') } },
] } } }] };`,
		"src/preload/preload.ts": `export {};`,
	})
	if len(r.Windows) != 2 {
		t.Fatalf("windows %+v", r.Windows)
	}
	p := r.Windows[0].Preload
	if p == nil || len(p.Alternatives) != 2 || p.Alternatives[1].Module != "src/preload/preload.ts" {
		t.Errorf("forge preload %+v", p)
	}
	if p := r.Windows[1].Preload; p == nil || p.State != "unknown" || p.Module != "" {
		t.Errorf("a global of no entry point is %+v, want unknown", p)
	}
}

func TestElectronForgeEntryPointsFromAHelper(t *testing.T) {
	// Zettlr's forge.config.js returns each entry point from a helper
	// called with the entry's name.
	r := analyzeSource(t, `const { BrowserWindow } = require('electron');
new BrowserWindow({ webPreferences: { preload: ABOUT_PRELOAD_WEBPACK_ENTRY } });
new BrowserWindow({ webPreferences: { preload: LOG_VIEWER_PRELOAD_WEBPACK_ENTRY } });
new BrowserWindow({ webPreferences: { preload: UNLISTED_PRELOAD_WEBPACK_ENTRY } });
`, map[string]string{
		"forge.config.js": `function generateRendererEntrypoint (name, folder) {
  return { html: './static/index.htm', js: ` + "`./source/${folder}/index.ts`" + `, name, preload: { js: './source/preload/index.ts' } }
}
module.exports = { plugins: [{ name: '@electron-forge/plugin-webpack', config: { renderer: { entryPoints: [
  generateRendererEntrypoint('about', 'win-about'),
  generateRendererEntrypoint('log_viewer', 'win-log-viewer'),
] } } }] };`,
		"source/preload/index.ts": `export {};`,
	})
	var got []string
	for _, w := range r.Windows {
		if w.Preload == nil {
			got = append(got, "none")
			continue
		}
		got = append(got, w.Preload.Module+" "+w.Preload.State)
	}
	want := "source/preload/index.ts inferred|source/preload/index.ts inferred| unknown"
	if strings.Join(got, "|") != want {
		t.Errorf("preloads %q, want %q", strings.Join(got, "|"), want)
	}
}
