package htmlreport

import (
	"bytes"
	"fmt"
	"html"
	"strings"
	"testing"

	"rea/jsengine/report"
)

func at(file string, line int) report.Location {
	return report.Location{File: file, Line: line, Column: 1}
}

// smallApp is one window with a preload exposing one API that sends on a
// channel a main handler answers, plus a dynamic send.
func smallApp() *report.Result {
	return &report.Result{
		Windows: []report.Window{{ID: "w1", Kind: "BrowserWindow", Module: "main.js", Location: at("main.js", 10),
			WebPreferences: map[string]report.Value{"contextIsolation": {Value: false, State: "observed"}},
			Preload:        &report.Preload{Module: "preload.js", State: "observed", Location: at("main.js", 12)}}},
		ContextBridge: []report.ExposedAPI{{Module: "preload.js", Key: "api", KeyState: "literal", World: "main", Location: at("preload.js", 3)}},
		IPC: []report.IPCOperation{
			{ID: "i1", Module: "preload.js", Side: "renderer", API: "ipcRenderer.invoke", Role: "transmission", Channel: "save", ChannelState: "literal", Pairing: "paired", Location: at("preload.js", 4)},
			{ID: "i2", Module: "preload.js", Side: "renderer", API: "ipcRenderer.send", Role: "transmission", ChannelState: "dynamic", Pairing: "dynamic", Location: at("preload.js", 5)},
			{ID: "i3", Module: "main.js", Side: "main", API: "ipcMain.handle", Role: "handler", Channel: "save", ChannelState: "literal", Pairing: "paired", Location: at("main.js", 30)},
		},
		Findings: []report.Finding{
			{RuleID: "context-isolation-disabled", Severity: "high", Location: at("main.js", 11)},
			{RuleID: "ipc-no-sender-validation", Severity: "medium", Location: at("main.js", 31)},
			{RuleID: "elsewhere", Severity: "low", Location: at("other.js", 1)},
		},
	}
}

func TestBuildGraphDrawsTheBoundary(t *testing.T) {
	g := BuildGraph(smallApp())
	want := []struct {
		id, kind string
		layer    int
		severity string
	}{
		{"w:0", "BrowserWindow", LayerWindow, "high"},
		{"m:preload.js", "preload", LayerPreload, ""},
		{"a:0", "contextBridge", LayerBridge, ""},
		{"c:save", "channel", LayerChannel, ""},
		{"c:?i2", "channel", LayerChannel, ""},
		{"h:i3", "handler", LayerMain, "medium"},
	}
	if len(g.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d: %+v", len(g.Nodes), len(want), g.Nodes)
	}
	for _, w := range want {
		n := g.node(w.id)
		if n == nil {
			t.Errorf("no node %s", w.id)
			continue
		}
		if n.Kind != w.kind || n.Layer != w.layer || n.Severity != w.severity {
			t.Errorf("%s: kind %q layer %d severity %q, want %q %d %q", w.id, n.Kind, n.Layer, n.Severity, w.kind, w.layer, w.severity)
		}
	}
	edges := map[string]string{}
	for _, e := range g.Edges {
		edges[e.From+">"+e.To] = e.Pairing
	}
	for link, pairing := range map[string]string{"w:0>m:preload.js": "", "m:preload.js>a:0": "", "a:0>c:save": "paired", "a:0>c:?i2": "dynamic", "c:save>h:i3": "paired"} {
		if got, ok := edges[link]; !ok || got != pairing {
			t.Errorf("edge %s: %q (present %v), want %q", link, got, ok, pairing)
		}
	}
	if len(g.Edges) != 5 {
		t.Errorf("%d edges: %v", len(g.Edges), edges)
	}
}

func TestLayoutIsDeterministicAndCollapsesBigColumns(t *testing.T) {
	r := &report.Result{}
	for i := 0; i < 50; i++ {
		r.IPC = append(r.IPC, report.IPCOperation{ID: fmt.Sprintf("i%02d", i), Module: "main.js", Side: "main", API: "ipcMain.on", Role: "listener",
			Channel: fmt.Sprintf("ch-%02d", 49-i), ChannelState: "literal", Location: at("main.js", i+1)})
	}
	a, b := BuildGraph(r), BuildGraph(r)
	wa, ha := Layout(a, 10)
	wb, hb := Layout(b, 10)
	if wa != wb || ha != hb {
		t.Fatalf("sizes differ: %dx%d vs %dx%d", wa, ha, wb, hb)
	}
	collapsed := map[int]int{}
	for i := range a.Nodes {
		if a.Nodes[i].X != b.Nodes[i].X || a.Nodes[i].Y != b.Nodes[i].Y {
			t.Fatalf("node %s placed differently", a.Nodes[i].ID)
		}
		if a.Nodes[i].Collapsed {
			collapsed[a.Nodes[i].Layer]++
		}
	}
	if collapsed[LayerChannel] != 40 || collapsed[LayerMain] != 40 {
		t.Errorf("collapsed per layer: %v, want 40 channels and 40 handlers", collapsed)
	}
	for _, e := range a.Edges {
		if e.Collapsed != (a.node(e.From).Collapsed || a.node(e.To).Collapsed) {
			t.Errorf("edge %s>%s collapsed %v", e.From, e.To, e.Collapsed)
		}
	}
}

func TestRenderEscapesEveryAppString(t *testing.T) {
	r := smallApp()
	r.IPC[0].Channel = `</script><script>alert(1)</script>`
	r.IPC[2].Channel = r.IPC[0].Channel
	r.Findings[0].Snippet = `<img src=x onerror=alert(2)>`
	r.ContextBridge[0].Key = `"><svg onload=alert(3)>`
	var a, b bytes.Buffer
	in := Input{Title: "t<b>", EvidenceID: "ev_x", Coverage: "partial", Limitations: []string{"<i>limit</i>"}, Result: r}
	if err := Render(&a, in); err != nil {
		t.Fatal(err)
	}
	if err := Render(&b, in); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two renders differ")
	}
	page := a.String()
	for _, raw := range []string{"<script>alert", "<img src=x", "<svg onload", "<i>limit", "t<b>"} {
		if strings.Contains(page, raw) {
			t.Errorf("unescaped %q in the page", raw)
		}
	}
	if strings.Count(page, "<script>") != 1 {
		t.Errorf("the page has %d script elements, want its own one", strings.Count(page, "<script>"))
	}
	if !strings.Contains(page, "Coverage is PARTIAL") {
		t.Error("partial coverage is not stated")
	}
	if csp := html.UnescapeString(page); !strings.Contains(csp, "script-src 'sha256-") || strings.Contains(csp, "unsafe-inline") {
		t.Error("the page's CSP does not pin its script by hash")
	}
}

// A 3,000-module application's page (issue goal: rendered in ≤ 1 s).
func BenchmarkRender3000Modules(b *testing.B) {
	r := &report.Result{}
	for i := 0; i < 3000; i++ {
		mod := fmt.Sprintf("src/m%04d.js", i)
		r.Modules = append(r.Modules, report.Module{Path: mod})
		if i%10 == 0 {
			r.IPC = append(r.IPC, report.IPCOperation{ID: fmt.Sprintf("r%d", i), Module: mod, Side: "renderer", API: "ipcRenderer.send", Role: "transmission",
				Channel: fmt.Sprintf("ch%d", i), ChannelState: "literal", Pairing: "paired", Location: at(mod, 3)})
			r.IPC = append(r.IPC, report.IPCOperation{ID: fmt.Sprintf("m%d", i), Module: "main.js", Side: "main", API: "ipcMain.on", Role: "listener",
				Channel: fmt.Sprintf("ch%d", i), ChannelState: "literal", Pairing: "paired", Location: at("main.js", i+1)})
			r.Findings = append(r.Findings, report.Finding{RuleID: "r", Severity: "low", Location: at(mod, 3), Snippet: "ipcRenderer.send(x)"})
		}
	}
	for i := 0; i < 20; i++ {
		r.Windows = append(r.Windows, report.Window{ID: fmt.Sprint(i), Kind: "BrowserWindow", Location: at("main.js", i+1),
			Preload: &report.Preload{Module: fmt.Sprintf("src/m%04d.js", i*10), State: "observed"}})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		if err := Render(&out, Input{Title: "big", Coverage: "complete", Result: r}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(out.Len()))
	}
}
