package main_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"rea/analysis/native/nativetest"
	"rea/wasm/wasmtest"
)

// Issue 21 point 8, through the built binary: an old parameter name still
// works for one release and the result says which name replaces it; an old
// and a new name with different values is invalid.

// deprecationsOf reads the call's parameter deprecations in _meta
// "rea/deprecations" as parameter → replacement and checks the text note a
// model reads; resultDeprecationsOf the result's (in: "result").
func deprecationsOf(t *testing.T, meta map[string]any, content []mcp.Content) map[string]string {
	return deprecationsIn(t, meta, content, "")
}

func resultDeprecationsOf(t *testing.T, meta map[string]any, content []mcp.Content) map[string]string {
	return deprecationsIn(t, meta, content, "result")
}

func deprecationsIn(t *testing.T, meta map[string]any, content []mcp.Content, in string) map[string]string {
	t.Helper()
	out := map[string]string{}
	list, _ := meta["rea/deprecations"].([]any)
	for _, d := range list {
		m := d.(map[string]any)
		if where, _ := m["in"].(string); where != in {
			continue
		}
		out[m["parameter"].(string)] = m["replacement"].(string)
		if !strings.Contains(m["message"].(string), "deprecated") {
			t.Errorf("deprecation without words: %v", m)
		}
	}
	if content != nil && len(list) > 0 {
		last, _ := content[len(content)-1].(*mcp.TextContent)
		if last == nil || !strings.HasPrefix(last.Text, "deprecated: ") {
			t.Errorf("no text note after the result: %v", content)
		}
	}
	return out
}

func wantDeprecations(t *testing.T, what string, got map[string]string, want map[string]string) {
	t.Helper()
	if mustJSON(t, got) != mustJSON(t, want) {
		t.Errorf("%s: deprecations %v, want %v", what, got, want)
	}
}

func issuePaths(t *testing.T, e map[string]any) []string {
	t.Helper()
	details, _ := e["details"].(map[string]any)
	issues, _ := details["issues"].([]any)
	var out []string
	for _, is := range issues {
		m := is.(map[string]any)
		b, _ := json.Marshal(m["path"])
		out = append(out, string(b)+" "+m["reason"].(string))
	}
	return out
}

func TestOldParameterNamesWorkWithADeprecationOverMCP(t *testing.T) {
	c := startMCP(t, "REA_ANALYSIS_PROVIDER=", "GHIDRA_INSTALL_DIR=")
	asar := fixtureASAR(t)

	// Paging: inspect_artifact's per-collection pages.
	canon := c.call(t, "inspect_artifact", map[string]any{"input_path": asar, "occurrences": map[string]any{"offset": 1, "limit": 1}, "nodes": map[string]any{"limit": 2}})
	old := c.call(t, "inspect_artifact", map[string]any{"input_path": asar, "occurrence_offset": 1, "occurrence_limit": 1, "node_limit": 2})
	canonRec, oldRec := structured(t, canon), structured(t, old)
	if canonRec["evidence_id"] != oldRec["evidence_id"] {
		t.Errorf("old names record other Evidence: %v vs %v", oldRec["evidence_id"], canonRec["evidence_id"])
	}
	if occ := oldRec["normalized_result"].(map[string]any)["occurrences"].(map[string]any); occ["offset"] != float64(1) || len(occ["items"].([]any)) != 1 {
		t.Errorf("occurrence page under the old names: %v", occ)
	}
	wantDeprecations(t, "inspect_artifact", deprecationsOf(t, old.Meta, old.Content),
		map[string]string{"occurrence_offset": "occurrences.offset", "occurrence_limit": "occurrences.limit", "node_limit": "nodes.limit"})
	if d := deprecationsOf(t, canon.Meta, nil); len(d) != 0 {
		t.Errorf("canonical names got deprecations: %v", d)
	}
	e := toolError(t, c.call(t, "inspect_artifact", map[string]any{"input_path": asar, "occurrence_limit": 1, "occurrences": map[string]any{"limit": 2}}))
	if e["code"] != "invalid_request" || mustJSON(t, issuePaths(t, e)) != `["[\"occurrence_limit\"] conflicting_alias"]` {
		t.Errorf("old and new with different values: %v", e)
	}
	// The same value under both names is accepted.
	structured(t, c.call(t, "inspect_artifact", map[string]any{"input_path": asar, "occurrence_limit": 1, "occurrences": map[string]any{"limit": 1}}))

	// Paging: analyze_function's assembly page.
	bin := nativetest.ChainELF(t, "plain")
	canon = c.call(t, "analyze_function", map[string]any{"input_path": bin, "procedure": "middle", "assembly": map[string]any{"limit": 2}})
	old = c.call(t, "analyze_function", map[string]any{"input_path": bin, "procedure": "middle", "assembly_limit": 2})
	if a, b := structured(t, canon)["evidence_id"], structured(t, old)["evidence_id"]; a != b {
		t.Errorf("analyze_function: old names record %v, new %v", b, a)
	}
	asm := structured(t, old)["normalized_result"].(map[string]any)["assembly"].(map[string]any)
	if asm["limit"] != float64(2) || len(asm["items"].([]any)) > 2 {
		t.Errorf("assembly page under assembly_limit: limit %v, %d items", asm["limit"], len(asm["items"].([]any)))
	}
	wantDeprecations(t, "analyze_function", deprecationsOf(t, old.Meta, old.Content), map[string]string{"assembly_limit": "assembly.limit"})

	// Evidence references: the unknown registry.
	ev := canonRec["evidence_id"].(string)
	old = c.call(t, "record_unknown", map[string]any{"question": "Which file does the app load first?", "domain": "packaging", "supporting_evidence_ids": []string{ev}})
	unk := structured(t, old)["unknown"].(map[string]any)
	if mustJSON(t, unk["supporting_evidence_ids"]) != mustJSON(t, []string{ev}) {
		t.Errorf("supporting Evidence under the old name: %v", unk["supporting_evidence_ids"])
	}
	wantDeprecations(t, "record_unknown", deprecationsOf(t, old.Meta, old.Content), map[string]string{"supporting_evidence_ids": "supporting_evidence"})
	id := unk["unknown_id"].(string)
	canon = c.call(t, "record_unknown", map[string]any{"question": "Which file does the app load last?", "domain": "packaging",
		"supporting_evidence": []any{map[string]any{"kind": "retained-evidence", "evidence_id": ev}}})
	if got := structured(t, canon)["unknown"].(map[string]any)["supporting_evidence_ids"]; mustJSON(t, got) != mustJSON(t, []string{ev}) {
		t.Errorf("supporting Evidence by reference: %v", got)
	}
	old = c.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": id, "evidence_ids": []string{ev}})
	canon = c.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": id, "evidence": []any{map[string]any{"kind": "retained-evidence", "evidence_id": ev}}})
	if a, b := structured(t, old)["candidates"], structured(t, canon)["candidates"]; mustJSON(t, a) != mustJSON(t, b) || len(a.([]any)) != 1 {
		t.Errorf("verify: old %v, new %v", a, b)
	}
	wantDeprecations(t, "verify_unknown_resolution", deprecationsOf(t, old.Meta, old.Content), map[string]string{"evidence_ids": "evidence"})
	old = c.call(t, "update_unknown", map[string]any{"unknown_id": id, "expected_revision": 1, "changes": map[string]any{"contradicting_evidence_ids": []string{}}})
	structured(t, old)
	wantDeprecations(t, "update_unknown", deprecationsOf(t, old.Meta, old.Content), map[string]string{"changes.contradicting_evidence_ids": "changes.contradicting_evidence"})
	e = toolError(t, c.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": id, "evidence_ids": []string{ev}, "evidence": []any{}}))
	if mustJSON(t, issuePaths(t, e)) != `["[\"evidence_ids\"] conflicting_alias"]` {
		t.Errorf("evidence_ids with a different evidence: %v", e)
	}

	// The registry's errors name the parameter the caller gives, not the
	// stored field.
	missing := "ev_" + strings.Repeat("0", 64)
	e = toolError(t, c.call(t, "record_unknown", map[string]any{"question": "Is this retained?", "domain": "packaging",
		"supporting_evidence": []any{map[string]any{"kind": "retained-evidence", "evidence_id": missing}}}))
	if details, _ := e["details"].(map[string]any); details["field"] != "supporting_evidence[0]" || strings.Contains(mustJSON(t, e), "supporting_evidence_ids") {
		t.Errorf("unretained reference: %v", e)
	}

	e = toolError(t, c.call(t, "record_unknown", map[string]any{"question": "Is this an id?", "domain": "packaging",
		"supporting_evidence": []any{map[string]any{"kind": "retained-evidence", "evidence_id": "bogus"}}}))
	if paths := mustJSON(t, issuePaths(t, e)); !strings.Contains(paths, `[\"supporting_evidence\",0]`) || strings.Contains(mustJSON(t, e), "supporting_evidence_ids") {
		t.Errorf("malformed reference: %v", e)
	}

	// Workflows: the guided_workflows tool.
	old = c.call(t, "guided_workflows", map[string]any{"action": "render", "workflow_id": "investigate_feature", "arguments": map[string]any{"feature": "x", "target_path": "/tmp/app"}})
	if args := structured(t, old)["arguments"].(map[string]any); args["input_path"] != "/tmp/app" || args["target_path"] != nil {
		t.Errorf("rendered arguments: %v", args)
	}
	wantDeprecations(t, "guided_workflows", deprecationsOf(t, old.Meta, old.Content), map[string]string{"arguments.target_path": "arguments.input_path"})

	// Prompts: prompts/get carries the same list in its _meta.
	res, err := c.session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "compare_application_versions",
		Arguments: map[string]string{"left_target_path": "/a", "right_target_path": "/b"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := promptText(t, res); !strings.Contains(text, `"left_input_path":"/a"`) {
		t.Errorf("prompt context lacks left_input_path: %s", text)
	}
	wantDeprecations(t, "prompts/get", deprecationsOf(t, res.Meta, nil),
		map[string]string{"arguments.left_target_path": "arguments.left_input_path", "arguments.right_target_path": "arguments.right_input_path"})
}

func TestOldPromptArgumentWithADifferentNewOneIsInvalidParams(t *testing.T) {
	r := startRawMCP(t)
	invalidParams(t, "prompts/get target_path and input_path", r.request("prompts/get",
		`{"name":"investigate_feature","arguments":{"feature":"x","target_path":"/a","input_path":"/b"}}`), "arguments.target_path")
}

func TestOldParameterNamesWorkWithADeprecationOnTheCLI(t *testing.T) {
	// guided-workflows --arguments-json with the old workflow argument.
	r := rea(t, "", nil, "--format", "json", "guided-workflows", "--action", "render", "--workflow-id", "trace_crash",
		"--arguments-json", `{"crash_signal":"SIGSEGV","target_path":"/bin/x"}`)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var out struct{ Arguments map[string]string }
	decode(t, r.stdout, &out)
	if out.Arguments["input_path"] != "/bin/x" || !strings.Contains(r.stderr, "arguments.target_path is deprecated") || !strings.Contains(r.stderr, "use arguments.input_path") {
		t.Errorf("arguments %v, stderr %q", out.Arguments, r.stderr)
	}

	// build-reconstruction-obligation-ledger REQUEST.json with page and
	// bare ids: the same Evidence as the canonical request.
	c := startMCP(t)
	app := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v1")}))["evidence_id"].(string)
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": bundle}))
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldReq := write("old.json", `{"manifest":{"schema_version":1},"source_evidence_ids":["`+app+`"],"page":{"offset":0,"limit":1}}`)
	newReq := write("new.json", `{"manifest":{"schema_version":1},"source_evidence":[{"kind":"retained-evidence","evidence_id":"`+app+`"}],"offset":0,"limit":1}`)
	ledger := func(req string) (string, string) {
		r := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}, "--format", "json", "build-reconstruction-obligation-ledger", req, "--bundle", bundle)
		if r.code != 0 && r.code != 2 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var rec struct {
			EvidenceID string `json:"evidence_id"`
			Normalized struct {
				Page struct{ Limit int } `json:"page"`
			} `json:"normalized_result"`
		}
		decode(t, r.stdout, &rec)
		if rec.Normalized.Page.Limit != 1 {
			t.Errorf("%s: page limit %d, want 1", req, rec.Normalized.Page.Limit)
		}
		return rec.EvidenceID, r.stderr
	}
	oldID, oldErr := ledger(oldReq)
	newID, newErr := ledger(newReq)
	if oldID != newID || oldID == "" {
		t.Errorf("old request recorded %s, canonical %s", oldID, newID)
	}
	for _, w := range []string{"page.limit is deprecated", "use limit", "source_evidence_ids is deprecated", "use source_evidence"} {
		if !strings.Contains(oldErr, w) {
			t.Errorf("stderr lacks %q: %q", w, oldErr)
		}
	}
	if strings.Contains(newErr, "deprecated") {
		t.Errorf("canonical request warned: %q", newErr)
	}
	conflict := write("conflict.json", `{"manifest":{"schema_version":1},"page":{"limit":1},"limit":2}`)
	if r := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}, "--format", "json", "build-reconstruction-obligation-ledger", conflict, "--bundle", bundle); r.code == 0 || !strings.Contains(r.stdout+r.stderr, "conflicting_alias") || !strings.Contains(r.stdout+r.stderr, "page.limit") {
		t.Errorf("conflicting page.limit and limit: exit %d, %s%s", r.code, r.stdout, r.stderr)
	}
}
