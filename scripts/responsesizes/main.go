// Command responsesizes measures the default response of every rea MCP
// tool on the repository's benchmark apps, by driving the built binary
// (`rea mcp`) the way an agent does, and prints a Markdown table of the
// bytes on the wire (the JSON-RPC response line: text, structuredContent
// and envelope). docs/response-sizes.md is its output:
//
//	make sizes   (go run ./scripts/responsesizes -rea bin/rea > docs/response-sizes.md)
//
// Every tool in tools/list gets a row: the apps and native fixtures here,
// a gcc-built ELF made at run time, a loopback page in headless Chromium,
// the Electron-shaped runtime fixture in Chromium, a Node inspector and
// small /bin/sh processes (live.go). The command exits 1 when a tool has
// no row, so a new tool needs its default call here; a default response
// over 256 KiB that is not a complete-Evidence response is marked
// "over budget" and named on stderr.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/jsengine/jstest"
)

// budget is what issue 21 allows a default response (except the
// complete-Evidence responses the seed defines).
const budget = 256 << 10

type target struct {
	name, path, kind string // kind: app, source, native, artifact, browser, electron, node, none
	// proc is a native target's entry procedure; other a second binary
	// for diff_binaries; name an imported symbol and str a string in it.
	proc, other, sym, str string
	// module and export name an app's exported binding for
	// compare_javascript_export_shapes (the call is left out without).
	module, export string
}

type row struct {
	tool, target, args string
	bytes              int
	err                string
}

func main() {
	rea := flag.String("rea", "bin/rea", "the built rea binary")
	big := flag.Bool("big", true, "include the generated 3,000-module app (52 MB)")
	kinds := flag.String("kinds", "", "measure only these target kinds (comma-separated: app,source,written,native,artifact,browser,electron,node,none); the table is then incomplete")
	flag.Parse()
	root, _ := os.Getwd()
	work, err := os.MkdirTemp("", "rea-sizes-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	workDir = work
	elf, elfO2 := buildELF(work, "-O0"), buildELF(work, "-O2")
	targets := []target{
		{name: "testdata/electron/insecure", path: filepath.Join(root, "testdata/electron/insecure"), kind: "app", module: "shared/channels.js", export: "CHANNEL_SAVE"},
		{name: "testdata/versions/v1", path: filepath.Join(root, "testdata/versions/v1"), kind: "app", module: "lib/util.js", export: "normalise"},
		{name: "generated 1 MB bundle app", path: gen(work, "bundle-1MB", jstest.BundleApp(1<<20)), kind: "app"},
	}
	if *big {
		targets = append(targets, target{name: "generated 3,000-module app", path: gen(work, "app-3000", jstest.App(3000, 17<<10)), kind: "app"})
	}
	if *big {
		targets = append(targets, target{name: "generated 3,000-module app", path: filepath.Join(work, "app-3000"), kind: "written"})
	}
	targets = append(targets,
		target{name: "testdata/electron/bundled", path: filepath.Join(root, "testdata/electron/bundled"), kind: "source", other: filepath.Join(root, "testdata/versions/v1")},
		target{name: "generated 1 MB bundle app", path: filepath.Join(work, "bundle-1MB"), kind: "source", other: filepath.Join(root, "testdata/versions/v1")},
		target{name: "testdata/artifact/app.asar", path: filepath.Join(root, "testdata/artifact/app.asar"), kind: "artifact"},
		// The writing tools on inputs whose lists grow without bound:
		// thousands of sources, thousands of files.
		target{name: "generated 2,000-source map app", path: gen(work, "map-2000", jstest.SourceMapApp(2000)), kind: "written"},
		target{name: "gcc -O0 ELF (built at run time)", path: elf, kind: "native", proc: "main", other: elfO2, sym: "strcpy", str: "password"},
		target{name: "bin/rea (native ELF)", path: mustAbs(*rea), kind: "native", proc: "main.main", other: elf, sym: "os.Exit", str: "rea"},
		target{name: "loopback page in headless Chromium", kind: "browser"},
		target{name: "testdata/electron/runtime in Chromium", path: filepath.Join(root, "testdata/electron/runtime"), kind: "electron"},
		target{name: "Node inspector (node --inspect)", kind: "node"},
		target{name: "(no target)", kind: "none"},
	)
	c, err := connect(mustAbs(*rea))
	if err != nil {
		fail(err)
	}
	defer c.Close()
	tools, err := c.ListTools(context.Background(), nil)
	if err != nil {
		fail(err)
	}
	measured := map[string]bool{}
	last := map[string]map[string]any{}
	var rows []row
	for _, t := range targets {
		if *kinds != "" && !strings.Contains(","+*kinds+",", ","+t.kind+",") {
			continue
		}
		r := &runner{c: c, target: t.name, rows: &rows, seen: measured, last: last}
		for _, call := range callsFor(c, t) {
			r.call(call.tool, call.args)
		}
		switch t.kind {
		case "source":
			sourceTools(r, t.path, "dist/main.js", t.other)
		case "written":
			writtenTools(r, t.path)
		case "native":
			nativeDepth(r, t.path, t.other, t.proc, t.sym, t.str)
			if t.proc == "main" {
				nativeContext(r, t.path, t.proc)
			}
		case "browser":
			browserTools(r, work)
		case "electron":
			electronTools(r, work, t.path)
		case "node":
			nodeTools(r, work)
		case "none":
			sessionTools(r, work)
			r.call("close_binary", map[string]any{})
		}
	}
	var unmeasured []string
	for _, tl := range tools.Tools {
		if !measured[tl.Name] {
			unmeasured = append(unmeasured, tl.Name)
		}
	}
	sort.Strings(unmeasured)
	print(rows, unmeasured, len(tools.Tools))
	over := 0
	for _, r := range rows {
		if r.err == "" && r.bytes > budget && !allowedOver(r) {
			over++
			fmt.Fprintf(os.Stderr, "responsesizes: %s on %s is %d bytes, over the %d-byte budget\n", r.tool, r.target, r.bytes, budget)
		}
	}
	if len(unmeasured) > 0 {
		fmt.Fprintf(os.Stderr, "responsesizes: %d tools in tools/list have no row (add a default call): %s\n", len(unmeasured), strings.Join(unmeasured, ", "))
		c.Close()
		os.RemoveAll(work)
		os.Exit(1)
	}
}

// allowedOver reports whether a row is one of the complete-Evidence
// responses issue 21 lets exceed the budget: analyze_javascript_application
// and get_evidence_bundle without detail "summary".
func allowedOver(r row) bool {
	return (r.tool == "analyze_javascript_application" || r.tool == "get_evidence_bundle") && !strings.Contains(r.args, `"detail":"summary"`)
}

type call struct {
	tool string
	args map[string]any
}

// callsFor is each tool's default call on a target: required arguments
// only, retained references to Evidence made on the way.
func callsFor(c *mcp.ClientSession, t target) []call {
	ref := func(res map[string]any) map[string]any {
		return map[string]any{"kind": "retained-evidence", "evidence_id": res["evidence_id"]}
	}
	switch t.kind {
	case "app":
		app := structured(c, "analyze_javascript_application", map[string]any{"input_path": t.path})
		out := []call{
			{"analyze_javascript_application", map[string]any{"input_path": t.path}},
			{"analyze_javascript_application", map[string]any{"input_path": t.path, "detail": "summary"}},
			{"inspect_artifact", map[string]any{"input_path": t.path}},
		}
		if app != nil {
			out = append(out,
				call{"inspect_analysis_view", map[string]any{"source": ref(app)}},
				call{"inspect_analysis_view", map[string]any{"source": ref(app), "view": "page", "collection": "modules"}},
				call{"inspect_analysis_view", map[string]any{"source": ref(app), "view": "page", "collection": "findings"}},
				call{"trace_application_feature", map[string]any{"application": ref(app), "seed": map[string]any{"kind": "channel", "value": "a", "match": "contains"}}},
				call{"compare_application_versions", map[string]any{"left": ref(app), "right": ref(app)}},
				call{"render_application_report", map[string]any{"application": ref(app)}},
			)
			if t.module != "" {
				out = append(out, call{"compare_javascript_export_shapes", map[string]any{"left": ref(app), "right": ref(app), "left_module_path": t.module, "left_export_name": t.export}})
			}
			out = append(out,
				call{"get_evidence_bundle", map[string]any{}},
				call{"get_evidence_bundle", map[string]any{"detail": "summary"}},
			)
		}
		return out
	case "artifact":
		a := structured(c, "inspect_artifact", map[string]any{"input_path": t.path})
		out := []call{{"inspect_artifact", map[string]any{"input_path": t.path}}, {"open_binary", map[string]any{"input_path": t.path}},
			{"extract_artifact", map[string]any{"input_path": t.path}}}
		if a != nil {
			out = append(out, call{"compare_artifacts", map[string]any{"left": ref(a), "right": ref(a)}})
		}
		return out
	case "native":
		in := map[string]any{"input_path": t.path}
		with := func(extra ...any) map[string]any {
			m := map[string]any{"input_path": t.path}
			for i := 0; i+1 < len(extra); i += 2 {
				m[extra[i].(string)] = extra[i+1]
			}
			return m
		}
		out := []call{
			{"inspect_binary_layout", in}, {"binary_overview", in}, {"list_procedures", in}, {"list_strings", in},
			{"list_names", in}, {"list_segments", in}, {"inspect_electron_binary", in},
			{"search_strings", with("pattern", "rea")}, {"search_procedures", with("pattern", t.proc)},
			{"analyze_function", with("procedure", t.proc)}, {"read_function_instructions", with("procedure", t.proc)},
			{"procedure_assembly", with("procedure", t.proc)}, {"procedure_callers", with("procedure", t.proc)},
			{"procedure_callees", with("procedure", t.proc)}, {"procedure_references", with("procedure", t.proc)},
		}
		if procs := structured(c, "search_procedures", with("pattern", t.proc, "mode", "literal", "case_sensitive", true)); procs != nil {
			if nr, ok := procs["normalized_result"].(map[string]any); ok {
				if p, ok := nr["procedures"].(map[string]any); ok {
					if items, ok := p["items"].([]any); ok && len(items) > 0 {
						addr := items[0].(map[string]any)["address"]
						out = append(out, call{"xrefs", with("address", addr)}, call{"resolve_containing_procedure", with("address", addr)},
							call{"address_to_file_offset", with("address", addr)}, call{"read_bytes", with("address", addr, "length", 64)})
					}
				}
			}
		}
		if fn := structured(c, "analyze_function", with("procedure", t.proc)); fn != nil {
			out = append(out, call{"compare_functions", map[string]any{"left": []any{ref(fn)}, "right": []any{ref(fn)}}})
		}
		return out
	case "none":
		return []call{
			{"binary_session", map[string]any{}},
			{"guided_workflows", map[string]any{}},
			{"list_unknowns", map[string]any{}},
		}
	}
	return nil
}

func measure(c *mcp.ClientSession, tool string, args map[string]any) row {
	r, _ := measureResult(c, tool, args)
	return r
}

// measureResult is measure that also returns the structuredContent of a
// successful call (nil otherwise), so later calls can refer to it.
func measureResult(c *mcp.ClientSession, tool string, args map[string]any) (row, map[string]any) {
	argText, _ := json.Marshal(args)
	r := row{tool: tool, args: shorten(string(argText))}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		r.err = err.Error()
		return r, nil
	}
	// The response line as it travels: {"jsonrpc":"2.0","id":N,"result":…}.
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": res})
	r.bytes = len(b) + 1
	if res.IsError {
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Details struct {
					Limits struct {
						ResultBytes int `json:"result_bytes"`
					} `json:"reported_limits"`
				} `json:"details"`
			} `json:"error"`
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			_ = json.Unmarshal([]byte(tc.Text), &e)
		}
		r.err = e.Error.Code
		if n := e.Error.Details.Limits.ResultBytes; n > 0 {
			r.err = fmt.Sprintf("%s: the result would be %d bytes", e.Error.Code, n)
		} else if e.Error.Message != "" {
			r.err += ": " + shorten(e.Error.Message)
		}
		return r, nil
	}
	sb, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	_ = json.Unmarshal(sb, &m)
	return r, m
}

func structured(c *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		return nil
	}
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

func print(rows []row, unmeasured []string, total int) {
	fmt.Println("# Default response sizes")
	fmt.Println()
	fmt.Println("Bytes on the wire of each tool's default call (required arguments only; the")
	fmt.Println("JSON-RPC response line with text, structuredContent and envelope) on the")
	fmt.Println("repository's benchmark apps, measured from the built binary by")
	fmt.Println("`make sizes` (`go run ./scripts/responsesizes -rea bin/rea > docs/response-sizes.md`).")
	fmt.Println("Live targets are made by the script: a gcc-built ELF (`$WORK/fixture-O0`, and")
	fmt.Println("`-O2` for diff_binaries), a loopback page in headless Chromium, the")
	fmt.Println("`testdata/electron/runtime` fixture opened in Chromium (standing in for Electron),")
	fmt.Println("a `node --inspect=127.0.0.1:0` script and small `/bin/sh` processes. A few calls")
	fmt.Println("carry one argument beyond the required ones, said in scripts/responsesizes.")
	fmt.Printf("Over 256 KiB (%d bytes) is marked: \"over (complete Evidence, allowed)\" for the\n", budget)
	fmt.Println("responses issue 21 allows (`analyze_javascript_application` and")
	fmt.Println("`get_evidence_bundle` without `detail: \"summary\"`; their descriptions say when")
	fmt.Println("to ask for the summary instead), **over budget** for any other. The tools that")
	fmt.Println("write files (`unpack_javascript_bundle`, `extract_source_map_sources`,")
	fmt.Println("`extract_artifact`) answer a summary with the first page by default; the row after")
	fmt.Println("each big one is the next page their `next_calls` name (`inspect_analysis_view`).")
	fmt.Println()
	fmt.Println("| tool | target | arguments | bytes | |")
	fmt.Println("|---|---|---|---:|---|")
	for _, r := range rows {
		mark := ""
		switch {
		case r.err != "":
			mark = "error: " + r.err
		case r.bytes > budget && allowedOver(r):
			mark = "over (complete Evidence, allowed)"
		case r.bytes > budget:
			mark = "**over budget**"
		}
		fmt.Printf("| `%s` | %s | `%s` | %d | %s |\n", r.tool, r.target, strings.ReplaceAll(r.args, "|", "\\|"), r.bytes, mark)
	}
	fmt.Println()
	if len(unmeasured) > 0 {
		fmt.Printf("**Incomplete**: %d of %d tools have no row: `%s`.\n", len(unmeasured), total, strings.Join(unmeasured, "`, `"))
	} else {
		fmt.Printf("All %d tools in `tools/list` have a row; the script fails when one has none.\n", total)
	}
}

var evidenceID = regexp.MustCompile(`ev_[0-9a-f]{64}`)

// workDir is this run's temporary folder, shown as $WORK.
var workDir string

func shorten(s string) string {
	if workDir != "" {
		s = strings.ReplaceAll(s, workDir, "$WORK")
	}
	s = strings.ReplaceAll(s, os.TempDir()+"/", "")
	s = evidenceID.ReplaceAllString(s, "ev_…")
	if root, err := os.Getwd(); err == nil {
		s = strings.ReplaceAll(s, root+"/", "")
	}
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

func connect(rea string) (*mcp.ClientSession, error) {
	cmd := exec.Command(rea, "mcp", "--log-level", "error")
	cmd.Env = append(os.Environ(), "REA_RESULT_CACHE_DIR=off")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "rea-responsesizes", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
}

func gen(work, name string, fsys fstest.MapFS) string {
	dir := filepath.Join(work, name)
	if err := jstest.WriteDir(dir, fsys); err != nil {
		fail(err)
	}
	return dir
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		fail(err)
	}
	return a
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "responsesizes:", err)
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	os.Exit(1)
}
