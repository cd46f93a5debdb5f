package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rea/wasm/wasmtest"
)

// Issue 21 point 8 on the output side, through the built binary: results
// name Evidence by {kind, evidence_id} references; the seed's bare-id
// arrays stay beside them for one release and are named as deprecations of
// the result in _meta "rea/deprecations" (in: "result"); the coverage
// workspace takes contradictions[].evidence, its older evidence_ids as an
// alias.
func TestResultNamesEvidenceByReferenceOverMCPAndTheCLI(t *testing.T) {
	c := startMCP(t)
	app := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v1")}))["evidence_id"].(string)
	refs := mustJSON(t, []any{retained(app)})

	// The unknown registry.
	res := c.call(t, "record_unknown", map[string]any{"question": "Which window opens first?", "domain": "packaging", "supporting_evidence": []any{retained(app)}})
	unk := structured(t, res)["unknown"].(map[string]any)
	if mustJSON(t, unk["supporting_evidence"]) != refs || mustJSON(t, unk["supporting_evidence_ids"]) != mustJSON(t, []string{app}) {
		t.Errorf("unknown: supporting_evidence %v, supporting_evidence_ids %v", unk["supporting_evidence"], unk["supporting_evidence_ids"])
	}
	if len(deprecationsOf(t, res.Meta, nil)) != 0 {
		t.Errorf("canonical arguments got parameter deprecations: %v", res.Meta)
	}
	got := resultDeprecationsOf(t, res.Meta, res.Content)
	if got["unknown.supporting_evidence_ids"] != "unknown.supporting_evidence" || got["unknown.mutation_evidence_ids"] != "unknown.mutation_evidence" {
		t.Errorf("result deprecations %v", got)
	}
	v := c.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": unk["unknown_id"], "evidence": []any{retained(app)}})
	if sv := structured(t, v); sv["qualifying_evidence"] == nil || resultDeprecationsOf(t, v.Meta, nil)["qualifying_evidence_ids"] != "qualifying_evidence" {
		t.Errorf("verify: %v %v", sv["qualifying_evidence"], v.Meta)
	}

	// Obligations: each one's source Evidence by reference, and the record's
	// parameters in the canonical names.
	res = c.call(t, "build_reconstruction_obligation_ledger", map[string]any{"manifest": map[string]any{"schema_version": 1},
		"source_evidence": []any{retained(app)}, "limit": 1})
	rec := structured(t, res)
	obl := rec["normalized_result"].(map[string]any)["obligations"].([]any)
	if len(obl) != 1 || mustJSON(t, obl[0].(map[string]any)["source_evidence"]) != refs {
		t.Fatalf("obligations %v", obl)
	}
	params := rec["parameters"].(map[string]any)
	if mustJSON(t, params["source_evidence"]) != refs || params["limit"] != float64(1) || params["source_evidence_ids"] != nil || params["page"] != nil {
		t.Errorf("ledger parameters %v", params)
	}
	if d := resultDeprecationsOf(t, res.Meta, res.Content); d["normalized_result.obligations[].source_evidence_ids"] != "normalized_result.obligations[].source_evidence" {
		t.Errorf("ledger result deprecations %v", d)
	}

	// The coverage workspace: contradictions[].evidence, or the older
	// evidence_ids with a deprecation; the same Evidence either way.
	workspace := func(contradiction map[string]any) map[string]any {
		contradiction["surface_id"], contradiction["note"] = "save-file", "saves elsewhere"
		return map[string]any{"schema_version": 1, "workspace_id": "rcw_refs", "boundaries": []any{map[string]any{
			"boundary_id": "ipc", "inventory_complete": true, "owners": []string{"main"},
			"surfaces": []any{map[string]any{"surface_id": "save-file", "owner_id": "main"}}, "verifiers": []any{},
			"contradictions": []any{contradiction}}}}
	}
	newWS, oldWS := workspace(map[string]any{"evidence": []any{retained(app)}}), workspace(map[string]any{"evidence_ids": []string{app}})
	canon := c.call(t, "evaluate_reconstruction_coverage", map[string]any{"workspace": newWS})
	old := c.call(t, "evaluate_reconstruction_coverage", map[string]any{"workspace": oldWS})
	canonRec, oldRec := structured(t, canon), structured(t, old)
	if canonRec["evidence_id"] != oldRec["evidence_id"] || canonRec["normalized_result"].(map[string]any)["status"] != "fail" {
		t.Errorf("coverage: canonical %v (%v), old %v", canonRec["evidence_id"], canonRec["normalized_result"], oldRec["evidence_id"])
	}
	if !strings.Contains(mustJSON(t, canonRec["normalized_result"]), app) {
		t.Errorf("the contradiction's Evidence is not in the diagnostics: %v", canonRec["normalized_result"])
	}
	wantDeprecations(t, "evaluate_reconstruction_coverage", deprecationsOf(t, old.Meta, old.Content),
		map[string]string{"workspace.boundaries[0].contradictions[0].evidence_ids": "workspace.boundaries[0].contradictions[0].evidence"})
	if len(deprecationsOf(t, canon.Meta, nil)) != 0 {
		t.Errorf("canonical workspace got deprecations: %v", canon.Meta)
	}

	// The CLI prints the same names.
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle.json")
	structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": bundle}))
	r := rea(t, "", nil, "--format", "json", "unknowns", "list", "--bundle", bundle)
	if r.code != 0 {
		t.Fatalf("unknowns list: exit %d: %s", r.code, r.stderr)
	}
	var page struct {
		Unknowns []map[string]any `json:"unknowns"`
	}
	decode(t, r.stdout, &page)
	if len(page.Unknowns) != 1 || mustJSON(t, page.Unknowns[0]["supporting_evidence"]) != refs {
		t.Errorf("CLI unknowns %v", page.Unknowns)
	}
	ids := map[string]string{}
	for name, ws := range map[string]map[string]any{"new": newWS, "old": oldWS} {
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(mustJSON(t, ws)), 0o600); err != nil {
			t.Fatal(err)
		}
		r := rea(t, "", []string{"REA_MODULE_DIR=" + wasmtest.ModuleDir(t)}, "--format", "json", "evaluate-reconstruction-coverage", p)
		var out struct {
			EvidenceID string `json:"evidence_id"`
		}
		decode(t, r.stdout, &out)
		ids[name] = out.EvidenceID
		if deprecated := strings.Contains(r.stderr, "contradictions[0].evidence_ids is deprecated"); deprecated != (name == "old") {
			t.Errorf("%s workspace: stderr %q", name, r.stderr)
		}
	}
	if ids["new"] != ids["old"] || ids["new"] != canonRec["evidence_id"] {
		t.Errorf("CLI coverage Evidence %v, MCP %v", ids, canonRec["evidence_id"])
	}
}
