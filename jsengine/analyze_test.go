package jsengine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"rea/abi"
	"rea/jsengine/report"
)

const fixtures = "../testdata/electron"

func analyzeFixture(t testing.TB, name string, opts Options) *Result {
	t.Helper()
	r, err := Analyze(context.Background(), os.DirFS(filepath.Join(fixtures, name)), opts, nil)
	if err != nil {
		t.Fatalf("Analyze(%s): %v", name, err)
	}
	return r
}

type wantFinding struct {
	rule       string
	file       string
	line, col  int
	confidence string
}

func TestAnalyzeReportsFindingsAtTheirOriginalPositions(t *testing.T) {
	cases := []struct {
		fixture string
		want    []wantFinding
	}{
		{"insecure", []wantFinding{
			// contextIsolation: false written in a helper in another module,
			// reached through a helper's return value and an object spread.
			{"context-isolation-disabled", "window-options.js", 3, 23, "inferred"},
			{"node-integration-enabled", "window-options.js", 4, 22, "inferred"},
			{"web-security-disabled", "main.js", 11, 18, "inferred"},
			{"insecure-remote-content", "main.js", 20, 3, "observed"},
			{"remote-content-privileged", "main.js", 20, 3, "inferred"},
			{"context-bridge-raw-ipc-renderer", "preload.js", 4, 1, "observed"},
			{"open-external-dynamic", "main.js", 36, 41, "observed"},
			{"dangerous-command-line-switch", "main.js", 38, 1, "observed"},
			{"electron-version-outdated", "package.json", 6, 5, "observed"},
			{"ipc-dynamic-channel", "main.js", 33, 16, "observed"},
			{"ipc-handler-without-sender-validation", "main.js", 28, 12, "observed"},
			{"http-resource", "index.html", 3, 1, "observed"},
			{"webview-allowpopups", "index.html", 4, 1, "observed"},
			{"csp-missing", "index.html", 1, 1, "observed"},
			{"window-options-unresolved", "main.js", 25, 10, "observed"},
			{"permission-handler-missing", "main.js", 19, 16, "observed"},
		}},
		{"esm", []wantFinding{
			// sandbox: false comes from an ESM export spread into webPreferences.
			{"sandbox-disabled", "config.mjs", 3, 12, "inferred"},
			{"csp-weak", "renderer/index.html", 4, 1, "observed"},
			{"ipc-handler-without-sender-validation", "main.mjs", 15, 18, "observed"},
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			r := analyzeFixture(t, c.fixture, Options{})
			for _, w := range c.want {
				if !hasFinding(r, w) {
					t.Errorf("missing %s at %s:%d:%d (%s); got:\n%s", w.rule, w.file, w.line, w.col, w.confidence, listFindings(r))
				}
			}
		})
	}
}

func TestAnalyzeFindsNothingSevereInTheSecureApp(t *testing.T) {
	for _, fx := range []string{"secure", "typescript"} {
		r := analyzeFixture(t, fx, Options{})
		for _, f := range r.Findings {
			if f.Severity == "high" || f.Severity == "medium" {
				t.Errorf("%s: unexpected %s finding %s at %v", fx, f.Severity, f.RuleID, f.Location)
			}
		}
		if len(r.Windows) != 1 {
			t.Fatalf("%s: %d windows, want 1", fx, len(r.Windows))
		}
	}
	r := analyzeFixture(t, "secure", Options{})
	for _, f := range r.Findings {
		if f.RuleID == "permission-handler-missing" || f.RuleID == "navigation-unrestricted" || f.RuleID == "csp-missing" {
			t.Errorf("secure app has the control, yet %s was reported", f.RuleID)
		}
	}
	if r.Summary.SenderValidationObservations != 1 {
		t.Errorf("sender validation observations = %d, want 1", r.Summary.SenderValidationObservations)
	}
}

func hasFinding(r *Result, w wantFinding) bool {
	for _, f := range r.Findings {
		if f.RuleID == w.rule && f.Location == (Location{File: w.file, Line: w.line, Column: w.col}) && f.Confidence == w.confidence {
			return true
		}
	}
	return false
}

func listFindings(r *Result) string {
	var b bytes.Buffer
	for _, f := range r.Findings {
		b.WriteString(f.RuleID + " " + f.Confidence + " " + f.Location.File + ":" + itoa(f.Location.Line) + ":" + itoa(f.Location.Column) + "\n")
	}
	return b.String()
}

func TestAnalyzeKeepsTokensOutOfTheResult(t *testing.T) {
	r := analyzeFixture(t, "insecure", Options{})
	b, _ := json.Marshal(r)
	if bytes.Contains(b, []byte("token=secret")) {
		t.Fatal("the query token of a loadURL literal reached the result")
	}
	if r.Windows[0].Loads[0].Target != "http://editor.example.com/app" {
		t.Fatalf("load target %q", r.Windows[0].Loads[0].Target)
	}
}

func TestAnalyzeKeepsTheEvidenceChainOfAnInferredOption(t *testing.T) {
	r := analyzeFixture(t, "insecure", Options{})
	var f *Finding
	for i := range r.Findings {
		if r.Findings[i].RuleID == "context-isolation-disabled" {
			f = &r.Findings[i]
		}
	}
	if f == nil {
		t.Fatal("no context-isolation-disabled finding")
	}
	want := []Location{
		{File: "main.js", Line: 19, Column: 16},          // new BrowserWindow
		{File: "main.js", Line: 9, Column: 10},           // return of editorPreferences
		{File: "main.js", Line: 10, Column: 8},           // ...baseWebPreferences()
		{File: "window-options.js", Line: 2, Column: 10}, // return of baseWebPreferences
	}
	if len(f.Evidence) != len(want) {
		t.Fatalf("evidence %+v, want %d steps", f.Evidence, len(want))
	}
	for i, l := range want {
		if f.Evidence[i].Location != l {
			t.Errorf("step %d at %v, want %v (%s)", i, f.Evidence[i].Location, l, f.Evidence[i].Description)
		}
	}
}

func TestAnalyzeTiesEachPreloadToTheWindowThatLoadsIt(t *testing.T) {
	cases := map[string]string{
		"secure":     "preload.js",
		"insecure":   "preload.js",
		"typescript": "src/preload.ts", // path.join(__dirname,'preload.js') in src/main.ts
		"esm":        "preload.cjs",    // __dirname from fileURLToPath(import.meta.url)
	}
	for fx, want := range cases {
		r := analyzeFixture(t, fx, Options{})
		if len(r.Windows) == 0 || r.Windows[0].Preload == nil || r.Windows[0].Preload.Module != want {
			t.Errorf("%s: first window preload = %+v, want module %s", fx, r.Windows[0].Preload, want)
			continue
		}
		var roles []string
		for _, m := range r.Modules {
			if m.Path == want {
				roles = m.Roles
			}
		}
		if !contains(roles, "electron-preload") {
			t.Errorf("%s: %s roles %v lack electron-preload", fx, want, roles)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestAnalyzePairsIPCAcrossModules(t *testing.T) {
	type want struct {
		file      string
		line, col int
		channel   string
		state     string
		pairing   string
	}
	cases := map[string][]want{
		"insecure": {
			{"preload.js", 6, 35, "file:save", "inferred", "paired"},     // constant from shared/channels.js
			{"preload.js", 7, 34, "file:open", "inferred", "ambiguous"},  // two ipcMain.handle
			{"preload.js", 8, 37, "file:missing", "literal", "unpaired"}, // no handler
			{"main.js", 21, 31, "status:update", "inferred", "paired"},   // webContents.send → ipcRenderer.on
			{"main.js", 33, 16, "", "dynamic", ""},                       // handler on process.argv[2]
		},
		"typescript": {
			{"src/preload.ts", 5, 61, "workbench:open", "inferred", "paired"}, // TS enum member
			{"src/main.ts", 21, 31, "workbench:close", "inferred", "paired"},  // this.win.webContents.send
		},
	}
	for fx, wants := range cases {
		r := analyzeFixture(t, fx, Options{})
		for _, w := range wants {
			var got *IPCOperation
			for i := range r.IPC {
				if r.IPC[i].Location == (Location{File: w.file, Line: w.line, Column: w.col}) {
					got = &r.IPC[i]
				}
			}
			if got == nil {
				t.Errorf("%s: no IPC operation at %s:%d:%d", fx, w.file, w.line, w.col)
				continue
			}
			if got.Channel != w.channel || got.ChannelState != w.state || got.Pairing != w.pairing {
				t.Errorf("%s: %s:%d:%d = channel %q %s %s, want %q %s %s", fx, w.file, w.line, w.col,
					got.Channel, got.ChannelState, got.Pairing, w.channel, w.state, w.pairing)
			}
		}
	}
	s := analyzeFixture(t, "insecure", Options{}).Summary.IPC
	if s.PairedRendererTransmissions != 1 || s.AmbiguousRendererTransmissions != 1 || s.UnpairedLiteralRendererTransmissions != 2 || s.DynamicChannelOperations != 1 {
		t.Errorf("summary %+v", s)
	}
}

func TestAnalyzeRecordsImportsOfEveryKind(t *testing.T) {
	r := analyzeFixture(t, "esm", Options{})
	want := map[string]Import{
		"main.mjs/static":                {Kind: "static", Specifier: "./config.mjs", SpecifierKind: "module-specifier", Resolved: "config.mjs"},
		"main.mjs/dynamic":               {Kind: "dynamic", Specifier: "./render.mjs", SpecifierKind: "module-specifier", Resolved: "render.mjs"},
		"main.mjs/worker":                {Kind: "worker", Specifier: "indexer.mjs", SpecifierKind: "filesystem-expression", Resolved: "indexer.mjs"},
		"renderer/app.js/service-worker": {Kind: "service-worker", Specifier: "./sw.js", SpecifierKind: "module-specifier", Resolved: "renderer/sw.js"},
	}
	found := map[string]bool{}
	for _, m := range r.Modules {
		for _, imp := range m.Imports {
			k := m.Path + "/" + imp.Kind
			w, ok := want[k]
			if !ok || imp.Specifier != w.Specifier {
				continue
			}
			if imp.SpecifierKind != w.SpecifierKind || imp.Resolved != w.Resolved {
				t.Errorf("%s: %+v, want %+v", k, imp, w)
			}
			found[k] = true
		}
	}
	for k := range want {
		if !found[k] {
			t.Errorf("import %s not found", k)
		}
	}
	if r.Package == nil || r.Package.Name != "esm-viewer" || r.Package.ResolvedMain != "main.mjs" || r.Package.ElectronVersion != "^38.0.0" {
		t.Errorf("package %+v", r.Package)
	}
}

func TestAnalyzeNeverExecutesTheApplication(t *testing.T) {
	marker := "/tmp/rea-jsengine-executed-marker"
	_ = os.Remove(marker)
	for _, fx := range []string{"secure", "insecure"} {
		analyzeFixture(t, fx, Options{})
	}
	if _, err := os.Stat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("fixture code ran: marker %s exists (%v)", marker, err)
	}
}

func TestAnalyzeIsByteIdenticalAcrossRunsAndFilesystems(t *testing.T) {
	for _, fx := range []string{"insecure", "typescript", "esm"} {
		dir := filepath.Join(fixtures, fx)
		a, _ := json.Marshal(analyzeFixture(t, fx, Options{}))
		b, _ := json.Marshal(analyzeFixture(t, fx, Options{}))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", fx)
		}
		mem := fstest.MapFS{}
		_ = fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(filepath.Join(dir, p))
				mem[p] = &fstest.MapFile{Data: data}
			}
			return nil
		})
		r, err := Analyze(context.Background(), mem, Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := json.Marshal(r)
		if !bytes.Equal(a, c) {
			t.Errorf("%s: directory and in-memory filesystem results differ", fx)
		}
	}
}

func TestAnalyzeMarksLimitsAsPartialCoverageOrFailsWhenAsked(t *testing.T) {
	r := analyzeFixture(t, "insecure", Options{MaxTextFiles: 2})
	if r.Coverage.Status != "partial" || len(r.Coverage.LimitsReached) != 1 || r.Coverage.LimitsReached[0].Limit != "max_text_files" ||
		r.Coverage.LimitsReached[0].Omitted != 3 {
		t.Fatalf("coverage %+v", r.Coverage)
	}
	if len(r.OmittedFiles) != 3 || r.OmittedFiles[0].Reason != "max_text_files" {
		t.Errorf("omitted files %+v", r.OmittedFiles)
	}
	// The entry point is read first, so the limit cuts other files.
	if r.Modules[0].Path != "main.js" && (len(r.Modules) < 2 || r.Modules[1].Path != "main.js") {
		t.Errorf("main.js not among the analysed modules: %+v", r.Modules)
	}
	_, err := Analyze(context.Background(), os.DirFS(filepath.Join(fixtures, "insecure")), Options{MaxASTNodes: 50, FailOnLimit: true}, nil)
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeResourceConstraint || ae.Details["limit"] != "max_ast_nodes" {
		t.Fatalf("err = %v, want resource_constraint on max_ast_nodes", err)
	}
	r = analyzeFixture(t, "insecure", Options{MaxFindings: 3})
	if len(r.Findings) != 3 || r.Coverage.Status != "partial" || r.Findings[0].Severity != "high" {
		t.Fatalf("findings %d, coverage %+v", len(r.Findings), r.Coverage)
	}
}

func TestOptionsRejectNegativeAndOverCapLimits(t *testing.T) {
	for _, o := range []Options{{MaxTextFiles: -1}, {MaxASTNodes: report.LimitCaps.MaxASTNodes + 1}} {
		_, err := Analyze(context.Background(), fstest.MapFS{}, o, nil)
		var ae *abi.Error
		if !errors.As(err, &ae) || ae.Code != abi.CodeInvalidRequest || ae.Details["field"] == nil {
			t.Errorf("%+v: err = %v, want invalid_request with a field", o, err)
		}
	}
}

func TestAnalyzeStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyze(ctx, os.DirFS(filepath.Join(fixtures, "insecure")), Options{}, nil)
	var ae *abi.Error
	if !errors.As(err, &ae) || ae.Code != abi.CodeCancelled {
		t.Fatalf("err = %v, want cancelled", err)
	}
}

func TestAnalyzeReportsHTMLEntrypointsAndCSP(t *testing.T) {
	r := analyzeFixture(t, "secure", Options{})
	if len(r.HTML) != 1 || r.HTML[0].CSP == nil || *r.HTML[0].CSP != "default-src 'self'; script-src 'self'" {
		t.Fatalf("html %+v", r.HTML)
	}
	s := r.HTML[0].Scripts
	if len(s) != 1 || s[0].Resolved != "renderer.js" || s[0].Location != (Location{File: "index.html", Line: 8, Column: 5}) {
		t.Fatalf("scripts %+v", s)
	}
	var kinds []string
	for _, e := range r.Entrypoints {
		kinds = append(kinds, e.Kind+":"+e.Path)
	}
	for _, k := range []string{"electron-main:main.js", "electron-preload:preload.js", "renderer-html:index.html", "renderer-script:renderer.js"} {
		if !contains(kinds, k) {
			t.Errorf("entrypoint %s missing from %v", k, kinds)
		}
	}
}

func TestFileLimitKeepsTheEntryPointAndWhatItLoads(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json":              {Data: []byte(`{"main":"main.js"}`)},
		"main.js":                   {Data: []byte("const { createWindow } = require('./lib/window');\ncreateWindow();\n")},
		"lib/window.js":             {Data: []byte("const { BrowserWindow } = require('electron');\nconst path = require('path');\nexports.createWindow = () => new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.js') } });\n")},
		"lib/preload.js":            {Data: []byte("require('electron').contextBridge.exposeInMainWorld('x', {});\n")},
		"a/unrelated1.js":           {Data: []byte("module.exports = 1;\n")},
		"a/unrelated2.js":           {Data: []byte("module.exports = 2;\n")},
		"node_modules/dep/index.js": {Data: []byte("module.exports = 3;\n")},
	}
	r, err := Analyze(context.Background(), fsys, Options{MaxTextFiles: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range r.Modules {
		paths = append(paths, m.Path)
	}
	if len(paths) != 3 || paths[0] != "lib/preload.js" || paths[1] != "lib/window.js" || paths[2] != "main.js" {
		t.Fatalf("analysed %v, want the entry point, its import and the preload it names", paths)
	}
	if len(r.Windows) != 1 || r.Windows[0].Preload == nil || r.Windows[0].Preload.Module != "lib/preload.js" || r.Coverage.Status != "partial" {
		t.Fatalf("windows %+v coverage %+v", r.Windows, r.Coverage)
	}
}

func TestScanSpecifiersFindsReferencesBeforeParsing(t *testing.T) {
	src := `import a from "./a.js"; const b = require( './b' ); import('./c');
const p = path.join(__dirname, 'preload.js'); const s = "not a file"; import "./side";
<script src="renderer.js"></script> const t = 'x' + "y.ts";`
	got := scanSpecifiers([]byte(src), 100)
	want := []string{"./a.js", "./b", "./c", "preload.js", "./side", "renderer.js", "y.ts"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestAnalyzeReportsProgressPerPhase(t *testing.T) {
	phases := map[string]int{}
	last := map[string]int{}
	_, err := Analyze(context.Background(), os.DirFS(filepath.Join(fixtures, "insecure")), Options{}, func(phase string, done, total int) {
		phases[phase]++
		if done > total || done < last[phase] {
			t.Errorf("%s: %d/%d after %d", phase, done, total, last[phase])
		}
		last[phase] = done
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"read", "parse", "analyze"} {
		if phases[p] == 0 {
			t.Errorf("no %s progress: %v", p, phases)
		}
	}
	if last["analyze"] == 0 {
		t.Error("analyze progress never reached its total")
	}
}

func TestGuardTurnsAPanicIntoAnError(t *testing.T) {
	if err := guard(func() { var m map[string]int; m["x"] = 1 }); err == nil {
		t.Fatal("panic not recovered")
	}
	if err := guard(func() {}); err != nil {
		t.Fatal(err)
	}
}

func TestDependenciesNotReachedFromTheEntryAreStillAnalysed(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json":                 {Data: []byte(`{"main":"main.js"}`)},
		"main.js":                      {Data: []byte("require('electron').ipcMain.handle('app:x', () => 1);\n")},
		"node_modules/plugin/index.js": {Data: []byte("const { ipcMain } = require('electron');\nipcMain.on('plugin:y', () => {});\n")},
		"node_modules/plugin/other.js": {Data: []byte("module.exports = 1;\n")},
	}
	r, err := Analyze(context.Background(), fsys, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var channels []string
	for _, op := range r.IPC {
		channels = append(channels, op.Channel+"@"+op.Location.File)
	}
	if len(channels) != 2 || channels[0] != "app:x@main.js" || channels[1] != "plugin:y@node_modules/plugin/index.js" {
		t.Fatalf("ipc %v", channels)
	}
	if len(r.Modules) != 3 || r.Statistics.ParsedJavaScriptFiles != 3 {
		t.Fatalf("modules %+v", r.Modules)
	}
}

// TestNextQuoteFindsWhatAByteLoopFinds checks the eight-at-a-time search
// against the plain loop at every offset of inputs full of near misses
// (bytes one away from each quote, high bytes, quotes at every position
// modulo eight).
func TestNextQuoteFindsWhatAByteLoopFinds(t *testing.T) {
	slow := func(b []byte, i int) int {
		for ; i < len(b); i++ {
			if b[i] == '"' || b[i] == '\'' || b[i] == '`' {
				return i
			}
		}
		return len(b)
	}
	alphabet := []byte{'"', '\'', '`', '!', '#', '&', '(', '_', 'a', 0x00, 0x7f, 0x80, 0xa2, 0xa7, 0xe0, 0xff}
	for n := 0; n < 40; n++ {
		for seed := 0; seed < 64; seed++ {
			b := make([]byte, n)
			x := uint32(seed*2654435761 + n)
			for k := range b {
				x = x*1664525 + 1013904223
				b[k] = alphabet[x>>28]
				if x>>24&3 != 0 && (b[k] == '"' || b[k] == '\'' || b[k] == '`') { // mostly near misses, few quotes
					b[k] = 'a'
				}
			}
			for i := 0; i <= n; i++ {
				if got, want := nextQuote(b, i), slow(b, i); got != want {
					t.Fatalf("nextQuote(%q, %d) = %d; want %d", b, i, got, want)
				}
			}
		}
	}
}
