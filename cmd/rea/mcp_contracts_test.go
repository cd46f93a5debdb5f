package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/host/mcpserver"
	"rea/wasm/wasmtest"
)

// Issue 21 point 5: the MCP contracts of seed 000/001 that were missing.

func TestMCPDoctorIsHealthyUnderEveryToolFamilyScope(t *testing.T) {
	for _, f := range append(mcpserver.Families(), "artifact,native") {
		r := rea(t, "", []string{"REA_MCP_TOOL_FAMILIES=" + f}, "mcp", "doctor", "--format", "json")
		var rep struct {
			Healthy bool `json:"healthy"`
			Tools   int  `json:"tools"`
			Checks  []struct {
				Name   string `json:"name"`
				OK     bool   `json:"ok"`
				Detail string `json:"detail"`
			} `json:"checks"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%s: doctor output is not JSON (exit %d): %v\n%s\n%s", f, r.code, err, r.stdout, r.stderr)
		}
		if r.code != 0 || !rep.Healthy || rep.Tools == 0 {
			t.Errorf("REA_MCP_TOOL_FAMILIES=%s: exit %d, healthy %v, %d tools, checks %+v", f, r.code, rep.Healthy, rep.Tools, rep.Checks)
		}
		identity := false
		for _, c := range rep.Checks {
			identity = identity || (c.Name == "identity" && c.OK)
		}
		if !identity {
			t.Errorf("REA_MCP_TOOL_FAMILIES=%s: no passing identity check: %+v", f, rep.Checks)
		}
	}
}

func TestMaxResponseBytesWithSurroundingSpacesIsRefused(t *testing.T) {
	for _, v := range []string{" 20971520", "20971520 ", "+20971520"} {
		r := rea(t, "", []string{"REA_MCP_MAX_RESPONSE_BYTES=" + v}, "mcp")
		if r.code != 1 || !strings.Contains(r.stderr, "configuration_invalid") || !strings.Contains(r.stderr, "REA_MCP_MAX_RESPONSE_BYTES") || r.stdout != "" {
			t.Errorf("%q: want exit 1 with configuration_invalid, got %d %q %q", v, r.code, r.stdout, r.stderr)
		}
	}
}

func TestOpenBinaryRefusesQuickLookGeneratorsLikeKernelExtensions(t *testing.T) {
	c := startMCP(t)
	root := t.TempDir()
	for _, name := range []string{"Preview.qlgenerator", "Driver.kext"} {
		dir := filepath.Join(root, name, "Contents", "MacOS")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		e := toolError(t, c.call(t, "open_binary", map[string]any{"input_path": filepath.Join(root, name)}))
		details, _ := e["details"].(map[string]any)
		if e["code"] != "capability_unavailable" || details["field"] != "input_path" || details["bundle_type"] != strings.ToLower(filepath.Ext(name)) {
			t.Errorf("%s: want capability_unavailable naming the bundle type, got %v", name, e)
		}
	}
	app := filepath.Join(root, "Tool.app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := structured(t, c.call(t, "open_binary", map[string]any{"input_path": app})); got["opened"] != true {
		t.Errorf(".app bundle not opened: %v", got)
	}
}

func TestParamTypeErrorsAreInvalidParamsWithIssuePaths(t *testing.T) {
	r := startRawMCP(t)
	for _, tc := range []struct {
		method, params string
		path           string
	}{
		{"tools/list", `{"cursor":5}`, `["cursor"]`},
		{"tools/call", `{"name":5,"arguments":{}}`, `["name"]`},
		{"tools/call", `{"name":"binary_session","arguments":{},"_meta":{"progressToken":{}}}`, `["_meta","progressToken"]`},
		{"prompts/get", `{"name":"investigate_feature","arguments":{"feature":5}}`, `["arguments","feature"]`},
		{"prompts/list", `{"cursor":[]}`, `["cursor"]`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":5},"argument":{"name":"feature","value":""}}`, `["ref","name"]`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"investigate_feature"},"argument":{"name":"feature","value":7}}`, `["argument","value"]`},
		{"logging/setLevel", `{"level":true}`, `["level"]`},
	} {
		m := r.request(tc.method, tc.params)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32602) {
			t.Errorf("%s %s: want -32602, got %v", tc.method, tc.params, m)
			continue
		}
		msg, _ := e["message"].(string)
		if strings.Contains(msg, "unmarshal") || strings.Contains(msg, "Go struct") {
			t.Errorf("%s %s: message is Go's unmarshal text: %q", tc.method, tc.params, msg)
		}
		data, _ := json.Marshal(e["data"])
		if !strings.Contains(string(data), `"path":`+tc.path) || !strings.Contains(string(data), `"reason":"invalid_type"`) {
			t.Errorf("%s %s: data.issues does not name %s: %s", tc.method, tc.params, tc.path, data)
		}
	}
	if m := r.request("tools/list", `{}`); m["result"] == nil {
		t.Fatalf("connection unusable after -32602: %v", m)
	}
}

// Issue 21 point 9: a summary's own evidence_id works where the
// application is expected, and an Evidence object without its kind is
// answered with the reference form.
func TestSummaryEvidenceIDResolvesToItsParentApplication(t *testing.T) {
	c := startMCP(t)
	dir := filepath.Join(wasmtest.RepoRoot(t), "testdata", "versions", "v1")
	summary := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": dir, "detail": "summary"}))
	if summary["operation"] != "inspect_analysis_view" {
		t.Fatalf("detail summary returned %v", summary["operation"])
	}
	parent := summary["normalized_result"].(map[string]any)["parent_evidence_id"].(string)
	ref := map[string]any{"kind": "retained-evidence", "evidence_id": summary["evidence_id"]}
	traced := structured(t, c.call(t, "trace_application_feature", map[string]any{"application": ref, "seed": map[string]any{"kind": "channel", "value": "save", "match": "contains"}}))
	if links, _ := traced["evidence_links"].([]any); len(links) == 0 || links[0] != parent {
		t.Errorf("trace of the summary's id does not link the parent application %s: %v", parent, traced["evidence_links"])
	}
	cmp := structured(t, c.call(t, "compare_application_versions", map[string]any{"left": ref, "right": ref}))
	if links, _ := cmp["evidence_links"].([]any); len(links) == 0 || links[0] != parent {
		t.Errorf("comparison of the summary's id does not link the parent %s: %v", parent, cmp["evidence_links"])
	}
	if r := c.call(t, "render_application_report", map[string]any{"application": ref}); r.IsError {
		t.Errorf("report of the summary's id: %s", text(r))
	}

	e := toolError(t, c.call(t, "trace_application_feature", map[string]any{"application": map[string]any{"evidence_id": parent}, "seed": map[string]any{"kind": "channel", "value": "save"}}))
	msg, _ := e["message"].(string)
	if e["code"] != "invalid_request" || !strings.Contains(msg, `{"kind":"retained-evidence","evidence_id":"`+parent+`"}`) || strings.Contains(msg, "analysis_profile") {
		t.Errorf("missing kind: want the reference form in the message, got %v", e)
	}
	details, _ := e["details"].(map[string]any)
	if b, _ := json.Marshal(details["issues"]); !strings.Contains(string(b), `"path":["kind"]`) || details["field"] != "application" {
		t.Errorf("missing kind: details %v", details)
	}
}

// Issue 21 point 10 end to end: under REA_MCP_INPUT_SCHEMA_PROFILE=strict
// every listed input schema passes OpenAI's and Gemini's rules after the
// SDK's conversion, and a call written the strict way (nulls, {name,
// value} pairs) runs, still checked by the canonical schema.
func TestStrictProfileOverTheWire(t *testing.T) {
	c := startMCP(t, "REA_MCP_INPUT_SCHEMA_PROFILE=strict")
	res, err := c.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var capture map[string]any
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		for _, rules := range []mcpserver.StrictRuleSet{mcpserver.RulesOpenAI, mcpserver.RulesGemini} {
			if problems, _ := mcpserver.CheckStrictSchema(rules, tool.Name, b); len(problems) > 0 {
				t.Errorf("%s under %s: %v", tool.Name, rules, problems)
			}
		}
		if tool.Name == "capture_process_scenario" {
			_ = json.Unmarshal(b, &capture)
		}
	}
	args := map[string]any{}
	for name := range capture["properties"].(map[string]any) {
		args[name] = nil
	}
	args["executable"] = "/bin/sh"
	args["args"] = []any{"-c", "echo $GREETING"}
	args["env"] = []any{map[string]any{"name": "PATH", "value": "/usr/bin:/bin"}, map[string]any{"name": "GREETING", "value": "strict-form"}}
	rec := structured(t, c.call(t, "capture_process_scenario", args))
	if b, _ := json.Marshal(rec["normalized_result"]); !strings.Contains(string(b), "strict-form") {
		t.Errorf("the strict-form environment did not reach the process: %.400s", b)
	}
	e := toolError(t, c.call(t, "inspect_artifact", map[string]any{"input_path": fixtureASAR(t), "max_entries": -5}))
	if b, _ := json.Marshal(e["details"]); e["code"] != "invalid_request" || !strings.Contains(string(b), `"path":["max_entries"]`) {
		t.Errorf("canonical bounds do not hold under the strict profile: %v", e)
	}
}
