package main

// The targets made at run time: a gcc-built ELF (and a second build of it
// for diff_binaries), a headless Chromium page served on loopback, the
// Electron-shaped runtime fixture opened in Chromium, a Node inspector, and
// the session-level tools (guidance, unknowns, Evidence bundles,
// reconstruction, process captures). Each step measures one default call
// and keeps its structured result for the calls that refer to it.
//
// Parameter names are written once per call here; when a tool's parameter
// is renamed, change it in the call below (the script fails with the
// missing tool's name if a call stops producing a row).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/host/operation"
)

// runner measures calls on one target and records their rows.
type runner struct {
	c      *mcp.ClientSession
	target string
	rows   *[]row
	seen   map[string]bool
	// last is each tool's latest successful result, across targets.
	last map[string]map[string]any
}

func (r *runner) call(tool string, args map[string]any) map[string]any {
	rw, res := measureResult(r.c, tool, args)
	rw.target = r.target
	*r.rows = append(*r.rows, rw)
	r.seen[tool] = true
	if res != nil {
		r.last[tool] = res
	}
	fmt.Fprintf(os.Stderr, "%-40s %-32s %9d %s\n", rw.tool, r.target, rw.bytes, rw.err)
	return res
}

// skip records a tool that could not be called on this target, with why.
func (r *runner) skip(tool, why string) {
	*r.rows = append(*r.rows, row{tool: tool, target: r.target, err: "not called: " + why})
	r.seen[tool] = true
	fmt.Fprintf(os.Stderr, "%-40s %-32s not called: %s\n", tool, r.target, why)
}

func ref(res map[string]any) map[string]any {
	if res == nil {
		return map[string]any{"kind": "retained-evidence", "evidence_id": "ev_" + strings.Repeat("0", 64)}
	}
	return map[string]any{"kind": "retained-evidence", "evidence_id": res["evidence_id"]}
}

// find returns the first value under key anywhere in v (depth first).
func find(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		if val, ok := x[key]; ok {
			return val
		}
		for _, val := range x {
			if f := find(val, key); f != nil {
				return f
			}
		}
	case []any:
		for _, val := range x {
			if f := find(val, key); f != nil {
				return f
			}
		}
	}
	return nil
}

// example is a tool's first advertised example input (host/operation).
func example(tool string) map[string]any {
	for _, s := range operation.All() {
		if s.Name == tool && len(s.Examples) > 0 {
			b, _ := json.Marshal(s.Examples[0])
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			return m
		}
	}
	return map[string]any{}
}

const elfSource = `#include <stdio.h>
#include <string.h>
struct rea_record { int id; char name[32]; long flags; };
static const char *secret = "password=hunter2";
int check(struct rea_record *r, const char *in) {
	char buf[16];
	strcpy(buf, in);
	r->flags = 0x5eed1;
	return strcmp(buf, secret) == 0;
}
int main(int argc, char **argv) {
	struct rea_record r = {1, "rea", 0};
	if (argc > 1 && check(&r, argv[1])) puts("ok");
	printf("%s %ld\n", r.name, r.flags);
	return 0;
}
`

// buildELF compiles elfSource with gcc at opt into work and returns the path.
func buildELF(work, opt string) string {
	src := filepath.Join(work, "fixture.c")
	if err := os.WriteFile(src, []byte(elfSource), 0o644); err != nil {
		fail(err)
	}
	out := filepath.Join(work, "fixture"+opt)
	cmd := exec.Command("gcc", "-g", opt, "-fno-inline", "-o", out, src)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("gcc (apt-get install -y gcc): %w", err))
	}
	return out
}

// nativeDepth measures the native depth and context tools on an ELF whose
// entry procedure is proc; name is an imported symbol, str a string in it.
func nativeDepth(r *runner, elf, other, proc, name, str string) {
	in := func(kv ...any) map[string]any {
		m := map[string]any{"input_path": elf}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	types := r.call("list_types", in())
	typ := "rea_record"
	if items, _ := find(types, "items").([]any); len(items) > 0 && proc != "main" {
		if n, ok := find(items[0], "name").(string); ok {
			typ = n
		}
	}
	r.call("read_type", in("type", typ))
	r.call("find_code_for_string", in("query", str))
	r.call("find_xrefs_to_name", in("name", name))
	r.call("get_call_graph", in("address", proc))
	r.call("trace_call_path", in("start", proc, "goal", name))
	r.call("search_bytes", in("pattern", "e8 ?? ?? ?? ??"))
	r.call("search_constant", in("value", "0x5eed1"))
	r.call("search_instructions", in("sequence", []any{"push", "mov"}))
	r.call("diff_binaries", in("other_path", other))
}

// nativeContext opens elf in the session and measures the context tools.
func nativeContext(r *runner, elf, proc string) {
	r.call("open_binary", map[string]any{"input_path": elf})
	r.call("list_documents", map[string]any{})
	r.call("current_document", map[string]any{})
	r.call("current_address", map[string]any{})
	r.call("current_procedure", map[string]any{})
	r.call("get_navigation_context", map[string]any{})
	addr := "0x0"
	if procs := structured(r.c, "search_procedures", map[string]any{"input_path": elf, "pattern": proc, "mode": "literal", "case_sensitive": true}); procs != nil {
		if a, ok := find(procs, "address").(string); ok {
			addr = a
		}
	}
	r.call("inspect_address_context", map[string]any{"address": addr})
	// Analyst notes on the same procedure: writes, then the reads.
	r.call("set_address_name", map[string]any{"address": addr, "name": "analyst_entry"})
	r.call("set_addresses_names", map[string]any{"names": map[string]any{addr: "analyst_entry_2"}})
	r.call("set_comment", map[string]any{"address": addr, "comment": "entry of the measured procedure"})
	r.call("set_inline_comment", map[string]any{"address": addr, "comment": "first instruction"})
	r.call("set_bookmark", map[string]any{"address": addr, "name": "measured"})
	r.call("list_bookmarks", map[string]any{})
	r.call("comment", map[string]any{"address": addr})
	r.call("inline_comment", map[string]any{"address": addr})
	r.call("address_name", map[string]any{"address": addr})
	r.call("unset_bookmark", map[string]any{"address": addr})
}

// sourceTools measures the JavaScript source tools on app; bundle is one
// of its bundled files.
func sourceTools(r *runner, app, bundle, reference string) {
	// read_javascript_source lists only input_path as required, but the
	// service needs the file to read (path, source_ref or module).
	r.call("read_javascript_source", map[string]any{"input_path": app, "path": bundle})
	r.call("search_application_text", map[string]any{"input_path": app, "query": "ipc"})
	un := r.call("unpack_javascript_bundle", map[string]any{"input_path": app, "path": bundle})
	nextPage(r, un)
	r.call("extract_source_map_sources", map[string]any{"input_path": app})
	refSrc := r.call("import_reference_source", map[string]any{"input_path": reference})
	appEv := structured(r.c, "analyze_javascript_application", map[string]any{"input_path": app})
	r.call("compare_source_to_bundle", map[string]any{"reference": ref(refSrc), "application": ref(appEv)})
}

// writtenTools measures the writing tools whose lists grow with the
// input (sources of a map, files of a tree) and the next page of each.
func writtenTools(r *runner, input string) {
	nextPage(r, r.call("extract_source_map_sources", map[string]any{"input_path": input}))
	nextPage(r, r.call("extract_artifact", map[string]any{"input_path": input}))
}

// nextPage measures the page a writing tool's summary names next, when
// there is one: the call as next_calls gives it.
func nextPage(r *runner, summary map[string]any) {
	nr, _ := summary["normalized_result"].(map[string]any)
	page, _ := nr["page"].(map[string]any)
	if page["next_offset"] == nil {
		return
	}
	for _, c := range nr["next_calls"].([]any) {
		m := c.(map[string]any)
		if a, _ := m["arguments"].(map[string]any); m["tool"] == "inspect_analysis_view" && a["offset"] == page["next_offset"] {
			r.call("inspect_analysis_view", a)
			return
		}
	}
}

// sessionTools measures guidance, unknowns, Evidence bundles,
// reconstruction and process captures.
func sessionTools(r *runner, work string) {
	g := r.call("search_guidance", map[string]any{"query": "integrity policy"})
	if loc, ok := find(g, "locator").(string); ok {
		r.call("read_guidance_section", map[string]any{"locator": loc})
	} else {
		r.skip("read_guidance_section", "search_guidance returned no locator")
	}
	u := r.call("record_unknown", map[string]any{"question": "Which handler answers save?", "domain": "ipc"})
	id, _ := find(u, "unknown_id").(string)
	rev, _ := find(u, "revision").(float64)
	r.call("update_unknown", map[string]any{"unknown_id": id, "expected_revision": int(rev), "changes": map[string]any{"status": "investigating"}})
	r.call("verify_unknown_resolution", map[string]any{"unknown_id": id})
	bundle := filepath.Join(work, "evidence.json")
	r.call("export_evidence_bundle", map[string]any{"output_path": bundle})
	r.call("import_evidence_bundle", map[string]any{"input_path": bundle})
	r.call("build_reconstruction_obligation_ledger", map[string]any{"manifest": example("build_reconstruction_obligation_ledger")["manifest"]})
	spec := example("verify_reconstruction")["specification"]
	if cmp := r.last["compare_functions"]; cmp != nil {
		// The example's claim names a function comparison: point it at the
		// one measured on the native target.
		if claims, _ := find(spec, "claims").([]any); len(claims) > 0 {
			claims[0].(map[string]any)["evidence_id"] = cmp["evidence_id"]
		}
	}
	r.call("verify_reconstruction", map[string]any{"specification": spec})
	r.call("evaluate_reconstruction_coverage", map[string]any{"workspace": example("evaluate_reconstruction_coverage")["workspace"]})
	left := r.call("capture_process_scenario", map[string]any{"executable": "/bin/sh", "args": []any{"-c", "echo left"}})
	right := r.call("capture_process_scenario", map[string]any{"executable": "/bin/sh", "args": []any{"-c", "echo right; echo more >&2"}})
	r.call("compare_process_captures", map[string]any{"left": ref(left), "right": ref(right)})
}

// chromiumArgs are the headless flags rea's runtime tests use.
var chromiumArgs = []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	fail(fmt.Errorf("headless Chromium is needed for the browser tools: apt-get install -y chromium"))
	return ""
}

// launchChromium starts headless Chromium on url with a DevTools port on
// loopback and returns the endpoint and a stop function.
func launchChromium(work, url string) (string, func()) {
	dir, err := os.MkdirTemp(work, "chromium-")
	if err != nil {
		fail(err)
	}
	args := append(append([]string{}, chromiumArgs...), "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir="+dir, url)
	cmd := exec.Command(chromiumPath(), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	stop := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() }
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				ep := "http://127.0.0.1:" + port
				for time.Now().Before(deadline) {
					if resp, err := http.Get(ep + "/json/list"); err == nil {
						body := new(strings.Builder)
						_, _ = bufio.NewReader(resp.Body).WriteTo(body)
						resp.Body.Close()
						if strings.Contains(body.String(), `"type": "page"`) {
							return ep, stop
						}
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	fail(fmt.Errorf("Chromium did not open its DevTools port within 90 s"))
	return "", nil
}

const page = `<!doctype html><html><head><title>sizes</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'self' 'unsafe-inline'">
<script src="/app.js"></script></head>
<body><h1>sizes</h1><input id="name"><button id="go" onclick="fetch('/ping')">go</button><p class="done">ready</p></body></html>`

const pageScript = `window.sizesApi = { version: 1, save(x) { return fetch('/ping', {method: 'POST', body: x}) } };
setInterval(() => { console.log('beat'); fetch('/ping').catch(() => {}) }, 200);
`

// serve serves the page on a loopback port and returns its origin.
func serve() (string, func()) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) })
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, pageScript)
	})
	mux.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }
}

// browserTools measures the browser tools on a live loopback page.
func browserTools(r *runner, work string) {
	origin, stopServer := serve()
	defer stopServer()
	ep, stop := launchChromium(work, origin+"/")
	defer stop()
	scope := []any{origin}
	list := r.call("list_browser_targets", map[string]any{"cdp_endpoint": ep, "allowed_origins": scope})
	id, _ := find(list, "id").(string)
	page := map[string]any{"cdp_endpoint": ep, "target_id": id, "allowed_origins": scope}
	r.call("inspect_web_page", page)
	r.call("observe_web_session", page)
	a := r.call("capture_web_screenshot", page)
	b := r.call("capture_web_screenshot", page)
	r.call("compare_web_screenshots", map[string]any{"left": ref(a), "right": ref(b)})
	r.call("analyze_web_bundle", page)
	r.call("discover_webmcp_tools", page)
	left := r.call("capture_browser_scenario", map[string]any{"start_url": origin + "/", "allowed_origins": scope})
	right := r.call("capture_browser_scenario", map[string]any{"start_url": origin + "/", "allowed_origins": scope})
	r.call("compare_web_captures", map[string]any{"left": ref(left), "right": ref(right)})
}

// electronTools measures the Electron tools on the Electron-shaped runtime
// fixture opened in Chromium (Chromium stands in for Electron, as in
// cmd/rea's runtime tests).
func electronTools(r *runner, work, app string) {
	index := "file://" + filepath.Join(app, "index.html")
	ep, stop := launchChromium(work, index)
	defer stop()
	roots := []any{app}
	list := r.call("list_electron_targets", map[string]any{"cdp_endpoint": ep, "allowed_file_roots": roots})
	id, _ := find(list, "id").(string)
	pg := r.call("inspect_electron_page", map[string]any{"cdp_endpoint": ep, "target_id": id, "allowed_file_roots": roots})
	static := structured(r.c, "analyze_javascript_application", map[string]any{"input_path": app})
	r.call("reconcile_javascript_runtime", map[string]any{"static": ref(static), "runtime_observations": []any{ref(pg)}})
	// Without args the executable would open a window: the headless flags
	// are the one argument added to the required executable_path.
	args := []any{}
	for _, a := range chromiumArgs {
		args = append(args, a)
	}
	r.call("capture_electron_scenario", map[string]any{"executable_path": chromiumPath(), "args": append(args, index), "allowed_file_roots": roots})
}

// nodeTools measures the JavaScript runtime tools on a Node inspector.
func nodeTools(r *runner, work string) {
	node, err := exec.LookPath("node")
	if err != nil {
		fail(fmt.Errorf("a Node.js inspector is needed: apt-get install -y nodejs"))
	}
	dir, err := os.MkdirTemp(work, "node-")
	if err != nil {
		fail(err)
	}
	script := filepath.Join(dir, "server.js")
	if err := os.WriteFile(script, []byte("const answer = 41;\nsetInterval(() => console.log('tick', answer + 1), 100);\n"), 0o644); err != nil {
		fail(err)
	}
	cmd := exec.Command(node, "--inspect=127.0.0.1:0", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		fail(err)
	}
	m := regexp.MustCompile(`ws://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if m == nil {
		fail(fmt.Errorf("node said %q", line))
	}
	roots := []any{dir}
	list := r.call("list_javascript_runtime_targets", map[string]any{"cdp_endpoint": m[1], "allowed_file_roots": roots})
	id, _ := find(list, "id").(string)
	r.call("observe_javascript_runtime", map[string]any{"cdp_endpoint": m[1], "target_id": id, "allowed_file_roots": roots})
}
