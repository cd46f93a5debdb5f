package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rea/host/sandbox"
	"rea/wasm/wasmtest"
)

// writeBundledApp writes an Electron app whose renderer is one webpack
// bundle of n factories (~330 bytes each: n=3,000 gives a ~1 MB bundle).
// In version 2, one factory in a hundred changes: half rename their local
// identifiers (a minifier's rebuild), half change a literal.
func writeBundledApp(b *testing.B, dir string, n, version int) int {
	b.Helper()
	var sb strings.Builder
	sb.WriteString("(() => {\n  var __webpack_modules__ = ({\n")
	for i := range n {
		local, text := "value", fmt.Sprintf("module %d says hello", i)
		if version == 2 && i%100 == 7 {
			local = "v"
		}
		if version == 2 && i%100 == 57 {
			text += " again"
		}
		fmt.Fprintf(&sb, "    %d: ((module, exports, __webpack_require__) => {\n", i)
		fmt.Fprintf(&sb, "      var %s = { id: %d, text: %q, next: %d };\n", local, i, text, (i+1)%n)
		fmt.Fprintf(&sb, "      function render(node) { node.textContent = %s.text + \" \" + %s.id; return node; }\n", local, local)
		fmt.Fprintf(&sb, "      module.exports = { render: render, describe: function () { return [%s.id, %s.next].join(\"/\"); } };\n", local, local)
		sb.WriteString("    }),\n")
	}
	sb.WriteString("  });\n  var cache = {};\n  function __webpack_require__(id) {\n    if (cache[id]) return cache[id].exports;\n" +
		"    var module = cache[id] = { exports: {} };\n    __webpack_modules__[id](module, module.exports, __webpack_require__);\n" +
		"    return module.exports;\n  }\n  __webpack_require__(0);\n})();\n")
	files := map[string]string{
		"package.json":        `{"name":"bench-app","version":"` + fmt.Sprint(version) + `.0.0","main":"main.js"}`,
		"main.js":             "const { app, BrowserWindow } = require(\"electron\");\napp.whenReady().then(() => new BrowserWindow({}).loadFile(\"index.html\"));\n",
		"index.html":          `<!doctype html><html><body><script src="dist/renderer.js"></script></body></html>`,
		"dist/renderer.js":    sb.String(),
		"dist/placeholder.md": "",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return sb.Len()
}

// BenchmarkCompareApplicationVersions3000Modules compares two analyses of
// a ~1 MB, 3,000-module bundle that differ in 1 % of modules, through the
// sandboxed compare module and Evidence sealing (target ≤ 1 s warm).
func BenchmarkCompareApplicationVersions3000Modules(b *testing.B) {
	a, err := New(Config{ResultCacheDir: "off", ModuleDir: wasmtest.ModuleDir(b, JSAppModule, NormaliseModule, "artifact", CompareModule),
		Limits: sandbox.Limits{Deadline: 10 * time.Minute}})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()
	root := b.TempDir()
	var bundleBytes int
	analyse := func(v int) *AnalyzeApplicationResult {
		dir := filepath.Join(root, fmt.Sprint("v", v))
		bundleBytes = writeBundledApp(b, dir, 3000, v)
		res, err := a.AnalyzeJavaScriptApplication(ctx, AnalyzeApplicationRequest{InputPath: dir}, nil)
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	left, right := analyse(1), analyse(2)
	// Warm: compile the compare module once.
	if _, err := a.CompareApplicationVersions(ctx, left.Evidence, right.Evidence, CompareVersionsRequest{}, nil); err != nil {
		b.Fatal(err)
	}
	var peak uint64
	var fuel uint64
	for b.Loop() {
		rec, err := a.CompareApplicationVersions(ctx, left.Evidence, right.Evidence, CompareVersionsRequest{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		var nr struct {
			Provenance DerivedProvenance `json:"provenance"`
			Summary    struct {
				Statuses map[string]int `json:"statuses"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(rec.NormalizedResult, &nr); err != nil {
			b.Fatal(err)
		}
		// Renamed identifiers keep the structural fingerprint (changed);
		// a changed literal under a bare ordinal matches nothing, so it is
		// removed and added, never guessed.
		if st := nr.Summary.Statuses; st["changed"] != 31 || st["added"] != 30 || st["removed"] != 30 || st["unchanged"] != 2947 {
			b.Fatalf("statuses %v", st)
		}
		fuel = nr.Provenance.FuelUsed
	}
	// Peak guest memory of one comparison, straight from the sandbox.
	l, _ := applicationSource(left.Evidence, "left")
	r, _ := applicationSource(right.Evidence, "right")
	out, err := a.Runner.Run(ctx, sandbox.Call{Module: CompareModule, Operation: "compare",
		Params: map[string]any{"left": l, "right": r}, Limits: a.Config.Limits})
	if err != nil {
		b.Fatal(err)
	}
	peak = out.Usage.PeakMemoryBytes
	b.ReportMetric(float64(bundleBytes)/(1<<20), "bundle-MiB")
	b.ReportMetric(float64(len(left.Evidence.NormalizedResult))/(1<<20), "analysis-MiB")
	b.ReportMetric(float64(peak)/(1<<20), "guest-peak-MiB")
	b.ReportMetric(float64(fuel), "fuel")
}
