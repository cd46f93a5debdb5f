package jsengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func BenchmarkAnalyzeFixtures(b *testing.B) {
	for _, fx := range []string{"secure", "insecure", "typescript", "esm", "bundled"} {
		b.Run(fx, func(b *testing.B) {
			fsys := os.DirFS(filepath.Join(fixtures, fx))
			for i := 0; i < b.N; i++ {
				if _, err := Analyze(context.Background(), fsys, Options{}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// generatedBundle writes a webpack 5 style main-process bundle of about
// size bytes: n factories with ordinary code, a preferences helper and IPC.
func generatedBundle(size int) string {
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

func BenchmarkAnalyzeOneMegabyteBundle(b *testing.B) {
	src := generatedBundle(1 << 20)
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"big","main":"dist/main.js"}`)},
		"dist/main.js": {Data: []byte(src)},
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	var r *Result
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Analyze(context.Background(), fsys, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(r.Bundles) != 1 || len(r.Windows) != 1 || r.Coverage.Status != "complete" {
		b.Fatalf("bundles %d windows %d coverage %s", len(r.Bundles), len(r.Windows), r.Coverage.Status)
	}
	b.ReportMetric(float64(len(r.Bundles[0].Modules)), "modules")
	b.ReportMetric(float64(r.Statistics.VisitedASTNodes), "ast-nodes")
}

func TestGeneratedBundleIsAnalysedCompletely(t *testing.T) {
	src := generatedBundle(64 << 10)
	r, err := Analyze(context.Background(), fstest.MapFS{"main.js": {Data: []byte(src)}}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(src, `"./src/mod`)
	if len(r.Bundles) != 1 || len(r.Bundles[0].Modules) != n+2 {
		t.Fatalf("bundles %+v, want %d modules", len(r.Bundles), n+2)
	}
	if r.Summary.IPC.MainHandlers != n || r.Summary.IPC.LiteralChannels != n {
		t.Fatalf("ipc summary %+v, want %d handlers on %d channels", r.Summary.IPC, n, n)
	}
	if !hasFinding(r, wantFinding{"context-isolation-disabled", "main.js", 4, 87, "inferred"}) {
		t.Fatalf("helper-returned contextIsolation:false not found:\n%s", listFindings(r))
	}
}

// generatedApp builds an application of n CommonJS modules of about size
// bytes each: a main process that creates a window, and modules that
// require each other, define helpers and register IPC handlers.
func generatedApp(n, size int) fstest.MapFS {
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

// BenchmarkAnalyzeGeneratedApp is the scale point: 3,000 modules,
// about 50 MB of JavaScript.
func BenchmarkAnalyzeGeneratedApp(b *testing.B) {
	fsys := generatedApp(3000, 17<<10)
	total := 0
	for _, f := range fsys {
		total += len(f.Data)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	var r *Result
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = Analyze(context.Background(), fsys, Options{MaxASTNodes: 50_000_000}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if r.Coverage.Status != "complete" || r.Summary.IPC.MainHandlers != 3000 {
		b.Fatalf("coverage %+v handlers %d", r.Coverage, r.Summary.IPC.MainHandlers)
	}
	b.ReportMetric(float64(len(r.Modules)), "modules")
}
