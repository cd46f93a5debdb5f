package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"rea/wasm/wasmtest"
)

// hostileApp is an Electron app whose channel names, file names, URLs and
// code carry markup, script and CSS meant to break out of an HTML report.
// Each payload sets window.__reaPwned if it ever runs.
func hostileApp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"name":"hostile</title><script>window.__reaPwned=1</script>","version":"1.0.0","main":"main.js","devDependencies":{"electron":"11.0.0"}}`,
		"main.js": `const { app, BrowserWindow, ipcMain } = require('electron')
const path = require('path')
app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false /* </style></script><script>window.__reaPwned=2</script> */, preload: path.join(__dirname, '<img src=x onerror=window.__reaPwned=3>.js') } })
  win.loadURL('javascript:window.__reaPwned=4')
  ipcMain.handle('</script><script>window.__reaPwned=5</script>', (e) => 1)
  ipcMain.on('x}</style><style>body{display:none}', () => {})
  ipcMain.on('"><svg onload=window.__reaPwned=6>', () => {})
})
`,
		"<img src=x onerror=window.__reaPwned=3>.js": `const { contextBridge, ipcRenderer } = require('electron')
contextBridge.exposeInMainWorld('a<b>"c', { go: () => ipcRenderer.send('</script><script>window.__reaPwned=5</script>') })
ipcRenderer.send('<iframe src="javascript:window.top.__reaPwned=7">')
`,
	})
	return dir
}

// chromium returns Debian's Chromium, or fails saying how to install it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("this test opens the report in real headless Chromium, which is not installed: apt-get install chromium (.ci/run does)")
	return ""
}

// browserPage is a loaded page in headless Chromium and the requests it made.
type browserPage struct {
	t        *testing.T
	ctx      context.Context
	mu       sync.Mutex
	requests []string
}

// openInChromium loads a file in headless Chromium, recording every network
// request the page makes; the browser ends with the test.
func openInChromium(t *testing.T, file string) *browserPage {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1300, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	p := &browserPage{t: t, ctx: ctx}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			p.mu.Lock()
			p.requests = append(p.requests, e.Request.URL)
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if err := chromedp.Do(p.ctx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.ID("graph"))); err != nil {
		t.Fatalf("chromium: load %s: %v", file, err)
	}
	return p
}

// eval evaluates a JavaScript expression of the test's own in the page.
func eval[T any](p *browserPage, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("chromium: evaluate %s: %v", expr, err)
	}
	return v
}

func (p *browserPage) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("chromium: %v", err)
	}
}

func (p *browserPage) madeRequests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// The HTML report of an app whose strings carry markup renders inertly: no
// payload runs, nothing is fetched, the page's own script still works under
// its CSP, and two renders of the same Evidence are the same bytes.
func TestHTMLReportOfAHostileAppIsInert(t *testing.T) {
	dir := hostileApp(t)
	first := reaWithModules(t, "analyze-javascript-application", dir, "--format", "html", "--fail-on-partial=false")
	if first.code != 0 {
		t.Fatalf("analyze --format html: exit %d\n%s", first.code, first.stderr)
	}
	second := reaWithModules(t, "analyze-javascript-application", dir, "--format", "html", "--fail-on-partial=false")
	if first.stdout != second.stdout {
		t.Fatal("two renders of the same application differ")
	}
	html := first.stdout
	for _, raw := range []string{"<script>window.__reaPwned", "<img src=x", "<svg onload", "<iframe", "</style><style>"} {
		if strings.Contains(html, raw) {
			t.Errorf("the page carries %q unescaped", raw)
		}
	}
	for _, escaped := range []string{"&lt;/script&gt;&lt;script&gt;window.__reaPwned=5&lt;/script&gt;", "x}&lt;/style&gt;&lt;style&gt;body{display:none}"} {
		if !strings.Contains(html, escaped) {
			t.Errorf("the page does not show the channel %q as text", escaped)
		}
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}

	p := openInChromium(t, file)
	pwned := eval[string](p, `typeof window.__reaPwned + (window.top.__reaPwned === undefined ? "" : "top")`)
	nodes := eval[int](p, `document.querySelectorAll('[data-node]').length`)
	graphNodes := eval[int](p, `document.querySelectorAll('#graph g.node').length`)
	channelTitles := eval[[]string](p, `Array.from(document.querySelectorAll('[data-kind="channel"] title')).map(t => t.textContent)`)
	p.do(chromedp.Click(chromedp.CSS(`[data-kind="channel"]`)))
	factsShown := eval[bool](p, `Array.from(document.querySelectorAll('.facts')).some(f => !f.hidden)`)
	requests := p.madeRequests()
	if pwned != "undefined" {
		t.Errorf("a payload from the app ran in the report: window.__reaPwned is %q", pwned)
	}
	for _, u := range requests {
		if u != "file://"+file {
			t.Errorf("the report made a request: %s", u)
		}
	}
	if nodes == 0 || nodes != graphNodes {
		t.Errorf("graph nodes in the DOM: %d data-node, %d g.node", nodes, graphNodes)
	}
	joined := strings.Join(channelTitles, "\n")
	for _, ch := range []string{"</script><script>window.__reaPwned=5</script>", "x}</style><style>body{display:none}", `"><svg onload=window.__reaPwned=6>`} {
		if !strings.Contains(joined, ch) {
			t.Errorf("no channel node titled %q among %q", ch, channelTitles)
		}
	}
	if !factsShown {
		t.Error("selecting a node showed no facts: the page's own script did not run under its CSP")
	}
}

// The report of the example app draws every window, preload, bridge API,
// channel and handler of its analysis, and shows partial coverage first.
// REA_REPORT_SCREENSHOT=FILE also writes the screenshot the README shows.
func TestHTMLReportDrawsTheBoundaryOfTheExampleApp(t *testing.T) {
	app := filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", "insecure")
	r := reaWithModules(t, "analyze", app, "--format", "html")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	p := openInChromium(t, file)
	kinds := eval[map[string]int](p, `(() => { const m = {}; document.querySelectorAll('[data-node]').forEach(n => { m[n.getAttribute('data-kind')] = (m[n.getAttribute('data-kind')] || 0) + 1 }); return m })()`)
	coverage := eval[string](p, `document.getElementById('coverage').textContent`)
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("chromium: screenshot: %v", err)
	}
	// testdata/electron/insecure: two windows, one preload exposing one
	// bridge API, handlers on file:open, file:save, file:recent.
	if kinds["BrowserWindow"] != 2 || kinds["contextBridge"] != 1 || kinds["channel"] < 5 || kinds["handler"] < 3 {
		t.Errorf("graph nodes by kind: %v", kinds)
	}
	if !strings.HasPrefix(coverage, "Coverage is complete") {
		t.Errorf("coverage line: %q", coverage)
	}
	if out := os.Getenv("REA_REPORT_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.HasPrefix(shot, []byte("\x89PNG")) {
		t.Error("the screenshot is not a PNG")
	}
}

// A partial analysis says so first, in words, before any count.
func TestHTMLReportPutsPartialCoverageFirst(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"name":"p","main":"main.js"}`,
		"main.js":      "const { BrowserWindow } = require('electron')\nnew BrowserWindow({})\n",
	})
	for i := 0; i < 3; i++ {
		writeFiles(t, dir, map[string]string{filepath.Base(t.Name()) + string(rune('a'+i)) + ".js": "module.exports = 1\n"})
	}
	r := reaWithModules(t, "analyze-javascript-application", dir, "--format", "html", "--max-text-files", "2")
	if r.code != 2 {
		t.Fatalf("exit %d, want 2 (partial)\n%s", r.code, r.stderr)
	}
	body := r.stdout[strings.Index(r.stdout, "<body>"):]
	cov := strings.Index(body, "Coverage is PARTIAL")
	if cov < 0 || cov > strings.Index(body, "<h1>") {
		t.Errorf("partial coverage is not the first thing on the page:\n%.600s", body)
	}
}

// render_application_report over MCP gives the page the CLI prints, for the
// same Evidence, with its size and digest.
func TestRenderApplicationReportOverMCPIsTheCLIPage(t *testing.T) {
	c := startMCP(t)
	view := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": electronFixture(t, "insecure"), "detail": "summary"}))
	parent := view["normalized_result"].(map[string]any)["parent_evidence_id"].(string)
	out := structured(t, c.call(t, "render_application_report", map[string]any{"application": map[string]any{"kind": "retained-evidence", "evidence_id": parent}}))
	html, _ := out["html"].(string)
	if out["source_evidence_id"] != parent || out["bytes"].(float64) != float64(len(html)) || !strings.HasPrefix(html, "<!DOCTYPE html>") {
		t.Fatalf("render_application_report: %v bytes, source %v", out["bytes"], out["source_evidence_id"])
	}
	cli := reaWithModules(t, "analyze", electronFixture(t, "insecure"), "--format", "html")
	if cli.code != 0 || cli.stdout != html {
		t.Fatalf("the MCP page and the CLI page differ (exit %d)", cli.code)
	}
	// The summary's own evidence_id resolves to the application it
	// summarises (issue 21 point 9): the same page.
	same := structured(t, c.call(t, "render_application_report", map[string]any{"application": map[string]any{"kind": "retained-evidence", "evidence_id": view["evidence_id"]}}))
	if same["html"] != html || same["source_evidence_id"] != parent {
		t.Fatalf("the summary's evidence_id did not render its parent application (source %v)", same["source_evidence_id"])
	}
	// Evidence of another operation is refused with what to do.
	inv := structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": electronFixture(t, "insecure")}))
	e := toolError(t, c.call(t, "render_application_report", map[string]any{"application": map[string]any{"kind": "retained-evidence", "evidence_id": inv["evidence_id"]}}))
	if e["code"] != "capability_unavailable" {
		t.Fatalf("inspect_artifact Evidence: %v", e)
	}
}
