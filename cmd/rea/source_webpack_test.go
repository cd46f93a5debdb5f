package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// webpackCLI installs the webpack pinned in scripts/webpack/package.json
// under build/tools/webpack (once) and returns its CLI script.
func webpackCLI(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed; the webpack 5 test builds its bundle with the real webpack: apt-get install -y nodejs npm", tool)
		}
	}
	root := wasmtest.RepoRoot(t)
	dir := filepath.Join(root, "build", "tools", "webpack")
	cli := filepath.Join(dir, "node_modules", "webpack-cli", "bin", "cli.js")
	pin, err := os.ReadFile(filepath.Join(root, "scripts", "webpack", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if have, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && string(have) == string(pin) {
		if _, err := os.Stat(cli); err == nil {
			return cli
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pin, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install of webpack (scripts/webpack/package.json) into %s: %v\n%s", dir, err, out)
	}
	return cli
}

// TestRealWebpack5ProductionBundleIsSplitAndReadByModule: a main process
// built by the real webpack 5 in production mode (terser: no
// __webpack_modules__ or __webpack_require__ left, numeric module ids) is
// analysed with its IPC channels, split by unpack_javascript_bundle into
// its modules, and the unpacked tree has the same channels; a module is
// read by its key and a search names the module a hit is in.
func TestRealWebpack5ProductionBundleIsSplitAndReadByModule(t *testing.T) {
	cli := webpackCLI(t)
	build := t.TempDir()
	files := map[string]string{
		"src/main.js": `const { app, BrowserWindow, ipcMain } = require('electron');
const channels = require('./channels');
const files = require('./files');
ipcMain.handle(channels.OPEN, (e, p) => files.open(p));
ipcMain.on('app:quit', () => app.quit());
app.whenReady().then(() => {
  const w = new BrowserWindow({ webPreferences: { preload: require('path').join(__dirname, 'preload.js'), contextIsolation: true } });
  w.loadFile('index.html');
});
`,
		"src/channels.js": "module.exports = { OPEN: 'bundle:open-file', SAVE: 'bundle:save-file' };\n",
		"src/files.js": `const { ipcMain } = require('electron');
const fs = require('fs');
const { SAVE } = require('./channels');
ipcMain.handle(SAVE, (e, p, d) => fs.promises.writeFile(p, d));
exports.open = (p) => fs.promises.readFile(p, 'utf8');
`,
		"webpack.config.js": `module.exports = { mode: 'production', target: 'electron-main', entry: './src/main.js',
  output: { path: __dirname + '/dist', filename: 'main.js' }, node: { __dirname: false } };
`,
	}
	for name, body := range files {
		p := filepath.Join(build, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", cli, "--config", "webpack.config.js")
	cmd.Dir = build
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("webpack: %v\n%s", err, out)
	}
	bundle, err := os.ReadFile(filepath.Join(build, "dist", "main.js"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(bundle), "__webpack_modules__") || strings.Contains(string(bundle), "__webpack_require__") {
		t.Fatalf("webpack did not minify the runtime names; this test is about bundles without them:\n%s", bundle)
	}
	app := t.TempDir()
	if err := os.MkdirAll(filepath.Join(app, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "dist", "main.js"), bundle, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name": "wp5", "main": "dist/main.js"}`), 0o644); err != nil {
		t.Fatal(err)
	}

	_, bundled := sourceRefsOf(t, app)
	if strings.Join(bundled, ",") != "app:quit,bundle:open-file,bundle:save-file" {
		t.Fatalf("IPC channels of the production bundle: %v", bundled)
	}

	out := filepath.Join(t.TempDir(), "unpacked")
	r := reaWithModules(t, "unpack-javascript-bundle", app, "--path", "dist/main.js", "--output", out, "--format", "json")
	if r.code != 0 {
		t.Fatalf("unpack: exit %d: %s %s", r.code, r.stderr, r.stdout)
	}
	var manifest struct {
		Kind    string `json:"kind"`
		Modules []struct {
			Key      string `json:"key"`
			File     string `json:"file"`
			External string `json:"external"`
		} `json:"modules"`
	}
	raw, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatalf("manifest: %v\n%s", err, raw)
	}
	channelsKey, externals := "", 0
	for _, m := range manifest.Modules {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(m.File)))
		if err != nil {
			t.Fatalf("module %s: %v", m.Key, err)
		}
		if strings.Contains(string(b), "bundle:open-file") {
			channelsKey = m.Key
		}
		if m.External != "" {
			externals++
		}
	}
	// electron, fs, path are externals; main's modules are channels and files.
	if manifest.Kind != "webpack" || len(manifest.Modules) != 5 || externals != 3 || channelsKey == "" {
		t.Fatalf("manifest: kind %s, %d modules, %d externals, channels module %q:\n%s", manifest.Kind, len(manifest.Modules), externals, channelsKey, raw)
	}
	entry, err := os.ReadFile(filepath.Join(out, "entry.js"))
	if err != nil || !strings.Contains(string(entry), `require("electron")`) {
		t.Fatalf("entry.js does not require electron by name (its renamed require calls were not rewritten): %v\n%s", err, entry)
	}
	_, unpacked := sourceRefsOf(t, out)
	if strings.Join(unpacked, ",") != strings.Join(bundled, ",") {
		t.Fatalf("IPC channels: unpacked %v, bundle %v", unpacked, bundled)
	}

	node := "bundled:dist/main.js#" + channelsKey
	page := reaWithModules(t, "read-javascript-source", app, "--module", node, "--format", "json")
	var p sourcePage
	if page.code != 0 {
		t.Fatalf("module read: exit %d: %s %s", page.code, page.stderr, page.stdout)
	}
	decode(t, page.stdout, &p)
	if m := p.NormalizedResult.Result.Module; m == nil || m.Key != channelsKey || m.NodeID != node || !strings.Contains(page.stdout, "bundle:save-file") {
		t.Fatalf("module read: %s", page.stdout)
	}
	s := reaWithModules(t, "search-application-text", app, "--query", "bundle:save-file", "--format", "json")
	if s.code != 0 || !strings.Contains(s.stdout, `"node_id": "`+node+`"`) && !strings.Contains(s.stdout, `"node_id":"`+node+`"`) {
		t.Fatalf("search does not name module %s: exit %d: %s", node, s.code, s.stdout)
	}
}
