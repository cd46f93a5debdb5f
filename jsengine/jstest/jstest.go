// Package jstest generates JavaScript/Electron applications of a chosen
// size for benchmarks and tests: one webpack bundle, or an application of
// thousands of CommonJS modules. The same generators feed the native
// jsengine benchmarks and the sandboxed service benchmark in host/app, so
// both measure the same input.
package jstest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
)

// Bundle writes a webpack 5 style main-process bundle of about size bytes:
// factories with ordinary code, a preferences helper and IPC.
func Bundle(size int) string {
	var sb strings.Builder
	sb.WriteString("(() => {\nvar __webpack_modules__ = ({\n")
	sb.WriteString(`"electron": ((module) => { module.exports = require("electron"); }),` + "\n")
	sb.WriteString(`"./src/prefs.js": ((module) => { module.exports = { prefs: () => ({ contextIsolation: false, sandbox: true }) }; }),` + "\n")
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, `"./src/mod%d.js": ((module, exports, __webpack_require__) => {
  const { ipcMain } = __webpack_require__("electron");
  const CHANNEL = "feature%d:run";
  function helper%d(items, options) {
    const out = [];
    for (let j = 0; j < items.length; j++) {
      if (items[j] && items[j].enabled !== false) { out.push({ id: items[j].id + %d, label: "item " + j, ...options }); }
    }
    return out.sort((a, b) => a.id - b.id).map((x) => x.label).join(",");
  }
  ipcMain.handle(CHANNEL, (event, arg) => helper%d(arg.items, { source: "ipc" }));
  exports.helper%d = helper%d;
}),
`, i, i, i, i, i, i, i)
	}
	sb.WriteString("});\nfunction __webpack_require__(id) { var m = { exports: {} }; __webpack_modules__[id].call(m.exports, m, m.exports, __webpack_require__); return m.exports; }\n")
	sb.WriteString(`const { BrowserWindow } = __webpack_require__("electron");
const { prefs } = __webpack_require__("./src/prefs.js");
new BrowserWindow({ webPreferences: prefs() });
})();
`)
	return sb.String()
}

// BundleApp is an application whose main process is Bundle(size).
func BundleApp(size int) fstest.MapFS {
	return fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"big","main":"dist/main.js"}`)},
		"dist/main.js": {Data: []byte(Bundle(size))},
	}
}

// App builds an application of n CommonJS modules of about size bytes
// each: a main process that creates a window, and modules that require
// each other, define helpers and register IPC handlers.
func App(n, size int) fstest.MapFS {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"big-app","main":"main.js","devDependencies":{"electron":"^38.0.0"}}`)},
		"main.js": {Data: []byte(`const { BrowserWindow } = require('electron');
const path = require('path');
require('./src/m0.js');
new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js'), sandbox: true } });
`)},
		"preload.js": {Data: []byte("require('electron').contextBridge.exposeInMainWorld('api', {});\n")},
	}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "const { ipcMain } = require('electron');\nconst next = require('./m%d.js');\n", (i+1)%n)
		for j := 0; sb.Len() < size; j++ {
			fmt.Fprintf(&sb, `function f%d_%d(items, opts) {
  const out = [];
  for (const it of items) { if (it && it.on !== false) out.push({ id: it.id + %d, ...opts }); }
  return out.map((x) => x.id).reduce((a, b) => a + b, 0);
}
`, i, j, j)
		}
		fmt.Fprintf(&sb, "ipcMain.handle('m%d:run', (e, a) => f%d_0(a, {}));\nmodule.exports = { next };\n", i, i)
		fsys[fmt.Sprintf("src/m%d.js", i)] = &fstest.MapFile{Data: []byte(sb.String())}
	}
	return fsys
}

// Size is the number of bytes of all files of fsys.
func Size(fsys fstest.MapFS) int {
	total := 0
	for _, f := range fsys {
		total += len(f.Data)
	}
	return total
}

// WriteDir writes fsys below dir, so that a service that takes a path can
// analyse the same files as an in-memory run.
func WriteDir(dir string, fsys fstest.MapFS) error {
	for name, f := range fsys {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("jstest: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("jstest: %w", err)
		}
	}
	return nil
}

// SourceMapApp is an application whose bundle ships a source map of n
// sources, each with its sourcesContent; every tenth source names a URL,
// which extraction rejects, so a result holds written and rejected ones.
func SourceMapApp(n int) fstest.MapFS {
	sources := make([]string, n)
	contents := make([]string, n)
	for i := range n {
		sources[i] = fmt.Sprintf("webpack://app/./src/feature%d/index.js", i)
		if i%10 == 9 {
			sources[i] = fmt.Sprintf("https://cdn.example/lib%d.js", i)
		}
		contents[i] = fmt.Sprintf("export const feature%d = () => %d;\n", i, i)
	}
	q := func(list []string) string {
		var sb strings.Builder
		for i, s := range list {
			if i > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, "%q", s)
		}
		return sb.String()
	}
	m := `{"version":3,"file":"main.js","sources":[` + q(sources) + `],"sourcesContent":[` + q(contents) + `],"names":[],"mappings":"AAAA"}`
	return fstest.MapFS{
		"package.json":     {Data: []byte(`{"name":"mapped","main":"dist/main.js"}`)},
		"dist/main.js":     {Data: []byte("console.log(1);\n//# sourceMappingURL=main.js.map\n")},
		"dist/main.js.map": {Data: []byte(m)},
	}
}
