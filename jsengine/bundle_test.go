package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

func TestAnalyzeRecoversBundledModules(t *testing.T) {
	r := analyzeFixture(t, "bundled", Options{})
	want := map[string]struct {
		kind string
		keys []string
	}{
		"dist/main.js":     {"webpack", []string{"./src/prefs.js", "./src/channels.js", "electron", "path"}},
		"dist/renderer.js": {"webpack", []string{"0", "1", "2", "3"}},
		"dist/vendor.js":   {"esbuild", []string{"node_modules/tiny/util.js", "node_modules/tiny/index.js"}},
		"dist/legacy.js":   {"browserify", []string{"1", "2"}},
	}
	if len(r.Bundles) != len(want) {
		t.Fatalf("%d bundles, want %d: %+v", len(r.Bundles), len(want), r.Bundles)
	}
	byKey := map[string]BundledModule{}
	for _, b := range r.Bundles {
		w := want[b.Path]
		if b.Kind != w.kind || len(b.Modules) != len(w.keys) {
			t.Errorf("%s: kind %s with %d modules, want %s with %d", b.Path, b.Kind, len(b.Modules), w.kind, len(w.keys))
			continue
		}
		for i, m := range b.Modules {
			if m.Key != w.keys[i] {
				t.Errorf("%s module %d key %q, want %q", b.Path, i, m.Key, w.keys[i])
			}
			byKey[b.Path+"#"+m.Key] = m
		}
	}
	// Module 3 is module 2 with renamed identifiers: same structure,
	// different bytes.
	two, three := byKey["dist/renderer.js#2"], byKey["dist/renderer.js#3"]
	if two.Fingerprint != three.Fingerprint || two.FactorySHA256 == three.FactorySHA256 {
		t.Errorf("renamed copy: fingerprints %s/%s, digests %s/%s", two.Fingerprint, three.Fingerprint, two.FactorySHA256, three.FactorySHA256)
	}
	if one := byKey["dist/renderer.js#1"]; one.Fingerprint == two.Fingerprint {
		t.Error("different factories share a fingerprint")
	}
	if got := byKey["dist/renderer.js#0"].Requires; len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Errorf("module 0 requires %v, want [1 2]", got)
	}
	if got := byKey["dist/legacy.js#1"].Requires; len(got) != 1 || got[0] != "2" {
		t.Errorf("browserify module 1 requires %v, want [2]", got)
	}
	if got := byKey["dist/vendor.js#node_modules/tiny/index.js"].Requires; len(got) != 1 || got[0] != "node_modules/tiny/util.js" {
		t.Errorf("esbuild module requires %v", got)
	}
}

func TestAnalyzeFollowsWebpackRequireIntoFactories(t *testing.T) {
	r := analyzeFixture(t, "bundled", Options{})
	if !hasFinding(r, wantFinding{"context-isolation-disabled", "dist/main.js", 8, 30, "inferred"}) {
		t.Errorf("contextIsolation:false from a bundled helper not reported:\n%s", listFindings(r))
	}
	if len(r.Windows) != 1 || r.Windows[0].Preload == nil || r.Windows[0].Preload.Module != "dist/preload.js" {
		t.Fatalf("windows %+v", r.Windows)
	}
	var handler *IPCOperation
	for i := range r.IPC {
		if r.IPC[i].API == "ipcRenderer.invoke" {
			handler = &r.IPC[i]
		}
	}
	if handler == nil || handler.Pairing != "paired" || handler.PairedWith[0] != "ipc:dist/main.js:61:16" {
		t.Fatalf("invoke not paired with the bundled handler: %+v", handler)
	}
}

func TestBundleLimitMarksTheBundleTruncated(t *testing.T) {
	r := analyzeFixture(t, "bundled", Options{MaxBundleModules: 7})
	total, truncated := 0, false
	for _, b := range r.Bundles {
		total += len(b.Modules)
		truncated = truncated || b.Truncated
	}
	if total != 7 || !truncated || r.Coverage.Status != "partial" || r.Coverage.LimitsReached[0].Omitted != 5 {
		t.Fatalf("total %d truncated %v coverage %+v", total, truncated, r.Coverage)
	}
}

// A shipped map is read (issue 18), but lends an original position only to
// the lines it maps: this one maps line 1, where nothing is reported.
func TestSourceMapsAreListedAndLendOnlyTheLinesTheyMap(t *testing.T) {
	r := analyzeFixture(t, "bundled", Options{})
	if len(r.SourceMaps) != 1 || r.SourceMaps[0].Path != "dist/renderer.js.map" || !r.SourceMaps[0].Present ||
		len(r.SourceMaps[0].DeclaredBy) != 1 || r.SourceMaps[0].DeclaredBy[0] != "dist/renderer.js" {
		t.Fatalf("source maps %+v", r.SourceMaps)
	}
	b, _ := json.Marshal(r)
	if bytes.Contains(b, []byte("SECRET ORIGINAL SOURCE")) || bytes.Contains(b, []byte(`"original"`)) {
		t.Fatal("a map that covers no reported line lent its source to the result")
	}
}

// TestFactoryVisitorFingerprintsAsASeparateWalkWould checks the fused walk
// of a factory against the two walks it replaced, at budgets that run out
// at every depth: the fingerprint stream and the required keys are equal.
func TestFactoryVisitorFingerprintsAsASeparateWalkWould(t *testing.T) {
	src := `function (module, exports, __webpack_require__) {
		var a = __webpack_require__("./a.js"), b = __webpack_require__(12);
		function f(x) { return x ? {k: [1, "s", ` + "`t${x}`" + `]} : __webpack_require__("./c.js")(x + 1); }
		for (var i = 0; i < 3; i++) { if (i % 2) { f(i); } else { b.go(a, i, /re/g); } }
		module.exports = { f: f, deep: (((((1))))) + __webpack_require__("./d.js") };
	}`
	prog, err := parser.ParseFile(nil, "f.js", "("+src+")", 0)
	if err != nil {
		t.Fatal(err)
	}
	body := prog.Body[0].(*ast.ExpressionStatement).Expression.(*ast.FunctionLiteral).Body
	for budget := 1; budget <= 200; budget++ {
		sep := &fingerprinter{budget: budget}
		walk(sep, body)
		sepRC := &requireCollector{reqName: "__webpack_require__"}
		walk(sepRC, body)
		fused := &fingerprinter{budget: budget}
		fusedRC := &requireCollector{reqName: "__webpack_require__"}
		walk(&factoryVisitor{fp: fused, rc: fusedRC}, body)
		if string(sep.buf) != string(fused.buf) || sep.budget != fused.budget {
			t.Fatalf("budget %d: fingerprint stream differs\nseparate %s\nfused    %s", budget, sep.buf, fused.buf)
		}
		if strings.Join(sepRC.keys, ",") != strings.Join(fusedRC.keys, ",") || len(fusedRC.keys) != 4 {
			t.Fatalf("budget %d: requires %v vs %v", budget, sepRC.keys, fusedRC.keys)
		}
	}
}

// webpack5Production is what webpack 5.103.0 writes in production mode for
// a main process of three modules (cmd/rea's
// TestRealWebpack5ProductionBundleIsSplitAndReadByModule builds it with the
// real webpack): no __webpack_modules__ or __webpack_require__ names left.
const webpack5Production = `(()=>{var e={157:e=>{"use strict";e.exports=require("electron")},187:(e,r,t)=>{const{ipcMain:i}=t(157),o=t(896),{SAVE:n}=t(490);i.handle(n,(e,r,t)=>o.promises.writeFile(r,t)),r.open=e=>o.promises.readFile(e,"utf8")},490:e=>{e.exports={OPEN:"bundle:open-file",SAVE:"bundle:save-file"}},896:e=>{"use strict";e.exports=require("fs")},928:e=>{"use strict";e.exports=require("path")}},r={};function t(i){var o=r[i];if(void 0!==o)return o.exports;var n=r[i]={exports:{}};return e[i](n,n.exports,t),n.exports}const{app:i,BrowserWindow:o,ipcMain:n}=t(157),s=t(490),p=t(187);n.handle(s.OPEN,(e,r)=>p.open(r)),n.on("app:quit",()=>i.quit()),i.whenReady().then(()=>{new o({webPreferences:{preload:t(928).join(__dirname,"preload.js"),contextIsolation:!0}}).loadFile("index.html")})})();`

// TestAnalyzeSplitsMinifiedWebpack5AndFollowsItsRenamedRequire: the
// production runtime's renamed table and require are recognised, so the
// channels of the entry code (through t(157) = electron) and of a module
// are both found.
func TestAnalyzeSplitsMinifiedWebpack5AndFollowsItsRenamedRequire(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"main":"dist/main.js"}`)},
		"dist/main.js": {Data: []byte(webpack5Production)},
	}
	r, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Bundles) != 1 || r.Bundles[0].Kind != "webpack" || len(r.Bundles[0].Modules) != 5 {
		t.Fatalf("bundles %+v", r.Bundles)
	}
	var channels []string
	for _, op := range r.IPC {
		channels = append(channels, op.Channel)
	}
	sort.Strings(channels)
	if strings.Join(channels, ",") != "app:quit,bundle:open-file,bundle:save-file" {
		t.Fatalf("channels %v", channels)
	}
	if len(r.Windows) != 1 {
		t.Fatalf("windows %+v", r.Windows)
	}
}
