package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func retained(id string) map[string]any {
	return map[string]any{"kind": "retained-evidence", "evidence_id": id}
}

// TestReconstructionVerificationSurvivesExportAndImport is the issue's
// end-to-end story over MCP: analyse two versions, compare them, record an
// unknown about a changed handler, verify a specification with one passing
// and one failing claim, export the bundle, import it on a new connection
// and get the same verdict — then the CLI reads the same bundle.
func TestReconstructionVerificationSurvivesExportAndImport(t *testing.T) {
	c := startMCP(t)
	v1 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v1")}))["evidence_id"].(string)
	v2 := structured(t, c.call(t, "analyze_javascript_application", map[string]any{"input_path": versionFixture(t, "v2")}))["evidence_id"].(string)
	// The original is v2: a reconstruction identical to it, and v1 standing
	// in for a reconstruction that missed the new handlers.
	same := structured(t, c.call(t, "compare_application_versions", map[string]any{"left": retained(v2), "right": retained(v2)}))["evidence_id"].(string)
	diff := structured(t, c.call(t, "compare_application_versions", map[string]any{"left": retained(v1), "right": retained(v2)}))["evidence_id"].(string)

	rec := structured(t, c.call(t, "record_unknown", map[string]any{
		"question": "Which handler answers settings:save in v2, and does it sync settings off the machine?", "domain": "ipc",
		"severity": "high", "supporting_evidence": []any{retained(diff)},
		"recommended_probes": []any{map[string]any{"operation": "trace_application_feature", "rationale": "follow the settings:save channel to its handler"}},
	}))
	unk := rec["unknown"].(map[string]any)
	unkID := unk["unknown_id"].(string)
	if unk["revision"] != float64(1) || !strings.HasPrefix(rec["mutation_evidence_id"].(string), "ev_") {
		t.Fatalf("record_unknown: %v", rec)
	}
	// A stale revision is refused and changes nothing.
	structured(t, c.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 1, "changes": map[string]any{"status": "investigating"}}))
	e := toolError(t, c.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 1, "changes": map[string]any{"severity": "low"}}))
	if e["code"] != "revision_conflict" {
		t.Fatalf("stale revision: %v", e)
	}
	// Verified without qualifying Evidence is refused: the comparison is
	// derived, the unknown requires observed.
	e = toolError(t, c.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 2, "changes": map[string]any{
		"status": "resolved", "resolution": map[string]any{"disposition": "verified", "rationale": "the diff shows it", "evidence": []any{retained(diff)}}}}))
	if e["code"] != "invalid_request" || !strings.Contains(mustJSON(t, e), "unqualified-verified-resolution") {
		t.Fatalf("unqualified verified resolution: %v", e)
	}
	check := structured(t, c.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": unkID}))
	if check["verdict"] != "unverified" || check["revision"] != float64(2) {
		t.Fatalf("verify_unknown_resolution: %v", check)
	}
	// Completion offers the open head and retained comparison Evidence.
	if got := complete(t, c, "audit_residual_unknowns", "unknown_id", "unk_"); !hasValue(got.Values, unkID) {
		t.Fatalf("completion lacks the open unknown %s: %v", unkID, got.Values)
	}
	if got := complete(t, c, "verify_reconstruction", "comparison_evidence_id", diff[:10]); !hasValue(got.Values, diff) {
		t.Fatalf("completion lacks the comparison %s: %v", diff, got.Values)
	}
	listed := structured(t, c.call(t, "list_unknowns", map[string]any{"status": []string{"investigating"}}))
	if listed["total"] != float64(1) {
		t.Fatalf("list_unknowns: %v", listed)
	}

	spec := map[string]any{"schema_version": 1, "name": "settings IPC", "claims": []any{
		map[string]any{"claim_id": "ipc-identical", "kind": "structural-application", "evidence_id": same, "dimension": "ipc_channels"},
		map[string]any{"claim_id": "ipc-from-v1", "kind": "structural-application", "evidence_id": diff, "dimension": "ipc_channels", "unknown_ids": []string{unkID}},
	}}
	first := structured(t, c.call(t, "verify_reconstruction", map[string]any{"specification": spec}))
	verdict := claimStatuses(t, first)
	if verdict["verdict"] != "fail" || verdict["ipc-identical"] != "pass" || verdict["ipc-from-v1"] != "fail" {
		t.Fatalf("verification: %v\n%s", verdict, mustJSON(t, first["normalized_result"]))
	}

	// The obligation ledger of the original (v2): the new channel is a
	// candidate until a binding owns it.
	ol := structured(t, c.call(t, "build_reconstruction_obligation_ledger", map[string]any{
		"source_evidence": []any{retained(v2)},
		"manifest": map[string]any{"schema_version": 1, "bindings": []any{map[string]any{"obligation_id": "ipc:settings:save", "owner": "main-process",
			"cases": map[string]any{"positive": "fx/save-ok"}}}},
	}))
	obligationStatus := map[string]string{}
	var olv struct {
		NormalizedResult struct {
			Status      string `json:"status"`
			Obligations []struct {
				ObligationID string `json:"obligation_id"`
				Status       string `json:"status"`
			} `json:"obligations"`
		} `json:"normalized_result"`
	}
	_ = json.Unmarshal([]byte(mustJSON(t, ol)), &olv)
	for _, o := range olv.NormalizedResult.Obligations {
		obligationStatus[o.ObligationID] = o.Status
	}
	if obligationStatus["ipc:settings:save"] != "characterized" || obligationStatus["ipc:feature:export"] != "unowned" || olv.NormalizedResult.Status != "unknown" && olv.NormalizedResult.Status != "open" {
		t.Fatalf("obligation ledger %s: %v", olv.NormalizedResult.Status, obligationStatus)
	}

	bundle := filepath.Join(t.TempDir(), "evidence.json")
	exported := structured(t, c.call(t, "export_evidence_bundle", map[string]any{"output_path": bundle}))
	if exported["unknowns"] != float64(2) {
		t.Fatalf("export carries both revisions of the unknown: %v", exported)
	}
	closed := structured(t, c.call(t, "close_binary", map[string]any{}))
	if closed["closed"] == nil {
		t.Fatalf("close_binary: %v", closed)
	}
	if after := structured(t, c.call(t, "list_unknowns", map[string]any{})); after["total"] != float64(0) {
		t.Fatalf("close_binary left unknowns: %v", after)
	}

	fresh := startMCP(t)
	structured(t, fresh.call(t, "import_evidence_bundle", map[string]any{"input_path": bundle}))
	heads := structured(t, fresh.call(t, "list_unknowns", map[string]any{"unknown_id": unkID}))
	if heads["total"] != float64(1) || !strings.Contains(mustJSON(t, heads), `"revision":2`) {
		t.Fatalf("imported unknown: %v", heads)
	}
	second := structured(t, fresh.call(t, "verify_reconstruction", map[string]any{"specification": spec}))
	if again := claimStatuses(t, second); !reflect.DeepEqual(again, verdict) {
		t.Fatalf("verdict after import %v, before %v", again, verdict)
	}
	if second["evidence_id"] != first["evidence_id"] {
		t.Fatalf("the same inputs on a new connection gave other Evidence: %v vs %v", second["evidence_id"], first["evidence_id"])
	}
	// CAS continues across the bundle.
	structured(t, fresh.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 2, "changes": map[string]any{"severity": "critical"}}))
	// A depends-on cycle is refused.
	dep := structured(t, fresh.call(t, "record_unknown", map[string]any{"question": "Does sync retry on failure?", "domain": "ipc",
		"relationships": []any{map[string]any{"type": "depends-on", "unknown_id": unkID}}}))["unknown"].(map[string]any)["unknown_id"].(string)
	e = toolError(t, fresh.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 3, "changes": map[string]any{
		"relationships": []any{map[string]any{"type": "depends-on", "unknown_id": dep}}}}))
	if e["code"] != "invalid_request" || !strings.Contains(mustJSON(t, e), "depends-on-cycle") {
		t.Fatalf("depends-on cycle: %v", e)
	}
	// Observed shipped-artifact analysis of v2 qualifies: verified is accepted.
	structured(t, fresh.call(t, "update_unknown", map[string]any{"unknown_id": unkID, "expected_revision": 3, "changes": map[string]any{
		"supporting_evidence": []any{retained(diff), retained(v2)}, "status": "resolved",
		"resolution": map[string]any{"disposition": "verified", "rationale": "v2's analysis shows the handler posting to sync.example.com", "evidence": []any{retained(v2)}}}}))
	if check := structured(t, fresh.call(t, "verify_unknown_resolution", map[string]any{"unknown_id": unkID})); check["verdict"] != "verified" {
		t.Fatalf("qualified resolution: %v", check)
	}

	// The CLI reads the same bundle and exits 3 on a failing verdict.
	specPath := filepath.Join(t.TempDir(), "spec.json")
	b, _ := json.Marshal(spec)
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := reaWithModules(t, "verify-reconstruction", specPath, "--bundle", bundle, "--format", "json")
	if r.code != 3 {
		t.Fatalf("rea verify-reconstruction: exit %d, stderr %s", r.code, r.stderr)
	}
	var cli map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &cli); err != nil {
		t.Fatal(err)
	}
	if got := claimStatuses(t, cli); !reflect.DeepEqual(got, verdict) || cli["evidence_id"] != first["evidence_id"] {
		t.Fatalf("CLI verdict %v (%v), MCP %v (%v)", got, cli["evidence_id"], verdict, first["evidence_id"])
	}
	r = reaWithModules(t, "unknowns", "list", "--bundle", bundle, "--status", "investigating")
	if r.code != 0 || !strings.Contains(r.stdout, unkID) {
		t.Fatalf("rea unknowns list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// An edited unknown history is refused by the CLI's bundle reader.
	raw, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.LastIndex(string(raw), `"unknowns":[`)
	if at < 0 || !strings.Contains(string(raw[at:]), `"severity":"high"`) {
		t.Fatal("the bundle does not hold the unknown's severity")
	}
	tampered := string(raw[:at]) + strings.Replace(string(raw[at:]), `"severity":"high"`, `"severity":"low"`, 1)
	edited := filepath.Join(t.TempDir(), "edited.json")
	if err := os.WriteFile(edited, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	r = reaWithModules(t, "unknowns", "list", "--bundle", edited, "--format", "json")
	if r.code != 1 || !strings.Contains(r.stdout, "evidence_integrity_mismatch") || !strings.Contains(r.stdout, "digest-mismatch") {
		t.Fatalf("an edited unknown was accepted: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// claimStatuses reads the verdict and each claim's status from
// verify_reconstruction Evidence.
func claimStatuses(t *testing.T, rec map[string]any) map[string]string {
	t.Helper()
	var ev struct {
		NormalizedResult struct {
			Verdict string `json:"verdict"`
			Claims  []struct {
				ClaimID string `json:"claim_id"`
				Status  string `json:"status"`
			} `json:"claims"`
		} `json:"normalized_result"`
	}
	if err := json.Unmarshal([]byte(mustJSON(t, rec)), &ev); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"verdict": ev.NormalizedResult.Verdict}
	for _, c := range ev.NormalizedResult.Claims {
		out[c.ClaimID] = c.Status
	}
	return out
}

func hasValue(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
