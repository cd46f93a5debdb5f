package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/guidance"
	"rea/wasm/wasmtest"
)

// seedWorkflows is REA's documented prompt inventory.
var seedWorkflows = []string{"audit_residual_unknowns", "compare_application_versions", "investigate_feature",
	"prepare_bounded_process_capture", "trace_crash", "verify_reconstruction"}

// requiredArguments fills every required argument of a prompt.
func requiredArguments(p *mcp.Prompt) map[string]string {
	args := map[string]string{}
	for _, a := range p.Arguments {
		if a.Required {
			args[a.Name] = "value of " + a.Name
		}
	}
	return args
}

func promptText(t *testing.T, res *mcp.GetPromptResult) string {
	t.Helper()
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("want one user message, got %+v", res.Messages)
	}
	tc, ok := res.Messages[0].Content.(*mcp.TextContent)
	if !ok {
		t.Fatalf("message is not text: %T", res.Messages[0].Content)
	}
	return tc.Text
}

func TestPromptsListAndGetEveryWorkflowWithRenderParityAcrossPromptToolAndCLI(t *testing.T) {
	c := startMCP(t)
	ctx := context.Background()
	caps := c.session.InitializeResult().Capabilities
	if caps.Prompts == nil || !caps.Prompts.ListChanged || caps.Completions == nil {
		t.Fatalf("capabilities: prompts %+v completions %+v", caps.Prompts, caps.Completions)
	}
	list, err := c.session.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	if !reflect.DeepEqual(names, seedWorkflows) {
		t.Fatalf("prompts/list = %v, want %v", names, seedWorkflows)
	}
	for _, p := range list.Prompts {
		args := requiredArguments(p)
		got, err := c.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		if err != nil {
			t.Fatalf("prompts/get %s: %v", p.Name, err)
		}
		text := promptText(t, got)
		if !strings.Contains(text, "## Optional starting points") || !strings.Contains(text, `"value of `) {
			t.Errorf("%s: rendered text lacks starting points or the requested context:\n%s", p.Name, text)
		}
		tool := structured(t, c.call(t, "guided_workflows", map[string]any{"action": "render", "workflow_id": p.Name, "arguments": args}))
		if tool["text"] != text {
			t.Errorf("%s: guided_workflows render differs from prompts/get", p.Name)
		}
		argsJSON, _ := json.Marshal(args)
		cli := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}, "guided-workflows", "--action", "render", "--workflow-id", p.Name, "--arguments-json", string(argsJSON))
		if cli.code != 0 || cli.stdout != text {
			t.Errorf("%s: rea guided-workflows render differs from prompts/get (exit %d, stderr %s)", p.Name, cli.code, cli.stderr)
		}
	}
	listed := structured(t, c.call(t, "guided_workflows", map[string]any{"action": "list"}))
	if n := len(listed["workflows"].([]any)); n != len(seedWorkflows) {
		t.Fatalf("guided_workflows list has %d workflows", n)
	}
}

func TestInvestigateFeatureOnAJavaScriptDirectoryNeedsNoOpenBinary(t *testing.T) {
	c := startMCP(t)
	res, err := c.session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "investigate_feature",
		Arguments: map[string]string{"feature": "offline search", "input_path": filepath.Join(wasmtest.RepoRoot(t), "testdata")}})
	if err != nil {
		t.Fatal(err)
	}
	text := promptText(t, res)
	first := text[strings.Index(text, "## Optional starting points"):]
	first = first[:strings.Index(first, "\n  Tools:")]
	if !strings.Contains(first, "analyze_javascript_application with input_path") || !strings.Contains(first, "needs no open_binary") {
		t.Fatalf("first starting point: %s", first)
	}
}

// rawMCP is a line-level JSON-RPC connection to `rea mcp`, for requests the
// SDK client would refuse to send.
type rawMCP struct {
	t    *testing.T
	in   interface{ Write([]byte) (int, error) }
	out  *bufio.Reader
	next int
}

func startRawMCP(t *testing.T, env ...string) *rawMCP {
	t.Helper()
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "error")
	cmd.Env = append(append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t)), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	r := &rawMCP{t: t, in: stdin, out: bufio.NewReader(stdout), next: 1}
	r.request("initialize", `{"protocolVersion":"`+pinnedProtocol+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	_, _ = stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	return r
}

// request sends one call and returns its response, skipping notifications.
func (r *rawMCP) request(method, params string) map[string]any {
	r.t.Helper()
	id := r.next
	r.next++
	_, _ = r.in.Write([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)))
	for {
		line, err := r.out.ReadBytes('\n')
		if err != nil {
			r.t.Fatalf("%s: read: %v", method, err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			r.t.Fatalf("not JSON-RPC: %q", line)
		}
		if m["id"] == float64(id) {
			return m
		}
	}
}

// invalidParams asserts a -32602 response; field, when set, must be the
// path of one of error.data.issues.
func invalidParams(t *testing.T, what string, m map[string]any, field string) {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != float64(jsonrpc.CodeInvalidParams) {
		t.Errorf("%s: want -32602, got %v", what, m)
		return
	}
	if field == "" {
		if !strings.Contains(fmt.Sprint(e["message"]), "arguments") {
			t.Errorf("%s: the SDK's message should name the field: %v", what, e["message"])
		}
		return
	}
	data, _ := e["data"].(map[string]any)
	issues, _ := data["issues"].([]any)
	for _, is := range issues {
		var parts []string
		for _, p := range is.(map[string]any)["path"].([]any) {
			parts = append(parts, fmt.Sprint(p))
		}
		if strings.Join(parts, ".") == field {
			return
		}
	}
	t.Errorf("%s: no issue at %s in %v", what, field, e)
}

func TestSchemaInvalidPromptAndCompletionParamsAreJSONRPCInvalidParamsWithFieldPaths(t *testing.T) {
	r := startRawMCP(t)
	invalidParams(t, "prompts/get non-string argument", r.request("prompts/get", `{"name":"investigate_feature","arguments":{"feature":5}}`), "")
	invalidParams(t, "prompts/get unknown argument", r.request("prompts/get", `{"name":"investigate_feature","arguments":{"feature":"x","bogus":"y"}}`), "arguments.bogus")
	invalidParams(t, "prompts/get missing argument", r.request("prompts/get", `{"name":"trace_crash","arguments":{}}`), "arguments.crash_signal")
	invalidParams(t, "prompts/get unknown prompt", r.request("prompts/get", `{"name":"no_such_workflow"}`), "name")
	invalidParams(t, "prompts/list bad cursor", r.request("prompts/list", `{"cursor":"not-a-cursor"}`), "cursor")
	if m := r.request("prompts/list", `{"cursor":5}`); m["error"] == nil || m["error"].(map[string]any)["code"] != float64(jsonrpc.CodeInvalidParams) {
		t.Errorf("prompts/list with a numeric cursor: %v", m)
	}
	if m := r.request("completion/complete", `{"argument":{"name":"feature","value":""}}`); m["error"] == nil || m["error"].(map[string]any)["code"] != float64(jsonrpc.CodeInvalidParams) {
		t.Errorf("completion/complete without ref: %v", m)
	}
	invalidParams(t, "completion/complete unknown prompt", r.request("completion/complete", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`), "ref.name")
	invalidParams(t, "completion/complete unknown argument", r.request("completion/complete", `{"ref":{"type":"ref/prompt","name":"trace_crash"},"argument":{"name":"bogus","value":""}}`), "argument.name")
	invalidParams(t, "completion/complete resource ref", r.request("completion/complete", `{"ref":{"type":"ref/resource","uri":"rea://x"},"argument":{"name":"x","value":""}}`), "ref.type")
	// The connection stays usable after every refusal.
	if m := r.request("prompts/list", `{}`); m["result"] == nil {
		t.Fatalf("connection unusable: %v", m)
	}
}

func complete(t *testing.T, c *mcpClient, prompt, argument, value string) mcp.CompletionResultDetails {
	t.Helper()
	res, err := c.session.Complete(context.Background(), &mcp.CompleteParams{
		Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: prompt}, Argument: mcp.CompleteParamsArgument{Name: argument, Value: value}})
	if err != nil {
		t.Fatalf("complete %s.%s: %v", prompt, argument, err)
	}
	return res.Completion
}

func TestCompletionAfterInspectArtifactOffersItsEvidenceAndInventoryIDsUntilClose(t *testing.T) {
	c := startMCP(t)
	if got := complete(t, c, "audit_residual_unknowns", "evidence_id", ""); len(got.Values) != 0 {
		t.Fatalf("fresh session offers %v", got.Values)
	}
	rec := structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t)}))
	id := rec["evidence_id"].(string)
	inv := rec["normalized_result"].(map[string]any)
	manifest := inv["manifest_id"].(string)
	occ := inv["occurrences"].(map[string]any)["items"].([]any)[0].(map[string]any)["occurrence_id"].(string)

	if got := complete(t, c, "audit_residual_unknowns", "evidence_id", strings.ToUpper(id[:8])); !slices.Contains(got.Values, id) {
		t.Errorf("evidence completion %v lacks %s", got.Values, id)
	}
	if got := complete(t, c, "compare_application_versions", "left_manifest_id", ""); !reflect.DeepEqual(got.Values, []string{manifest}) {
		t.Errorf("manifest completion %v, want [%s]", got.Values, manifest)
	}
	if got := complete(t, c, "compare_application_versions", "focus_occurrence_id", occ); !slices.Contains(got.Values, occ) {
		t.Errorf("occurrence completion %v lacks %s", got.Values, occ)
	}
	if got := complete(t, c, "trace_crash", "capture_evidence_id", ""); len(got.Values) != 0 {
		t.Errorf("an inventory is offered as a capture: %v", got.Values)
	}
	// Opening a target keeps retained Evidence; closing clears it.
	structured(t, c.call(t, "open_binary", map[string]any{"input_path": fixtureASAR(t)}))
	if got := complete(t, c, "verify_reconstruction", "comparison_evidence_id", "ev_"); !slices.Contains(got.Values, id) {
		t.Errorf("after open_binary: %v", got.Values)
	}
	structured(t, c.call(t, "close_binary", map[string]any{}))
	for _, arg := range [][2]string{{"audit_residual_unknowns", "evidence_id"}, {"compare_application_versions", "left_manifest_id"}, {"compare_application_versions", "focus_occurrence_id"}} {
		if got := complete(t, c, arg[0], arg[1], ""); len(got.Values) != 0 {
			t.Errorf("%s.%s after close_binary: %v", arg[0], arg[1], got.Values)
		}
	}
	if got := complete(t, c, "investigate_feature", "provider_id", ""); !slices.Contains(got.Values, "auto") || !slices.Contains(got.Values, "native-lite") {
		t.Errorf("provider completion: %v", got.Values)
	}
}

func TestCompletionReplyHasMorePast100Values(t *testing.T) {
	dir := t.TempDir()
	for i := range 130 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte{byte(i)}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startMCP(t)
	rec := structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": dir, "occurrences": map[string]any{"limit": 500}}))
	items := rec["normalized_result"].(map[string]any)["occurrences"].(map[string]any)["items"].([]any)
	if len(items) <= 100 {
		t.Fatalf("fixture has %d occurrences", len(items))
	}
	got := complete(t, c, "compare_application_versions", "focus_occurrence_id", "")
	if len(got.Values) != 100 || got.Total != len(items) || !got.HasMore || !slices.IsSorted(got.Values) {
		t.Fatalf("values %d total %d hasMore %v, want 100 of %d with hasMore", len(got.Values), got.Total, got.HasMore, len(items))
	}
}

func TestSearchGuidanceThenReadGuidanceSectionOverMCP(t *testing.T) {
	c := startMCP(t)
	res := structured(t, c.call(t, "search_guidance", map[string]any{"query": "How do I verify declared integrity hashes?", "limit": 5}))
	matches, _ := res["matches"].([]any)
	if len(matches) == 0 || len(matches) > 5 || res["limit"] != float64(5) {
		t.Fatalf("search: %v", res)
	}
	m := matches[0].(map[string]any)
	read := structured(t, c.call(t, "read_guidance_section", map[string]any{"locator": m["locator"]}))
	if read["locator"] != m["locator"] || read["content_length"] != m["content_length"] || !strings.Contains(strings.ToLower(read["content"].(string)), "integrity") {
		t.Fatalf("read does not return the matched section: %v", read)
	}
	parts := strings.Split(m["locator"].(string), ".")
	stale := parts[0] + "." + strings.Repeat("0", len(parts[1])) + "." + parts[2]
	e := toolError(t, c.call(t, "read_guidance_section", map[string]any{"locator": stale}))
	if e["code"] != "unavailable" || e["details"].(map[string]any)["reason"] != "stale_locator" {
		t.Fatalf("stale locator: %v", e)
	}
	// A generic-only question matches nothing, and says why.
	none := structured(t, c.call(t, "search_guidance", map[string]any{"query": "how do I use the tool"}))
	if none["no_match_reason"] != "generic_only" || none["total_matches"] != float64(0) || len(none["matches"].([]any)) != 0 {
		t.Fatalf("generic-only query: %v", none)
	}
	// Guidance never enters the session ledger.
	if s := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary"})); s["total_records"] != float64(0) {
		t.Fatalf("guidance recorded Evidence: %v", s)
	}
	var samples []time.Duration
	for range 10 {
		start := time.Now()
		c.call(t, "search_guidance", map[string]any{"query": "exact JavaScript module"})
		samples = append(samples, time.Since(start))
	}
	slices.Sort(samples)
	t.Logf("search_guidance over MCP stdio, warm: p50 %v max %v", samples[len(samples)/2], samples[len(samples)-1])
}

func TestToolFamilyScopeOmitsWorkflowsWithToolsOutOfScope(t *testing.T) {
	c := startMCP(t, "REA_MCP_TOOL_FAMILIES=guidance,process,session")
	ctx := context.Background()
	list, err := c.session.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	// Only these two suggest nothing but process and session tools.
	if want := []string{"audit_residual_unknowns", "prepare_bounded_process_capture"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("prompts/list = %v, want %v", names, want)
	}
	if _, err := c.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "investigate_feature", Arguments: map[string]string{"feature": "x"}}); err == nil {
		t.Fatal("prompts/get of an omitted workflow succeeded")
	}
	e := toolError(t, c.call(t, "guided_workflows", map[string]any{"action": "render", "workflow_id": "investigate_feature", "arguments": map[string]any{"feature": "x"}}))
	if e["details"].(map[string]any)["reason"] != "not_found" {
		t.Fatalf("render of an omitted workflow: %v", e)
	}
	listed := structured(t, c.call(t, "guided_workflows", map[string]any{"action": "list"}))
	if n := len(listed["workflows"].([]any)); n != 2 {
		t.Fatalf("guided_workflows list has %d workflows in scope, want 2", n)
	}

	// A guidance-only server advertises no workflow at all.
	g := startMCP(t, "REA_MCP_TOOL_FAMILIES=guidance")
	if list, err := g.session.ListPrompts(ctx, nil); err != nil || len(list.Prompts) != 0 {
		t.Fatalf("guidance scope lists %v (%v)", list, err)
	}
}

func TestGuidedWorkflowsToolRejectsFieldsPerAction(t *testing.T) {
	c := startMCP(t)
	for _, tc := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"action": "list", "workflow_id": "trace_crash"}, "workflow_id"},
		{map[string]any{"action": "list", "arguments": map[string]any{}}, "arguments"},
		{map[string]any{"action": "render", "workflow_id": "trace_crash", "arguments": map[string]any{"crash_signal": 11}}, "arguments.crash_signal"},
		{map[string]any{"action": "render", "workflow_id": "trace_crash", "arguments": map[string]any{"crash_signal": "x", "extra": "y"}}, "arguments.extra"},
	} {
		e := toolError(t, c.call(t, "guided_workflows", tc.args))
		found := false
		for _, is := range e["details"].(map[string]any)["issues"].([]any) {
			var parts []string
			for _, p := range is.(map[string]any)["path"].([]any) {
				parts = append(parts, fmt.Sprint(p))
			}
			found = found || strings.Join(parts, ".") == tc.field
		}
		if e["code"] != "invalid_request" || !found {
			t.Errorf("%v: want an issue at %s, got %v", tc.args, tc.field, e)
		}
	}
}

// plannedTools are named by the guidance bundle but still being built by
// other work. The list keeps the gap visible:
// remove a name when its tool joins the catalog (the test fails until you
// do), and never add a tool that is not planned.
var plannedTools = []string{}

func TestGuidanceNamesOnlyToolsAndArgumentsTheCatalogHas(t *testing.T) {
	c := startMCP(t)
	res, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	catalog := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		catalog[tool.Name] = tool
	}
	for _, p := range plannedTools {
		if catalog[p] != nil {
			t.Errorf("%s is in the catalog now: remove it from plannedTools", p)
		}
	}
	for _, name := range guidance.ReferencedTools() {
		if catalog[name] == nil && !slices.Contains(plannedTools, name) {
			t.Errorf("the guidance names %s, which the catalog lacks and nobody plans", name)
		}
	}
	for _, call := range guidance.ToolCalls() {
		tool := catalog[call.Tool]
		if tool == nil {
			continue // planned: its arguments are checked once it lands
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		_ = json.Unmarshal(b, &schema)
		for _, a := range call.Arguments {
			if _, ok := schema.Properties[a]; !ok {
				t.Errorf("%s:%d: %s has no argument %q", call.Path, call.Line, call.Tool, a)
			}
		}
		for _, r := range schema.Required {
			if !slices.Contains(call.Arguments, r) {
				t.Errorf("%s:%d: example %s call lacks required %q", call.Path, call.Line, call.Tool, r)
			}
		}
	}
}
