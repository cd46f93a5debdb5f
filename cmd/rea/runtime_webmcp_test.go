package main_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// webMCPFlag turns on Chromium's WebMCP API (document.modelContext) and its
// DevTools domain; Debian's Chromium ships both behind this Blink feature.
const webMCPFlag = "--enable-blink-features=WebMCPTesting"

// A page that registers tools through WebMCP: rea lists every tool with its
// description and input schema, sorted, never invoking one (an invocation
// would define a global the page inventory then shows), and a small
// --max-tools keeps the first tools and says the list was cut.
func TestDiscoverWebMCPToolsListsAPagesToolsWithoutInvokingThem(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html><head><title>webmcp</title><script>
const mark = (name) => async () => { window['invoked_' + name] = true; return 'done'; };
document.modelContext.registerTool({ name: 'search_docs', description: 'Search the documentation',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, execute: mark('search') });
document.modelContext.registerTool({ name: 'add_to_cart', description: 'Put an item in the cart',
  inputSchema: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } }, execute: mark('cart') });
</script></head><body><p>tools</p></body></html>`)
	})
	origin := serveLoopback(t, mux)
	ep := launchChromium(t, origin+"/", "webmcp", webMCPFlag)
	id := firstTarget(t, "list-browser-targets", ep, "--allow-origin", origin)

	r := reaWithModules(t, "discover-webmcp-tools", ep, id, "--allow-origin", origin, "--format", "json")
	if r.code != 0 {
		t.Fatalf("discover-webmcp-tools: exit %d\n%s", r.code, r.stderr)
	}
	type tool struct {
		Name, Description string
		InputSchema       string `json:"input_schema"`
	}
	var ev struct {
		Operation        string
		NormalizedResult struct {
			Tools      []tool
			Truncated  bool
			APIEnabled bool `json:"api_enabled"`
		} `json:"normalized_result"`
		Limitations []string
	}
	decode(t, r.stdout, &ev)
	got := ev.NormalizedResult
	if len(got.Tools) != 2 || got.Truncated || !got.APIEnabled || strings.Contains(strings.Join(ev.Limitations, "\n"), "WebMCP") {
		t.Fatalf("tools %+v truncated %v api_enabled %v limitations %q, want add_to_cart and search_docs", got.Tools, got.Truncated, got.APIEnabled, ev.Limitations)
	}
	if got.Tools[0].Name != "add_to_cart" || got.Tools[1].Name != "search_docs" {
		t.Errorf("tools not sorted by name: %s, %s", got.Tools[0].Name, got.Tools[1].Name)
	}
	if got.Tools[1].Description != "Search the documentation" || !strings.Contains(got.Tools[1].InputSchema, `"query"`) ||
		!strings.Contains(got.Tools[0].InputSchema, `"quantity"`) {
		t.Errorf("descriptions or input schemas lost: %+v", got.Tools)
	}

	// Listing never ran a tool: the page defines no invoked_* global.
	ins := runtimeCall(t, "inspect-web-page", ep, id, "--allow-origin", origin)
	for _, g := range ins.NormalizedResult.ExposedGlobals {
		if strings.HasPrefix(g.Name, "invoked_") {
			t.Errorf("a tool was invoked while listing: global %s", g.Name)
		}
	}

	r = reaWithModules(t, "discover-webmcp-tools", ep, id, "--allow-origin", origin, "--max-tools", "1", "--format", "json")
	if r.code != 0 {
		t.Fatalf("discover-webmcp-tools --max-tools 1: exit %d\n%s", r.code, r.stderr)
	}
	decode(t, r.stdout, &ev)
	if len(ev.NormalizedResult.Tools) != 1 || !ev.NormalizedResult.Truncated {
		t.Errorf("--max-tools 1: %d tools, truncated %v; want 1, true", len(ev.NormalizedResult.Tools), ev.NormalizedResult.Truncated)
	}

	// Text output names each tool.
	r = reaWithModules(t, "discover-webmcp-tools", ep, id, "--allow-origin", origin)
	if r.code != 0 || !strings.Contains(r.stdout, "webmcp tool search_docs: Search the documentation") {
		t.Errorf("text output: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// The same page in a Chromium with WebMCP off: zero tools, and the result
// says the API is off rather than reading as a page without tools.
func TestDiscoverWebMCPToolsSaysWhenTheBrowserHasTheAPIOff(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html><head><title>webmcp-off</title></head><body><p>no api</p></body></html>`)
	})
	origin := serveLoopback(t, mux)
	ep := launchChromium(t, origin+"/", "webmcp-off")
	id := firstTarget(t, "list-browser-targets", ep, "--allow-origin", origin)
	r := reaWithModules(t, "discover-webmcp-tools", ep, id, "--allow-origin", origin, "--format", "json")
	if r.code != 0 {
		t.Fatalf("discover-webmcp-tools: exit %d\n%s", r.code, r.stderr)
	}
	var ev struct {
		NormalizedResult struct {
			Tools      []struct{ Name string }
			APIEnabled bool `json:"api_enabled"`
		} `json:"normalized_result"`
		Limitations []string
	}
	decode(t, r.stdout, &ev)
	if len(ev.NormalizedResult.Tools) != 0 || ev.NormalizedResult.APIEnabled ||
		!strings.Contains(strings.Join(ev.Limitations, "\n"), webMCPFlag) {
		t.Errorf("WebMCP off: tools %v api_enabled %v limitations %q; want none, false and a limitation naming %s",
			ev.NormalizedResult.Tools, ev.NormalizedResult.APIEnabled, ev.Limitations, webMCPFlag)
	}
}

// A page that navigates away mid-observation: a move within the approved
// origin is one more timeline event; a move to another origin ends the
// observation there as partial, keeps only that origin, and records
// nothing the other page did (the in-scope page's own request that led
// there is its behaviour and stays, its query redacted).
func TestObservationStopsWhenThePageNavigatesOutOfScope(t *testing.T) {
	other := http.NewServeMux()
	other.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>elsewhere</title><script>setInterval(() => console.log('secret-of-another-origin'), 50)</script>`)
	})
	away := serveLoopback(t, other)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>start</title><script>console.log('start page'); setTimeout(() => location.href = '/second', 1500)</script>`)
	})
	mux.HandleFunc("/second", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>second</title><script>console.log('second page'); setTimeout(() => location.href = %q, 1500)</script>`, away+"/landing?token=abc")
	})
	origin := serveLoopback(t, mux)
	ep := launchChromium(t, origin+"/", "start")
	id := firstTarget(t, "list-browser-targets", ep, "--allow-origin", origin)
	r := reaWithModules(t, "observe-web-session", ep, id, "--allow-origin", origin, "--observation-ms", "30000", "--format", "json")
	if r.code != 0 {
		t.Fatalf("observe-web-session: exit %d\n%s", r.code, r.stderr)
	}
	var ev struct {
		NormalizedResult struct {
			Events   []struct{ Kind, Text, URL string }
			Ended    string
			Complete bool
		} `json:"normalized_result"`
		Limitations []string
	}
	decode(t, r.stdout, &ev)
	n := ev.NormalizedResult
	if n.Ended != "navigated_out_of_scope" || n.Complete {
		t.Fatalf("ended %q complete %v, want navigated_out_of_scope and partial; events %+v", n.Ended, n.Complete, n.Events)
	}
	var navs []string
	for _, e := range n.Events {
		if e.Kind == "navigation" {
			navs = append(navs, e.URL)
		}
		if strings.Contains(e.Text, "secret-of-another-origin") || strings.Contains(e.URL, "token") {
			t.Errorf("something of the other origin was recorded: %+v", e)
		}
	}
	if len(navs) < 2 || navs[len(navs)-1] != away || !strings.HasSuffix(navs[len(navs)-2], "/second") {
		t.Errorf("navigations %q: want the in-scope move to /second, then %s (origin only)", navs, away)
	}
	if !strings.Contains(strings.Join(ev.Limitations, "\n"), "outside the approved scope") {
		t.Errorf("no limitation says the page left the scope: %q", ev.Limitations)
	}
}
