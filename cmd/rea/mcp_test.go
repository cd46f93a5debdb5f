package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/wasm/wasmtest"
)

// pinnedProtocol is the protocol version the end-to-end tests speak.
const pinnedProtocol = "2025-11-25"

type mcpClient struct {
	session  *mcp.ClientSession
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
}

// startMCP starts the built rea binary as `rea mcp` and connects the Go SDK
// client to it over stdio, the way an agent does.
func startMCP(t *testing.T, env ...string) *mcpClient {
	t.Helper()
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
	cmd.Env = append(cmd.Env, env...)
	c := &mcpClient{}
	client := mcp.NewClient(&mcp.Implementation{Name: "rea-e2e", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, req.Params)
			c.mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pinnedProtocol})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c.session = s
	return c
}

func (c *mcpClient) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool failed: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func toolError(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got success: %s", text(res))
	}
	if res.StructuredContent != nil {
		t.Fatalf("failures carry no structuredContent: %v", res.StructuredContent)
	}
	var env struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(text(res)), &env); err != nil || env.Error == nil {
		t.Fatalf("error text is not {\"error\":{…}}: %q", text(res))
	}
	return env.Error
}

func fixtureASAR(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(wasmtest.RepoRoot(t), "testdata", "artifact", "app.asar"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestToolsListIsTheCompleteInventoryWithPortableSchemas(t *testing.T) {
	c := startMCP(t)
	res, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range res.Tools {
		names[tool.Name] = true
		if len(tool.Name) > 64 {
			t.Errorf("%s: name longer than 64 characters", tool.Name)
		}
		in, _ := json.Marshal(tool.InputSchema)
		var schema map[string]any
		_ = json.Unmarshal(in, &schema)
		if schema["type"] != "object" {
			t.Errorf("%s: input schema root is not an object", tool.Name)
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref"} {
			if _, ok := schema[k]; ok {
				t.Errorf("%s: input schema root has %s", tool.Name, k)
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for p, v := range props {
			if _, typed := v.(map[string]any)["type"]; !typed {
				t.Errorf("%s.%s: property has no type", tool.Name, p)
			}
		}
		out, _ := json.Marshal(tool.OutputSchema)
		if !strings.Contains(string(out), `"$id":"urn:rea:schema:sha256:`) {
			t.Errorf("%s: output schema has no content-bound $id", tool.Name)
		}
		if tool.Annotations == nil || tool.Annotations.DestructiveHint == nil {
			t.Errorf("%s: annotations missing", tool.Name)
		}
	}
	for _, want := range []string{"binary_session", "open_binary", "close_binary", "get_evidence_bundle", "export_evidence_bundle", "import_evidence_bundle", "inspect_artifact", "extract_artifact"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s", want)
		}
	}
}

func TestEvidenceInlineRetainedAndExportImportRoundTrip(t *testing.T) {
	c := startMCP(t)
	rec := structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t)}))
	id, _ := rec["evidence_id"].(string)
	if !strings.HasPrefix(id, "ev_") || rec["operation"] != "inspect_artifact" {
		t.Fatalf("inspect_artifact did not return Evidence: %v", rec)
	}
	if _, ok := rec["analysis_profile"]; !ok {
		t.Fatal("analysis_profile must always be present")
	}
	summary := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary", "filters": map[string]any{"operation": "inspect_artifact"}}))
	if !strings.Contains(mustJSON(t, summary), id) {
		t.Fatalf("summary lacks %s: %v", id, summary)
	}
	out := filepath.Join(t.TempDir(), "bundle.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": out}))
	// A second export to the same path needs overwrite: true.
	e := toolError(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": out}))
	if e["code"] != "invalid_request" {
		t.Fatalf("overwrite refusal: %v", e)
	}
	closed := structured(t, c.call(t, "close_binary", map[string]any{}))
	if closed["cleared_evidence_records"] != float64(1) {
		t.Fatalf("close_binary: %v", closed)
	}
	after := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary"}))
	if after["total_records"] != float64(0) {
		t.Fatalf("close_binary left records: %v", after)
	}
	imported := structured(t, c.call(t, "import_evidence_bundle", map[string]any{"input_path": out}))
	if !strings.Contains(mustJSON(t, imported), "1") {
		t.Fatalf("import: %v", imported)
	}
	again := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary", "filters": map[string]any{"evidence_id": id}}))
	if again["total_records"] != float64(1) {
		t.Fatalf("imported record %s not retained: %v", id, again)
	}
	// The complete bundle delivers the record byte-identically.
	full := structured(t, c.call(t, "get_evidence_bundle", map[string]any{}))
	records, _ := full["records"].([]any)
	if len(records) != 1 || mustJSON(t, records[0]) != mustJSON(t, rec) {
		t.Fatalf("complete bundle does not hold the inline record")
	}
}

func TestInvalidArgumentsNameTheFieldPath(t *testing.T) {
	c := startMCP(t)
	e := toolError(t, c.call(t, "inspect_artifact", map[string]any{"input_path": 5, "nodes": map[string]any{"limit": 9000}, "bogus": true}))
	if e["code"] != "invalid_request" || e["category"] != "invalid_input" {
		t.Fatalf("want invalid_request: %v", e)
	}
	details, _ := e["details"].(map[string]any)
	issues, _ := details["issues"].([]any)
	got := map[string]string{}
	for _, is := range issues {
		m := is.(map[string]any)
		path, _ := m["path"].([]any)
		got[mustJSON(t, path)] = m["reason"].(string)
	}
	want := map[string]string{`["input_path"]`: "invalid_type", `["nodes","limit"]`: "maximum", `["bogus"]`: "unknown_argument"}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("issue at %s = %q, want %q (all: %v)", p, got[p], r, got)
		}
	}
	// The connection stays usable.
	structured(t, c.call(t, "binary_session", map[string]any{}))
}

func TestSchemaInvalidListParamsAreJSONRPCInvalidParams(t *testing.T) {
	cmd := exec.Command(wasmtest.ReaBinary(t), "mcp", "--log-level", "error")
	cmd.Env = append(os.Environ(), "REA_MODULE_DIR="+wasmtest.ModuleDir(t))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	r := bufio.NewReader(stdout)
	send := func(s string) { _, _ = stdin.Write([]byte(s + "\n")) }
	recv := func() map[string]any {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("not JSON-RPC: %q", line)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + pinnedProtocol + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":5}}`)
	m := recv()
	errObj, _ := m["error"].(map[string]any)
	if errObj == nil || errObj["code"] != float64(-32602) {
		t.Fatalf("tools/list with a non-string cursor: want -32602, got %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`)
	if m := recv(); m["result"] == nil {
		t.Fatalf("connection unusable after -32602: %v", m)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bigSparseDir returns a directory holding one sparse file big enough that
// hashing it takes seconds, so a call on it can be watched and cancelled.
func bigSparseDir(t *testing.T, size int64) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	return dir
}

func TestProgressIsRateBoundedAndStrictlyIncreasing(t *testing.T) {
	c := startMCP(t)
	dir := bigSparseDir(t, 768<<20)
	params := &mcp.CallToolParams{Name: "inspect_artifact", Arguments: map[string]any{
		"input_path": dir, "max_total_bytes": 8 << 30, "max_entry_bytes": 8 << 30}}
	params.SetProgressToken("tok-1")
	res, err := c.session.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	structured(t, res)
	// Notifications are handled on the client's own goroutines: the
	// terminal one, sent before the result, may be handled just after it.
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		c.mu.Lock()
		n := len(c.progress)
		last := ""
		if n > 0 {
			last = c.progress[n-1].Message
		}
		c.mu.Unlock()
		if strings.Contains(last, "completed") {
			break
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.progress) < 2 {
		t.Fatalf("want intermediate and terminal progress, got %d notifications", len(c.progress))
	}
	for i, p := range c.progress {
		// A total, when present, makes progress/total the phase's share of
		// its work done (issue 21 point 7): never below progress.
		if p.ProgressToken != "tok-1" || (p.Total != 0 && p.Total < p.Progress) || p.Message == "" {
			t.Fatalf("progress %d malformed: %+v", i, p)
		}
		if i > 0 && p.Progress <= c.progress[i-1].Progress {
			t.Fatalf("progress not strictly increasing: %v then %v", c.progress[i-1].Progress, p.Progress)
		}
	}
	if !strings.Contains(c.progress[len(c.progress)-1].Message, "completed") {
		t.Fatalf("terminal update missing: %q", c.progress[len(c.progress)-1].Message)
	}
}

func TestNoProgressWithoutAToken(t *testing.T) {
	c := startMCP(t)
	structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t)}))
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.progress) != 0 {
		t.Fatalf("got %d progress notifications without a token", len(c.progress))
	}
}

func TestCancelledCallRecordsNothingAndTheConnectionStaysUsable(t *testing.T) {
	c := startMCP(t)
	dir := bigSparseDir(t, 64<<30)
	ctx, cancel := context.WithCancel(context.Background())
	params := &mcp.CallToolParams{Name: "inspect_artifact", Arguments: map[string]any{
		"input_path": dir, "max_total_bytes": 128 << 30, "max_entry_bytes": 128 << 30}}
	params.SetProgressToken("tok-cancel")
	done := make(chan error, 1)
	go func() {
		_, err := c.session.CallTool(ctx, params)
		done <- err
	}()
	// Wait until the server reports work, then cancel.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		n := len(c.progress)
		c.mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.mu.Lock()
	started := len(c.progress) > 0
	c.mu.Unlock()
	if !started {
		t.Fatal("no progress within 30 s; cannot cancel mid-run")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned success")
	}
	start := time.Now()
	summary := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary"}))
	if summary["total_records"] != float64(0) {
		t.Fatalf("a cancelled call entered the ledger: %v", summary)
	}
	t.Logf("the connection answered %s after the cancel", time.Since(start)) // logged, not asserted
}

func TestOversizedResultIsTransportResourceConstraintWithRetainedReference(t *testing.T) {
	c := startMCP(t)
	dir := byteBoundedPagesDir(t)
	var ids []string
	for off := 0; off < 36; off++ {
		for _, lim := range []int{500, 499} {
			rec := structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": dir,
				"occurrences": map[string]any{"offset": off, "limit": lim}, "nodes": map[string]any{"offset": off, "limit": lim}, "edges": map[string]any{"offset": off, "limit": lim}}))
			ids = append(ids, rec["evidence_id"].(string))
		}
	}
	e := toolError(t, c.call(t, "get_evidence_bundle", map[string]any{}))
	details, _ := e["details"].(map[string]any)
	if e["code"] != "resource_constraint" || details["resource"] != "transport" {
		t.Fatalf("want resource_constraint/transport for a >10 MiB bundle, got %v", e)
	}
	// A summary of the same session still fits and lists every record.
	summary := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary"}))
	if summary["total_records"] != float64(len(ids)) {
		t.Fatalf("summary: %v records, want %d", summary["total_records"], len(ids))
	}
	// An export carries the complete session to a file.
	out := filepath.Join(t.TempDir(), "big.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": out}))
	if st, err := os.Stat(out); err != nil || st.Size() < 10<<20 {
		t.Fatalf("export of the oversized session: %v %v", st, err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// byteBoundedPagesDir is a folder whose inspect_artifact record, at any
// page offset below 36 and a limit of 499 or 500, holds three pages cut by
// their 64 KiB byte budget rather than by the limit: about 240 KB per
// record. 400 files with ~1,000-byte paths and 250-byte names are enough
// (occurrences, edges and nodes each pass 64 KiB before 370 items);
// more files would only make each call slower.
func byteBoundedPagesDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	seg := strings.Repeat("s", 190)
	for i := 0; i < 400; i++ {
		p := filepath.Join(dir, seg+"1", seg+"2", seg+"3", seg+"4", strings.Repeat("f", 245)+"-"+strings.Repeat("0", 4-len(itoa(i)))+itoa(i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(itoa(i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCLIInspectEvidenceBundleSharesTheSummaryProjection(t *testing.T) {
	c := startMCP(t)
	structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t)}))
	structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t), "nodes": map[string]any{"limit": 1}}))
	filters := map[string]any{"operation": "inspect_artifact"}
	viaMCP := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary", "filters": filters}))
	out := filepath.Join(t.TempDir(), "bundle.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": out}))

	req := mustJSON(t, map[string]any{"path": out, "detail": "summary", "filters": filters})
	r := rea(t, "", nil, "inspect-evidence-bundle", req, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	var viaCLI map[string]any
	decode(t, r.stdout, &viaCLI)
	if mustJSON(t, viaCLI) != mustJSON(t, viaMCP) {
		t.Fatalf("CLI and MCP projections differ:\nCLI %s\nMCP %s", mustJSON(t, viaCLI), mustJSON(t, viaMCP))
	}
	if viaCLI["total_records"] != float64(2) {
		t.Fatalf("want 2 records: %v", viaCLI)
	}
	// The same query as flags (the spec's), and as a request file.
	reqFile := filepath.Join(t.TempDir(), "request.json")
	_ = os.WriteFile(reqFile, []byte(req), 0o644)
	for _, args := range [][]string{{out, "--detail", "summary", "--operation", "inspect_artifact"}, {reqFile}} {
		r = rea(t, "", nil, append(append([]string{"inspect-evidence-bundle"}, args...), "--format", "json")...)
		var got map[string]any
		if r.code == 0 {
			decode(t, r.stdout, &got)
		}
		if r.code != 0 || mustJSON(t, got) != mustJSON(t, viaMCP) {
			t.Fatalf("%v: exit %d: %s %s", args, r.code, r.stdout, r.stderr)
		}
	}
	// Filters without summary are refused with the field named.
	r = rea(t, "", nil, "inspect-evidence-bundle", mustJSON(t, map[string]any{"path": out, "filters": filters}), "--format", "json")
	var e typedError
	decode(t, r.stdout, &e)
	if r.code != 1 || e.Error.Code != "invalid_request" {
		t.Fatalf("filters without summary: exit %d %s", r.code, r.stdout)
	}
	// A tampered bundle is rejected.
	b, _ := os.ReadFile(out)
	tampered := strings.Replace(string(b), `"inspect_artifact"`, `"inspect_artifacT"`, 1)
	bad := filepath.Join(t.TempDir(), "tampered.json")
	_ = os.WriteFile(bad, []byte(tampered), 0o644)
	r = rea(t, "", nil, "inspect-evidence-bundle", mustJSON(t, map[string]any{"path": bad, "detail": "summary"}), "--format", "json")
	decode(t, r.stdout, &e)
	if r.code != 1 || e.Error.Code != "evidence_integrity_mismatch" {
		t.Fatalf("tampered bundle: exit %d %s", r.code, r.stdout)
	}
}

func TestToolFamiliesScopeTheCatalog(t *testing.T) {
	c := startMCP(t, "REA_MCP_TOOL_FAMILIES=artifact")
	res, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) == 0 {
		t.Fatal("no tools in the artifact family")
	}
	names := map[string]bool{}
	for _, tool := range res.Tools {
		names[tool.Name] = true
	}
	if !names["inspect_artifact"] || !names["extract_artifact"] {
		t.Errorf("artifact tools missing from the artifact scope: %v", names)
	}
	for _, other := range []string{"binary_session", "analyze_javascript_application", "search_guidance", "list_procedures", "capture_process_scenario"} {
		if names[other] {
			t.Errorf("%s (another family) listed under REA_MCP_TOOL_FAMILIES=artifact", other)
		}
	}
}

func TestBadStartupSettingsAreConfigurationErrors(t *testing.T) {
	for _, env := range []string{"REA_MCP_TOOL_FAMILIES=artifact,bogus", "REA_MCP_MAX_RESPONSE_BYTES=1000", "REA_MCP_INPUT_SCHEMA_PROFILE=tiny",
		"REA_GHIDRA_STARTUP_TIMEOUT_MS=0", "REA_HOPPER_STARTUP_TIMEOUT_MS=2147483648"} {
		r := rea(t, "", []string{env}, "mcp")
		name := strings.SplitN(env, "=", 2)[0]
		if r.code != 1 || !strings.Contains(r.stderr, "configuration_invalid") || !strings.Contains(r.stderr, name) {
			t.Errorf("%s: want exit 1 with configuration_invalid naming the variable, got %d %q", env, r.code, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%s: nothing but protocol may reach stdout, got %q", env, r.stdout)
		}
	}
}

func TestCompactProfileKeepsEveryInputSchemaWithinBudget(t *testing.T) {
	c := startMCP(t, "REA_MCP_INPUT_SCHEMA_PROFILE=compact")
	res, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		if len(b) > 13312 {
			t.Errorf("%s: compact input schema is %d bytes", tool.Name, len(b))
		}
		var s map[string]any
		_ = json.Unmarshal(b, &s)
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if _, ok := p.(map[string]any)["description"]; ok {
				t.Errorf("%s.%s: compact schema keeps a nested description", tool.Name, name)
			}
		}
	}
	// Validation stays canonical: a malformed call is still refused.
	e := toolError(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t), "nodes": map[string]any{"limit": 0}}))
	if e["code"] != "invalid_request" {
		t.Fatalf("compact profile weakened validation: %v", e)
	}
}

func electronFixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(wasmtest.RepoRoot(t), "testdata", "electron", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAnalyzeSummaryRetainsCompleteEvidenceAndViewsReadItByReference(t *testing.T) {
	c := startMCP(t)
	view := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": electronFixture(t, "insecure"), "detail": "summary"}))
	if view["operation"] != "inspect_analysis_view" || view["confidence"] != "derived" {
		t.Fatalf("detail summary must return an inspect_analysis_view record: %v", view["operation"])
	}
	nr := view["normalized_result"].(map[string]any)
	parent, _ := nr["parent_evidence_id"].(string)
	links, _ := view["evidence_links"].([]any)
	if !strings.HasPrefix(parent, "ev_") || len(links) != 1 || links[0] != parent {
		t.Fatalf("summary view must name its parent: %v %v", parent, links)
	}
	top, _ := nr["top_findings"].([]any)
	if len(top) == 0 {
		t.Fatal("the insecure fixture has findings; the summary shows none")
	}
	// The parent is retained: a page of findings by reference.
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": parent}
	page := structured(t, c.call(t, "inspect_analysis_view", map[string]any{"source": ref, "view": "page", "collection": "findings", "limit": 2}))
	p := page["normalized_result"].(map[string]any)["page"].(map[string]any)
	if items := p["items"].([]any); len(items) != 2 || p["total"].(float64) < 3 {
		t.Fatalf("page of findings: %v", p)
	}
	// A missing reference reports its exact id and reason "missing".
	missing := "ev_" + strings.Repeat("ab", 32)
	e := toolError(t, c.call(t, "inspect_analysis_view", map[string]any{"source": map[string]any{"kind": "retained-evidence", "evidence_id": missing}}))
	details, _ := e["details"].(map[string]any)
	if details["reason"] != "missing" || !strings.Contains(mustJSON(t, e), missing) {
		t.Fatalf("missing reference: %v", e)
	}
}

func TestAnalyzeCompleteFindsInsecureWindowOptionsFromAHelperFunction(t *testing.T) {
	c := startMCP(t)
	rec := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": electronFixture(t, "insecure")}))
	nr := rec["normalized_result"].(map[string]any)
	app := nr["application"].(map[string]any)
	found := false
	for _, f := range app["findings"].([]any) {
		m := f.(map[string]any)
		loc := m["location"].(map[string]any)
		if m["rule_id"] == "context-isolation-disabled" && loc["file"] == "window-options.js" && loc["line"].(float64) > 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("contextIsolation:false set in a helper module was not reported with its original location")
	}
	prov := nr["provenance"].(map[string]any)
	if prov["module"] != "jsapp" || len(prov["module_sha256"].(string)) != 64 || prov["fuel_used"].(float64) <= 0 {
		t.Fatalf("provenance must name the module, its digest and fuel: %v", prov)
	}
}

func TestCaptureProcessOverMCPAndCompareRetainedCaptures(t *testing.T) {
	c := startMCP(t)
	scenario := map[string]any{"executable": "/bin/sh", "args": []any{"-c", "echo captured-output; sleep 0.6"}, "env": map[string]any{"PATH": "/usr/bin:/bin"}}
	first := structured(t, c.call(t, "capture_process_scenario", scenario))
	second := structured(t, c.call(t, "capture_process_scenario", scenario))
	if first["predicate_type"] != "rea.process-capture/v1" || first["authority"] != "controlled-replay" {
		t.Fatalf("capture Evidence: %v %v", first["predicate_type"], first["authority"])
	}
	if !strings.Contains(mustJSON(t, first["normalized_result"]), "captured-output") {
		t.Fatal("capture lost the program's output")
	}
	// binary_session's process lineage now holds the verified snapshots.
	bs := structured(t, c.call(t, "binary_session", map[string]any{}))
	lineage := bs["analysis_run"].(map[string]any)["process_lineage"].(map[string]any)
	snaps, _ := lineage["snapshots"].([]any)
	if lineage["status"] != "snapshots" || len(snaps) != 2 {
		t.Fatalf("process_lineage after two captures: %v", lineage)
	}
	obs := snaps[0].(map[string]any)["observation"].(map[string]any)
	if obs["status"] != "verified" || obs["launcher_pid"].(float64) <= 0 || obs["observed_at"] == "" {
		t.Fatalf("lineage observation: %v", obs)
	}
	cmp := structured(t, c.call(t, "compare_process_captures", map[string]any{
		"left":  map[string]any{"kind": "retained-evidence", "evidence_id": first["evidence_id"]},
		"right": map[string]any{"kind": "retained-evidence", "evidence_id": second["evidence_id"]},
	}))
	links, _ := cmp["evidence_links"].([]any)
	if cmp["operation"] != "compare_process_captures" || len(links) != 2 {
		t.Fatalf("comparison must link both captures: %v", cmp["evidence_links"])
	}
	// A scenario with an unknown field is refused with its path.
	bad := toolError(t, c.call(t, "capture_process_scenario", map[string]any{"executable": "/bin/true", "bogus": 1}))
	if bad["code"] != "invalid_request" {
		t.Fatalf("unknown scenario field: %v", bad)
	}
}

func TestCloseBinaryDrainsWorkInFlight(t *testing.T) {
	c := startMCP(t)
	dir := bigSparseDir(t, 64<<30)
	params := &mcp.CallToolParams{Name: "inspect_artifact", Arguments: map[string]any{
		"input_path": dir, "max_total_bytes": 128 << 30, "max_entry_bytes": 128 << 30}}
	params.SetProgressToken("tok-drain")
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := c.session.CallTool(context.Background(), params)
		done <- outcome{res, err}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		n := len(c.progress)
		c.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the long call never reported progress")
		}
		time.Sleep(20 * time.Millisecond)
	}
	closed := structured(t, c.call(t, "close_binary", map[string]any{}))
	if closed["drained_calls"] != float64(1) {
		t.Fatalf("close_binary did not drain the call in flight: %v", closed)
	}
	o := <-done
	if o.err != nil {
		t.Fatalf("drained call: protocol error %v", o.err)
	}
	if e := toolError(t, o.res); e["code"] != "cancelled" {
		t.Fatalf("drained call must end cancelled: %v", e)
	}
	summary := structured(t, c.call(t, "get_evidence_bundle", map[string]any{"detail": "summary"}))
	if summary["total_records"] != float64(0) {
		t.Fatalf("drained work entered the ledger: %v", summary)
	}
}
